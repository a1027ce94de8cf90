"""An 8x8 (or any size) NeoPixel matrix that shows frames as the player sees them.

>>> import board, neopixel
>>> from hardware.matrix import Matrix
>>> strip = neopixel.NeoPixel(board.GP0, 64, auto_write=False, pixel_order=neopixel.GRB)
>>> matrix = Matrix(strip, layout="serpentine", rotation=90, brightness=30)
>>> matrix.show([(255, 0, 0)] * 64)  # everything red, within the 500 mA budget

``pixels`` is any NeoPixel-like strip: ``neopixel.NeoPixel`` on a board, any
``adafruit_pixelbuf.PixelBuf`` subclass (the simulator's strip, the tests' capturing strip), or a
plain list. The matrix sets ``pixels[0:n]`` to a list of packed ``0xRRGGBB`` ints, made once, and
calls ``pixels.show()``; the strip's own ``pixel_order`` turns them into bytes on the wire. The
strip's ``brightness`` is set to 1.0 once: brightness, gamma and the current budget are applied
here, in integer arithmetic, so that the budget sees the values that really go out.

A frame is a sequence of ``width * height`` colours, row by row from the top-left as the player
sees the matrix; each colour is an ``(r, g, b)`` tuple of 0-255 or a packed ``0xRRGGBB`` int.

Per frame, each channel value ``v`` goes through:

1. the gamma table: ``round(255 * (v / 255) ** (gamma / 10))``, at least 1 for any ``v > 0`` so a
   dim colour never vanishes;
2. brightness (percent): ``(g * brightness + 50) // 100``, again at least 1 when ``g > 0``;
3. the current budget. The model: a lit channel draws ``value / 255 * 20`` mA (WS2812B: about
   20 mA per channel at full), and every pixel idles at ``idle_ma`` (default 1 mA) even when dark.
   If ``sum(values) * 20 / 255 + idle_ma * n`` would exceed ``max_current_ma``, every value is
   scaled by ``limit / sum`` (rounding down), where ``limit = (max_current_ma - idle_ma * n) * 255
   // 20``, so the estimate stays under the budget. ``current_ma`` and ``limited`` tell what the
   last frame drew and whether it was scaled.

Only integers are used per frame, and the buffers are allocated once.
"""

MA_PER_CHANNEL = 20  # mA drawn by one colour channel at 255


