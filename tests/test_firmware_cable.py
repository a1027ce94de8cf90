"""The link's cable on the real CircuitPython firmware, in an emulated Pico (sim.emulate): with
its pins in settings.toml, the deployed game opens busio.UART on GP12/GP13 at start and says so,
and bytes on the RX pin do not disturb it. Skips without a UF2, like tests/test_firmware.py."""

import pytest

from firmware_gate import require_emulator
from sim.emulate import Emulator, deployed_files

pytestmark = pytest.mark.slow

BOOT_MS = 30000  # emulated
PROBLEMS = ("Traceback", "MemoryError", "error in frame", "safe mode", "settings:")


def test_the_game_opens_the_cable_at_start_and_bytes_on_rx_do_no_harm():
    require_emulator()
    settings = {"ROLIT_SEED": 3, "ROLIT_LINK_TX": "GP12", "ROLIT_LINK_RX": "GP13"}
    with Emulator(files=deployed_files(settings=settings)) as pico:
        pico.run_until_text("link: ", BOOT_MS)
        pico.run(100)
        assert "link: TX GP12, RX GP13, 115200 baud" in pico.console
        frames = len(pico.frames)
        pico.uart_send(0, bytes(range(256)) * 2, baud=115200)
        pico.run(600)
        pico.press("select")
        pico.run(80)
        pico.release("select")
        pico.run(300)
        assert len(pico.frames) > frames  # the title went on, and the menu came
        assert [word for word in PROBLEMS if word in pico.console] == [], pico.console[-600:]
