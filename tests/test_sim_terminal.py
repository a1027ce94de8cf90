"""Terminal mode: key decoding, emulated releases, and the real program in a pseudo-terminal."""

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time

from rolit_core.app import BACK, DOWN, LEFT, RIGHT, SELECT, UP
from sim.terminal import INTERRUPT, QUIT, TermKeys, decode, xterm256
from sim_pty import DATA_HOME  # a private user data folder: the tests never touch yours

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def keys_of(text):
    pairs, rest = decode(text)
    assert all(kind is None for _, kind in pairs)
    return [key for key, _ in pairs], rest


def test_decode_keys_and_partial_sequences():
    keys, rest = keys_of("\x1b[A\x1bOBwasd \r\x7fq")
    assert keys == [UP, DOWN, UP, LEFT, DOWN, RIGHT, SELECT, SELECT, BACK, QUIT]
    assert rest == ""
    assert keys_of("\x1b[") == ([], "\x1b[")       # wait for the rest of the sequence
    assert keys_of("\x1b") == ([], "\x1b")         # a lone ESC: decided by a short timeout
    assert keys_of("\x1b\x1b[C") == ([BACK, RIGHT], "")
    assert keys_of("\x1b[1;5D") == ([LEFT], "")    # Ctrl+arrow still moves
    assert keys_of("\x1b[?62;22c\x1b[?0u") == ([], "")  # replies to queries are not keys


def test_decode_kitty_protocol_events():
    pairs, rest = decode("\x1b[13u\x1b[13;1:2u\x1b[13;1:3u\x1b[1;1:3A\x1b[119u\x1b[99;5u")
    assert pairs == [(SELECT, "press"), (SELECT, "repeat"), (SELECT, "release"),
                     (UP, "release"), (UP, "press"), (INTERRUPT, "press")]
    keys = TermKeys()
    for key, kind in pairs[:3]:
        keys.key(key, 0, kind)
    assert keys.take(5000) == [(SELECT, True), (SELECT, False)]  # exact, no emulated release


def test_emulated_release():
    keys = TermKeys(tap_ms=120, hold_ms=700, repeat_gap_ms=150)
    keys.key(RIGHT, 0)
    assert keys.take(0) == [(RIGHT, True)]
    assert keys.take(100) == []
    assert keys.take(130) == [(RIGHT, False)]      # a tap is released after tap_ms
    keys.key(DOWN, 200)
    assert keys.take(200) == [(DOWN, True)]
    for t in range(300, 1500, 33):                 # the terminal's auto-repeat keeps it held
        keys.key(DOWN, t)
        assert keys.take(t) == []
    assert keys.take(1700) == [(DOWN, False)]
    keys.key(BACK, 2000)  # legacy input: BACK held past the App's 600 ms
    assert keys.take(2600) == [(BACK, True)]       # BACK stays down past the App's 600 ms hold
    keys.key(SELECT, 2650)                         # another key: pressed first, then BACK up
    assert keys.take(2650) == [(SELECT, True), (BACK, False)]


def test_xterm256_fallback():
    assert xterm256((255, 0, 0)) == 196
    assert xterm256((0, 0, 0)) == 16
    assert 232 <= xterm256((128, 128, 128)) <= 255


class Screen:
    """Just enough of a terminal to read back the cell colours the simulator draws."""

    def __init__(self):
        self.cells = {}
        self.row = self.col = 1
        self.background = None

    def feed(self, text):
        for match in re.finditer(r"\x1b\[([0-9;?]*)([A-Za-z])|([^\x1b])", text):
            params, final, char = match.groups()
            if char is not None:
                if char not in "\r\n":
                    self.cells[(self.row, self.col)] = self.background
                    self.col += 1
            elif final == "H":
                parts = (params or "1;1").split(";")
                self.row, self.col = int(parts[0] or 1), int(parts[1] if len(parts) > 1 else 1)
            elif final == "m":
                values = [int(v) for v in params.split(";") if v] or [0]
                if values[:2] == [48, 2]:
                    self.background = tuple(values[2:5])
                elif values == [0]:
                    self.background = None


def spawn(*args):
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    termios.tcsetattr(slave, termios.TCSANOW, termios.tcgetattr(slave))
    env = dict(os.environ, COLORTERM="truecolor", TERM="xterm-256color", XDG_DATA_HOME=DATA_HOME)
    env.pop("DISPLAY", None)
    process = subprocess.Popen([sys.executable, "-m", "sim", "--terminal"] + list(args),
                               stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env,
                               start_new_session=True)
    return process, master, slave


def read_for(master, seconds):
    out = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.05)
        if ready:
            try:
                out += os.read(master, 65536)
            except OSError:
                break
    return out.decode("utf-8", "replace")


def read_until(master, text, seconds):
    """Output until ``text`` has appeared (then a little more, for the frame to finish)."""
    output = ""
    end = time.monotonic() + seconds
    while text not in output and time.monotonic() < end:
        output += read_for(master, 0.1)
    return output + read_for(master, 0.3)


