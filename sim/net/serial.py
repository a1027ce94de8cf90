"""A link's bytes over a serial port (pyserial, pinned in requirements.txt): a handheld's USB
data channel, or a USB-serial adapter wired to a handheld's link pins. A serial line is a
cable: the simulator is one more handheld on it, and its menu hosts (a seat ``link``) or joins
(the last page), as a handheld's does.

>>> cable = SerialLink("/dev/ttyACM1")   # NetError in one line if it cannot be opened
>>> cable.pump(link, now_ms)             # every frame, as UartLink.pump

An unplugged port is as a pulled cable: the link's bytes go nowhere, the game says "link lost",
and the pump opens the port again every ``RETRY_MS`` (a handheld that reset comes back).
"""

from .wire import NetError

BAUD = 115200            # hardware.uartlink's default; a USB data channel ignores it
RETRY_MS = 1000
READ_LIMIT = 16384       # bytes read in one pump at the most
OUT_LIMIT = 16384        # bytes waiting for the port; more are dropped as on a full UART


class SerialLink:
    """The serial port at ``path``. ``serial_module``: pyserial's ``serial`` (a test's double
    otherwise)."""

    def __init__(self, path, baudrate=BAUD, serial_module=None, retry_ms=RETRY_MS):
        if serial_module is None:
            import serial as serial_module
        self._serial = serial_module
        self.path = path
        self.baudrate = baudrate
        self.retry_ms = retry_ms
        self.state = "linked"     # "linked", "connecting" (opening again), "closed"
        self.reason = ""
        self.bytes_in = 0
        self.bytes_out = 0
        self.openings = 0
        self._out = bytearray()
        self._retry_at = None
        self._port = None
        try:
            self._open()
        except (OSError, ValueError, serial_module.SerialException) as error:
            raise NetError("cannot open %s: %s" % (path, _words(error))) from None

    def _open(self):
        self._port = self._serial.Serial(self.path, baudrate=self.baudrate, timeout=0,
                                         write_timeout=0)
        self.openings += 1
        self.state = "linked"
        self.reason = ""

    def pump(self, link, now):
        """Feed what came to ``link``, write what it has to send. Never blocks."""
        if self._port is None:
            link.output()  # no cable: what the link says goes nowhere
            if self.state == "connecting" and now >= self._retry_at:
                self._retry_at = now + self.retry_ms
                try:
                    self._open()
                except (OSError, ValueError, self._serial.SerialException) as error:
                    self.reason = "link lost: cannot open %s: %s" % (self.path, _words(error))
            return
        try:
            waiting = self._port.in_waiting
            if waiting:
                data = self._port.read(min(waiting, READ_LIMIT))
                if data:
                    self.bytes_in += len(data)
                    link.feed(data, now)
            data = link.output()
            if data and len(self._out) + len(data) <= OUT_LIMIT:
                self._out += data
            if self._out:
                sent = self._port.write(bytes(self._out)) or 0
                self.bytes_out += sent
                del self._out[:sent]
        except (OSError, self._serial.SerialException) as error:
            self._lost(now, _words(error))

    def _lost(self, now, words):
        self._shut()
        self.state = "connecting"
        self.reason = "link lost: %s: %s" % (self.path, words)
        self._retry_at = now + self.retry_ms
        self._out = bytearray()

    def _shut(self):
        if self._port is not None:
            try:
                self._port.close()
            except (OSError, self._serial.SerialException):
                pass
            self._port = None

    def close(self):
        """Let the port go."""
        self._shut()
        self.state = "closed"


_ERRNO = {2: "no such port (is the board plugged in?)", 19: "no such port (is the board plugged in?)",
          13: "permission denied (on Linux: join the dialout group, then log in again)",
          16: "the port is busy (another program has it open)",
          5: "the device stopped answering (unplugged?)", 6: "the device went away (unplugged?)"}


def _words(error):
    """A serial error in a few words (pyserial's own repeat the path and the errno)."""
    number = getattr(error, "errno", None)
    if number in _ERRNO:
        return _ERRNO[number]
    text = str(error)
    if text.startswith("[") and "] " in text:
        text = text.split("] ", 1)[1]
    return text.lower() or error.__class__.__name__
