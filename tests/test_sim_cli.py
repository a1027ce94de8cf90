"""``python -m sim`` headless: a full game, its record, its PNG, replay and storage."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from rolit_core import Game  # noqa: E402
from rolit_core.palette import NORMAL  # noqa: E402
from sim import cli  # noqa: E402
from sim.window import UNLIT, Renderer  # noqa: E402
from sim.strip import SRGB  # noqa: E402


def test_headless_game_writes_record_and_screenshot(tmp_path, capsys):
    record, png = tmp_path / "game.txt", tmp_path / "end.png"
    assert cli.main(["--headless", "--players", "easy,easy", "--seed", "5", "--record",
                     str(record), "--screenshot", str(png)]) == 0
    game = Game.from_record(record.read_text())
    assert game.over and "game over after 60 moves" in capsys.readouterr().out
    image = pygame.image.load(str(png))
    renderer = Renderer()
    renderer.layout(image.get_size())
    for cell in range(64):
        x, y = cell % 8, cell // 8
        got = tuple(image.get_at(renderer.centre(x, y)))[:3]
        ball = NORMAL[game.board[cell]]
        # A full board is scaled under the 500 mA budget, so compare the hue, not the level.
        assert max(got) > UNLIT[0] + 20
        assert got.index(max(got)) == ball.index(max(ball))


def test_headless_refuses_human_seats():
    with pytest.raises(SystemExit):
        cli.main(["--headless", "--players", "human,easy"])


def test_replay_continues_a_record(tmp_path):
    full = Game.from_record(_played(12))
    start = tmp_path / "start.txt"
    start.write_text(full.record())
    out = tmp_path / "out.txt"
    cli.main(["--headless", "--replay", str(start), "--players", "easy,easy", "--seed", "1",
              "--record", str(out)])
    again = Game.from_record(out.read_text())
    assert again.over and again.moves[:12] == full.moves


def test_bad_replay_file_is_reported(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("Size: 8\nPlayers: 2\nFirst: red\n1. R a1\n")
    with pytest.raises(SystemExit) as error:
        cli.main(["--headless", "--replay", str(bad), "--players", "easy,easy"])
    assert "ply 1" in str(error.value)


def test_storage_keeps_the_game_between_runs(tmp_path):
    store = tmp_path / "rolit.sav"
    cli.main(["--headless", "--players", "easy,easy", "--seed", "3", "--storage", str(store)])
    assert store.stat().st_size > 0
    from rolit_core.app import App
    from sim.device import FileStorage
    app = App(storage=FileStorage(str(store)))
    assert app.error is None


def test_display_detection():
    assert not cli.display_available({})
    assert cli.display_available({"DISPLAY": ":0"}) or not os.name == "posix"
    assert cli.display_available({"SDL_VIDEODRIVER": "dummy"})


def test_players_parsing():
    assert cli.parse_players("Human, hard") == ("human", "hard")
    with pytest.raises(Exception):
        cli.parse_players("human,wizard")


def _played(plies):
    game = Game(players=2, first="red")
    for _ in range(plies):
        game.play(game.legal_moves()[0])
    return game.record()


def test_srgb_table_is_monotonic():
    assert SRGB[0] == 0 and SRGB[255] == 255
    assert all(SRGB[i] <= SRGB[i + 1] for i in range(255))


def test_device_settings_file_sets_the_driver(tmp_path):
    settings = tmp_path / "settings.toml"
    settings.write_text('ROLIT_LAYOUT = "serpentine"\nROLIT_ROTATION = 90\nROLIT_BRIGHTNESS = 40\n'
                        'ROLIT_PIXEL_ORDER = "RGB"\n')
    args = cli.parser().parse_args(["--settings", str(settings), "--panel-order", "GRB"])
    driver, panel = cli.driver_settings(args)
    assert driver["layout"] == "serpentine" and driver["rotation"] == 90
    assert driver["brightness"] == 40 and driver["pixel_order"] == "RGB"
    assert panel == {"chip_order": "GRB"}
    from rolit_core.app import App
    from sim.device import Device
    device = Device(App(seed=1), driver, panel)
    frame = [(0, 0, 0)] * 64
    frame[0] = (255, 0, 0)
    device.show(frame)
    lit = [i for i, c in enumerate(device.colours) if c != (0, 0, 0)]
    assert lit == [0]                       # wiring matches: a1 stays at a1...
    assert device.colours[0][1] > 0 == device.colours[0][0]  # ...but RGB on GRB chips: green
