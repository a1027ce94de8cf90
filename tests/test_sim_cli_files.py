"""``python -m sim``: every file it reads or writes, and every option checked against the mode.

Records of a resumed match keep their round numbers and never replace another file; input files
that are devices, pipes, too big or binary are refused in one line; a foreign file at the
storage path is left alone and said at start; an option a mode would not use is refused."""

import os
import subprocess
import sys

os.environ["SDL_VIDEODRIVER"] = "dummy"

import pytest  # noqa: E402

from rolit_core import Game  # noqa: E402
from rolit_core.app import SELECT, App  # noqa: E402
from sim import cli  # noqa: E402
from sim.device import Device, FileStorage  # noqa: E402
from sim.headless import match_line  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEVELS = ("easy", "medium", "hard", "expert")
GAME = ["--headless", "--players", "easy,easy"]


def one_line_error(argv, capsys):
    """The one-line message ``python -m sim ARGV`` stops with before anything runs."""
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    code = stop.value.code
    message = code if isinstance(code, str) else capsys.readouterr().err
    assert code not in (0, None)
    lines = message.strip().splitlines()
    assert len(lines) == 1, message
    return lines[0]


def play_until(app, device, recorder, done, now=0):
    """Frames as the headless runner plays them (SELECT between rounds) until ``done()``."""
    tap = [(SELECT, True), (SELECT, False)]
    while not done():
        device.update(now, tap if app.mode in ("round_end", "table") else ())
        recorder.update(app)
        now += 20
        assert now < 3600 * 1000
    return now


# -- item: --record after a resume ---------------------------------------------------------------

def test_a_resumed_match_keeps_each_round_under_its_own_number(tmp_path):
    store, record = str(tmp_path / "rolit.sav"), str(tmp_path / "game.txt")
    # First run: round 1 is played, round 2 begun, then the program is quit.
    app = App(storage=FileStorage(store), seed=4, levels=LEVELS)
    app.start(seats=("easy", "easy"), rounds=3, size=4)
    recorder = cli.Recorder(record)
    device = Device(app)
    play_until(app, device, recorder,
               lambda: app.match.round == 2 and len(app.game.board.moves) >= 3)
    round1 = open(record + ".round1").read()
    assert Game.from_record(round1).over
    # Second run resumes round 2 from the storage and plays on into round 3.
    app = App(storage=FileStorage(store), seed=5, levels=LEVELS)
    assert app.match.round == 2
    recorder = cli.Recorder(record)
    device = Device(app)
    play_until(app, device, recorder, lambda: app.match.round == 3)
    assert open(record + ".round1").read() == round1          # round 1 is not replaced
    kept = Game.from_record(open(record + ".round2").read())  # round 2 under its number
    assert kept.over and kept.first != Game.from_record(round1).first
    assert not os.path.exists(record + ".round1-2") and recorder.notes == []


def test_a_round_file_of_another_match_is_never_replaced(tmp_path, capsys):
    record = tmp_path / "game.txt"
    other = tmp_path / "game.txt.round1"
    other.write_text("# Rolit game record\nFirst: red\n# last week's match\n")
    assert cli.main(GAME + ["--rounds", "2", "--size", "4", "--seed", "3",
                            "--record", str(record)]) == 0
    assert other.read_text().endswith("# last week's match\n")
    assert Game.from_record((tmp_path / "game.txt.round1-2").read_text()).over
    assert "record of round 1 in %s-2" % other in capsys.readouterr().err


@pytest.mark.parametrize("option, name, what", [
    ("--record", "essay.txt", "a game record this program wrote"),
    ("--screenshot", "thesis.png", "a picture"),
])
def test_an_output_over_a_file_of_another_kind_is_refused_untouched(tmp_path, capsys, option,
                                                                    name, what):
    theirs = tmp_path / name
    theirs.write_text("My holidays\n")
    words = one_line_error(GAME + [option, str(theirs)], capsys)
    assert "exists and is not %s: left untouched" % what in words
    assert theirs.read_text() == "My holidays\n"


