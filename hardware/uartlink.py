"""A link's bytes over a UART (``busio.UART``): the cable between handhelds.

>>> import board
>>> from rolit_core.link import Link
>>> from hardware.uartlink import UartLink
>>> cable = UartLink(board.GP12, board.GP13, baudrate=115200)
>>> link = Link()
>>> cable.pump(link, now_ms)      # every frame: bytes in to the link, its bytes out

Reads whatever has arrived without waiting (``timeout=0``) and writes at most what the baud rate
carries in the time since the last pump (and never more than ``MAX_WRITE`` at once), so a frame
of the game loop never stalls on the wire.
"""

from rolit_core.vocab import ticks_diff

DEFAULT_BAUD = 115200
MAX_WRITE = 256        # bytes written in one pump at the most
RECEIVE_BUFFER = 1024  # the UART's own buffer: two frames of the loop at 115200 baud


class UartLink:
    """The cable on pins ``tx`` and ``rx`` at ``baudrate``. ``busio`` is the module to use
    (CircuitPython's, or a test's)."""

    def __init__(self, tx, rx, baudrate=DEFAULT_BAUD, busio=None):
        if busio is None:
            import busio
        if type(baudrate) is not int or not 1200 <= baudrate <= 1000000:
            raise ValueError("baudrate must be 1200-1000000, not %r" % (baudrate,))
        self._uart = busio.UART(tx, rx, baudrate=baudrate, timeout=0,
                                receiver_buffer_size=RECEIVE_BUFFER)
        self.baudrate = baudrate
        self._buffer = bytearray(64)
        self._last = None
        self.bytes_in = 0
        self.bytes_out = 0

    def pump(self, link, now):
        """Feed the bytes that arrived to ``link``, then write what it has to send and the wire
        can carry by ``now`` (ms)."""
        uart = self._uart
        buffer = self._buffer
        waiting = uart.in_waiting
        while waiting:
            count = uart.readinto(buffer)
            if not count:
                break
            self.bytes_in += count
            link.feed(memoryview(buffer)[0:count], now)
            waiting = uart.in_waiting
        if self._last is None:
            elapsed = 20
        else:
            elapsed = ticks_diff(now, self._last)
        self._last = now
        room = self.baudrate * elapsed // 10000  # ten bits a byte on the wire
        if room > MAX_WRITE:
            room = MAX_WRITE
        if room > 0 and link.waiting_output():
            data = link.output(room)
            self.bytes_out += uart.write(data) or 0

    def deinit(self):
        """Let the pins go."""
        self._uart.deinit()
