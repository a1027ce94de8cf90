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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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


# -- every bad argument and path: one line, before anything runs --------------------------------

def error_of(argv, capsys):
    """The one-line message ``python -m sim ARGV`` stops with (argparse's or ours)."""
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    message = stop.value.code if isinstance(stop.value.code, str) else capsys.readouterr().err
    assert stop.value.code not in (0, None)
    lines = message.strip().splitlines()
    assert len(lines) == 1, message
    return lines[0]


@pytest.fixture
def no_frames(monkeypatch):
    """Fails the test if a frame runs, or the App is even made: checks come first."""
    from sim import device

    def refuse(*args, **kwargs):
        raise AssertionError("the run started before its arguments were checked")
    monkeypatch.setattr(device.Device, "update", refuse)
    monkeypatch.setattr("rolit_core.app.App.__init__", refuse)


def test_bad_numbers_and_sizes_are_one_line_errors(capsys, no_frames):
    for argv, words in ((["--fps", "0"], "--fps: 0 is out of range: 1-240"),
                        (["--sound", "1000"], "--sound: 1000 is out of range: 1-100"),
                        (["--sound", "-5"], "--sound: -5 is out of range"),
                        (["--window-size", "foo"], "'foo' is not WIDTHxHEIGHT"),
                        (["--window-size", "10x10"], "out of range"),
                        (["--window-size", "16384x16384"], "out of range: 160x120 to 7680x4320"),
                        (["--window-size", "7681x800"], "out of range"),
                        (["--rounds", "0"], "--rounds: 0 is out of range: 1-7"),
                        (["--rounds", "8"], "--rounds: 8 is out of range: 1-7 (the menu's"),
                        (["--rounds", "99"], "out of range: 1-7"),
                        (["--gamma", "5"], "--gamma: 5 is out of range: 10-40"),
                        (["--brightness", "500"], "--brightness: 500 is out of range"),
                        (["--max-ma", "0"], "--max-ma: 0 is out of range"),
                        (["--seed", "x"], "--seed: invalid int value")):
        assert words in error_of(["--headless", "--players", "easy,easy"] + argv, capsys), argv


def test_bad_paths_are_one_line_errors_before_the_game(tmp_path, capsys, no_frames):
    missing = tmp_path / "no" / "such"
    latin = tmp_path / "latin1.txt"
    latin.write_bytes(_played(4).encode() + b"\n; caf\xe9\n")
    game = ["--headless", "--players", "easy,easy"]
    for argv, words in (
            (["--record", str(missing / "game.txt")], "does not exist"),
            (["--screenshot", str(missing / "end.png")], "does not exist"),
            (["--screenshot", str(tmp_path / "end.txt")], "must end in .png"),
            (["--record", str(tmp_path)], "is a folder"),
            (["--replay", str(tmp_path / "none.txt")], "no such file"),
            (["--replay", str(tmp_path)], "is a folder"),
            (["--replay", str(latin)], "latin1.txt: line 13: not text (binary, or not UTF-8)"),
            (["--settings", str(tmp_path)], "is a folder"),
            (["--storage", str(tmp_path)], "is a folder"),
            (["--storage", str(missing / "rolit.sav")], "does not exist")):
        assert words in error_of(game + argv, capsys), argv
    assert not os.path.exists(str(tmp_path / "end.txt"))


def test_the_screenshot_folder_is_checked_before_the_game_not_after(tmp_path, capsys):
    record = tmp_path / "game.txt"
    argv = ["--headless", "--players", "easy,easy", "--record", str(record),
            "--screenshot", str(tmp_path / "no" / "end.png")]
    assert "does not exist" in error_of(argv, capsys)
    assert not record.exists()  # no game was played