def test_an_output_of_this_program_is_replaced_whole(tmp_path):
    record, picture = tmp_path / "earlier.txt", tmp_path / "end.png"
    record.write_text(Game(players=2, first="red").record())
    assert cli.main(GAME + ["--size", "4", "--screenshot", str(picture)]) == 0
    first = picture.read_bytes()
    assert cli.main(GAME + ["--size", "6", "--record", str(record), "--screenshot",
                            str(picture)]) == 0
    assert Game.from_record(record.read_text()).over
    assert picture.read_bytes() != first and picture.read_bytes()[:4] == b"\x89PNG"
    assert sorted(os.listdir(str(tmp_path))) == ["earlier.txt", "end.png"]  # no temporary


# -- item: --replay honours or refuses every game option -----------------------------------------

def _record(tmp_path, plies=6, size=8):
    game = Game(players=2, size=size, first="red")
    for _ in range(plies):
        game.play(game.legal_moves()[0])
    path = tmp_path / "start.txt"
    path.write_text(game.record())
    return path, game


def test_replay_with_rounds_plays_a_match_continuing_the_record(tmp_path, capsys):
    path, game = _record(tmp_path, size=4, plies=3)
    assert cli.main(["--headless", "--replay", str(path), "--players", "easy,easy",
                     "--rounds", "3", "--seed", "2", "--record", str(tmp_path / "out.txt")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out] == ["round 1 of 3", "round 2 of 3",
                                                   "round 3 of 3", "match"]
    first = Game.from_record((tmp_path / "out.txt.round1").read_text())
    assert first.moves[:3] == game.moves


def test_replay_with_a_time_limit_runs_the_clock(tmp_path):
    path, _ = _record(tmp_path)
    args = cli.parser().parse_args(["--replay", str(path), "--time-limit", "30",
                                    "--storage", "none"])
    app, _ = cli.build(args)
    assert app.time_limit == 30 and len(app.game.board.moves) == 6


@pytest.mark.parametrize("option, words", [
    (["--size", "6"], "--size: %s is 8x8"),
    (["--teams"], "--teams: %s is one colour each"),
    (["--tie", "none"], "--tie: %s is tie rule shared"),
    (["--first", "green"], "--first: %s is Red first"),
])
def test_replay_refuses_game_options_the_record_contradicts(tmp_path, capsys, option, words):
    path, _ = _record(tmp_path)
    message = one_line_error(["--headless", "--replay", str(path), "--players", "easy,easy"] +
                             option, capsys)
    assert words % path in message and "from the record" in message


def test_replay_accepts_game_options_the_record_agrees_with(tmp_path):
    path, _ = _record(tmp_path, size=6)
    assert cli.main(["--headless", "--replay", str(path), "--players", "easy,easy",
                     "--size", "6", "--tie", "shared", "--first", "red"]) == 0


# -- item: every option against every mode ------------------------------------------------------

@pytest.mark.parametrize("mode, option, words", [
    ("--headless", ["--fps", "30"], "--fps: only the window and the terminal use it"),
    ("--headless", ["--sound"], "--sound: only the window and the terminal use it"),
    ("--headless", ["--fullscreen"], "--fullscreen: only the window uses it, not --headless"),
    ("--headless", ["--window-size", "800x600"], "--window-size: only the window uses it"),
    ("--headless", ["--colours", "256"], "--colours: only the terminal uses it"),
    ("--headless", ["--no-labels"], "--no-labels changes only the picture"),
    ("--headless", ["--layout", "serpentine"], "--layout changes only the picture"),
    ("--headless", ["--panel-order", "RGB"], "--panel-order changes only the picture"),
    ("--terminal", ["--fullscreen"], "--fullscreen: only the window uses it, not --terminal"),
    ("--terminal", ["--window-size", "800x600"], "only the window uses it, not --terminal"),
    ("--window", ["--colours", "24bit"], "--colours: only the terminal uses it, not --window"),
])
def test_an_option_the_mode_does_not_use_is_refused(mode, option, words, capsys):
    argv = [mode, "--players", "easy,easy" if mode == "--headless" else "human,easy"] + option
    assert words in one_line_error(argv, capsys)


def test_a_time_limit_without_a_person_to_time_is_refused(capsys):
    assert "--time-limit times a person's moves, and --headless has no person" in \
        one_line_error(GAME + ["--time-limit", "30"], capsys)
    assert "and --players hard,easy has no person" in one_line_error(
        ["--terminal", "--players", "hard,easy", "--time-limit", "60"], capsys)
    assert cli.main(GAME + ["--size", "4", "--time-limit", "0"]) == 0  # off: nothing to time


def test_picture_options_are_used_by_a_headless_screenshot(tmp_path):
    import pygame
    from sim.window import Renderer
    plain, bare = tmp_path / "plain.png", tmp_path / "bare.png"
    for path, more in ((plain, []), (bare, ["--no-labels", "--layout", "rows"])):
        assert cli.main(GAME + ["--size", "4", "--seed", "1", "--screenshot", str(path)] +
                        more) == 0
    one, two = pygame.image.load(str(plain)), pygame.image.load(str(bare))
    renderer = Renderer()
    renderer.layout(one.get_size())
    centres = [renderer.centre(x, y) for y in range(8) for x in range(8)]
    assert [one.get_at(c) for c in centres] == [two.get_at(c) for c in centres]  # same LEDs
    assert pygame.image.tobytes(one, "RGB") != pygame.image.tobytes(two, "RGB")  # no labels


# -- item: input files: devices, pipes, size, binary ----------------------------------------------

def _run(argv, timeout=30):
    """``python -m sim ARGV`` as a process: (status, stderr); a run that blocks fails."""
    result = subprocess.run([sys.executable, "-m", "sim"] + argv, capture_output=True, text=True,
                            cwd=ROOT, timeout=timeout, stdin=subprocess.DEVNULL,
                            env=dict(os.environ, PYTHONPATH=ROOT))
    return result.returncode, result.stderr


@pytest.mark.parametrize("option", ["--settings", "--replay", "--storage"])
def test_a_pipe_or_a_device_as_input_is_refused_at_once(tmp_path, option):
    fifo = tmp_path / "fifo"
    os.mkfifo(str(fifo))
    for path in (str(fifo), "/dev/zero"):
        status, err = _run(GAME + ["--screenshot", str(tmp_path / "x.png"), option, path])
        assert status == 1 and err.startswith("python -m sim: ")
        assert "is not a regular file (a device, a pipe...)" in err, err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_binary_settings_file_is_one_line(tmp_path, capsys):
    binary = tmp_path / "settings.toml"
    binary.write_bytes(bytes(range(256)) * 40)
    words = one_line_error(GAME + ["--settings", str(binary), "--screenshot",
                                   str(tmp_path / "x.png")], capsys)
    assert "is binary, not text (a zero byte at offset 0): not a settings.toml" in words
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'ROLIT_LAYOUT = "rows"  # caf\xe9\n')
    assert "is not UTF-8 text (byte 0xe9" in one_line_error(
        GAME + ["--settings", str(latin), "--screenshot", str(tmp_path / "x.png")], capsys)


