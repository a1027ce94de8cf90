"""A linked game on the real CircuitPython firmware, set up and played as players would
(sim/rp2040/linkgame.py): two emulated Picos with the deployed game, their UART0s crossed as
the cable does. The host's player makes seat 2 a linked seat and the board 4x4 with the keys,
the other joins from the menu's last page, and both press SELECT until the round ends. Skips
without a UF2."""

import pytest

from firmware_gate import require_emulator
from rolit_core import Game
from sim.emulate import Emulator, deployed_files
from sim.rp2040.linkgame import LinkedGame

pytestmark = pytest.mark.slow

PROBLEMS = ("Traceback", "MemoryError", "safe mode")


@pytest.fixture(scope="module")
def linked_game():
    require_emulator()
    files = deployed_files("pico")
    with Emulator(files=files) as host, Emulator(files=files) as guest:
        game = LinkedGame([host, guest])
        game.boot()
        game.set_up(size=4)
        game.play_round()
        yield game


def test_two_chips_set_up_a_linked_game_from_the_menus_and_play_it_to_the_same_end(linked_game):
    host, guest = linked_game.chips
    assert "link: hosting: waiting for 1 linked handheld" in host.console
    assert "link: seat 2: waiting for the host to start" in guest.console
    assert "round over" in host.console and "round over" in guest.console, (
        host.console[-1500:], guest.console[-1500:])
    played = linked_game.moves(0)
    assert played and played == linked_game.moves(1)
    # the moves are a whole legal 4x4 game, whose end both consoles report alike
    game = Game(players=2, size=4, first="RYGB".index(played[0][0]) + 1)
    for _, name in played:
        game.play(game.board.parse_cell(name))
    assert game.over
    end = [line for line in host.lines() if line.startswith("round over")]
    assert end and end == [line for line in guest.lines() if line.startswith("round over")]
    # every move was seen lit on the other chip
    assert len(linked_game.latencies) >= len(played) // 2


def test_no_traceback_or_memory_error_on_either_chip(linked_game):
    for chip in linked_game.chips:
        assert not [word for word in PROBLEMS if word in chip.console], chip.console[-2000:]
