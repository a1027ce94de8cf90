"""Run Python code under a real MicroPython interpreter (tools/mpy_run.mjs, from npm)."""

import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNER = os.path.join(ROOT, "tools", "mpy_run.mjs")


class MicroPythonError(AssertionError):
    """The script raised under MicroPython; the message holds its traceback."""


def run_micropython(source, trees=("rolit_core",), files=(), args=(), timeout=600):
    """Run ``source`` (Python text) under MicroPython with the project folders ``trees`` (relative
    to the project root) importable. Returns what it printed; raises MicroPythonError on failure."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as handle:
        handle.write(source)
        script = handle.name
    try:
        command = ["node", RUNNER]
        for tree in trees:
            command += ["--tree", tree]
        for name in files:
            command += ["--file", name]
        command += [script] + [str(a) for a in args]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    finally:
        os.unlink(script)
    if done.returncode != 0:
        raise MicroPythonError("MicroPython failed (exit %d):\n%s%s"
                               % (done.returncode, done.stdout[-2000:], done.stderr[-4000:]))
    return done.stdout
