"""hardware.config's one reading of settings.toml against CircuitPython's own os.getenv, on the
real firmware in the emulated Pico.

On a board ``config.load()`` takes the values from the same reading of the file that finds its
keys (``config.firmware_line``) instead of asking ``os.getenv``, which reads the whole file again
for every key. This holds that reading to the firmware: for the starter files of every preset and
for files of odd lines (quotes, escapes, comments, tabs, CRLF, tables, a NUL, a byte-order mark,
a key with no "=", repeated keys), each key's value, or the error, is the one ``os.getenv``
gives, and the whole ``load()`` (every setting, every message) is the one it gives when it asks
``os.getenv`` for every key. A ``boot.py`` makes the drive writable for ``code.py``, which writes
each file as ``/settings.toml`` in turn.

Skips without a UF2 or the emulator (tests/firmware_gate.py).
"""

import os
import random

import pytest

from firmware_gate import require_emulator
from sim.emulate import Emulator, deployed_files

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOOT_PY = b'import storage\nstorage.remount("/", readonly=False)\n'
KEYS = ("ROLIT_PRESET", "ROLIT_BRIGHTNESS", "ROLIT_INPUT", "ROLIT_PIN_UP", "ROLIT_SEED",
        "ROLIT_LAYOUT", "ROLIT_VOLUME", "ROLIT_LINK_TX", "ROLIT_LINK_RX", "ROLIT_SAVE_FILE")
VALUES = ('"pico"', '"pico_w"', '30', '-1', '""', '"a#b"', '"x" # c', '30 # c', 'joystick',
          '"q\\"q"', '"a\\tb"', '"unterminated', '', '#c', '0x10', '"\xe9"', 'a b', '"x" y',
          '1_000', '  40  ', '"GP12"', '"serpentine"', '"x"#c', '007', '"\\u0041"', 'x"y')
ODD_LINES = ("# comment", "", "   ", "[section]", "  [x]", "ROLIT_VOLUME", "\x00ROLIT_VOLUME = 1",
             " = 5", "ROLIT_A B = 1", "CIRCUITPY_WIFI_SSID = \"net\"")


def odd_files(count, seed=20):
    """``count`` settings files of random lines, each made of the pieces above."""
    rng = random.Random(seed)
    files = []
    for _ in range(count):
        lines = []
        for _ in range(rng.randint(4, 12)):
            if rng.random() < 0.2:
                line = rng.choice(ODD_LINES)
            else:
                line = "%s%s%s%s" % (rng.choice(("", " ", "\t")), rng.choice(KEYS),
                                     rng.choice(("=", " = ", "\t=\t", " =", "= ")),
                                     rng.choice(VALUES))
            lines.append(line)
        end = rng.choice(("\n", "\r\n"))
        data = (end.join(lines) + rng.choice((end, ""))).encode("utf-8")
        if rng.random() < 0.15:
            data = b"\xef\xbb\xbf" + data
        files.append(data)
    return files


def starter_files():
    folder = os.path.join(ROOT, "hardware", "settings")
    found = []
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as handle:
            found.append(handle.read())
    return found


CHIP = r'''
import os
from hardware import config

KEYS = %(keys)r
CASES = %(cases)r
STARTERS = %(starters)d


def said(call):
    try:
        return repr(call())
    except Exception as error:
        return "%%s: %%s" %% (type(error).__name__, error)


def loaded(settings):
    return sorted(settings.__dict__.items())


for n in range(len(CASES)):
    with open("/settings.toml", "wb") as handle:
        handle.write(CASES[n])
    firmware = {}
    config.read_toml("/settings.toml", [], None, firmware)
    if n < STARTERS:
        for key in firmware:
            if firmware[key] is config.ASK:
                print("@ASK %%d %%r" %% (n, key))
    if config.EVERY in firmware:
        print("@EVERY %%d" %% n)
    answer = config._reading_getenv(firmware)
    for key in KEYS:
        real = said(lambda: os.getenv(key))
        read = said(lambda: answer(key))
        if real != read:
            print("@DIFF %%d %%s %%s %%s" %% (n, key, real, read))
    new = said(lambda: loaded(config.load()))
    old = said(lambda: loaded(config.load(os.getenv)))
    if new != old:
        print("@LOAD %%d %%s | %%s" %% (n, new, old))
    print("@CASE %%d" %% n)
print("@END")
'''


def test_one_reading_of_settings_gives_what_os_getenv_gives():
    require_emulator()
    starters = starter_files()
    cases = starters + odd_files(24) + [
        b'A\n = 4\nROLIT_SEED = 5\n',  # a key alone on its line: os.getenv reads on
        b'ROLIT_SEED = 1\nROLIT_SEED = 2\n[t]\nROLIT_VOLUME = 3\n',
        b'ROLIT_SEED = 1\n\x00ROLIT_VOLUME = 2\nROLIT_INPUT = "joystick"\n',
        b'ROLIT_PRESET = "pico"\nROLIT_LAYOUT = "serp\xc3\xa9ntine"\n',
    ]
    keys = tuple(sorted(set(KEYS + ("A",))))
    drive = deployed_files()
    drive["boot.py"] = BOOT_PY
    drive["code.py"] = (CHIP % {"keys": keys, "cases": cases,
                                "starters": len(starters)}).encode()
    with Emulator(files=drive) as pico:
        pico.run_until_text("@END", 600000)
        console = pico.console
    assert "Traceback" not in console, console[-2000:]
    assert console.count("@CASE ") == len(cases), console[-2000:]
    wrong = [line for line in console.splitlines()
             if line.startswith(("@DIFF", "@LOAD", "@ASK"))]
    assert wrong == [], "\n".join(wrong)
    # Most odd files are read here (not left to os.getenv after an odd line): the test has teeth.
    assert console.count("@EVERY ") < len(cases) // 2
