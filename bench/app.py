"""The game flow: ``App.update`` cost per frame and memory, on CPython and under MicroPython.

``python -m bench app`` runs the same script on both interpreters. Per scene it prints the mean
and worst time of one ``update`` (ms), and under MicroPython the bytes allocated per frame
(``gc.mem_alloc`` deltas: no collection runs inside one runner call, so they count every
allocation). Then the memory of an app playing against a ``hard`` computer player (live, with
tracemalloc on CPython; allocated in all under MicroPython, whose runner cannot collect), and the
estimate for an RP2040 running CircuitPython: the runner's time x RP2040_FACTOR (the factor the
AI calibration uses, docs/ai.md), which must stay under 33 ms for 30 frames per second.
"""

import os
import subprocess
import sys
import tempfile

from bench.ai import RP2040_FACTOR

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = r'''
import gc
import time
from rolit_core.app import App, UP, DOWN, LEFT, RIGHT, SELECT, BACK

try:
    ticks_us = time.ticks_us
    def elapsed(start):
        return time.ticks_diff(time.ticks_us(), start)
except AttributeError:
    def ticks_us():
        return time.perf_counter_ns() // 1000
    def elapsed(start):
        return ticks_us() - start


def mem():
    try:
        return gc.mem_alloc()
    except AttributeError:
        return -1  # CPython: see the tracemalloc figure instead


class Clock:
    now = 0


def frames(app, count, keys=None):
    """Run ``count`` updates (20 ms apart); ``keys(i)`` gives each frame's events."""
    total = 0
    worst = 0
    before = mem()
    for i in range(count):
        Clock.now += 20
        events = keys(i) if keys else ()
        start = ticks_us()
        app.update(Clock.now, events)
        spent = elapsed(start)
        total += spent
        if spent > worst:
            worst = spent
    allocated = mem() - before if before >= 0 else -count
    return total / count / 1000, worst / 1000, allocated // count


def report(name, result):
    alloc = "alloc %5d B/frame" % result[2] if result[2] >= 0 else ""
    print("%-28s mean %6.3f ms  worst %6.3f ms  %s" % (name, result[0], result[1], alloc))


NO_EVENTS = ()
EVENTS = ([(RIGHT, True)], [(RIGHT, False)], [(DOWN, True)], [(DOWN, False)])


def menu_keys(i):
    return EVENTS[i % 4] if i % 10 < 4 else NO_EVENTS


def play_keys(app):
    def keys(i):
        if app.mode != "play" or app.phase != "input":
            return NO_EVENTS
        if i % 3 == 0:
            app_cell = app.game.legal_moves()[0]
            app.move_cursor(app_cell)  # jump there (the cost of walking is measured in "menu")
            return [(SELECT, True)]
        return [(SELECT, False)]
    return keys


def main():
    app = App(seed=1)
    frames(app, 10)
    report("title", frames(app, 100))
    frames(app, 150)
    report("menu (keys)", frames(app, 200, menu_keys))
    app.start(seats=("human", "human"), hints=True, time_limit=60)
    report("play: cursor, hints, clock", frames(app, 200))
    report("play: moves and animation", frames(app, 600, play_keys(app)))
    while app.mode == "play":
        frames(app, 50, play_keys(app))
    report("round end: bars", frames(app, 200))

    gc.collect()
    base = mem()
    app = App(seed=2)
    app.start(seats=("human", "hard"), first="red")
    frames(app, 1)
    move = [(SELECT, True)], [(SELECT, False)]
    # the human plays, the hard player thinks (think_nodes per frame)
    worst_think = 0
    think_frames = 0
    total = 0
    for _ in range(8):
        frames(app, 2, lambda i: move[i])
        while app.mode == "play" and app.phase != "input":
            stepping = app.phase == "think" and app.play.ai_cell is None
            result = frames(app, 1)
            if stepping:
                think_frames += 1
                total += result[0]
                if result[1] > worst_think:
                    worst_think = result[1]
    print("%-28s mean %6.3f ms  worst %6.3f ms  (%d nodes/frame, %d frames)" % (
        "play: hard player thinking", total / max(1, think_frames), worst_think,
        app.think_nodes, think_frames))
    if base >= 0:
        print("allocated in all, app + hard player, 8 moves each: %d B" % (mem() - base))


main()
'''


def run_cpython():
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "bench_app.py")
        with open(path, "w") as handle:
            handle.write(SCRIPT)
        done = subprocess.run([sys.executable, path], cwd=ROOT, capture_output=True, text=True,
                              env=dict(os.environ, PYTHONPATH=ROOT))
    if done.returncode:
        raise RuntimeError(done.stderr)
    return done.stdout


def run_micropython():
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "bench_app.py")
        with open(path, "w") as handle:
            handle.write(SCRIPT)
        done = subprocess.run(["node", os.path.join(ROOT, "tools", "mpy_run.mjs"), "--tree",
                               "rolit_core", path], cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(done.stderr)
    return done.stdout


def cpython_live_heap(seats=("human", "hard")):
    """Live Python memory of an app playing ``seats`` (tracemalloc)."""
    import tracemalloc
    sys.path.insert(0, ROOT)
    from rolit_core.app import SELECT, App
    from rolit_core import ai  # noqa: F401 (code objects are not the app's memory)
    App(seed=1).start(seats=seats)  # the board's shared geometry tables, built once
    tracemalloc.start()
    app = App(seed=2)
    app.start(seats=seats, first="red")
    now = 0
    for _ in range(300):
        now += 20
        app.update(now, [(SELECT, True)] if now % 60 == 0 else [(SELECT, False)])
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return current, peak


def main():
    print("CPython %s" % sys.version.split()[0])
    print(run_cpython(), end="")
    for seats in (("human", "human"), ("human", "hard")):
        current, peak = cpython_live_heap(seats)
        print("tracemalloc, app playing %s after 300 frames: current %d B, peak %d B"
              % (" v ".join(seats), current, peak))
    print()
    print("MicroPython (WebAssembly runner)")
    out = run_micropython()
    print(out, end="")
    # The runner's clock ticks in whole ms, so a scene's mean (over hundreds of frames) is the
    # figure to scale; the thinking frames' mean is the heaviest steady load.
    worst = 0.0
    for line in out.splitlines():
        if "mean" in line:
            worst = max(worst, float(line.split("mean")[1].split("ms")[0]))
    print("RP2040 estimate (x%d): heaviest scene %.1f ms per update -> %.0f frames per second"
          % (RP2040_FACTOR, worst * RP2040_FACTOR, 1000 / (worst * RP2040_FACTOR)))


if __name__ == "__main__":
    main()