def read_to_exit(master, process, seconds=30):
    """The output until ``process`` has exited (and what it wrote last): a busy machine may
    take longer than any fixed wait to close the terminal down."""
    out = ""
    end = time.monotonic() + seconds
    while process.poll() is None and time.monotonic() < end:
        out += read_for(master, 0.1)
    return out + read_for(master, 0.2)


def wait_for(master, check, seconds):
    """Drain the output until ``check()`` is true or ``seconds`` pass; returns ``check()``."""
    end = time.monotonic() + seconds
    while not check() and time.monotonic() < end:
        read_for(master, 0.1)
    return check()


def board_colours(screen):
    """The 64 LED colours: after the 3-column row labels, LEDs two columns wide every third
    column, on every other line."""
    rows = sorted(set([r for (r, c), bg in screen.cells.items() if bg is not None]))
    top = rows[0] + 1
    left = min([c for (r, c) in screen.cells if r == top + 1]) + 3
    return [screen.cells.get((top + 2 * y, left + 3 * x)) for y in range(8) for x in range(8)]


def test_leds_are_separated_by_the_panel():
    from sim.terminal import FRAME, render
    colours = [(255, 255, 255)] * 64
    screen = Screen()
    screen.feed(render(colours, {"size": 8}, 80, 24, True))
    rows = sorted(set([r for (r, c), bg in screen.cells.items() if bg is not None]))
    top = rows[0] + 1
    left = min([c for (r, c) in screen.cells if r == top + 1]) + 3
    assert screen.cells[(top, left)] == screen.cells[(top, left + 1)] == (255, 255, 255)
    assert screen.cells[(top, left + 2)] == FRAME        # a column of panel between LEDs
    assert screen.cells[(top + 1, left)] == FRAME        # a line of panel between rows
    assert board_colours(screen) == [(255, 255, 255)] * 64


def test_terminal_mode_in_a_pty_plays_and_restores_the_terminal(tmp_path):
    record = tmp_path / "game.txt"
    process, master, slave = spawn("--players", "human,easy", "--first", "red", "--seed", "4",
                                   "--record", str(record))
    before = termios.tcgetattr(slave)
    try:
        output = read_until(master, "WASD move", 15)
        assert "\x1b[?1049h" in output and "\x1b[?25l" in output  # alternate screen, no cursor
        screen = Screen()
        screen.feed(output)
        colours = board_colours(screen)
        # The start position in true colour: d5 blue, e5 green (c6 is an unlit LED).
        d5, e5, c6 = colours[4 * 8 + 3], colours[4 * 8 + 4], colours[5 * 8 + 2]
        assert d5[2] > max(d5[0], d5[1]) + 40 and e5[1] > max(e5[0], e5[2]) + 40
        assert c6 == (24, 24, 28)
        # Enter plays the cell under the cursor; if that one is not legal (a flash), step
        # right and try again: some cell in the row around the start is legal for red.
        assert "1." not in record.read_text()
        for attempt in range(8):
            os.write(master, b"\r")
            if wait_for(master, lambda: "1. R " in record.read_text(), 2):
                break
            os.write(master, b"\x1b[C")
            read_for(master, 0.3)
        assert re.search(r"1\. R [a-h][1-8]", record.read_text())
        os.write(master, b"q")
        tail = read_to_exit(master, process)
        assert process.wait(5) == 0
        assert tail.endswith("\x1b[?1049l") and "\x1b[?25h" in tail
        assert termios.tcgetattr(slave) == before
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
        os.close(slave)


def test_terminal_is_restored_on_sigterm():
    process, master, slave = spawn("--players", "easy,easy", "--seed", "2")
    before = termios.tcgetattr(slave)
    try:
        read_until(master, "WASD move", 15)
        assert termios.tcgetattr(slave) != before  # cbreak mode while running
        process.send_signal(signal.SIGTERM)
        tail = read_to_exit(master, process)
        assert process.wait(5) == 128 + signal.SIGTERM
        assert "\x1b[?1049l" in tail
        assert termios.tcgetattr(slave) == before
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
        os.close(slave)


def test_kitty_terminal_gets_exact_holds(tmp_path):
    """A terminal that answers the keyboard-flags query gets the protocol switched on; then a
    held Enter previews (nothing played) until its release arrives, as on the device."""
    record = tmp_path / "game.txt"
    process, master, slave = spawn("--players", "human,easy", "--first", "red", "--seed", "4",
                                   "--record", str(record))
    try:
        assert "\x1b[?u" in read_until(master, "\x1b[?u", 15)
        os.write(master, b"\x1b[?0u\x1b[?62;22c")  # kitty flags 0, then device attributes
        output = read_until(master, "\x1b[>11u", 15)
        assert "\x1b[>11u" in output
        # The cursor starts each human turn on a legal cell, so one press plays. The wait for
        # the move is only a bound: a loaded machine may take seconds to draw and record it
        # (a short window and then another press would see the late move on the retry).
        os.write(master, b"\x1b[13u")                # Enter down...
        read_for(master, 1.0)
        assert "1. R" not in record.read_text()      # ...held for a second: only a preview
        os.write(master, b"\x1b[13;1:3u")            # Enter up: placed
        assert wait_for(master, lambda: "1. R " in record.read_text(), 60)
        os.write(master, b"\x1b[113u")  # q
        tail = read_to_exit(master, process)
        assert process.wait(5) == 0
        assert "\x1b[<u" in tail  # protocol switched off again
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
        os.close(slave)


