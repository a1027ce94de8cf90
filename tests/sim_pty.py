"""Running ``python -m sim`` (or ``make play``) in a real pseudo-terminal that is its controlling
terminal, so a Ctrl-C typed there reaches it as SIGINT, exactly as at a keyboard; and a small
terminal model to read back what it drew."""

import atexit
import fcntl
import os
import pty
import re
import select
import signal
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA_HOME = tempfile.mkdtemp(prefix="rolit-test-data-")  # never the user's own saved game
atexit.register(shutil.rmtree, DATA_HOME, True)


def default_sigint():
    """Give this process SIGINT's default action, as at a terminal's keyboard: a shell starts
    background jobs (`make test &`, a CI runner's) with SIGINT ignored, and children inherit
    that. For ``preexec_fn`` of a program a test stops with Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def environment(**changes):
    """The environment for a run: no display unless given, a private user data folder, and
    nothing of an outer ``make`` (its jobserver)."""
    env = dict(os.environ, COLORTERM="truecolor", TERM="xterm-256color", XDG_DATA_HOME=DATA_HOME)
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "MAKEFLAGS", "MFLAGS",
                 "MAKELEVEL"):
        env.pop(name, None)
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


class Run:
    """A process on a fresh pty that is its controlling terminal (``\\x03`` written to the
    master is a real Ctrl-C). Use as a context manager; it kills what is left at the end."""

    def __init__(self, argv, env=None, rows=24, columns=80, cwd=ROOT):
        self.master, self.slave = pty.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.before = termios.tcgetattr(self.slave)
        slave = self.slave

        def controlling_terminal():
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            default_sigint()

        self.process = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd,
                                        env=env or environment(),
                                        preexec_fn=controlling_terminal)
        self.output = ""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.process.poll() is None:
            os.killpg(self.process.pid, 9)
            self.process.wait(5)
        os.close(self.master)
        os.close(self.slave)
        return False

    def read(self, seconds):
        """Everything written in the next ``seconds`` (also kept in ``output``)."""
        out = b""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    out += os.read(self.master, 65536)
                except OSError:
                    break
        text = out.decode("utf-8", "replace")
        self.output += text
        return text

    def until(self, text, seconds):
        """Read until ``text`` has appeared (then a little more); True if it did."""
        end = time.monotonic() + seconds
        while text not in self.output and time.monotonic() < end:
            self.read(0.1)
        self.read(0.3)
        return text in self.output

    def send(self, data):
        os.write(self.master, data)

    def wait(self, seconds):
        """The exit status, reading the output meanwhile (a full pty would block it)."""
        end = time.monotonic() + seconds
        while self.process.poll() is None and time.monotonic() < end:
            self.read(0.1)
        self.read(0.2)
        return self.process.wait(max(0.1, end - time.monotonic()))

    def restored(self):
        return termios.tcgetattr(self.slave) == self.before


def sim(*args):
    return [sys.executable, "-m", "sim"] + list(args)


class Screen:
    """Just enough of a terminal to read back text: cursor moves, erasing, the alternate
    screen, and the characters written (colours ignored)."""

    def __init__(self, rows=24, columns=80):
        self.rows, self.columns = rows, columns
        self.cells = {}
        self.row = self.col = 1

    def feed(self, text):
        pattern = r"\x1b\[([0-9;?>]*)([A-Za-z@])|\x1b[^\[]|([^\x1b])"
        for match in re.finditer(pattern, text):
            params, final, char = match.groups()
            if char is not None:
                if char == "\r":
                    self.col = 1
                elif char == "\n":
                    self.row += 1
                elif char >= " ":
                    self.cells[(self.row, self.col)] = char
                    self.col += 1
            elif final == "H":
                parts = (params or "1;1").split(";")
                self.row = int(parts[0] or 1)
                self.col = int(parts[1] or 1) if len(parts) > 1 else 1
            elif final == "J":
                if params == "2" or (params or "").startswith("?"):
                    self.cells = {}
                else:  # from the cursor to the end of the screen
                    for key in list(self.cells):
                        if key[0] > self.row or (key[0] == self.row and key[1] >= self.col):
                            del self.cells[key]
            elif final == "K":
                for key in list(self.cells):
                    if key[0] == self.row and (params == "2" or key[1] >= self.col):
                        del self.cells[key]
            elif final in ("h", "l") and params in ("?1049", "?47"):
                self.cells = {}

    def lines(self):
        """The screen as text lines (trailing spaces dropped)."""
        out = []
        for row in range(1, self.rows + 1):
            line = "".join([self.cells.get((row, col), " ")
                            for col in range(1, self.columns + 1)])
            out.append(line.rstrip())
        return out

    def text(self):
        return "\n".join(self.lines())