def test_real_stderr_is_one_line_without_traceback(tmp_path):
    import subprocess
    import sys
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe\x00")
    for argv in (["--replay", str(bad), "--headless", "--players", "easy,easy"],
                 ["--fps", "0"], ["--window-size", "foo"]):
        result = subprocess.run([sys.executable, "-m", "sim"] + argv, capture_output=True,
                                text=True, cwd=ROOT, timeout=60)
        assert result.returncode in (1, 2) and result.stderr.startswith("python -m sim: ")
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert "Traceback" not in result.stderr


# -- --headless never waits for a person ----------------------------------------------------------

def test_headless_refuses_every_way_a_person_gets_a_seat(tmp_path, capsys, no_frames):
    three = tmp_path / "three.txt"
    game = Game(players=3, first="red")
    game.play(game.legal_moves()[0])
    three.write_text(game.record())
    for argv, words in (
            (["--replay", str(three)], "needs --players with the record's 3 computer seats"),
            (["--replay", str(three), "--players", "easy,easy"],
             "is a 3-player game: give --players 3 seats, not 2"),
            (["--players", "easy"], "one seat is solo play"),
            (["--players", "human"], "2-4 computer seats"),
            (["--size", "6"], "computers only"),
            (["--players", "easy,human"], "computers only"),
            ([], "needs a game")):
        assert words in error_of(["--headless"] + argv, capsys), argv


# -- --storage FILE --------------------------------------------------------------------------------

def test_storage_refuses_a_foreign_file_without_touching_it(tmp_path, capsys, no_frames):
    foreign = tmp_path / "game.txt"
    foreign.write_text(_played(6))
    before = (foreign.read_bytes(), os.stat(str(foreign)).st_mtime_ns)
    words = error_of(["--headless", "--players", "easy,easy", "--storage", str(foreign)], capsys)
    assert "is not a Rolit Handheld save: left untouched" in words
    assert (foreign.read_bytes(), os.stat(str(foreign)).st_mtime_ns) == before
    assert sorted(os.listdir(str(tmp_path))) == ["game.txt"]


def test_storage_that_cannot_be_written_fails_at_start(tmp_path, capsys, no_frames):
    folder = tmp_path / "locked"
    folder.mkdir()
    os.chmod(str(folder), 0o555)
    try:
        if not os.access(str(folder), os.W_OK):
            place = str(folder)
        elif os.path.isdir("/proc"):  # root writes to read-only folders, not into /proc
            place = "/proc"
        else:
            pytest.skip("no folder this user cannot write to")
        for option in ("--storage", "--record", "--screenshot"):
            words = error_of(["--headless", "--players", "easy,easy", option,
                              os.path.join(place, "out.png")], capsys)
            assert "cannot write" in words, option
    finally:
        os.chmod(str(folder), 0o755)


def test_a_failed_save_is_reported_and_the_old_save_kept(tmp_path, monkeypatch):
    from rolit_core.app import App
    from sim.device import FileStorage, describe
    store = tmp_path / "rolit.sav"
    storage = FileStorage(str(store))
    app = App(storage=storage, seed=1)
    app.start(seats=("human", "human"))
    good = store.read_bytes()
    real_replace = os.replace

    def full_disk(source, target):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", full_disk)
    app.start(seats=("human", "easy"))
    assert store.read_bytes() == good and not os.path.exists(str(store) + ".tmp")
    assert "No space left on device" in describe(app)["notice"]
    monkeypatch.setattr(os, "replace", real_replace)
    app.start(seats=("human", "easy"))
    assert "notice" not in describe(app)


def test_default_storage_is_the_platform_user_data_folder():
    linux = cli.default_storage_path({"HOME": "/home/ann"}, "linux")
    assert linux == "/home/ann/.local/share/rolit-handheld/rolit.sav"
    assert cli.default_storage_path({"HOME": "/home/ann", "XDG_DATA_HOME": "/data"},
                                    "linux") == "/data/rolit-handheld/rolit.sav"
    assert cli.default_storage_path({"HOME": "/Users/ann"}, "darwin") == \
        "/Users/ann/Library/Application Support/rolit-handheld/rolit.sav"
    windows = cli.default_storage_path({"HOME": "C:\\Users\\ann",
                                        "APPDATA": "C:\\Users\\ann\\AppData\\Roaming"}, "win32")
    assert windows.startswith("C:\\Users\\ann\\AppData\\Roaming") and \
        windows.endswith("rolit.sav")


