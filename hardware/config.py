"""Settings from ``settings.toml``, checked, with presets for the supported boards.

>>> from hardware import config
>>> settings = config.load()          # reads ROLIT_* keys with os.getenv
>>> for message in settings.errors:   # bad or unknown values, each already replaced by a default
...     print(message)

Every key is optional. ``ROLIT_PRESET`` picks a board's default pins; any other key overrides one
value. Values are integers or strings, as ``os.getenv`` returns them on CircuitPython. A value that
is missing gets the default; a value that is wrong adds a clear message to ``settings.errors`` and
gets the default too, so the device always starts (``code.py`` prints the messages and flashes an
error pattern). The keys and their defaults are in ``KEYS`` below and in docs/hardware.md.

Where ``os.getenv`` is missing (plain MicroPython) or empty (a PC with Blinka that did not load the
file), ``settings.toml`` is read directly with the same rules.
"""

import os
import sys

from .presets import LINK_KEYS, LINK_PINS, PRESET_NAMES, PRESETS, RP2040_GPIO  # noqa: F401
PIN_KEYS = ("ROLIT_MATRIX_PIN", "ROLIT_PIN_UP", "ROLIT_PIN_DOWN", "ROLIT_PIN_LEFT",
             "ROLIT_PIN_RIGHT", "ROLIT_PIN_SELECT", "ROLIT_PIN_BACK", "ROLIT_JOY_X", "ROLIT_JOY_Y",
             "ROLIT_JOY_PRESS", "ROLIT_BUZZER_PIN")
PIN_ATTRS = ("matrix_pin", "pin_up", "pin_down", "pin_left", "pin_right", "pin_select",
              "pin_back", "joy_x", "joy_y", "joy_press", "buzzer_pin")

INPUTS = ("buttons", "joystick", "onebutton")
PIXEL_ORDERS = ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR", "GRBW", "RGBW")
STORAGES = ("nvm", "file", "none")
# The cable to the other handhelds (docs/hardware.md, "The link"): its two pins and its speed.
# Off until both pins are set (the UART and its buffer cost a game about 2 KB of heap); any
# problem leaves the game without a link.
LINK_BAUD_KEY = "ROLIT_LINK_BAUD"
LINK_BAUD = 115200
LINK_BAUD_LOW = 1200
LINK_BAUD_HIGH = 1000000

# (key, attribute, kind, default, low, high); kind "int", "bool" (0/1), or a tuple of allowed words.
KEYS = (
    ("ROLIT_INPUT", "input", INPUTS, "buttons", 0, 0),
    ("ROLIT_PIXEL_ORDER", "pixel_order", PIXEL_ORDERS, "GRB", 0, 0),
    ("ROLIT_LAYOUT", "matrix_layout", ("rows", "serpentine"), "rows", 0, 0),
    ("ROLIT_ROTATION", "matrix_rotation", (0, 90, 180, 270), 0, 0, 0),
    ("ROLIT_MIRROR", "matrix_mirror", "bool", False, 0, 1),
    ("ROLIT_GAMMA", "matrix_gamma", "int", 22, 10, 40),
    ("ROLIT_BRIGHTNESS", "brightness", "int", 30, 1, 100),
    ("ROLIT_MAX_MA", "max_current_ma", "int", 500, 100, 10000),
    ("ROLIT_BUTTONS_TO_GND", "buttons_to_ground", "bool", True, 0, 1),
    ("ROLIT_JOY_DEADZONE", "joy_dead_zone", "int", 30, 5, 90),
    ("ROLIT_JOY_INVERT_X", "joy_invert_x", "bool", False, 0, 1),
    ("ROLIT_JOY_INVERT_Y", "joy_invert_y", "bool", False, 0, 1),
    ("ROLIT_JOY_SWAP", "joy_swap", "bool", False, 0, 1),
    ("ROLIT_LONG_PRESS", "long_press_ms", "int", 600, 200, 3000),
    ("ROLIT_VOLUME", "volume", "int", 0, 0, 100),
    ("ROLIT_STORAGE", "storage", STORAGES, "nvm", 0, 0),
    ("ROLIT_SAVE_FILE", "save_file", "str", "/rolit.sav", 0, 0),
    ("ROLIT_NVM_OFFSET", "nvm_offset", "int", 0, 0, 65536),
    ("ROLIT_FRAME_MS", "frame_ms", "int", 20, 0, 200),
    ("ROLIT_SEED", "seed", "int", -1, -1, 1 << 29),
    ("ROLIT_MAX_FRAMES", "max_frames", "int", 0, 0, 1 << 29),
)

KEY_NAMES = tuple([key[0] for key in KEYS])


