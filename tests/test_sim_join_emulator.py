"""``python -m sim --join emulator`` as sim/cli.py builds it, without booting a chip: the
argument, the one-line error where the emulator cannot run, and the two boards behind one
window (sim.net.emulated.SimBesideChip) on a double of the chip, which keeps the emulated
clock and the UART the way sim.emulate.Emulator does. The real firmware plays a game with the
simulator in tests/test_firmware_simlink.py."""

import os
import subprocess
import sys

import pytest

from rolit_core.app import DOWN, SELECT
from sim import cli
from sim.net.emulated import ChipCable, SimBesideChip

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class ChipDouble:
    """An Emulator's clock, UART0 and buttons: it echoes what reaches its RX pin on its TX pin
    (a loopback jumper on the link's pins)."""

    def __init__(self):
        self.ns = 0
        self.uart_out = [bytearray(), bytearray()]
        self.received = bytearray()
        self.pins = {}
        self.console = ""
        self.frames = []
        self.runs = []
        self.closed = False

    @property
    def ms(self):
        return self.ns / 1e6

    def run(self, ms):
        self.runs.append(ms)
        self.ns += int(ms * 1e6)
        self.uart_out[0] += self.received
        self.received = bytearray()

    def uart_send(self, index, data, baud=None):
        assert index == 0 and baud == 115200
        self.received += data

    def press(self, key):
        self.pins[key] = True

    def release(self, key):
        self.pins[key] = False

    def close(self):
        self.closed = True


class ChipDeviceDouble:
    """EmulatedDevice's side for SimBesideChip: the slice and the keys it was given."""

    def __init__(self, pico, slice_ms=25):
        self.pico = pico
        self.slice_ms = slice_ms
        self.colours = [(1, 2, 3)] * 64
        self.queued = []
        self.released = 0

    def before_run(self, now_ms, events=()):
        self.queued.extend(events)
        return self.slice_ms

    def after_run(self, now_ms):
        return False

    def queue(self, events):
        self.queued.extend(events)

    def release_all(self):
        self.released += 1

    def info(self):
        return {"status": ("running code.py", "1.0 s emulated in 9 s here", "a console line")}


def test_join_emulator_is_its_own_argument():
    assert cli.parse_join("emulator") == ("emulator",)
    assert cli.parse_join("emulator:8765") == ("tcp", "emulator", 8765)  # a host by that name


def test_without_the_emulator_it_is_one_line_and_status_2(tmp_path):
    env = dict(os.environ, ROLIT_FIRMWARE=str(tmp_path / "none.uf2"), SDL_VIDEODRIVER="dummy")
    done = subprocess.run([sys.executable, "-m", "sim", "--join", "emulator", "--window",
                           "--storage", "none"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "python -m sim: cannot start the emulated Pico: no CircuitPython UF2"), lines


@pytest.fixture
def beside():
    args = cli.parser().parse_args(["--join", "emulator", "--storage", "none", "--seed", "5"])
    app, device = cli.build(args)
    chip = ChipDouble()
    device.cable = ChipCable(chip, owns=True)
    chip_device = ChipDeviceDouble(chip)
    def describe(app_):
        return {"status": ("Menu",) + cli.cable_lines(device.cable)}

    return SimBesideChip(device, chip_device, describe), app, chip


def test_the_simulator_runs_on_the_chips_clock_a_frame_each_slice(beside):
    both, app, chip = beside
    both.update(0)
    assert chip.runs == [5] * 5            # the device's 25 ms slice in the link's 5 ms steps
    assert both.sim.updates == 5 and both.pair.now == 25
    link = app.link
    link.node = 0                          # as a host's
    link.broadcast(9, b"round")            # through the chip's UART and back: a loopback
    got = []
    for step in range(1, 20):
        both.update(step * 30)
        got += link.receive()
    assert [bytes(m.payload) for m in got] == [b"round"]
    assert both.sim.cable.bytes_out > 0 and both.sim.cable.bytes_in == both.sim.cable.bytes_out


def test_keys_go_to_the_board_chosen_and_nothing_stays_held(beside):
    both, app, chip = beside
    both.update(0, [(SELECT, True)])
    both.update(30, [(SELECT, False)])
    assert app.mode == "menu" and both.chip_device.queued == []
    both.update(60, [(DOWN, True)])         # held on the simulator when Tab is pressed
    assert both.choose("next") == 1
    both.update(90, [(SELECT, True)])
    assert both.chip_device.queued == [(SELECT, True)]
    assert app.page == ("players", 0)       # the simulator's DOWN went up again, not repeated
    assert both.colours == [(1, 2, 3)] * 64
    assert both.choose(("board", 1), [(SELECT, False)]) == 0
    assert both.chip_device.queued[-1] == (SELECT, False) and both.chip_device.released == 1
    panels = both.panels()
    assert [label for _, label, _, _ in panels] == ["Simulator", "Pico (emulated)"]
    assert panels[0][3] and not panels[1][3]
    assert "Cable: the emulated Pico's UART0" in panels[0][2]
    assert panels[1][2][2].startswith("link: ")
    assert "GP12 TX, GP13 RX" in both.wiring()
    both.sim.cable.close()
    assert chip.closed
