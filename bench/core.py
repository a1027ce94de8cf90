"""Rules core: random full games (8x8, 4 players) through the public API, per second, on CPython and
under the MicroPython runner, and bytes allocated per game under MicroPython.

``python -m bench core --compare [REV]`` (``python -m bench.core --compare [REV]``) sets the rules
core of this tree against the one of git revision REV (default ``main``): both are imported into
one interpreter process and timed in interleaved rounds (ABBA order, so that a machine whose load
drifts slows both alike), on CPython and under the MicroPython runner. A change to a hot loop
is judged by the ratio it prints, not by two figures taken minutes apart on a shared machine.
``--chip`` runs the comparison on CircuitPython's firmware in the emulated Pico instead (about
ten minutes): emulated time, which the host's load does not change (the same games each round,
so the rounds agree to the millisecond) and the heap the tables of an 8x8 board
(``rolit_core.geometry``) keep."""

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


# Both rules cores in one process: ``rolit_core`` (this tree) and ``rolit_core_base`` (REV's,
# imported under another name; its modules import each other relatively). The same games for
# both: every round starts the random player from the same seed.
COMPARE = r"""
import gc, sys, time
micro = sys.implementation.name == "micropython"
names = sys.argv[1].split(",")
count = int(sys.argv[2])
rounds = int(sys.argv[3])
games = [__import__(name).Game for name in names]
from rolit_core.rng import Random

def clock():
    # CPython: the process's CPU time, which another job on a shared core does not add to.
    return time.ticks_ms() if micro else time.process_time() * 1000

def since(start):
    return time.ticks_diff(time.ticks_ms(), start) if micro else clock() - start

def run(Game, count):
    rng = Random(1)
    gc.collect()
    start = clock()
    for seed in range(count):
        game = Game(players=4, size=8, seed=seed)
        while not game.over:
            moves = game.legal_moves()
            game.play(moves[rng.below(len(moves))])
    return since(start)

for Game in games:
    run(Game, 2)  # warm up
for r in range(rounds):
    order = (0, 1) if r % 2 == 0 else (1, 0)
    for k in order:
        print(names[k], run(games[k], count))
"""


def _export(rev, folder):
    """REV's rolit_core into ``folder/rolit_core_base`` (git archive: no checkout needed)."""
    target = os.path.join(folder, "rolit_core_base")
    os.mkdir(target)
    archive = subprocess.run(["git", "-C", ROOT, "archive", rev, "rolit_core"], capture_output=True,
                             check=True).stdout
    import io
    import tarfile
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.endswith(".py"):
                name = os.path.basename(member.name)
                with open(os.path.join(target, name), "wb") as handle:
                    handle.write(tar.extractfile(member).read())
    return target