class Settings:
    """Every setting as an attribute (``settings.brightness``...) plus ``errors``, the messages
    for values that were replaced by defaults."""

    matrix_width = 8
    matrix_height = 8

    def __init__(self):
        self.errors = []
        self.preset = "pico"
        for key, attr, kind, default, low, high in KEYS:
            setattr(self, attr, default)
        for i in range(len(PIN_ATTRS)):
            setattr(self, PIN_ATTRS[i], PRESETS["pico"][i])
        self.link_tx = self.link_rx = self.link_baud = None  # no link


CHUNK = 512  # bytes of settings.toml read at a time


def read_toml(path="settings.toml", errors=None, keys=None, firmware=None):
    """The ``KEY = value`` lines of a settings file as a dict of strings and ints (the subset of
    TOML that CircuitPython's ``os.getenv`` reads). A missing file gives ``{}``. A byte-order mark
    is skipped; a line that is not UTF-8 text is left out with a message in ``errors`` (a list,
    if given), and ``keys`` (a list, if given) gets ``(line number, key)`` per key read.
    ``firmware`` (a dict, if given) gets, in the same reading, what CircuitPython's
    ``os.getenv`` returns for each key (see :func:`firmware_line`)."""
    values = {}
    reading = firmware is not None
    try:
        handle = open(path, "rb")
    except OSError:  # missing
        return values
    number = 0
    rest = b""  # the start of a line that goes on in the next chunk
    try:
        while True:
            # CHUNK bytes at a time: no heap block as big as the file, and not one read per
            # byte, which is what readline() does on a board's drive.
            chunk = handle.read(CHUNK)
            if chunk:
                lines = (rest + chunk).split(b"\n")
                rest = lines.pop()
            elif rest:
                lines = (rest,)
                rest = b""
            else:
                break
            for raw in lines:
                number += 1
                if reading:
                    # before the byte-order mark goes: os.getenv does not skip it
                    reading = firmware_line(raw, firmware)
                if number == 1 and raw[:3] == b"\xef\xbb\xbf":
                    raw = raw[3:]  # a byte-order mark from a Windows editor
                try:
                    line = raw.decode("utf-8")
                except UnicodeError:
                    if errors is not None:
                        errors.append("%s line %d is not UTF-8 text (save the file as UTF-8): "
                                      "line ignored" % (path, number))
                    continue
                key = _read_line(line.strip(), values)
                if key is not None and keys is not None:
                    keys.append((number, key))
    except OSError as error:
        if errors is not None:
            errors.append("%s cannot be read after line %d (%s)" % (path, number, error))
    finally:
        handle.close()
    return values


# In what read_toml gives for os.getenv: a key whose line only os.getenv itself reads as it does
# (an escape, a bare value that is empty or has quotes) and, under EVERY, a line it reads in a
# way of its own (a NUL byte, a key with no "=" on its line): os.getenv is asked for every key
# not found before that line.
ASK = ()
EVERY = ""


def firmware_line(raw, firmware):
    """Put what CircuitPython 10's ``os.getenv`` makes of the settings line ``raw`` (bytes) into
    ``firmware``: the first line of a key is the one it returns, a quoted value without escapes
    as its text, a bare one as its text up to any ``#``, stripped. The rules were found on the
    firmware itself (tests/test_firmware_settings.py holds them to it). Returns whether to go
    on: not after a line that starts a ``[table]`` (os.getenv reads no further), nor after one
    it cannot judge (``firmware[EVERY]`` is then :data:`ASK`: os.getenv finds the keys that
    come later its own way)."""
    line = raw.strip()
    if not line or line[0] == 35:  # "#": a comment
        return True
    if line[0] == 91:  # "[": the file's keys end here for os.getenv
        return False
    equals = line.find(b"=")
    if equals < 1 or b"\x00" in line:
        firmware[EVERY] = ASK
        return False
    try:
        key = line[:equals].rstrip().decode()
    except UnicodeError:  # read_toml reports the line; os.getenv is then asked for every key
        return True
    if key in firmware:
        return True
    value = line[equals + 1:].lstrip()
    firmware[key] = ASK
    if value[:1] == b'"':
        end = value.find(b'"', 1)
        if end < 0:
            return True
        rest = value[end + 1:].lstrip()
        if rest and rest[0] != 35:
            return True
        text = value[1:end]
    else:
        hash_at = value.find(b"#")
        text = (value if hash_at < 0 else value[:hash_at]).rstrip()
        if not text or b'"' in text:
            return True
    if b"\\" in text:
        return True
    try:
        firmware[key] = text.decode()
    except UnicodeError:
        pass
    return True


def _read_line(line, values):
    """Put the ``KEY = value`` of one stripped settings line into ``values``; returns the key,
    or None for a line without one."""
    if not line or line[0] == "#" or line[0] == "[":
        return None
    equals = line.find("=")
    if equals < 1:
        return None
    key = line[:equals].strip()
    value = line[equals + 1:].strip()
    if value[:1] == '"':
        end = value.find('"', 1)
        values[key] = value[1:end] if end > 0 else value[1:]
        return key
    hash_at = value.find("#")
    if hash_at >= 0:
        value = value[:hash_at].strip()
    values[key] = _to_int(value)
    return key