def test_render_in_true_colour_and_256_colours_and_small_terminals():
    from sim.terminal import render
    colours = [(0, 0, 0)] * 64
    colours[9] = (255, 0, 0)
    screen = Screen()
    screen.feed(render(colours, {"size": 8, "status": ("hello",)}, 80, 24, True))
    assert board_colours(screen)[9] == (255, 0, 0)
    assert board_colours(screen)[0] == (24, 24, 28)
    assert "\x1b[48;5;196m" in render(colours, {}, 80, 24, False)
    assert "at least" in render(colours, {}, 15, 24, True)


def test_unknown_terminal_size_counts_as_80x24():
    from sim.terminal import terminal_size
    master, slave = pty.openpty()  # a fresh pty says 0x0, as some SSH sessions do
    try:
        with open(slave, "w", closefd=False) as stream:
            assert terminal_size(stream) == (80, 24)
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        with open(slave, "w", closefd=False) as stream:
            assert terminal_size(stream) == (100, 30)
    finally:
        os.close(master)
        os.close(slave)


def test_render_marks_the_cursor_and_leaves_no_stale_lines():
    from sim.terminal import HELP_LINE, render
    from sim_pty import Screen as TextScreen
    colours = [(0, 0, 0)] * 64
    colours[3 * 8 + 2] = (20, 20, 20)  # the cursor's LED, blinking near black on an illegal cell
    screen = TextScreen()
    seats = [((1,), "Red", 2, True), ((3,), "Green", 2, False)]
    screen.feed(render(colours, {"size": 8, "status": ("Paused", "Board 8x8, move 3"),
                                 "seats": seats, "prompt": "up/down: choose"}))
    screen.feed(render(colours, {"size": 8, "status": ("Board 8x8, move 3",), "seats": seats,
                                 "cursor": (2, 3, False)}))
    text = screen.text()
    assert text.count(HELP_LINE) == 1 and "up/down" not in text and "Paused" not in text
    row = [line for line in screen.lines() if line.strip().startswith("4")][0]
    header = [line for line in screen.lines() if line.strip().startswith("a  b")][0]
    assert row.index("[  ]") + 1 == header.index("c")  # round c4's LED, on both sides


def test_ctrl_c_from_a_kitty_terminal_exits_130():
    process, master, slave = spawn("--players", "human,easy", "--seed", "4")
    before = termios.tcgetattr(slave)
    try:
        assert "\x1b[?u" in read_until(master, "\x1b[?u", 15)
        os.write(master, b"\x1b[?0u\x1b[?62;22c")
        read_for(master, 1)
        os.write(master, b"\x1b[99;5u")  # Ctrl-C as the kitty protocol reports it
        tail = read_to_exit(master, process)
        assert process.wait(5) == 130
        assert "\x1b[<u" in tail and "Traceback" not in tail
        assert termios.tcgetattr(slave) == before
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
        os.close(slave)


# -- odd and random input never ends the game ------------------------------------------------------

def test_odd_escape_sequences_are_ignored():
    # Alt+Shift+O then the superscript-two key of an AZERTY keyboard; the same in a modifier
    for text in ("\x1bO\u00b2u", "\x1b[1;\u00b2A", "\x1b[\u0662u", "\x1b[13;\u00b2:3u",
                 "\x1b[" + "9" * 5000 + "u", "\x1b[1;" + "9" * 5000 + "A"):
        assert decode(text) == ([], ""), repr(text)
    assert decode("\x1bO\u00b2u\r") == ([(SELECT, None)], "")  # the keys after it still count


def test_an_escape_sequence_that_never_ends_is_not_kept_for_ever():
    pairs, rest = decode("\x1b[" + "1;" * 40)
    assert pairs == [] and rest == ""
    pairs, rest = decode("\x1b[1;5")
    assert rest == "\x1b[1;5"  # a short unfinished one waits for the next read


def test_random_bytes_decode_without_an_exception():
    import random
    rng = random.Random(23)
    pieces = ["\x1b", "[", "O", ";", ":", "u", "A", "~", "?", "1", "3", "5", "9", "\u00b2",
              "\u0662", "\r", "q", " ", "\x03", "\x7f"]
    keys = TermKeys()
    now = 0
    for count in range(300000):
        if count % 2:
            data = bytes([rng.randrange(256) for _ in range(rng.randrange(1, 12))])
            text = data.decode("utf-8", "replace")
        else:
            text = "".join([rng.choice(pieces) for _ in range(rng.randrange(1, 12))])
        pairs, rest = decode(text)
        assert len(rest) <= 64 + 12
        for key, kind in pairs:
            if key not in (QUIT, INTERRUPT, "suspend"):
                keys.key(key, now, kind)
        now += 7
        keys.take(now)
