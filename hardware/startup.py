"""What only the start of ``code.py`` needs: whether this is a board, the settings read once, the
handheld built from them, the banner and the settings' problems (:func:`start`).

``hardware.main`` uses it in ``with rolit_core.lifetime.use_once("hardware.startup")``: at the
block's end this module and those of :data:`USED_ONCE` (about 11 KB of code and tables on a
board) are forgotten, and the collector frees them.
"""

import gc
import sys

# Modules only the start uses (the first light, reading settings.toml and checking the link's
# pins, building the parts, wiring the matrix).
USED_ONCE = ("hardware.firstlight", "hardware.presets", "hardware.config", "hardware.linkpins",
             "hardware.parts", "hardware.wiring")


SETTINGS_ERROR_MS = 2000  # how long a settings problem shows at start


def start(keys, version, wait):
    """``(settings, handheld)`` for ``hardware.main``: on a machine that is not a board, one line
    on stderr and ``SystemExit(1)``; else the settings, the handheld built from them with
    ``keys`` (:class:`hardware.handheld.Handheld`), the banner with ``version``, and each
    problem with the settings printed and shown on the matrix for ``SETTINGS_ERROR_MS``
    (``wait(ms)``)."""
    from .handheld import SETTINGS_ERROR, Handheld

    problem = not_a_board()
    if problem:  # a PC: one line, not a game without LEDs and buttons
        print(problem, file=sys.stderr)
        sys.exit(1)
    settings = load_settings()
    gc.collect()  # what reading the settings left, before the drivers compile
    handheld = Handheld(settings, keys)
    banner(settings, handheld, version)
    for message in handheld.errors:
        print("settings: " + message)
    if handheld.errors:
        handheld.show_error(SETTINGS_ERROR, len(handheld.errors))
        wait(SETTINGS_ERROR_MS)
    return settings, handheld


class Settings:
    """The settings as plain attributes, kept apart from hardware.config's code."""


def not_a_board():
    """None on a board; on a machine that is none, the one line that says what to do instead:
    where ``import board`` fails (plain Python on a PC, Blinka on a machine it does not know, a
    Pi without its GPIO libraries), or Blinka's ``board`` is the one for a PC, without GPIO."""
    try:
        import board
    except Exception as error:  # ImportError, or Blinka's own error for a machine it does not know
        lines = [line.strip() for line in str(error).split("\n") if line.strip()]
        here = "import board failed (%s%s)" % (type(error).__name__,
                                               ": " + lines[0] if lines else "")
    else:
        if getattr(board, "board_id", None) != "GENERIC_LINUX_PC":
            return None
        here = "Blinka sees a PC without GPIO pins"
    return ("code.py wants a board: a CircuitPython board, or a Raspberry Pi with Blinka "
            "(docs/hardware.md); on a PC, BLINKA_OS_AGNOSTIC=1 runs it on Blinka's mock pins "
            "and `make play` plays the simulator. Here: %s." % here)


def load_settings():
    """``hardware.config.load()`` copied into a ``Settings``, which keeps no reference to
    hardware.config's code (its class's methods would)."""
    from . import config

    loaded = config.load()
    settings = Settings()
    # The class's names and the instance's, not dir(): on a board dir() asks the object for
    # every name the firmware knows (a tenth of a second on a Pico).
    for names in (config.Settings.__dict__, loaded.__dict__):
        for name in names:
            if name[0] != "_":
                setattr(settings, name, getattr(loaded, name))
    return settings


def banner(settings, handheld, version):
    """Print who is playing on what: the version, the matrix, the controls, the saving, the
    link."""
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
    cable = getattr(handheld, "cable", None)
    if getattr(cable, "usb", False):
        print("link: the USB data channel (usb_cdc.data, the second serial port)")
    elif cable is not None:
        print("link: TX %s, RX %s, %d baud" % (settings.link_tx, settings.link_rx,
                                               cable.baudrate))
    else:
        print("link: none")
