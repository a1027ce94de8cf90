"""The simulator and the real firmware in one linked game (``python -m sim --join emulator``,
sim/net/emulated.py): the simulator as sim/cli.py builds it, its link's cable the UART0 of an
emulated Pico that runs the deployed game (settings.toml's two link lines), both on the chip's
clock. The simulator's player hosts from its menu (seat 2 'link', the 4x4 board), the chip's
player joins from its menu's last page with the buttons, and both play the round to the end.
Skips without a UF2."""

import pytest

from firmware_gate import require_emulator
from hardware.gamelog import GameLog
from rolit_core.app import BACK, DOWN, RIGHT, LEFT, SELECT
from rolit_core.rng import Random
from sim import cli
from sim.emulate import Emulator, deployed_files
from sim.net.emulated import ChipCable, SimAndChip
from sim.rp2040.linkgame import LINK_SETTINGS, MOVE

pytestmark = pytest.mark.slow

PROBLEMS = ("Traceback", "MemoryError", "safe mode")


def sim_lines(log):
    return [line for line in log if MOVE.match(line)]


@pytest.fixture(scope="module")
def played():
    require_emulator()
    args = cli.parser().parse_args(["--join", "emulator", "--storage", "none", "--seed", "5"])
    cli.check_link_options(args)
    app, device = cli.build(args)
    log = []
    game_log = GameLog(log.append)
    with Emulator(files=deployed_files("pico", LINK_SETTINGS)) as chip:
        device.cable = ChipCable(chip)
        pair = SimAndChip(device, chip, on_frame=lambda: game_log.update(app))
        assert pair.until(lambda: "controls:" in chip.console, 25000, 500), chip.console[-800:]
        pair.run(500)
        pair.tap_chip("select")              # the chip's title: its menu
        if app.mode == "title":              # (the title turns to the menu after a while)
            pair.tap_sim(SELECT)
        assert app.mode == "menu" and app.page == ("play", 0)
        while app.page != ("seat", 1):
            pair.tap_sim(DOWN)
        while app.settings.seats[1] != "link":
            pair.tap_sim(LEFT)
        pair.tap_sim(DOWN)
        assert app.page[0] == "size"
        while app.settings.size != 4:
            pair.tap_sim(RIGHT)
        pair.tap_sim(BACK)
        pair.tap_sim(SELECT)
        assert app.mode == "lobby", app.error
        pair.tap_chip("up")                  # the chip's last page: linked game
        pair.tap_chip("select")              # the one press that joins
        assert pair.until(lambda: app.mode == "play" and "game 1:" in chip.console, 15000), (
            app.mode, chip.console[-800:])
        rng = Random(3)
        for _ in range(60):
            if app.mode == "round_end" and "round over" in chip.console:
                break
            game = app.game
            if app.mode == "play" and app.phase == "input" and \
                    app.settings.seats[game.seat_of(game.turn)] != "link":
                cells = game.legal_moves()
                assert app.move_cursor(cells[rng.below(len(cells))])
                pair.tap_sim(SELECT)
                pair.run(300)
            else:
                pair.tap_chip("select", after=300)  # only the chip's seat to move takes it
        pair.run(1000)
        yield app, chip, log, pair


def test_the_simulator_hosts_an_emulated_chip_from_the_menus_and_both_end_the_round_alike(
        played):
    app, chip, log, pair = played
    assert "link: seat 2: waiting for the host to start" in chip.console
    assert app.mode == "round_end", app.mode
    chip_moves = [line.strip() for line in chip.lines() if MOVE.match(line)]
    moves = [line.strip() for line in sim_lines(log)]
    # a whole 4x4 round (12 moves), each move line with its scores the same on both
    assert len(moves) == 12 and moves == chip_moves, (moves, chip_moves)
    # both seats moved: the simulator's colour and the chip's
    assert len({line.split()[1] for line in moves}) == 2, moves
    end = [line for line in log if line.startswith("round over")]
    assert end and end == [line for line in chip.lines() if line.startswith("round over")]
    assert pair.device.cable.bytes_in > 0 and pair.device.cable.bytes_out > 0


def test_no_traceback_or_memory_error_on_the_chip(played):
    _, chip, _, _ = played
    assert not [word for word in PROBLEMS if word in chip.console], chip.console[-2000:]
