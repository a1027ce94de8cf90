"""The real program in a real pseudo-terminal: Ctrl-C in every mode and through ``make play``,
a display that cannot be reached, the terminal's cursor and lines, and settings kept between
runs."""

import os
import shutil
import signal
import socket
import subprocess
import time

import pytest

from sim_pty import DATA_HOME, ROOT, Run, Screen, environment, sim

READY = "WASD move"  # the terminal mode's key help: it is drawing


def assert_quit_cleanly(run, status):
    assert status == 130
    assert "Traceback" not in run.output and "KeyboardInterrupt" not in run.output
    assert run.restored()


def test_ctrl_c_in_the_terminal_mode_quits_cleanly_with_130():
    with Run(sim("--terminal", "--players", "human,easy", "--seed", "1")) as run:
        assert run.until(READY, 20)
        run.send(b"\x03")
        status = run.wait(10)
        assert_quit_cleanly(run, status)
        assert "\x1b[?1049l" in run.output and "\x1b[?25h" in run.output  # screen, cursor back


def test_ctrl_c_in_the_window_quits_cleanly_with_130():
    env = environment(SDL_VIDEODRIVER="dummy")
    with Run(sim("--window", "--players", "easy,easy", "--seed", "1"), env=env) as run:
        run.read(3)  # the window runs its loop (the dummy driver shows nothing)
        assert run.process.poll() is None
        run.send(b"\x03")
        assert_quit_cleanly(run, run.wait(10))


def test_ctrl_c_headless_quits_cleanly_with_130(tmp_path):
    record = tmp_path / "match.txt"
    # expert thinks long: the match is still being played when Ctrl-C comes, however fast
    # the machine (hard against hard played seven rounds within the 3 s on an idle one)
    with Run(sim("--headless", "--players", "expert,expert", "--rounds", "3", "--seed", "1",
                 "--record", str(record))) as run:
        run.read(3)
        assert run.process.poll() is None
        run.send(b"\x03")
        assert_quit_cleanly(run, run.wait(10))
        assert "Size:" in record.read_text()  # the record so far is whole


def make_play_ready():
    """``make play`` runs without setting anything up first (or the test is skipped)."""
    if shutil.which("make") is None:
        return False
    return subprocess.run(["make", "-q", ".venv/.installed"], cwd=ROOT,
                          env=environment()).returncode == 0


def test_ctrl_c_through_make_play():
    if not make_play_ready():
        pytest.skip("make, or an up-to-date .venv, is missing")
    argv = ["make", "-s", "play", "ARGS=--terminal --players human,easy --seed 1"]
    with Run(argv) as run:
        assert run.until(READY, 30)
        run.send(b"\x03")
        status = run.wait(10)
        # make passes the interrupt on: it ends as killed by SIGINT (a shell shows 130)
        assert status in (130, -signal.SIGINT)
        assert "Traceback" not in run.output and "KeyboardInterrupt" not in run.output
        assert run.restored()


def display_55_is_free():
    if os.path.exists("/tmp/.X11-unix/X55"):
        return False
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", 6055)) != 0


def test_an_unreachable_display_falls_back_to_the_terminal_in_one_line():
    if not display_55_is_free():
        pytest.skip("something listens on display :55")
    env = environment(DISPLAY=":55")
    # --storage none: an unfinished game another test left would add its own line
    with Run(sim("--players", "human,easy", "--seed", "1", "--storage", "none"),
             env=env) as run:
        assert run.until(READY, 20), run.output
        lines = [line for line in run.output.split("\x1b[?1049h")[0].splitlines() if line]
        assert len(lines) == 1, lines  # only the reason, no SDL chatter
        assert "DISPLAY=:55 cannot be reached" in lines[0]
        assert "starting the terminal mode" in lines[0]
        run.send(b"q")
        assert run.wait(10) == 0 and run.restored()


def test_an_unreachable_display_with_window_asked_for_is_a_one_line_error():
    if not display_55_is_free():
        pytest.skip("something listens on display :55")
    env = environment(DISPLAY=":55")
    result = subprocess.run(sim("--window", "--players", "human,easy"), cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "python -m sim: cannot open a window: DISPLAY=:55 cannot be reached; SDL chose "
        "'offscreen', which shows nothing"]


def screen_of(run):
    screen = Screen()
    screen.feed(run.output)
    return screen.text()


def test_no_stale_lines_after_the_pause_menu_and_esc_resumes():
    with Run(sim("--terminal", "--players", "human,human", "--first", "red")) as run:
        assert run.until(READY, 20)
        run.send(b"\x1b")  # Esc, held (as a terminal can only emulate) opens the pause menu
        assert run.until("[Resume]", 5)
        assert "Paused" in screen_of(run)
        run.send(b"\r")     # Enter on "resume"
        assert until_screen(run, lambda text: "Paused" not in text and READY in text)
        text = screen_of(run)
        assert "Paused" not in text and "[Resume]" not in text
        assert text.count(READY) == 1, text   # the help line once, no stale copy below it
        run.send(b"\x1b")
        assert run.until("[Resume]", 5)
        run.output = ""
        run.send(b"\x1b")   # Esc in the pause menu resumes (and does not open it again)
        assert until_screen(run, lambda text: READY in text)
        run.read(1)         # (past the App's hold: a menu opened again would show now)
        text = screen_of(run)
        assert "[Resume]" not in run.output and text.count(READY) == 1, text
        run.send(b"q")
        assert run.wait(10) == 0


