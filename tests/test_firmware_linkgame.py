"""A linked game on the real CircuitPython firmware, set up and played as players would: two
emulated Picos with the deployed game (the unmodified code.py and settings.toml, whose preset
opens the link's UART on GP12/GP13), their UART0s crossed as the cable does. The host's player
makes seat 2 a linked seat and the board 4x4 with the keys, the other player joins from the
menu's last page, and both press SELECT until the round ends. Skips without a UF2."""

import re

import pytest

from firmware_gate import require_emulator
from rolit_core import Game
from sim.emulate import Emulator, deployed_files
from sim.rp2040.linked import BAUD, SLICE_MS

pytestmark = pytest.mark.slow

PROBLEMS = ("Traceback", "MemoryError", "safe mode")
BOOT_MS = 20000
MOVE = re.compile(r"^\s+\d+\. ([RYGB]) ([a-h]\d)\b")


@pytest.fixture(scope="module")
def firmware():
    require_emulator()


class Cable:
    """Chips run side by side in SLICE_MS slices, each one's UART0 output to the next one's RX
    at the baud rate (two chips: crossed)."""

    def __init__(self, chips):
        self.chips = chips
        self.ms = 0

    def run(self, ms):
        for _ in range(max(1, ms // SLICE_MS)):
            for chip in self.chips:
                chip.run(SLICE_MS)
            self.ms += SLICE_MS
            for index, chip in enumerate(self.chips):
                data = bytes(chip.uart_out[0])
                chip.uart_out[0].clear()
                if data:
                    self.chips[(index + 1) % len(self.chips)].uart_send(0, data, baud=BAUD)

    def tap(self, index, key, hold=60, after=120):
        self.chips[index].press(key)
        self.run(hold)
        self.chips[index].release(key)
        self.run(after)

    def until(self, test, limit_ms, step=100):
        spent = 0
        while spent < limit_ms:
            if test():
                return True
            self.run(step)
            spent += step
        return test()


def moves(chip):
    return [MOVE.match(line).groups() for line in chip.lines() if MOVE.match(line)]


@pytest.fixture(scope="module")
def linked_game(firmware):
    files = deployed_files("pico")
    with Emulator(files=files) as host, Emulator(files=files) as guest:
        cable = Cable([host, guest])
        assert cable.until(lambda: "controls:" in host.console and "controls:" in guest.console,
                           BOOT_MS, 500)
        cable.run(500)
        for index in (0, 1):
            cable.tap(index, "select")  # the title answers a key with the menu
        cable.run(300)
        # the host: seat 2 (easy) -> human -> link, the board 8 -> 6 -> 4, back to play, start
        for key in ("down", "down", "down", "left", "left", "down", "right", "right", "back",
                    "select"):
            cable.tap(0, key)
        # the guest: the menu's last page, the linked game, and the one press that joins
        cable.tap(1, "up")
        cable.tap(1, "select")
        assert cable.until(lambda: "game 1:" in host.console and "game 1:" in guest.console,
                           15000), (host.console[-800:], guest.console[-800:])
        # each player presses SELECT: only the handheld whose seat is to move takes it
        for _ in range(60):
            if "round over" in host.console and "round over" in guest.console:
                break
            for index in (0, 1):
                cable.tap(index, "select", hold=60, after=400)
        cable.run(1000)
        yield host, guest


def test_two_chips_set_up_a_linked_game_from_the_menus_and_play_it_to_the_same_end(linked_game):
    host, guest = linked_game
    assert "link: hosting: waiting for 1 linked handheld" in host.console
    assert "link: seat 2: waiting for the host to start" in guest.console
    assert "round over" in host.console and "round over" in guest.console, (
        host.console[-1500:], guest.console[-1500:])
    played = moves(host)
    assert played and played == moves(guest)
    # the moves are a whole legal 4x4 game, whose end both consoles report
    game = Game(players=2, size=4, first="RYGB".index(played[0][0]) + 1)
    for _, name in played:
        game.play(game.board.parse_cell(name))
    assert game.over
    end = [line for line in host.lines() if line.startswith("round over")]
    assert end == [line for line in guest.lines() if line.startswith("round over")]


def test_no_traceback_or_memory_error_on_either_chip(linked_game):
    for chip in linked_game:
        assert not [word for word in PROBLEMS if word in chip.console], chip.console[-2000:]
