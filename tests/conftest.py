import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in (ROOT, os.path.join(ROOT, "tests")):
    if path not in sys.path:
        sys.path.insert(0, path)

import pytest  # noqa: E402


@pytest.fixture
def no_book(monkeypatch):
    """The computer players search from the first move: the opening book (rolit_core/book.py)
    answers nothing, for tests of the search's slices and pacing in the opening."""
    from rolit_core import ai

    monkeypatch.setattr(ai, "_book_move", lambda game, moves, rng: -1)
    monkeypatch.setattr(ai, "_open_book", lambda game: None)


# -- the game's files as the run found them ----------------------------------------------------
# Every deploy in a run (sim.deploy, and the emulated chips' drives built with it) reads a copy
# of the game's files taken when the run began, so the code the emulated chips boot is the code
# this process imported even if the checkout changes while the run goes on (an editor saving,
# another tool rewriting a file). The run's summary names each file that changed, and during
# which test it was first seen changed. Subprocesses (``python -m sim.deploy``) read the checkout.

GAME_FILES = ("rolit_core", "hardware", "code.py")
_run = {}


def _stats():
    found = {}
    for part in GAME_FILES:
        top = os.path.join(ROOT, part)
        paths = [top] if os.path.isfile(top) else [
            os.path.join(base, name) for base, folders, names in os.walk(top)
            if "__pycache__" not in base for name in names if not name.endswith(".pyc")]
        for path in paths:
            try:
                stat = os.stat(path)
                found[os.path.relpath(path, ROOT)] = (stat.st_size, stat.st_mtime_ns)
            except OSError:
                found[os.path.relpath(path, ROOT)] = None
    return found


def pytest_sessionstart(session):
    import tempfile

    from sim import deploy
    from tree_copy import copy_parts

    copy = tempfile.mkdtemp(prefix="rolit-run-")
    copy_parts(ROOT, GAME_FILES, copy)
    _run.update(copy=copy, root=deploy.ROOT, stats=_stats(), changed={})
    deploy.ROOT = copy


def pytest_runtest_logfinish(nodeid, location):
    if "stats" not in _run:
        return
    start, now = _run["stats"], _stats()
    for name in set(start) | set(now):  # changed, made or removed
        if now.get(name) != start.get(name) and name not in _run["changed"]:
            _run["changed"][name] = nodeid


def pytest_terminal_summary(terminalreporter):
    if not _run.get("changed"):
        return
    terminalreporter.section("game files changed during the run")
    terminalreporter.write_line("The deploys of this run used the files as the run began; these "
                                "changed in the checkout meanwhile:")
    now = _stats()
    for name, nodeid in sorted(_run["changed"].items()):
        was = _run["stats"].get(name)
        terminalreporter.write_line("  %s: %s at the start, %s now (first seen after %s)" % (
            name, "%d B" % was[0] if was else "absent",
            "%d B" % now[name][0] if now.get(name) else "absent", nodeid))


def pytest_sessionfinish(session):
    import shutil

    from sim import deploy

    if "copy" in _run:
        deploy.ROOT = _run["root"]
        shutil.rmtree(_run["copy"], ignore_errors=True)
