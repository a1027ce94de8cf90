"""Rules core: random full games (8x8, 4 players) through the public API, per second, on CPython and
under the MicroPython runner, and bytes allocated per game under MicroPython."""

import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

# The same loop for both interpreters: what a player of random moves does through the API.
GAMES = r"""
import gc, sys, time
from rolit_core import Game
from rolit_core.rng import Random

def play(seed, rng):
    game = Game(players=4, size=8, seed=seed)
    while not game.over:
        moves = game.legal_moves()
        game.play(moves[rng.below(len(moves))])
    return game

def run(count):
    rng = Random(1)
    play(0, rng)  # warm up
    gc.collect()
    micro = sys.implementation.name == "micropython"
    before = gc.mem_alloc() if micro else 0
    start = time.ticks_ms() if micro else time.perf_counter()
    for seed in range(count):
        play(seed, rng)
    if micro:
        seconds = time.ticks_diff(time.ticks_ms(), start) / 1000
        allocated = (gc.mem_alloc() - before) // count
    else:
        seconds = time.perf_counter() - start
        allocated = -1
    print(count, seconds, allocated)

run(int(sys.argv[1]))
"""


def cpython(count):
    namespace = {"__name__": "bench"}
    sys.argv[1:] = [str(count)]
    from io import StringIO
    import contextlib
    out = StringIO()
    with contextlib.redirect_stdout(out):
        exec(GAMES, namespace)
    games, seconds, _ = out.getvalue().split()
    return int(games) / float(seconds)


def _worker(count):
    return cpython(count)


def cpython_parallel(count, processes=2):
    # The machine class has two cores: independent games scale across processes.
    import multiprocessing
    with multiprocessing.Pool(processes) as pool:
        start = time.perf_counter()
        pool.map(_worker, [count] * processes)
        seconds = time.perf_counter() - start
    return processes * count / seconds


def micropython(count):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as handle:
        handle.write(GAMES)
    try:
        done = subprocess.run(["node", os.path.join(ROOT, "tools", "mpy_run.mjs"), "--tree", "rolit_core",
                               handle.name, str(count)], cwd=ROOT, capture_output=True, text=True,
                              check=True)
    finally:
        os.unlink(handle.name)
    games, seconds, allocated = done.stdout.split()
    return int(games) / float(seconds), int(allocated)


def main():
    best = max(cpython(1000) for _ in range(3))
    print("CPython %s: %.0f random 4-player 8x8 games/s (best of 3 runs of 1000, one core)"
          % (sys.version.split()[0], best))
    print("CPython, 2 processes: %.0f games/s in total" % cpython_parallel(1000))
    rate, allocated = micropython(200)
    print("MicroPython (WebAssembly runner): %.0f games/s, %d bytes allocated per game" % (rate, allocated))


if __name__ == "__main__":
    main()