def _to_int(text):
    """An int from decimal or 0x hex text, else the text itself."""
    text = text.strip()
    body = text[1:] if text[:1] == "-" else text
    try:
        if body.isdigit():
            return int(text)
        if body[:2].lower() == "0x" and len(body) > 2:
            return int(text, 16)
    except ValueError:  # digits int() does not take, like "²"
        pass
    return text


def _source(getenv, table):
    """A function key -> raw value (str, int or None): ``getenv``, or the file's ``table`` where
    ``getenv`` is missing or knows no ROLIT_PRESET (then values from ``getenv`` still win)."""
    if getenv is None:
        getenv = getattr(os, "getenv", None)
    try:
        preset = None if getenv is None else getenv("ROLIT_PRESET")
    except Exception:
        preset = "unreadable"  # load() reports it
    if getenv is not None and preset is not None:
        return getenv
    if getenv is None:
        return table.get

    def lookup(key):
        value = getenv(key)
        return table.get(key) if value is None else value

    return lookup


def _reading_getenv(firmware):
    """``os.getenv`` answered from :func:`read_toml`'s ``firmware`` reading, and asked itself
    only for the keys that reading left to it."""
    later = firmware.get(EVERY)  # ASK: the keys not found before an odd line, or None

    def getenv(key):
        value = firmware.get(key, later)
        if value is ASK:
            return os.getenv(key)
        return value

    return getenv


def load(getenv=None, path="settings.toml"):
    """Read every ``ROLIT_*`` setting; never raises for a bad value (see ``Settings.errors``).

    ``getenv`` defaults to ``os.getenv``; tests pass a dict's ``get``. The file at ``path`` is
    also read directly: for the values where ``getenv`` has none, and to report lines that are
    not text and ``ROLIT_`` keys that are not settings (a misspelt key would otherwise be
    ignored without a word).
    """
    settings = Settings()
    errors = settings.errors
    keys = []
    on_board = getenv is None and sys.implementation.name == "circuitpython"
    firmware = {} if on_board else None
    table = read_toml(path, errors, keys, firmware)
    # CircuitPython's os.getenv reads the same file again for every key asked (about 8 ms each
    # on a Pico: a quarter of a second for all of them), and finds only the keys the file has.
    # So it is asked only for those, unless a line could not be read here; and not at all for
    # the values the one reading above took as os.getenv takes them.
    only = None
    if on_board and not errors:
        only = [key for number, key in keys]
        getenv = _reading_getenv(firmware)
    source = _source(getenv, table)

    def get(key):
        if only is not None and key not in only:
            return None
        # CircuitPython's os.getenv raises on a line it cannot parse (text without quotes...).
        try:
            return source(key)
        except Exception as error:
            errors.append("%s cannot be read (%s): put text in quotes; using the default"
                          % (key, error))
            return None

    preset = get("ROLIT_PRESET")
    if preset is not None:
        preset = str(preset).strip().lower()
        if preset in PRESETS:
            settings.preset = preset
        else:
            errors.append("ROLIT_PRESET = %r is not one of %s; using pico"
                          % (preset, ", ".join(PRESET_NAMES)))
    pins = PRESETS[settings.preset]
    for i in range(len(PIN_KEYS)):
        value = get(PIN_KEYS[i])
        if value is None:
            value = pins[i]
        elif not isinstance(value, str) or (value and not _is_name(value)):
            errors.append("%s = %r is not a pin name like \"GP0\" or \"D5\"; using %r"
                          % (PIN_KEYS[i], value, pins[i]))
            value = pins[i]
        setattr(settings, PIN_ATTRS[i], value.strip())
    for key, attr, kind, default, low, high in KEYS:
        value = get(key)
        if value is None:
            continue
        checked = _check(value, kind, low, high)
        if checked is None:
            errors.append("%s = %r %s; using %r" % (key, value, _expect(kind, low, high), default))
        else:
            setattr(settings, attr, checked)
    _check_pin_clashes(settings, errors)
    _load_link(settings, get, errors)
    for number, key in keys:
        if key[:6] == "ROLIT_" and not _known(key):
            errors.append("%s line %d: %s is not a setting (misspelt?): ignored"
                          % (path, number, key))
    return settings


def _known(key):
    return (key == "ROLIT_PRESET" or key in PIN_KEYS or key in LINK_KEYS or key == LINK_BAUD_KEY
            or key in KEY_NAMES)


# The pins each input uses, as indexes into PIN_KEYS (the matrix, 0, always; the buzzer, 10,
# when it sounds).
_INPUT_PINS = {"buttons": (1, 2, 3, 4, 5, 6), "joystick": (5, 6, 7, 8, 9), "onebutton": (5,)}


