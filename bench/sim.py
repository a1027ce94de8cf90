"""Simulator window: CPU while idle and frames per second while animating.

Runs the real Window loop (``Window.run``: sleep to the next frame) on SDL's dummy video driver,
or on the display when one is set (e.g. under Xvfb). Idle: a human's turn, nothing pressed (the
cursor blinks). Animating: the attract-style game of four computer players, which redraws every
frame while balls turn.
"""

import os
import resource
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from rolit_core.app import App  # noqa: E402
from sim.device import Device  # noqa: E402
from sim.window import Window  # noqa: E402


def _cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(seats, seconds, size=(1200, 800)):
    app = App(seed=11)
    app.start(seats=seats)
    window = Window(Device(app), size=size)
    window.step(0)
    updates = [0]

    def count():
        updates[0] += 1

    draw_times = []
    plain_draw = window.draw

    def timed_draw():
        began = time.perf_counter()
        plain_draw()
        draw_times.append(1000 * (time.perf_counter() - began))

    window.draw = timed_draw
    drawn = window.frames
    cpu = _cpu()
    wall = time.monotonic()
    window.run(count, seconds=seconds)
    wall = time.monotonic() - wall
    cpu = _cpu() - cpu
    drawn = window.frames - drawn
    window.close()
    draw_times.sort()
    worst = draw_times[-1] if draw_times else 0.0
    median = draw_times[len(draw_times) // 2] if draw_times else 0.0
    return updates[0] / wall, drawn / wall, 100 * cpu / wall, median, worst


def main():
    print("video driver: %s" % os.environ.get("SDL_VIDEODRIVER", "default"))
    print("window 1200x800; a redraw is the whole picture, drawn and shown")
    for name, seats, seconds in (("idle (human to move, cursor blinking)", ("human", "easy"), 5),
                                 ("animating (4 computers)", ("easy",) * 4, 8)):
        rate, drawn, cpu, median, worst = measure(seats, seconds)
        print("%s: %.1f frames/s, %.1f redraws/s (median %.1f ms, worst %.1f ms), CPU %.1f %%"
              % (name, rate, drawn, median, worst, cpu))


if __name__ == "__main__":
    main()
