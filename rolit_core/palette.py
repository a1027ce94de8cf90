"""Colours of the handheld game: the normal and the colour-blind palette, and a shade cache.

A palette is a tuple of ``(r, g, b)`` tuples indexed by the ``BLACK`` ... ``TICK`` ints below;
indices 1-4 are the board colours (``RED`` ... ``BLUE`` of :mod:`rolit_core.board`). Values are
perceptual (before any gamma correction, which is the LED driver's job).

The colour-blind palette keeps the four ball colours apart for red-green colour blindness
(deuteranopia, protanopia): they differ strongly in lightness (yellow brightest, then green,
red, blue) as well as in hue, and each one is checked in a test under a simulation of both.
The menu's red cross ("no") and green tick ("yes") are checked the same way in both palettes.
"""

BLACK = 0
RED = 1
YELLOW = 2
GREEN = 3
BLUE = 4
WHITE = 5
ORANGE = 6
CROSS = 7
TICK = 8

NORMAL = (
    (0, 0, 0),
    (255, 0, 0),
    (255, 220, 0),     # yellow: with less green it reads as orange, on LEDs and screens
    (0, 255, 0),
    (0, 60, 255),
    (200, 200, 200),
    (255, 90, 0),
    (220, 0, 30),      # the cross: darker than pure red, so a deuteranope sees it darker than the tick
    (0, 255, 0),
)

COLOUR_BLIND = (
    (0, 0, 0),
    (220, 60, 0),      # vermilion: mid lightness
    (255, 240, 90),    # light yellow: the lightest
    (0, 200, 200),     # cyan-green: light, blue-ish so it never reads as red
    (40, 0, 170),      # deep blue-violet: the darkest
    (200, 200, 200),
    (255, 90, 0),
    (220, 60, 0),      # the cross and the tick in the ball red and green of this palette
    (0, 200, 200),
)

PALETTES = (NORMAL, COLOUR_BLIND)
PALETTE_NAMES = ("normal", "colour-blind")

# The menu's brightness levels 1-5, as a factor out of 255 applied to every channel.
BRIGHTNESS = (0, 24, 48, 96, 160, 255)


def scale(value, factor):
    """``value * factor / 255`` rounded up, so a lit channel never goes dark (0 stays 0)."""
    if value <= 0 or factor <= 0:
        return 0
    return (value * factor + 254) // 255


# Shades kept at most: a frame asks for a dozen or so, but the "thinking" breath runs a colour
# through 21 levels, so an unbounded cache would hold ~100 tuples (4.5 KB of a board's heap).
CACHE_SIZE = 32


class Shades:
    """Cached ``(r, g, b)`` tuples: palette colour ``index`` at ``level`` (0-255), with the
    brightness factor already applied. Rendering asks for the same few tuples every frame, so
    frames are built without allocating."""

    def __init__(self, palette=NORMAL, factor=255):
        self._cache = {}
        self.palette = palette
        self.factor = factor

    def configure(self, palette, factor):
        if palette is not self.palette or factor != self.factor:
            self.palette = palette
            self.factor = factor
            self._cache = {}

    def get(self, index, level=255):
        key = index << 8 | level
        cache = self._cache
        colour = cache.get(key)
        if colour is None:
            base = self.palette[index]
            factor = self.factor
            colour = (scale(scale(base[0], level), factor), scale(scale(base[1], level), factor),
                      scale(scale(base[2], level), factor))
            if len(cache) >= CACHE_SIZE:
                # Start again, but with the same black: drawing code tells a dark pixel by
                # identity (``frame[i] is black``) within a frame.
                black = cache.get(255)
                cache = self._cache = {}
                if black is not None:
                    cache[255] = black
            cache[key] = colour
        return colour