class Matrix:
    """A NeoPixel matrix behind one call: ``show(frame)``.

    :param pixels: the strip (``neopixel.NeoPixel(..., auto_write=False)`` or any ``PixelBuf``).
    :param int width, height: the frame size as the player sees it (default 8 x 8).
    :param str layout: ``"rows"`` or ``"serpentine"``, how the panel is wired.
    :param int rotation: 0, 90, 180 or 270 degrees clockwise.
    :param bool mirror: flip left to right (panels seen through the back, or wired from the right).
    :param int gamma: gamma exponent in tenths (22 = 2.2; 10 = linear).
    :param int brightness: percent, 0-100 (default 30).
    :param int max_current_ma: the budget for the whole matrix (default 500, safe on USB).
    :param int idle_ma: what one dark pixel draws (default 1).
    """

    def __init__(self, pixels, width=8, height=8, layout="rows", rotation=0, mirror=False,
                 gamma=22, brightness=30, max_current_ma=500, idle_ma=1):
        # Start-up work: the wiring's code is dropped with the start (hardware.startup).
        from .wiring import gamma_table, strip_map

        count = width * height
        size = getattr(pixels, "n", None)
        if size is None:
            size = len(pixels)
        if size < count:
            raise ValueError("the strip has %d pixels, the matrix needs %d" % (size, count))
        self.pixels = pixels
        self.width = width
        self.height = height
        self.count = count
        self._map = strip_map(width, height, layout, rotation, mirror)
        self.layout = layout
        self.rotation = rotation
        self.mirror = bool(mirror)
        self._gamma = gamma_table(gamma)
        self.gamma = gamma
        self._table = bytearray(256)
        self._packed = [0] * count  # 0xRRGGBB per strip index, before the current budget
        self._sent = None           # the same within the budget, when a frame needs scaling
        self._last = [None] * count  # the colour object shown at each frame position
        self._total = 0             # the sum of all values in _packed
        self._brightness = 0
        self.brightness = brightness
        if not isinstance(max_current_ma, int) or max_current_ma < 1 or max_current_ma > 20000:
            raise ValueError("max_current_ma must be 1-20000, not %r" % (max_current_ma,))
        if not isinstance(idle_ma, int) or idle_ma < 0 or idle_ma * count >= max_current_ma:
            raise ValueError("idle_ma %r leaves nothing of the %d mA budget"
                             % (idle_ma, max_current_ma))
        self.max_current_ma = max_current_ma
        self.idle_ma = idle_ma
        # The largest sum of channel values the budget allows.
        self._limit = (max_current_ma - idle_ma * count) * 255 // MA_PER_CHANNEL
        self.current_ma = idle_ma * count
        self.limited = False
        try:
            pixels.brightness = 1.0
        except AttributeError:
            pass

    @classmethod
    def from_settings(cls, pixels, settings):
        """A matrix configured by a ``hardware.config.Settings`` (or any object with the same
        ``matrix_*`` attributes)."""
        return cls(pixels, width=settings.matrix_width, height=settings.matrix_height,
                   layout=settings.matrix_layout, rotation=settings.matrix_rotation,
                   mirror=settings.matrix_mirror, gamma=settings.matrix_gamma,
                   brightness=settings.brightness, max_current_ma=settings.max_current_ma)

    @property
    def brightness(self):
        """Brightness in percent, 0-100; set it any time (menus, night mode)."""
        return self._brightness

    @brightness.setter
    def brightness(self, percent):
        if not isinstance(percent, int) or isinstance(percent, bool) or not 0 <= percent <= 100:
            raise ValueError("brightness must be 0-100 percent, not %r" % (percent,))
        self._brightness = percent
        gamma = self._gamma
        table = self._table
        last = self._last
        for p in range(len(last)):
            last[p] = None  # every value changes with the table
        for value in range(256):
            out = (gamma[value] * percent + 50) // 100
            table[value] = 1 if out == 0 and percent and value else out

    def strip_index(self, x, y):
        """The strip index that lights the cell in column ``x``, row ``y`` (from the top-left)."""
        return self._map[y * self.width + x]

    def show(self, frame):
        """Show ``frame`` (``width * height`` colours, row by row from the top-left)."""
        table = self._table
        index = self._map
        packed = self._packed
        last = self._last
        count = self.count
        total = self._total
        for p in range(count):
            colour = frame[p]
            if colour is last[p]:
                continue  # the same tuple (or int) as last time: its value is already there
            if isinstance(colour, int):
                r = table[(colour >> 16) & 255]
                g = table[(colour >> 8) & 255]
                b = table[colour & 255]
                last[p] = colour
            else:
                r = table[colour[0]]
                g = table[colour[1]]
                b = table[colour[2]]
                # a tuple cannot change; a list could, so it is looked at again next time
                last[p] = colour if isinstance(colour, tuple) else None
            at = index[p]
            old = packed[at]
            total += r + g + b - (old >> 16) - (old >> 8 & 255) - (old & 255)
            packed[at] = r << 16 | g << 8 | b
        self._total = total
        limit = self._limit
        self.limited = total > limit
        sent = packed
        if self.limited:
            sent = self._sent
            if sent is None:
                sent = self._sent = [0] * count
            scaled = 0
            for i in range(count):
                value = packed[i]
                r = (value >> 16) * limit // total
                g = (value >> 8 & 255) * limit // total
                b = (value & 255) * limit // total
                sent[i] = r << 16 | g << 8 | b
                scaled += r + g + b
            total = scaled
        self.current_ma = self.idle_ma * count + (total * MA_PER_CHANNEL + 254) // 255
        pixels = self.pixels
        # One slice: the strip converts the values in C on a board (a Python loop of 64 item
        # stores took 5 ms of the RP2040's 7.6 ms per frame).
        pixels[0:count] = sent
        pixels.show()

    def fill(self, colour):
        """Show one colour everywhere (still gamma-corrected and within the budget)."""
        self.show(_Same(colour, self.count))

    def clear(self):
        """Turn every pixel off."""
        self.fill(0)


class _Same:
    """A frame of one colour, without building a list."""

    def __init__(self, colour, count):
        self.colour = colour
        self.count = count

    def __getitem__(self, index):
        return self.colour

    def __len__(self):
        return self.count
