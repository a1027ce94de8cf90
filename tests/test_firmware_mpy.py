"""The compiled deploy (``sim.deploy --mpy-cross``) on the real CircuitPython firmware, in the
emulated Raspberry Pi Pico: every module but ``code.py`` a ``.mpy`` made by CircuitPython's own
mpy-cross, the game boots, shows the title, and a key press shows the menu's first page exactly
as the CPython App draws it through the same driver.

Skips without a UF2 or the emulator (tests/firmware_gate.py) or without CircuitPython's
mpy-cross (tests/deploy_drives.py).
"""

import pytest

from deploy_drives import mpy_cross
from firmware_gate import require_emulator
from sim import deploy
from sim.emulate import Emulator, with_settings
from sim.rp2040.mirror import Mirror

pytestmark = pytest.mark.slow

BOOT_MS = 30000  # emulated
PROBLEMS = ("Traceback", "MemoryError", "error in frame", "safe mode", "ImportError",
            "incompatible .mpy")


def compiled_drive(compiler):
    """The files a compiled deploy writes onto an empty drive, with a fixed seed."""
    drive = deploy.drive_files("pico", compiler)
    drive["settings.toml"] = with_settings(drive["settings.toml"], {"ROLIT_SEED": 7})
    return drive


def test_the_compiled_deploy_boots_to_the_title_and_the_menu():
    require_emulator()
    drive = compiled_drive(mpy_cross())
    assert [name for name in drive if name.endswith(".py")] == ["code.py"]
    assert "rolit_core/app.mpy" in drive and "lib/neopixel.mpy" in drive
    with Emulator(files=drive) as pico:
        pico.run_until_text("controls:", BOOT_MS)
        assert "ROLIT HANDHELD" in pico.console
        while not pico.frames and pico.ms < BOOT_MS:
            pico.run(100, until_frame=True)
        title = [frame for frame in pico.frames if frame.pin == 0]
        assert title and all(len(frame.data) == 192 for frame in title)
        pico.run(300)
        pico.press("select")
        pico.run(80)
        pico.release("select")
        pico.run(300)
        menu = Mirror(drive["settings.toml"], b"\xff" * 4096)
        menu.app.update(0, [])
        menu.app.update(100, [(4, True)])
        assert menu.app.mode == "menu" and menu.app.page == ("play", 0)
        menu.update(120, [])
        assert pico.frames[-1].data == menu.expected[-1]
        assert [word for word in PROBLEMS if word in pico.console] == []
