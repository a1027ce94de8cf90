"""A linked game on the real CircuitPython firmware, set up and played as players would
(sim/rp2040/linkgame.py): two emulated Picos with the deployed game, their UART0s crossed as
the cable does. The host's player makes seat 2 a linked seat and the board 4x4 with the keys,
the other joins from the menu's last page, and both press SELECT until the round ends. Skips
without a UF2."""

import pytest

from firmware_gate import require_emulator
from rolit_core import Game
from sim.emulate import Emulator, deployed_files
from sim.rp2040.linkgame import LINK_SETTINGS, MOVE, LinkedGame

pytestmark = pytest.mark.slow

PROBLEMS = ("Traceback", "MemoryError", "safe mode")


@pytest.fixture(scope="module")
def linked_game():
    require_emulator()
    files = deployed_files("pico", LINK_SETTINGS)
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


def test_after_the_linked_game_the_guest_plays_a_local_game_against_a_computer(linked_game):
    # A linked game with no computer seat on the handheld forgets the computer players (the
    # biggest module). Compiled from source, as here, they would not compile again in the
    # heap the linked game leaves: leaving it restarts code.py (a fresh heap), and the local
    # game after it has its computer player.
    guest = linked_game.chips[1]
    linked_game.tap(1, "select")  # the round end: its bars poured at once
    linked_game.run(300)
    linked_game.tap(1, "back")    # the guest leaves the linked game
    assert linked_game.until(lambda: "restarting:" in guest.console, 3000), guest.console[-1500:]
    restarted = guest.console.index("restarting:")
    assert linked_game.until(lambda: "controls:" in guest.console[restarted:], 20000), (
        guest.console[-1500:])
    assert "ROLIT HANDHELD" in guest.console[restarted:]
    linked_game.run(1000)
    linked_game.tap(1, "select")  # the title: the menu, on its first page
    linked_game.run(1500)
    linked_game.tap(1, "select")  # a local game of the menu's settings: a human and `easy`
    assert linked_game.until(lambda: "game 1:" in guest.console[restarted:], 20000), (
        guest.console[restarted:][-1500:])
    start = guest.console.index("game 1:", restarted)
    assert "easy" in guest.console[start:].splitlines()[0]

    def computer_moved():
        lines = guest.console[start:].splitlines()[1:]
        return len([line for line in lines if MOVE.match(line)]) >= 3

    for _ in range(20):
        if computer_moved():
            break
        linked_game.tap(1, "select")  # the human's move, where the cursor starts (legal)
        linked_game.run(1500)
    assert computer_moved(), guest.console[start:][-1500:]


def test_no_traceback_or_memory_error_on_either_chip(linked_game):
    for chip in linked_game.chips:
        assert not [word for word in PROBLEMS if word in chip.console], chip.console[-2000:]


def _long():
    import os

    if os.environ.get("ROLIT_LONG_FIRMWARE") != "1":
        pytest.skip("linked chips for many emulated minutes: set ROLIT_LONG_FIRMWARE=1")
    require_emulator()


def test_a_guest_cut_off_from_power_boots_back_into_the_game_and_both_end_alike():
    _long()
    files = deployed_files("pico", LINK_SETTINGS)
    with Emulator(files=files) as host, Emulator(files=files) as guest:
        game = LinkedGame([host, guest])
        game.boot()
        game.set_up(size=4)
        game.play_round(taps=3)
        before = game.moves(0)
        assert before
        guest.power_cycle()
        # it boots from its own save, paused, asks for its seat back and is given the state
        assert game.until(lambda: guest.console.count("controls:") >= 2, 20000, 500)
        game.run(3000)
        game.play_round()
        assert "round over" in host.console and "round over" in guest.console
        played = game.moves(0)
        assert played[:len(before)] == before
        assert [line for line in host.lines() if line.startswith("round over")][-1] == \
            [line for line in guest.lines() if line.startswith("round over")][-1]
        for chip in game.chips:
            assert not [word for word in PROBLEMS if word in chip.console]


def test_four_chips_in_a_ring_set_up_a_game_from_the_menus_and_play_its_first_moves():
    _long()
    files = deployed_files("pico", LINK_SETTINGS)
    chips = [Emulator(files=files) for _ in range(4)]
    try:
        for chip in chips:
            chip.start()
        game = LinkedGame(chips)
        game.boot()
        game.set_up(size=6)
        # Each chip presses SELECT in turn; a press counts only on the chip whose turn it is
        # and once the last move's animation is over, so the first four moves take a few
        # rounds of presses.
        for _ in range(10):
            if len(game.moves(0)) >= 4:
                break
            game.play_round(taps=1, size=6)
        host_moves = game.moves(0)
        assert len(host_moves) >= 4
        for index in range(1, 4):
            assert game.moves(index)[:len(host_moves)] == host_moves
        for chip in chips:
            assert not [word for word in PROBLEMS if word in chip.console]
    finally:
        for chip in chips:
            chip.close()
