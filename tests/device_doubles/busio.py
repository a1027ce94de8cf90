"""Double of ``busio``: ``UART`` over an in-memory line. Every UART made is in ``ALL``;
``FAIL`` (text), while set, makes ``UART()`` raise ``ValueError`` with it, as the
firmware does for pins that are not a UART's ("Invalid pins"). ``LOOPBACK``: what a UART writes
comes back to its own RX, as through a TX->RX jumper."""

ALL = []
FAIL = None
LOOPBACK = False


class UART:
    def __init__(self, tx, rx, baudrate=9600, timeout=1, receiver_buffer_size=64):
        if FAIL:
            raise ValueError(FAIL)
        self.tx = tx
        self.rx = rx
        self.baudrate = baudrate
        self.timeout = timeout
        self.receiver_buffer_size = receiver_buffer_size
        self.incoming = bytearray()
        self.written = bytearray()
        self.closed = False
        ALL.append(self)

    @property
    def in_waiting(self):
        return len(self.incoming)

    def readinto(self, buffer):
        count = min(len(buffer), len(self.incoming))
        if not count:
            return None  # CircuitPython: nothing read
        buffer[0:count] = self.incoming[0:count]
        self.incoming = self.incoming[count:]
        return count

    def write(self, data):
        if self.closed:
            raise ValueError("Object has been deinitialized and can no longer be used.")
        self.written.extend(data)
        if LOOPBACK:
            self.incoming.extend(data)
        return len(data)

    def deinit(self):
        self.closed = True