def _used_pins(settings):
    """The indexes into ``PIN_KEYS`` of the pins the settings use."""
    used = [0]
    used.extend(_INPUT_PINS[settings.input])
    if settings.volume:
        used.append(10)
    return used


def _check_pin_clashes(settings, errors):
    """A pin can do one job: a pin named twice is refused by name, and the later job (in
    ``PIN_KEYS`` order: matrix, buttons, joystick, buzzer) is left out. On a board the clash
    would stop the matrix or the buttons from starting with a confusing error."""
    used = _used_pins(settings)
    owners = []  # (pin name, index) of the pins taken so far
    for i in used:
        name = getattr(settings, PIN_ATTRS[i])
        if not name:
            continue
        clash = None
        for taken, owner in owners:
            if taken == name:
                clash = owner
        if clash is None:
            owners.append((name, i))
            continue
        errors.append("%s = %r is also %s: a pin does one job; %s left out"
                      % (PIN_KEYS[i], name, PIN_KEYS[clash], _PIN_JOBS[i]))
        setattr(settings, PIN_ATTRS[i], "")


def _load_link(settings, get, errors):
    """``link_tx``, ``link_rx`` and ``link_baud`` from the settings, or all three None (no
    link) with the reason in ``errors``; no pins (missing or empty) is no link without a
    word."""
    names = []
    problem = None
    for i in range(2):
        key = LINK_KEYS[i]
        value = get(key)
        if value is None:
            value = ""
        elif not isinstance(value, str) or (value.strip() and not _is_name(value)):
            problem = "%s = %r is not a pin name like %r" % (key, value, LINK_PINS["pico"][i])
            value = ""
        names.append(value.strip())
    tx, rx = names
    baud = get(LINK_BAUD_KEY)
    if baud is None:
        baud = LINK_BAUD
    else:
        checked = _check(baud, "int", LINK_BAUD_LOW, LINK_BAUD_HIGH)
        if checked is None and problem is None:
            problem = "%s = %r %s" % (LINK_BAUD_KEY, baud,
                                      _expect("int", LINK_BAUD_LOW, LINK_BAUD_HIGH))
        baud = checked
    if problem is None and (tx or rx):
        # Loaded only for a link: the rest of the handhelds never load its checks.
        from .linkpins import pin_problem

        taken = [(getattr(settings, PIN_ATTRS[i]), PIN_KEYS[i]) for i in _used_pins(settings)]
        problem = pin_problem(settings.preset, tx, rx, taken)
    settings.link_tx = settings.link_rx = settings.link_baud = None
    if problem is not None:
        errors.append(problem + "; no link")
    elif tx:
        settings.link_tx, settings.link_rx, settings.link_baud = tx, rx, baud


_PIN_JOBS = ("the matrix", "the up button", "the down button", "the left button",
             "the right button", "the select button", "the back button", "the joystick",
             "the joystick", "the joystick press", "the buzzer")


def _is_name(text):
    text = text.strip()
    if not text:
        return False
    for char in text:
        if not (char.isdigit() or char.isalpha() or char == "_"):
            return False
    return True


def _check(value, kind, low, high):
    """The checked value, or None if it is not acceptable."""
    if isinstance(value, str):
        value = value.strip()
        if kind == "str":
            return value if value else None
        if kind == "bool" or kind == "int" or isinstance(kind, tuple) and isinstance(kind[0], int):
            lowered = value.lower()
            if kind == "bool" and lowered in ("true", "yes", "on"):
                return True
            if kind == "bool" and lowered in ("false", "no", "off"):
                return False
            value = _to_int(value)
    if kind == "str":
        return None
    if isinstance(kind, tuple):
        if isinstance(kind[0], int) and (not isinstance(value, int) or isinstance(value, bool)):
            return None
        if isinstance(value, str):
            # Words match whatever the case: "Serpentine", "grb".
            value = value.upper() if kind[0].isupper() else value.lower()
        return value if value in kind else None
    if not isinstance(value, int) or isinstance(value, bool):
        return value if isinstance(value, bool) and kind == "bool" else None
    if not low <= value <= high:
        return None
    return bool(value) if kind == "bool" else value


def _expect(kind, low, high):
    if kind == "bool":
        return "should be 0 or 1"
    if kind == "int":
        return "should be a whole number from %d to %d" % (low, high)
    if kind == "str":
        return "should be text in quotes"
    return "should be one of %s" % ", ".join([str(k) for k in kind])


def pin(board_module, name, what, errors):
    """``board.<name>``, or None with a message in ``errors`` if the board has no such pin."""
    if not name:
        return None
    found = getattr(board_module, name, None)
    if found is None:
        errors.append("%s: this board has no pin %r (check settings.toml)" % (what, name))
    return found
