"""A mixed linked game on the real firmware: the hosting simulator's hub (``sim.net.NetHost``)
seats an emulated Pico on a cable (``NetHost.add_cable`` with ``sim.net.emulated.ChipCable``:
its UART0, as a serial port to a handheld's link pins would carry it) and a second simulator
over TCP. Three players on 4x4, set up from the three menus; everything runs on the chip's
emulated clock (sim/net/emulated.py says why). Skips without a UF2."""

import time

import pytest

from firmware_gate import require_emulator
from hardware.gamelog import GameLog
from rolit_core.app import SELECT, UP
from rolit_core.rng import Random
from sim import cli
from sim.emulate import Emulator, deployed_files
from sim.net.emulated import ChipCable, SimAndChip
from sim.rp2040.linkgame import LINK_SETTINGS, MOVE

pytestmark = pytest.mark.slow

PROBLEMS = ("Traceback", "MemoryError", "safe mode")


def _sim(argv):
    args = cli.parser().parse_args(argv + ["--storage", "none", "--seed", "5"])
    cli.check_link_options(args)
    app, device = cli.build(args)
    device.cable = cli.open_cable(args)
    return app, device


@pytest.fixture(scope="module")
def played():
    require_emulator()
    app, device = _sim(["--host", "0"])
    hub = device.cable
    joiner, joiner_device = _sim(["--join", "127.0.0.1:%d" % hub.port])
    log = []
    game_log = GameLog(log.append)
    clock = {}

    def frame():
        # After each frame of the host: the joining simulator's frame, on the same clock.
        joiner_device.update(clock["pair"].now, clock.pop("joiner_events", ()))
        game_log.update(app)
        time.sleep(0.0002)  # loopback's bytes come in their own time

    def tap_joiner(key):
        clock["joiner_events"] = [(key, True)]
        pair.step()
        clock["joiner_events"] = [(key, False)]
        pair.step()

    try:
        with Emulator(files=deployed_files("pico", LINK_SETTINGS)) as chip:
            node = hub.add_cable(ChipCable(chip), "the emulated Pico's UART0")
            pair = SimAndChip(device, chip, on_frame=frame)
            clock["pair"] = pair
            assert pair.until(lambda: "controls:" in chip.console, 25000, 500), \
                chip.console[-800:]
            pair.run(500)
            pair.tap_chip("select")              # the chip's title: its menu
            for sim_app, tap in ((app, pair.tap_sim), (joiner, tap_joiner)):
                if sim_app.mode == "title":
                    tap(SELECT)
                assert sim_app.mode == "menu", sim_app.mode
            settings = app.settings
            settings.players = 3
            settings.seats[1] = "link"
            settings.seats[2] = "link"
            settings.size = 4
            settings.fix()
            assert app.page == ("play", 0), app.page
            pair.tap_sim(SELECT)
            assert app.mode == "lobby", app.error
            pair.tap_chip("up")                  # the chip's last page: linked game
            pair.tap_chip("select")              # the one press that joins
            tap_joiner(UP)
            tap_joiner(SELECT)
            assert pair.until(lambda: app.mode == "play" and joiner.mode == "play"
                              and "game 1:" in chip.console, 20000), (
                app.mode, joiner.mode, hub.take_log(), chip.console[-800:])
            rng = Random(3)
            for _ in range(120):
                if app.mode == "round_end" and "round over" in chip.console:
                    break
                game = app.game
                seat = game.seat_of(game.turn) if not game.over else None
                if app.mode == "play" and app.phase == "input" and seat == 0:
                    cells = game.legal_moves()
                    assert app.move_cursor(cells[rng.below(len(cells))])
                    pair.tap_sim(SELECT)
                    pair.run(300)
                elif joiner.mode == "play" and joiner.phase == "input":
                    cells = joiner.game.legal_moves()
                    assert joiner.move_cursor(cells[rng.below(len(cells))])
                    tap_joiner(SELECT)
                    pair.run(300)
                else:
                    pair.tap_chip("select", after=300)  # only when the chip's seat is to move
            pair.run(1000)
            yield app, joiner, chip, log, hub, node
    finally:
        joiner_device.cable.close()
        hub.close()


def test_a_simulator_hosts_an_emulated_chip_on_a_cable_and_a_simulator_on_tcp(played):
    app, joiner, chip, log, hub, node = played
    assert node == 1 and sorted(kind for _, _, kind in hub.joiners()) == ["cable", "tcp"]
    assert app.mode == "round_end", app.mode
    chip_moves = [line.strip() for line in chip.lines() if MOVE.match(line)]
    moves = [line.strip() for line in log if MOVE.match(line)]
    assert len(moves) >= 10 and moves == chip_moves, (moves, chip_moves)
    # every seat moved: the host's colour, the chip's and the joiner's
    assert len({line.split()[1] for line in moves}) == 3, moves
    assert list(joiner.play.game.board.moves) == list(app.play.game.board.moves)
    end = [line for line in log if line.startswith("round over")]
    assert end and end == [line for line in chip.lines() if line.startswith("round over")]


def test_no_traceback_or_memory_error_on_the_chip_in_the_mixed_game(played):
    chip = played[2]
    assert not [word for word in PROBLEMS if word in chip.console], chip.console[-2000:]
