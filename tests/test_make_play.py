"""`make play` and Ctrl-C, in a real pseudo-terminal: quitting the game with Ctrl-C is not a
failed recipe (no make "Error 130"), and the status is what README.md says."""

import os
import shutil
import signal
import subprocess

import pytest

from sim_pty import ROOT, Run, environment

READY = "WASD move"  # the terminal mode's key help: it is drawing
ARGV = ["make", "-s", "play", "ARGS=--terminal --players human,easy --seed 1 --storage none"]


@pytest.fixture(autouse=True)
def make_play_ready():
    if shutil.which("make") is None or subprocess.run(
            ["make", "-q", ".venv/.installed"], cwd=ROOT, env=environment()).returncode != 0:
        pytest.skip("make, or an up-to-date .venv, is missing")


def descendants(pid):
    """The process ids below ``pid``, depth first."""
    found = []
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as children:
            for child in children.read().split():
                found.append(int(child))
                found.extend(descendants(int(child)))
    except OSError:
        pass
    return found


def the_game(pid):
    for child in descendants(pid):
        with open("/proc/%d/cmdline" % child, "rb") as cmdline:
            if b"-m\0sim\0" in cmdline.read():
                return child
    raise AssertionError("no python -m sim under make")


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to find the game's process")
def test_ctrl_c_that_reaches_only_the_game_ends_make_play_quietly():
    # as in a terminal that hands Ctrl-C to the program as a key (no signal for make)
    with Run(ARGV) as run:
        assert run.until(READY, 30)
        os.kill(the_game(run.process.pid), signal.SIGINT)
        status = run.wait(10)
        assert status == 0
        assert "Error" not in run.output and "Traceback" not in run.output
        assert run.restored()


def test_ctrl_c_typed_at_the_terminal_ends_make_play_with_130():
    with Run(ARGV) as run:
        assert run.until(READY, 30)
        run.send(b"\x03")  # SIGINT to make and the game alike
        status = run.wait(10)
        # make itself was interrupted: it ends killed by SIGINT, which a shell shows as 130
        assert status == -signal.SIGINT
        assert "Error 130" not in run.output and "Traceback" not in run.output
        assert run.restored()
