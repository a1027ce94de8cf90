"""The link on the real CircuitPython firmware: two emulated Picos, their UART0s crossed (TX to RX)
as the cable does, play a match with rolit_core.lockstep over hardware.uartlink; three in a
ring (each TX to the next RX) pass a message round (sim/rp2040/linked.py), and with
``ROLIT_LONG_FIRMWARE=1`` play a 3-player round; ``python -m sim.emulate --link 2`` quits on
Ctrl-C with status 130, each chip's flash saved. Skips without a UF2 (``firmware_gate``)."""

import os
import re
import signal
import subprocess
import sys
import time

import pytest

from firmware_gate import require_emulator
from rolit_core import Match
from sim.emulate import Emulator, run_together
from sim.rp2040 import images
from sim.rp2040.linked import BAUD, Noise, Ring, lines, linked_drive, play_linked, ring_drive
from sim_pty import default_sigint

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROBLEMS = ("Traceback", "MemoryError", "safe mode")


@pytest.fixture(scope="module")
def firmware():
    require_emulator()


def test_two_linked_chips_play_a_match_to_the_same_end_through_noise_and_a_pulled_cable(
        firmware):
    with Emulator(files=linked_drive("host", 3)) as host, \
            Emulator(files=linked_drive("guest", 5)) as guest:
        noise = Noise(11, host)
        phases = play_linked([host, guest], 300000, noise)
        for chip in (host, guest):
            assert not [word for word in PROBLEMS if word in chip.console], chip.console[-2000:]
        assert noise.flips and noise.drops
        assert lines(host, "board") == lines(guest, "board")
        host_moves = [line.split()[0] for line in lines(host, "move")]
        assert host_moves == [line.split()[0] for line in lines(guest, "move")]
        # Both saw the cable go within 2 s of its pulling, paused, and played on once it was back.
        for seen in phases:
            lost = [ms for ms, name in seen if name == "lost"]
            assert lost and noise.cut_at <= lost[0] <= noise.cut_at + 2000, (seen, noise.cut_at)
            assert seen[-1][1] != "lost", seen
        # The moves shown are a legal match, the one a local replay of them ends on.
        local = Match(2, 2, 4, seed=3)
        for cell in host_moves:
            if local.game.over:
                local.next_round()
            local.game.play(int(cell))
        assert local.over
        text, scores = re.match(r"(\S+) (\(.*\))", lines(host, "board")[0]).groups()
        assert text == local.game.board.to_text().replace("\n", "/")
        assert scores == str(local.game.scores())
        for chip in (host, guest):
            assert int(lines(chip, "lowest")[0].split()[-1]) > 64000


def test_three_chips_in_a_ring_pass_a_message_round(firmware):
    chips = [Emulator(files=ring_drive(index, 3)) for index in range(3)]
    try:
        for chip in chips:
            chip.start()
        ring = Ring(chips)
        elapsed = 0
        while not all("RING done" in chip.console for chip in chips):
            assert elapsed < 30000, [chip.console[-400:] for chip in chips]
            run_together(chips, 20)
            elapsed += 20
            ring.carry(elapsed)
        # The chips ran in step (to the instruction each run ended on).
        assert max(chip.ms for chip in chips) - min(chip.ms for chip in chips) < 0.01
        for chip in chips:
            assert not [word for word in PROBLEMS if word in chip.console], chip.console[-2000:]
        # Each TX reaches the next chip's RX only: 0 -> 1 -> 2 -> 0.
        assert "RING pass 0" in chips[1].lines()
        assert "RING pass 0 1" in chips[2].lines()
        back = [line for line in chips[0].lines() if line.startswith("RING back")]
        assert len(back) == 1 and back[0].startswith("RING back 0 1 2 after "), back
        # Paced at the baud rate: each hop carries "RING n 0 ...\n" at ten bits a byte.
        trip_ms = int(back[0].split()[-2])
        assert trip_ms >= 3 * len("RING 1 0 1\n") * 10 * 1000 // BAUD, trip_ms
        assert ring.sent[0] and ring.received[1] == ring.sent[0]
        assert ring.received[0] == ring.sent[2] and ring.received[2] == ring.sent[1]
    finally:
        for chip in chips:
            chip.close()


def _hosts(parent):
    """The pids of the emulator hosts (node host.mjs) that process ``parent`` started."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as handle:
                ppid = int(handle.read().rsplit(")", 1)[1].split()[1])
            with open("/proc/%s/cmdline" % name, "rb") as handle:
                command = handle.read()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == parent and b"host.mjs" in command:
            found.append(int(name))
    return found


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc for the chips' processes")
def test_ctrl_c_stops_linked_chips_with_130_and_saves_each_flash(firmware, tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "sim.emulate", "--link", "2", "--flash", str(tmp_path),
         "--console", "600"], cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
        preexec_fn=default_sigint)
    try:
        hosts = []
        end = time.monotonic() + 60
        while len(hosts) < 2 and time.monotonic() < end and process.poll() is None:
            time.sleep(0.2)
            hosts = _hosts(process.pid)
        assert len(hosts) == 2, process.poll()
        time.sleep(3)  # both chips running
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    assert b"Traceback" not in err, err
    for number in (1, 2):
        flash = images.read_flash_file(str(tmp_path / ("pico-%d.bin" % number)))
        assert len(flash) == images.FLASH_SIZE
    assert sorted(os.listdir(tmp_path)) == ["pico-1.bin", "pico-2.bin"]  # no temporaries
    assert not [pid for pid in hosts if os.path.exists("/proc/%d" % pid)]  # no host left


@pytest.mark.skipif(os.environ.get("ROLIT_LONG_FIRMWARE") != "1",
                    reason="minutes of emulation: set ROLIT_LONG_FIRMWARE=1")
def test_three_chips_in_a_ring_play_a_linked_round_to_the_same_end(firmware):
    chips = [Emulator(files=linked_drive(role, seed, size=6, rounds=1, players=3))
             for role, seed in (("host", 3), ("guest", 5), ("guest", 7))]
    try:
        for chip in chips:
            chip.start()
        play_linked(chips, 900000)
        for chip in chips:
            assert not [word for word in PROBLEMS if word in chip.console], chip.console[-2000:]
        boards = [lines(chip, "board") for chip in chips]
        assert boards[0] and boards[1] == boards[0] and boards[2] == boards[0]
        moves = [[line.split()[0] for line in lines(chip, "move")] for chip in chips]
        assert moves[1] == moves[0] and moves[2] == moves[0]
        local = Match(1, 3, 6, seed=3)
        for cell in moves[0]:
            local.game.play(int(cell))
        assert local.game.over
        text, scores = re.match(r"(\S+) (\(.*\))", boards[0][0]).groups()
        assert text == local.game.board.to_text().replace("\n", "/")
        assert scores == str(local.game.scores())
    finally:
        for chip in chips:
            chip.close()
