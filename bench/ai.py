"""Computer players: thinking time per move and nodes per second, on CPython and under the
MicroPython runner, over fixed positions (2 and 4 players, 8x8, opening to endgame).

``python -m bench ai`` prints one line per level and interpreter (CPython: CPU time; the
MicroPython runner: its wall clock). Times on the device are measured
on the real firmware in the emulated RP2040 (``python -m bench.device --parts ai``), no longer
estimated from the runner's.
"""

import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The old estimate of an RP2040 + CircuitPython against the MicroPython runner on this PC; measured
# on the emulated chip it was 28 for hard (docs/ai.md). Kept for scripts that import it; the bench
# prints no estimate from it any more.
RP2040_FACTOR = 20

# Runs unchanged on CPython and MicroPython; prints "level moves mean_ms worst_ms nodes/move".
SCRIPT = """
import sys
import time
from rolit_core import Game
from rolit_core.ai import player
from rolit_core.rng import Random

try:
    ticks = time.ticks_ms
except AttributeError:
    # CPython: CPU time of this process, so that other jobs on the machine do not count.
    def ticks():
        return time.process_time() * 1000


def positions(players, count):
    found = []
    rng = Random(players)
    game = Game(players, 8, first="red")
    plies = (2, 10, 18, 26, 34, 42, 50, 56)
    while not game.over and len(found) < count:
        if len(game.moves) in plies:
            found.append(list(game.moves))
        game.play(rng.choice(game.legal_moves()))
    return found


def measure(level, players, count):
    total = 0
    worst = 0
    nodes = 0
    moves = 0
    for history in positions(players, count):
        game = Game(players, 8, first="red")
        for cell in history:
            game.play(cell)
        bot = player(level, seed=1)
        start = ticks()
        bot.choose(game)
        spent = ticks() - start
        total += spent
        worst = max(worst, spent)
        nodes += bot.nodes
        moves += 1
    print(level, players, moves, total / moves, worst, nodes / moves)


levels = sys.argv[1].split(",")
count = int(sys.argv[2])
for level in levels:
    for players in (2, 4):
        measure(level, players, count)
"""


def _report(name, lines):
    for line in lines.strip().split("\n"):
        level, players, moves, mean, worst, nodes = line.split()
        mean = float(mean)
        worst = float(worst)
        nodes = float(nodes)
        rate = "%8.0f nodes/s" % (nodes / mean * 1000) if mean and nodes else "       - nodes/s"
        text = "%-12s %-7s %dp: %8.1f ms/move  worst %8.1f ms  %7.0f nodes/move  %s" % (
            name, level, int(players), mean, worst, nodes, rate)
        print(text)
        sys.stdout.flush()


def main():
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as handle:
        handle.write(SCRIPT)
        script = handle.name
    try:
        env = dict(os.environ)
        env["PYTHONPATH"] = ROOT
        done = subprocess.run([sys.executable, script, "easy,medium,hard,expert", "8"],
                              cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        _report("CPython", done.stdout)
        sys.path.insert(0, os.path.join(ROOT, "tests"))
        from micropython import run_micropython
        with open(script) as handle:
            source = handle.read()
        _report("MicroPython", run_micropython(source, args=("easy,medium,hard", "8")))
        _report("MicroPython", run_micropython(source, args=("expert", "3")))
        print("on the device: python -m bench.device --parts ai (emulated RP2040, real firmware)")
    finally:
        os.unlink(script)


if __name__ == "__main__":
    main()
