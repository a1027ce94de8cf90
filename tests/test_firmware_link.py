"""The link on the real CircuitPython firmware: two emulated Picos, their UART0s crossed (TX to RX)
as the cable does, play a match with rolit_core.lockstep over hardware.uartlink; three in a
ring (each TX to the next RX) pass a message round (sim/rp2040/linked.py). Skips without a UF2
(``firmware_gate``)."""

import re

import pytest

from firmware_gate import require_emulator
from rolit_core import Match
from sim.emulate import Emulator, run_together
from sim.rp2040.linked import BAUD, Noise, Ring, lines, linked_drive, play_linked, ring_drive

pytestmark = pytest.mark.slow

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
