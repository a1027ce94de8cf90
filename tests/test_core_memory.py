"""The rules core's heap on MicroPython: what it allocates (the WebAssembly runner, where nothing is
collected within a run, so ``gc.mem_alloc()`` differences are bytes allocated), and a whole game
with at most 64 KiB of heap: on the real firmware of the emulated Pico (skipped without a UF2,
required by .ci/run) and, where a 32-bit MicroPython unix port is at hand (``$MICROPYTHON``), in
a 64 KiB heap there. How the figures were found: docs/memory.md."""

import os
import subprocess

import pytest

from firmware_gate import require_emulator
from micropython import ROOT, run_micropython

# Allocation per step, printed as "name bytes" lines.
ALLOCATION = r"""
import gc
from rolit_core import Game
from rolit_core.rng import Random


def allocated(since):
    return gc.mem_alloc() - since


start = gc.mem_alloc()
game = Game(players=4, first="red", seed=3)
print("first-game", allocated(start))
rng = Random(5)
start = gc.mem_alloc()
while not game.over:
    moves = game.legal_moves()
    game.play(moves[rng.below(len(moves))])
print("playing", allocated(start))
start = gc.mem_alloc()
text = game.record()
print("record", allocated(start))
print("record-length", len(text))
"""


@pytest.fixture(scope="module")
def allocation():
    out = run_micropython(ALLOCATION)
    return dict((name, int(value)) for name, value in (line.split() for line in out.splitlines()))


def test_the_first_8x8_game_builds_its_tables_without_tuples_of_every_ray(allocation):
    # Rays as ranges, tables built in place, no neighbour tuples: 14.1 KB here, 44.8 KB with a
    # tuple per ray and per cell's neighbours, built from lists that grew.
    assert allocation["first-game"] < 24 * 1024


def test_a_whole_game_allocates_no_growing_lists(allocation):
    # Undo trail and move list made with their room: 5.8 KB over a 60-move game here, 7.1 KB
    # when they grew by doubling (the rest is the lists of moves and turned balls it returns).
    assert allocation["playing"] < 6400


def test_a_record_is_built_without_a_second_copy_of_the_text(allocation):
    # 5.7 KB for a 636-character record here; 12.2 KB with a list of move pairs, cell names
    # made one by one and the text copied again to add the final newline.
    assert allocation["record-length"] > 600
    assert allocation["record"] < 8 * 1024


# The target of docs/memory.md: import, an 8x8 board, a full random 4-player game and its record.
IN_64K = r"""
import gc
from rolit_core import Game
from rolit_core.rng import Random
rng = Random(5)
game = Game(players=4, first="red", seed=3)
while not game.over:
    moves = game.legal_moves()
    game.play(moves[rng.below(len(moves))])
text = game.record()
gc.collect()
print("OK", len(game.moves), len(text), gc.mem_alloc())
"""


def unix_micropython():
    """The 32-bit MicroPython unix port named by ``$MICROPYTHON``, or None."""
    path = os.environ.get("MICROPYTHON")
    if not path or not os.access(path, os.X_OK):
        return None
    bits = subprocess.run(["file", "-b", path], capture_output=True, text=True).stdout
    return path if "32-bit" in bits else None


@pytest.mark.skipif(unix_micropython() is None,
                    reason="needs a 32-bit MicroPython unix port in $MICROPYTHON (bench/memory.py "
                           "says how to build one)")
@pytest.mark.parametrize("kilobytes", [64, 72, 80, 88, 96])
def test_the_rules_core_plays_a_whole_game_in_a_64_kib_heap(tmp_path, kilobytes):
    script = tmp_path / "core.py"
    script.write_text(IN_64K)
    done = subprocess.run([unix_micropython(), "-X", "heapsize=%dK" % kilobytes, str(script)],
                          cwd=ROOT, env=dict(os.environ, MICROPYPATH=ROOT), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("OK 60 ")

# The same on the real CircuitPython firmware of the emulated Pico (bench.device.run_on_chip: a
# blob is allocated first so that at most 64 KiB of heap are free when the game's code starts).
ON_THE_CHIP = r"""
from rolit_core import Game
from rolit_core.rng import Random
rng = Random(5)
game = Game(players=4, first="red", seed=3)
while not game.over:
    moves = game.legal_moves()
    game.play(moves[rng.below(len(moves))])
    sample()
fig("moves", len(game.moves))
fig("record", len(game.record()))
"""


@pytest.fixture(scope="module")
def chip():
    require_emulator()
    from bench.device import run_on_chip

    return run_on_chip


@pytest.mark.slow
def test_the_rules_core_plays_a_whole_game_with_64_kib_free_on_the_emulated_chip(chip):
    result = chip(ON_THE_CHIP, free_kb=64, timeout_ms=120000)
    assert result.ok, result.problem + "\n" + result.console[-1500:]
    assert 60 * 1024 <= result.figures["free_start"] <= 64 * 1024
    assert result.figures["moves"] == 60
    assert result.figures["record"] > 600
