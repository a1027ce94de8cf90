"""The first light: ``code.py`` lights the matrix's four centre pixels dimly the moment it
starts, before it loads the game, so the handheld shows at once that it is on.

Only built-in modules and the board presets are used; any problem (no board, a wrong pin, a
setting the firmware cannot read) leaves the matrix dark, and the game's own start reports it.
"""

from .presets import PRESETS

LEVEL = 8  # each channel, out of 255
# The centre 2x2 of an 8x8 matrix: the same strip indices in every layout, rotation and mirror.
CENTRE = (27, 28, 35, 36)


def light():
    """Light the centre dimly on the matrix the settings name (``ROLIT_MATRIX_PIN``, else the
    ``ROLIT_PRESET``'s pin; ``ROLIT_PIXEL_ORDER`` for RGBW strips). True if it was sent."""
    try:
        import os

        import board
        import digitalio
        import neopixel_write

        getenv = os.getenv
        name = getenv("ROLIT_MATRIX_PIN")
        if not name:
            name = PRESETS.get(getenv("ROLIT_PRESET") or "pico", PRESETS["pico"])[0]
        order = getenv("ROLIT_PIXEL_ORDER") or "GRB"
        bpp = 4 if len(order) == 4 else 3
        pixels = bytearray(64 * bpp)
        for index in CENTRE:
            for channel in range(3):
                pixels[index * bpp + channel] = LEVEL
        pin = digitalio.DigitalInOut(getattr(board, name))
        try:
            pin.direction = digitalio.Direction.OUTPUT
            neopixel_write.neopixel_write(pin, pixels)
        finally:
            pin.deinit()
        return True
    except Exception:
        return False
