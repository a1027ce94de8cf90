"""The link protocol on the real CircuitPython firmware: two emulated Picos, their UART0s crossed
(TX to RX) as the cable does, play a match with rolit_core.lockstep over hardware.uartlink
(sim/rp2040/linked.py). Skips without a UF2 (``firmware_gate``)."""

import re

import pytest

from firmware_gate import require_emulator
from rolit_core import Match
from sim.emulate import Emulator
from sim.rp2040.linked import Noise, lines, linked_drive, play_linked

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