def test_a_huge_settings_file_is_not_read_in_full(tmp_path, capsys):
    huge = tmp_path / "settings.toml"
    with open(str(huge), "wb") as file:
        file.truncate(1 << 30)  # sparse: 1 GB of zero bytes, none on the disk
    words = one_line_error(GAME + ["--settings", str(huge), "--screenshot",
                                   str(tmp_path / "x.png")], capsys)
    assert "is over 64 KB: not a settings.toml" in words


def test_many_bad_settings_are_counted_not_listed(tmp_path, capsys):
    settings = tmp_path / "settings.toml"
    settings.write_text("".join(["ROLIT_NOPE%d = 1\n" % n for n in range(500)]))
    picture = tmp_path / "x.png"
    assert cli.main(GAME + ["--size", "4", "--settings", str(settings), "--screenshot",
                            str(picture)]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("settings")]
    assert len(lines) == 11 and "... and 490 more problems" in lines[-1]


# -- item: --storage checks the save's header, and the default path warns at start ---------------

def _save_bytes():
    from rolit_core.app import App as _App
    kept = {}

    class Memory:
        def load(self):
            return None

        def save(self, data):
            kept["data"] = bytes(data)
    app = _App(storage=Memory(), seed=1)
    app.start(seats=("human", "easy"))
    return kept["data"]


@pytest.mark.parametrize("content", [b"RH", b"RHUBARB crumble: 200 g flour\n",
                                     b"RH\x02\x00\x05abc", b"RH\x09" + b"\x00" * 30,
                                     b"RL", b"RLE compressed picture", b"RL\x02\x00\x01\x00\x05x",
                                     b"RL\x07" + b"\x00" * 30])