def compare(rev="main", cpython_games=100, micro_games=10, rounds=30):
    """``{interpreter: (this tree's ms, REV's ms, per-round ratios)}`` from interleaved rounds."""
    import shutil
    folder = tempfile.mkdtemp(prefix="rolit-compare-")
    try:
        _export(rev, folder)
        shutil.copytree(os.path.join(ROOT, "rolit_core"), os.path.join(folder, "rolit_core"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        script = os.path.join(folder, "compare.py")
        with open(script, "w") as handle:
            handle.write(COMPARE)
        names = "rolit_core,rolit_core_base"
        runs = {}
        for label, command, count in (
                ("CPython %s" % sys.version.split()[0], [sys.executable, script], cpython_games),
                ("MicroPython (WebAssembly runner)",
                 ["node", os.path.join(ROOT, "tools", "mpy_run.mjs"), "--tree", "rolit_core",
                  "--tree", "rolit_core_base", "compare.py"], micro_games)):
            done = subprocess.run(command + [names, str(count), str(rounds)], cwd=folder,
                                  capture_output=True, text=True, check=True)
            times = {"rolit_core": [], "rolit_core_base": []}
            for line in done.stdout.split("\n"):
                if line.strip():
                    name, ms = line.split()
                    times[name].append(float(ms))
            ratios = sorted(new / old for new, old in zip(times["rolit_core"],
                                                          times["rolit_core_base"]))
            runs[label] = (sum(times["rolit_core"]), sum(times["rolit_core_base"]), ratios, count)
        return runs
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# On the chip: the heap the tables of an 8x8 board keep (Geometry(8), built anew after the
# core's first board built its own) and emulated ms per round of random games, ABBA order.
# (What an import keeps is not compared: the first core imported interns the names both use.)
CHIP = r"""
names = ("rolit_core", "rolit_core_base")
games = []
for name in names:
    games.append(__import__(name).Game)
    geometry = __import__(name + ".geometry", None, None, ["Geometry"])
    games[-1](players=4, size=8, seed=0)
    gc.collect()
    before = gc.mem_free()
    tables = geometry.Geometry(8)
    gc.collect()
    fig(name + "-geometry-8x8", before - gc.mem_free())
    tables = None
    geometry = None
from rolit_core.rng import Random


def run(Game, count):
    rng = Random(1)
    gc.collect()
    start = us()
    for seed in range(count):
        game = Game(players=4, size=8, seed=seed)
        while not game.over:
            moves = game.legal_moves()
            game.play(moves[rng.below(len(moves))])
    return (us() - start) // 1000


for r in range(%(rounds)d):
    for k in ((0, 1) if r %% 2 == 0 else (1, 0)):
        print("@LIST %%s-%%d %%d" %% (names[k], r, run(games[k], %(count)d)))
"""


def compare_on_chip(rev="main", count=4, rounds=2):
    """``(figures, {name: [ms per round]})`` of this tree's rules core and REV's on the chip."""
    import shutil
    from bench import device
    folder = tempfile.mkdtemp(prefix="rolit-compare-")
    try:
        base = _export(rev, folder)
        files = dict(device.deployed_files())
        for name in os.listdir(base):
            with open(os.path.join(base, name), "rb") as handle:
                files["rolit_core_base/" + name] = handle.read()
        result = device.run_on_chip(CHIP % {"rounds": rounds, "count": count}, files=files,
                                    timeout_ms=3600000)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if not result.ok:
        raise SystemExit("bench core --compare --chip: %s\n%s" % (result.problem,
                                                                 result.console[-1500:]))
    times = {"rolit_core": [], "rolit_core_base": []}
    for key, values in result.lists.items():
        times[key.rsplit("-", 1)[0]].extend(values)
    return result.figures, times


def main_compare(argv):
    chip = "--chip" in argv
    argv = [word for word in argv if word != "--chip"]
    rev = argv[1] if len(argv) > 1 else "main"
    if chip:
        figures, times = compare_on_chip(rev)
        print("this tree (rolit_core) against %s (rolit_core_base) on the emulated Pico, "
              "CircuitPython's firmware, source deploy:" % rev)
        for name in ("rolit_core", "rolit_core_base"):
            print("%s: the tables of an 8x8 board keep %s B; random 4-player games: %s "
                  "emulated ms per round" % (name, figures[name + "-geometry-8x8"],
                      " ".join(str(ms) for ms in times[name])))
        new, old = sum(times["rolit_core"]), sum(times["rolit_core_base"])
        print("games: %+.1f%% emulated time against %s" % (100.0 * (new / old - 1), rev))
        return 0
    print("this tree against %s: interleaved rounds in one process per interpreter (load %.1f)"
          % (rev, os.getloadavg()[0]))
    for label, (new, old, ratios, count) in compare(rev).items():
        median = ratios[len(ratios) // 2]
        print("%s: %.0f ms against %.0f ms for %d rounds of %d games: %+.1f%% (per round %+.1f%% "
              "to %+.1f%%, median %+.1f%%)" % (label, new, old, len(ratios), count,
                                              100 * (new / old - 1), 100 * (ratios[0] - 1),
                                              100 * (ratios[-1] - 1), 100 * (median - 1)))
    print("load %.1f" % os.getloadavg()[0])


def main(argv=()):
    if argv and argv[0] == "--compare":
        return main_compare(list(argv))
    if argv:
        print("python -m bench core: unknown option %s (the option is --compare [REV])" % argv[0],
              file=sys.stderr)
        return 2
    best = max(cpython(1000) for _ in range(3))
    print("CPython %s: %.0f random 4-player 8x8 games/s (best of 3 runs of 1000, one core)"
          % (sys.version.split()[0], best))
    print("CPython, 2 processes: %.0f games/s in total" % cpython_parallel(1000))
    rate, allocated = micropython(200)
    print("MicroPython (WebAssembly runner): %.0f games/s, %d bytes allocated per game" % (rate, allocated))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
