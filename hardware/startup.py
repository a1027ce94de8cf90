"""What only the start of ``code.py`` needs: the settings read once, and the banner.

``code.py`` uses it in ``with rolit_core.lifetime.use_once("hardware.startup")``, building the
handheld in the same block: at the block's end this module and those of :data:`USED_ONCE`
(about 11 KB of code and tables on a board) are forgotten, and the collector frees them.
"""

import sys

# Modules only the start uses (the first light, reading settings.toml, building the parts,
# wiring the matrix).
USED_ONCE = ("hardware.firstlight", "hardware.presets", "hardware.config", "hardware.parts",
             "hardware.wiring")


class Settings:
    """The settings as plain attributes, kept apart from hardware.config's code."""


def load_settings():
    """``hardware.config.load()`` copied into a ``Settings``, which keeps no reference to
    hardware.config's code (its class's methods would)."""
    from . import config

    loaded = config.load()
    settings = Settings()
    for name in dir(loaded):
        if name[0] != "_":
            setattr(settings, name, getattr(loaded, name))
    return settings


def banner(settings, handheld, version):
    """Print who is playing on what: the version, the matrix, the controls, the saving."""
    print()
    print("=" * 40)
    print("  ROLIT HANDHELD %s" % version)
    print("  %s on %s" % (sys.implementation.name, getattr(sys, "platform", "?")))
    print("=" * 40)
    matrix = handheld.matrix
    if matrix is not None:
        print("matrix: %s pin %s, %s, %s, rotation %d%s, brightness %d%%, budget %d mA" % (
            settings.preset, settings.matrix_pin, settings.pixel_order, matrix.layout,
            matrix.rotation, ", mirrored" if matrix.mirror else "", matrix.brightness,
            matrix.max_current_ma))
    print("controls: %s; sound: %s; saving: %s" % (
        settings.input if handheld.inputs else "none",
        "volume %d" % settings.volume if handheld.buzzer else "off",
        type(handheld.storage).__name__))