def test_storage_refuses_a_file_that_only_begins_like_a_save(tmp_path, capsys, content):
    foreign = tmp_path / "notes.sav"
    foreign.write_bytes(content)
    words = one_line_error(GAME + ["--storage", str(foreign)], capsys)
    assert "is not a Rolit Handheld save: left untouched" in words
    assert foreign.read_bytes() == content and os.listdir(str(tmp_path)) == ["notes.sav"]


def test_storage_takes_a_save_and_a_damaged_save_of_its_own(tmp_path):
    good = _save_bytes()
    store = tmp_path / "rolit.sav"
    store.write_bytes(good)
    FileStorage(str(store)).check()
    damaged = good[:-1] + bytes([good[-1] ^ 0xFF])  # the checksum fails: still ours
    store.write_bytes(damaged)
    FileStorage(str(store)).check()
    assert App(storage=FileStorage(str(store))).error is not None


def test_a_foreign_file_at_the_default_path_is_said_at_start_and_left_alone(tmp_path,
                                                                           monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "rolit-handheld"
    folder.mkdir()
    foreign = folder / "rolit.sav"
    foreign.write_text("my own notes\n")
    warnings = []
    assert cli.open_storage(cli.parser().parse_args([]), "terminal", warnings) is None
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(foreign) in err[0]
    assert err[0].endswith("delete it or use --storage FILE")
    assert warnings == ["rolit.sav is not this game's save: delete it or use --storage FILE"]
    assert foreign.read_text() == "my own notes\n" and os.listdir(str(folder)) == ["rolit.sav"]


# -- item: the RGBW pixel orders -----------------------------------------------------------------

@pytest.mark.parametrize("order", ["GRBW", "RGBW"])
def test_an_rgbw_strip_shows_its_colours(tmp_path, order):
    settings = tmp_path / "settings.toml"
    settings.write_text('ROLIT_PIXEL_ORDER = "%s"\n' % order)
    for argv in (["--settings", str(settings)], ["--pixel-order", order]):
        driver, panel = cli.driver_settings(cli.parser().parse_args(argv))
        assert driver["pixel_order"] == order
        device = Device(App(seed=1), driver, panel)
        frame = [(0, 0, 0)] * 64
        frame[0], frame[9], frame[18] = (255, 0, 0), (0, 0, 255), (200, 200, 200)
        device.show(frame)
        lit = [i for i in range(64) if device.colours[i] != (0, 0, 0)]
        assert lit == [0, 9, 18] and len(device.strip.data) == 4 * 64
        red, blue, white = device.colours[0], device.colours[9], device.colours[18]
        assert red[0] > 0 == red[1] == red[2] and blue[2] > 0 == blue[0] == blue[1]
        assert white[0] == white[1] == white[2] > 0  # the white LED lights all three


# -- item: headless matches print each round and the result --------------------------------------

def test_headless_match_prints_each_round_then_the_match(capsys):
    assert cli.main(GAME + ["--rounds", "3", "--size", "4", "--seed", "6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4
    for number in (1, 2, 3):
        assert lines[number - 1].startswith("round %d of 3: game over after " % number)
        assert "R (easy) " in lines[number - 1] and "G (easy) " in lines[number - 1]
    assert lines[3].startswith("match: ")


def test_match_line_names_the_winner_ties_and_points():
    match = type("M", (), {})()
    names = ["Red (hard)", "Green (medium)"]
    for won, points, winners, line in (
            ((1, 2), (50, 70), (1,), "match: Green (medium) wins 2-1"),
            ((2, 2), (90, 80), (0,), "match: Red (hard) wins 2-2 on points 90-80"),
            ((1, 1), (64, 64), (0, 1),
             "match: shared by Red (hard) and Green (medium), 1-1 on points 64-64")):
        match.rounds_won, match.points = won, points
        match.winners = lambda winners=winners: winners
        assert match_line(match, names) == line


def test_no_file_is_written_over_another_options_file(tmp_path, capsys):
    record, picture = tmp_path / "game.png", tmp_path / "link.png"
    os.symlink(str(record), str(picture))
    words = one_line_error(GAME + ["--record", str(record), "--screenshot", str(picture)],
                           capsys)
    assert words.endswith("--record and --screenshot are the same file: %s" % picture)
    settings = tmp_path / "settings.toml"
    settings.write_text('ROLIT_LAYOUT = "rows"\n')
    words = one_line_error(GAME + ["--record", str(settings), "--screenshot",
                                   str(tmp_path / "x.png"), "--settings", str(settings)], capsys)
    assert "--record and --settings are the same file" in words
    assert settings.read_text() == 'ROLIT_LAYOUT = "rows"\n'
    path, _ = _record(tmp_path)
    assert cli.main(["--headless", "--replay", str(path), "--players", "easy,easy",
                     "--record", str(path)]) == 0
    assert Game.from_record(path.read_text()).over  # played on, the longer record kept


@pytest.mark.parametrize("content, words", [
    (b"", "empty file"),
    (b"\n  \n", "empty file"),
    (b"c3 b2 a1\n", "not a game record: it needs a header such as `First: green`"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00", "not a game record: it needs a header"),
    (bytes(range(128, 256)), "not a game record: it needs a header"),
])
def test_the_simulator_and_the_browser_say_the_same_about_a_file(tmp_path, capsys, content,
                                                                 words):
    from web import page
    path = tmp_path / "file.txt"
    path.write_bytes(content)
    message = one_line_error(["--headless", "--players", "easy,easy", "--replay", str(path)],
                             capsys)
    assert message.startswith("python -m sim: %s: " % path) and words in message
    stored = {}
    browser = page.Page(stored.get, stored.__setitem__, seed=1)
    # the browser reads a file with File.text(): UTF-8, bytes that are not become U+FFFD
    said = browser.load_record(content.decode("utf-8", "replace"))
    assert said == message[len("python -m sim: %s: " % path):]
    assert words in said


# -- the writers -------------------------------------------------------------------------------

def test_a_write_that_fails_half_way_leaves_the_old_file_and_no_temporary(tmp_path):
    from sim.userfiles import write_atomically, write_new
    target = tmp_path / "game.txt"
    target.write_text("the last good record\n")

    def half(path):
        with open(path, "w") as file:
            file.write("half a rec")
        raise OSError(28, "No space left on device")
    for writer in (write_atomically, write_new):
        with pytest.raises(OSError):
            writer(str(tmp_path / "fresh.txt") if writer is write_new else str(target), half)
        assert target.read_text() == "the last good record\n"
        assert os.listdir(str(tmp_path)) == ["game.txt"]
    assert write_new(str(target), lambda path: open(path, "w").close()) is False
    assert target.read_text() == "the last good record\n"
    assert os.listdir(str(tmp_path)) == ["game.txt"]


def test_a_game_from_the_command_line_never_replaces_an_unfinished_saved_game(tmp_path, capsys):
    store = tmp_path / "rolit.sav"
    app = App(storage=FileStorage(str(store)), seed=1, levels=LEVELS)
    app.start(seats=("human", "hard"))  # saved at once: a person to move
    before = store.read_bytes()
    assert cli.main(GAME + ["--size", "4", "--storage", str(store)]) == 0
    assert store.read_bytes() == before  # the unfinished game is still there
    assert not App(storage=FileStorage(str(store))).match.over
    err = capsys.readouterr().err
    assert "Nothing is saved this run, so that the unfinished game in %s is kept" % store in err


def test_storage_takes_the_handhelds_own_save_file(tmp_path):
    from hardware.storage import frame
    device_file = tmp_path / "rolit.sav"
    device_file.write_bytes(frame(_save_bytes(), seq=3))
    FileStorage(str(device_file)).check()
    app = App(storage=FileStorage(str(device_file)))
    assert app.error is None and app.match is not None and not app.match.over


def test_a_round_that_could_not_be_kept_stays_said_and_is_tried_again(tmp_path, monkeypatch):
    from sim import recorder as recorder_module
    record = str(tmp_path / "game.txt")
    app = App(seed=2, levels=LEVELS)
    app.start(seats=("easy", "easy"), rounds=2, size=4)
    recorder = cli.Recorder(record)
    device = Device(app)
    real = recorder_module.write_new

    def full(path, write):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(recorder_module, "write_new", full)
    now = play_until(app, device, recorder,
                     lambda: app.match.round == 2 and len(app.game.board.moves) >= 2)
    assert "record of round 1 not written" in recorder.failure  # the later moves do not hide it
    monkeypatch.setattr(recorder_module, "write_new", real)
    play_until(app, device, recorder, lambda: len(app.game.board.moves) >= 3, now)
    assert recorder.failure is None and os.path.exists(record + ".round1")
