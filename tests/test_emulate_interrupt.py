"""Ctrl-C in ``python -m sim.emulate`` at every stage (Node.js starting, CircuitPython booting,
code.py running; the console and the terminal mode): exit status 130, no traceback, no Node.js
process left behind, and the ``--flash`` file saved whole. Each test boots a small code.py, not
the game, and stops within seconds of emulated time."""

import fcntl
import os
import pty
import signal
import subprocess
import sys
import termios
import threading
import time

import pytest

from firmware_gate import require_emulator
from sim_pty import default_sigint

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TICKS = b"import time\nwhile True:\n    print('tick')\n    time.sleep(0.2)\n"


@pytest.fixture
def flash(tmp_path):
    require_emulator()
    from sim.emulate import Emulator
    from sim.rp2040.images import write_flash_file

    path = tmp_path / "pico.bin"
    write_flash_file(str(path), Emulator(files={"code.py": TICKS}).flash_image())
    return path


def _host_of(pid, timeout=60):
    """The pid of the Node.js host ``pid`` started (waits for it)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % name) as handle:
                    parent = int(handle.read().rsplit(")", 1)[1].split()[1])
                with open("/proc/%s/cmdline" % name, "rb") as handle:
                    command = handle.read()
            except (OSError, ValueError, IndexError):
                continue
            if parent == pid and b"host.mjs" in command:
                return int(name)
        time.sleep(0.05)
    raise AssertionError("no Node.js host was started")


def _gone(pid, timeout=10):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with open("/proc/%d/stat" % pid) as handle:
                if handle.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True  # finished, waiting to be reaped by init
        except OSError:
            return True
        time.sleep(0.05)
    return False


def _start(args, terminal=False, env=None, **streams):
    """``python -m sim.emulate args`` in a session of its own (with ``terminal``, its stdin's
    pty as the controlling terminal: Ctrl-C there sends SIGINT to its process group)."""
    def prepare():
        if terminal:
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        default_sigint()

    return subprocess.Popen([sys.executable, "-m", "sim.emulate"] + args, cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=ROOT, **(env or {})),
                            start_new_session=not terminal, preexec_fn=prepare, **streams)


def _quit_cleanly(process, host, flash):
    """After the Ctrl-C: status 130, no traceback, no Node.js left, the flash file saved."""
    try:
        status = process.wait(60)
        err = process.stderr.read().decode()
    finally:
        if process.poll() is None:
            process.kill()
    assert status == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert _gone(host), "Node.js was left running"
    _check_saved(flash)


class _Reader(threading.Thread):
    def __init__(self, stream):
        super().__init__(daemon=True)
        self.stream = stream
        self.data = b""

    def run(self):
        for chunk in iter(lambda: self.stream.read1(4096), b""):
            self.data += chunk

    def wait_for(self, text, timeout):
        end = time.monotonic() + timeout
        while text not in self.data:
            assert time.monotonic() < end, self.data[-500:]
            time.sleep(0.05)


def _check_saved(flash):
    from sim.rp2040.images import read_flash_file
    from sim.rp2040.fat import read_files

    image = read_flash_file(str(flash))
    assert read_files(image[0x100000:0x200000])["code.py"] == TICKS
    assert sorted(os.listdir(flash.parent)) == ["pico.bin"]


@pytest.mark.parametrize("mode, stage", [("--console", "node starting"),
                                         ("--console", "booting"), ("--console", "running"),
                                         ("--window", "running")])
def test_ctrl_c_quits_with_130(flash, mode, stage):
    if mode == "--window":
        pytest.importorskip("pygame")
    process = _start(["--flash", str(flash), mode] + (["600"] if mode == "--console" else []),
                     env={"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    out = _Reader(process.stdout)
    out.start()
    try:
        host = _host_of(process.pid)
        if stage == "booting":
            time.sleep(1.5)
            assert b"tick" not in out.data
        elif stage == "running":
            out.wait_for(b"tick", 300)  # the console (printed beside the window)
        os.killpg(process.pid, signal.SIGINT)  # what the terminal does on Ctrl-C
    except BaseException:
        process.kill()
        raise
    _quit_cleanly(process, host, flash)


def test_ctrl_c_in_the_terminal_mode_quits_with_130(flash):
    master, slave = pty.openpty()
    process = _start(["--flash", str(flash), "--terminal"], terminal=True, stdin=slave,
                     stdout=slave, stderr=subprocess.PIPE)
    os.close(slave)
    screen = []
    reader = threading.Thread(target=lambda: _drain(master, screen), daemon=True)
    reader.start()
    try:
        host = _host_of(process.pid)
        end = time.monotonic() + 300
        while b"booting CircuitPython" not in b"".join(screen):
            assert time.monotonic() < end, b"".join(screen)[-500:]
            time.sleep(0.1)
        os.write(master, b"\x03")  # Ctrl-C on the keyboard
        _quit_cleanly(process, host, flash)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)


def _drain(fd, into):
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            return
        if not data:
            return
        into.append(data)