def until_screen(run, check, seconds=20):
    """Read until ``check(screen text)`` holds (then a little more, for the frame to finish);
    what it returns. Waits for what was drawn, not for a time that a busy machine overruns."""
    end = time.monotonic() + seconds
    while not check(screen_of(run)) and time.monotonic() < end:
        run.read(0.1)
    run.read(0.3)
    return check(screen_of(run))


def cursor_on_screen(run):
    """The board (x, y) between the cursor's brackets, from the screen as drawn."""
    screen = Screen()
    screen.feed(run.output)
    lines = screen.lines()
    header = [line for line in lines if line.strip().startswith("a  b")][0]
    for line in lines:
        if "[  ]" in line:
            row = int(line.strip()[0])
            column = (line.index("[  ]") + 1 - header.index("a")) // 3
            return column, row - 1
    return None


def test_the_cursor_is_marked_on_an_illegal_cell_and_the_reason_shown():
    with Run(sim("--terminal", "--players", "human,human", "--first", "red")) as run:
        assert run.until(READY, 20)
        # to a1, which touches no ball; one key at a time, each after the last one was drawn
        # and its tap was over (a burst of the same key is the terminal's auto-repeat, a held
        # key), however late the simulator gets to read them
        for key, axis in ((b"\x1b[D", 0), (b"\x1b[A", 1)):
            while cursor_on_screen(run)[axis] > 0:
                want = list(cursor_on_screen(run))
                want[axis] -= 1
                want = tuple(want)
                run.send(key)
                assert until_screen(run, lambda text: cursor_on_screen(run) == want), want
        assert cursor_on_screen(run) == (0, 0)
        run.send(b"\r")
        assert run.until("Not allowed", 5)
        run.read(1)  # the LED blinks dim white and dark: the brackets stay
        assert cursor_on_screen(run) == (0, 0)
        assert "Not allowed: a1 does not touch a ball" in screen_of(run)
        run.send(b"\x1b[C")
        assert until_screen(run, lambda text: cursor_on_screen(run) == (1, 0)
                            and "Not allowed" not in text)
        run.send(b"q")
        assert run.wait(10) == 0


def test_settings_are_kept_between_runs_in_the_user_data_folder():
    from rolit_core.app import App
    from sim.device import FileStorage
    data = os.path.join(DATA_HOME, "kept")
    env = environment(XDG_DATA_HOME=data)
    path = os.path.join(data, "rolit-handheld", "rolit.sav")
    with Run(sim("--terminal"), env=env) as run:
        assert run.until(READY, 20)
        run.send(b" ")            # past the title, into the menu's first page
        run.read(0.5)
        run.send(b"\x1b[B")       # down: the players page
        run.read(0.5)
        run.send(b"\x1b[C")       # right: 3 players
        assert run.until("Menu: players 3", 5)
        run.send(b"q")            # at once, before the menu has rested
        assert run.wait(10) == 0
    assert App(storage=FileStorage(path)).settings.players == 3
    with Run(sim("--terminal"), env=env) as run:
        assert run.until(READY, 20)
        run.send(b" ")
        run.read(0.5)
        run.send(b"\x1b[B")
        assert run.until("Menu: players 3", 5)   # remembered
        run.send(b"q")
        assert run.wait(10) == 0
    with Run(sim("--terminal", "--storage", "none"), env=environment(
            XDG_DATA_HOME=os.path.join(DATA_HOME, "unused"))) as run:
        assert run.until(READY, 20)
        run.send(b"q")
        assert run.wait(10) == 0
    assert not os.path.exists(os.path.join(DATA_HOME, "unused"))


def test_a_foreign_file_at_the_settings_path_is_shown_at_start_and_left_alone():
    data = os.path.join(DATA_HOME, "foreign")
    path = os.path.join(data, "rolit-handheld", "rolit.sav")
    os.makedirs(os.path.dirname(path))
    with open(path, "w") as file:
        file.write("RH: my own notes\n")
    with Run(sim("--terminal"), env=environment(XDG_DATA_HOME=data)) as run:
        assert run.until(READY, 20)
        # on the terminal's own screen, not only on stderr (which the game's screen covers)
        assert "delete it or use --storage" in screen_of(run)
        run.send(b"q")
        assert run.wait(10) == 0
    with open(path) as file:
        assert file.read() == "RH: my own notes\n"
    assert os.listdir(os.path.dirname(path)) == ["rolit.sav"]


def test_no_labels_hides_the_board_labels_in_the_terminal_too():
    shown = {}
    for argv in ((), ("--no-labels",)):
        with Run(sim("--terminal", "--players", "human,human", "--storage", "none",
                     *argv)) as run:
            assert run.until(READY, 20)
            shown[argv] = screen_of(run)
            run.send(b"q")
            assert run.wait(10) == 0
    assert "a  b  c  d  e  f  g  h" in shown[()]
    assert "a  b  c" not in shown[("--no-labels",)] and READY in shown[("--no-labels",)]