def test_storage_default_and_none(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    args = cli.parser().parse_args([])
    storage = cli.open_storage(args, "terminal")
    assert storage.path == str(tmp_path / "rolit-handheld" / "rolit.sav")
    assert cli.open_storage(args, "headless") is None  # a batch run keeps the saved game
    assert cli.open_storage(cli.parser().parse_args(["--storage", "none"]), "window") is None


# -- the package works from any folder, and the examples write nothing into the clone --------------

def test_python_m_sim_works_from_any_folder(tmp_path):
    import subprocess
    import sys
    for module in ("sim", "sim.arena", "sim.deploy"):
        result = subprocess.run([sys.executable, "-m", module, "--help"], cwd=str(tmp_path),
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        assert "usage: python -m " + module in result.stdout


def test_examples_leave_no_files_in_the_clone():
    import re
    root = ROOT
    for name in ("README.md", os.path.join("docs", "simulator.md")):
        with open(os.path.join(root, name)) as handle:
            text = handle.read()
        for line in text.splitlines():
            if "python -m sim" not in line and "make play" not in line:
                continue
            for option, path in re.findall(r"--(record|screenshot|storage) (\S+)", line):
                assert path in ("none", "FILE") or path.startswith(("/", "~", "$")), \
                    "%s: %s" % (name, line)


def test_a_record_that_cannot_be_written_is_reported_not_a_crash(tmp_path, monkeypatch):
    record = tmp_path / "game.txt"
    from sim import recorder as recorder_module
    real_write = recorder_module.write_atomically

    def failing_write(path, write):
        if str(path).startswith(str(record)):
            raise OSError(28, "No space left on device")
        return real_write(path, write)
    monkeypatch.setattr(recorder_module, "write_atomically", failing_write)
    with pytest.raises(SystemExit) as stop:  # the whole game is played, then it says so
        cli.main(["--headless", "--players", "easy,easy", "--seed", "2", "--record",
                  str(record)])
    assert "record not written to %s: No space left on device" % record in str(stop.value)
    recorder = cli.Recorder(str(record))
    app = cli.build(cli.parser().parse_args(["--players", "human,easy", "--storage",
                                             "none"]))[0]
    recorder.update(app)
    assert "No space left" in recorder.failure
    monkeypatch.setattr(recorder_module, "write_atomically", real_write)
    app.game.play(app.game.legal_moves()[0])
    recorder.update(app)
    assert recorder.failure is None and "1. " in record.read_text()


def test_outputs_are_regular_files_and_links_are_kept(tmp_path, capsys, no_frames):
    fifo = tmp_path / "pipe.png"
    os.mkfifo(str(fifo))
    for option in ("--record", "--storage", "--screenshot"):
        words = error_of(["--headless", "--players", "easy,easy", option, str(fifo)], capsys)
        assert "is not a regular file" in words, option
        assert error_of(["--headless", "--players", "easy,easy", option, ""], capsys)
    assert "needs a file name" in error_of(["--headless", "--players", "easy,easy",
                                            "--replay", ""], capsys)


def test_saving_through_a_link_keeps_the_link(tmp_path):
    from sim.device import FileStorage
    real = tmp_path / "real.sav"
    link = tmp_path / "link.sav"
    os.symlink(str(real), str(link))
    storage = FileStorage(str(link))
    storage.check()
    storage.save(b"RH data")
    assert os.path.islink(str(link)) and FileStorage(str(real)).load() == b"RH data"
    leftover = tmp_path / "real.sav.tmp"
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    os.symlink(str(victim), str(leftover))  # a temporary name that is a link: never followed
    storage.save(b"RH more")
    assert victim.read_text() == "keep me" and FileStorage(str(real)).load() == b"RH more"
