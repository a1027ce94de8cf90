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

import pygame  # noqa: E402

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
    clock = pygame.time.Clock()
    start = pygame.time.get_ticks()
    window.step(0)
    updates = [0]
    cpu = _cpu()
    wall = time.monotonic()
    end = wall + seconds
    drawn = window.frames

    def count():
        updates[0] += 1

    while time.monotonic() < end:
        window.step(pygame.time.get_ticks() - start)
        count()
        clock.tick(window.fps)
    wall = time.monotonic() - wall
    cpu = _cpu() - cpu
    drawn = window.frames - drawn
    window.close()
    return updates[0] / wall, drawn / wall, 100 * cpu / wall


def main():
    print("video driver: %s" % os.environ.get("SDL_VIDEODRIVER", "default"))
    rate, drawn, cpu = measure(("human", "easy"), 5)
    print("idle (human to move, cursor blinking): %.1f updates/s, %.1f redraws/s, CPU %.1f %%"
          % (rate, drawn, cpu))
    rate, drawn, cpu = measure(("easy", "easy", "easy", "easy"), 8)
    print("animating (4 computers): %.1f updates/s (fps), %.1f redraws/s, CPU %.1f %%"
          % (rate, drawn, cpu))


if __name__ == "__main__":
    main()
