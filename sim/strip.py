"""A simulated NeoPixel strip and the LED panel it is soldered into.

The device writes frames through ``hardware.matrix.Matrix`` into a ``neopixel.NeoPixel``; the
simulator does the same into a :class:`SimStrip`, a real ``adafruit_pixelbuf.PixelBuf`` whose
``_transmit`` keeps the bytes that would go down the wire. A :class:`Panel` then plays the part of
the physical matrix: it decodes those bytes with its chips' own colour order and puts each LED at
its place on the board, following the panel's own wiring. So a driver setting that does not match
the panel (layout, rotation, pixel order) looks as wrong in the simulator as on a real board.

>>> strip = SimStrip(64, pixel_order="GRB")
>>> panel = Panel(strip, layout="serpentine")
>>> strip[8] = (255, 0, 0); strip.show()   # LED 8 starts row 2 of a zigzag panel: its right end
>>> panel.light(7, 1)
(255, 0, 0)

Screen colours: an LED's light is proportional to the byte it receives (PWM duty), while a
screen pixel value is gamma-encoded (sRGB). :meth:`Panel.display_colours` therefore encodes the
linear light with the sRGB curve. The driver's own gamma correction, brightness and current cap
are thus shown as they look on a real panel: with the default gamma 2.2 a frame colour comes out
close to itself on screen, with ``gamma=10`` (none) it looks washed out, as real LEDs do.
"""

from adafruit_pixelbuf import PixelBuf

from hardware.wiring import strip_map

ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR", "RGBW", "GRBW")


def _srgb_table():
    table = []
    for value in range(256):
        light = value / 255
        if light <= 0.0031308:
            encoded = 12.92 * light
        else:
            encoded = 1.055 * light ** (1 / 2.4) - 0.055
        table.append(int(encoded * 255 + 0.5))
    return tuple(table)


SRGB = _srgb_table()  # byte on the wire (linear light) -> screen value


def _check_order(order):
    if order not in ORDERS:
        raise ValueError("pixel order must be one of %s, not %r" % (", ".join(ORDERS), order))
    return order


class SimStrip(PixelBuf):
    """A NeoPixel strip that keeps what it would transmit.

    ``pixel_order`` is the order the *driver* was told to send (like ``neopixel.NeoPixel``'s);
    ``data`` holds the bytes of the last ``show()`` and ``shows`` counts them.
    """

    def __init__(self, n=64, *, pixel_order="GRB", brightness=1.0, auto_write=False):
        self.pixel_order = _check_order(pixel_order)
        self.data = bytes(len(pixel_order) * n)
        self.shows = 0
        super().__init__(n, byteorder=pixel_order, brightness=brightness, auto_write=auto_write)

    def _transmit(self, buffer):
        self.data = bytes(buffer)
        self.shows += 1


class Panel:
    """The physical LED matrix a :class:`SimStrip` feeds.

    ``layout``, ``rotation`` and ``mirror`` describe how the panel is wired and mounted, in the
    same terms as ``hardware.matrix.Matrix`` (a driver with the same settings shows a frame the
    right way up). ``chip_order`` is the colour order the LED chips read (WS2812B: ``"GRB"``).
    """

    def __init__(self, strip, width=8, height=8, layout="rows", rotation=0, mirror=False,
                 chip_order="GRB"):
        self.strip = strip
        self.width = width
        self.height = height
        self.layout = layout
        self.rotation = rotation
        self.mirror = bool(mirror)
        self.chip_order = _check_order(chip_order)
        # Which strip LED sits at each place on the board, row by row from the top-left.
        self.wiring = tuple(strip_map(width, height, layout, rotation, mirror))
        self._channel = tuple([chip_order.index(c) for c in "RGB"])
        self._white = chip_order.find("W")  # RGBW chips: the white LED adds to all three

    def light(self, x, y):
        """The (r, g, b) light of the LED at column ``x``, row ``y``: the bytes it received."""
        return self._decode(self.strip.data, self.wiring[y * self.width + x])

    def lights(self):
        """:meth:`light` for every place, row by row from the top-left."""
        data = self.strip.data
        return [self._decode(data, index) for index in self.wiring]

    def _decode(self, data, index):
        at = len(self.chip_order) * index
        if at + len(self.chip_order) > len(data):
            return (0, 0, 0)  # a strip shorter than the panel: the rest gets no data
        r, g, b = self._channel
        r, g, b = data[at + r], data[at + g], data[at + b]
        if self._white >= 0:
            w = data[at + self._white]
            r, g, b = min(255, r + w), min(255, g + w), min(255, b + w)
        return (r, g, b)

    def display_colours(self):
        """The screen (sRGB) colour of every LED, row by row from the top-left."""
        return [(SRGB[r], SRGB[g], SRGB[b]) for r, g, b in self.lights()]
