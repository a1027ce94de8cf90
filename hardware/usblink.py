"""A link's bytes over the USB data channel (``usb_cdc.data``): a handheld linked to a PC by its
USB cable, the simulator (``python -m sim --join serial:/dev/ttyACM1``) or a page over Web
Serial at the other end.

The channel exists only when ``boot.py`` enabled it (``usb_cdc.enable(console=True,
data=True)``, written by ``python -m sim.deploy --usb-link``); the board then shows the PC two
serial ports, the REPL console first and this one second. ``hardware.parts`` uses it as the
link's cable when settings.toml names no link pins (a UART cable, when named, is the link).

>>> import usb_cdc
>>> cable = UsbLink(usb_cdc.data)
>>> cable.pump(link, now_ms)      # every frame, as UartLink.pump

Reads what has arrived without waiting, and writes at most ``MAX_WRITE`` bytes a pump without
waiting either. With no program on the PC's end holding the port open (DTR not asserted:
``connected`` is False) the link's bytes go nowhere, as with a pulled cable, and the game says
"link lost".
"""

MAX_WRITE = 256  # bytes written in one pump at the most, as UartLink


class UsbLink:
    """The USB data channel ``serial`` (``usb_cdc.data``, or a test's double)."""

    usb = True
    baudrate = None  # USB carries what it carries; no wire speed to pace

    def __init__(self, serial):
        self._serial = serial
        try:
            serial.timeout = 0        # read returns what has come
            serial.write_timeout = 0  # write returns what it could send
        except AttributeError:
            pass
        self._buffer = bytearray(64)
        self.bytes_in = 0
        self.bytes_out = 0

    def pump(self, link, now):
        """Feed what the PC sent to ``link``, then send what it has, if a PC is listening."""
        serial = self._serial
        buffer = self._buffer
        waiting = serial.in_waiting
        while waiting:
            count = serial.readinto(buffer)
            if not count:
                break
            self.bytes_in += count
            link.feed(memoryview(buffer)[0:count], now)
            waiting = serial.in_waiting
        if not link.waiting_output():
            return
        if not serial.connected:
            link.output()  # nobody at the other end: the bytes go nowhere
            return
        data = link.output(MAX_WRITE)
        self.bytes_out += serial.write(data) or 0

    def deinit(self):
        """The channel stays the board's (it lives as long as USB does)."""
