"""Figures for the device path: matrix driver speed and allocation, and the current a real game
draws through the budget. ``python -m bench hardware``."""

import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in (ROOT, os.path.join(ROOT, "tests")):
    if path not in sys.path:
        sys.path.insert(0, path)

MPY_SHOW = """
import gc, time
from hardware.matrix import Matrix

class Strip(list):
    n = 64
    def show(self):
        pass

strip = Strip([0] * 64)
matrix = Matrix(strip, layout="serpentine", rotation=90)
frames = [[((p * 37 + k) & 255, (p * 11) & 255, 200) for p in range(64)] for k in range(4)]
matrix.show(frames[0])
before = gc.mem_alloc()
start = time.ticks_ms()
for k in range(200):
    matrix.show(frames[k & 3])
took = time.ticks_diff(time.ticks_ms(), start)
print(took * 1000 // 200, (gc.mem_alloc() - before) // 200)
"""


def show_speed():
    from adafruit_pixelbuf import PixelBuf

    from hardware.matrix import Matrix

    class Capture(PixelBuf):
        def __init__(self):
            super().__init__(64, byteorder="GRB", auto_write=False)

        def _transmit(self, buffer):
            pass

    matrix = Matrix(Capture(), layout="serpentine", rotation=90)
    frames = [[((p * 37 + k) & 255, (p * 11) & 255, 200) for p in range(64)] for k in range(4)]
    count = 2000
    start = time.perf_counter()
    for k in range(count):
        matrix.show(frames[k & 3])
    took = time.perf_counter() - start
    print("Matrix.show into the real PixelBuf, CPython: %.1f us per frame" % (took / count * 1e6))


def show_micropython():
    try:
        from micropython import run_micropython
        micro, alloc = run_micropython(MPY_SHOW, trees=("hardware",)).split()
    except Exception as error:  # node_modules missing: say so, do not fail the bench run
        print("MicroPython figures skipped: %s" % str(error).splitlines()[0])
        return
    print("Matrix.show, MicroPython (WebAssembly): %s us per frame, %s bytes allocated per frame"
          % (micro, alloc))


class ListStrip(list):
    """A strip that only keeps the values: enough to read the current estimate."""

    def __init__(self):
        super().__init__([0] * 64)

    def show(self):
        pass


def game_current():
    from hardware.matrix import Matrix
    from rolit_core.app import App

    matrix = Matrix(ListStrip())
    app = App(seed=3)
    app.start(seats=("easy", "easy"))
    currents = []
    limited = 0
    now = 0
    while not (app.game is not None and app.game.over) and now < 600000:
        matrix.show(app.update(now, []))
        currents.append(matrix.current_ma)
        limited += matrix.limited
        now += 20
    currents.sort()
    print("A whole computer-vs-computer game (%d frames, default settings: brightness 30 %%, "
          "gamma 2.2, budget 500 mA):" % len(currents))
    print("  estimated matrix current: median %d mA, 99th percentile %d mA, max %d mA; "
          "frames capped: %d" % (currents[len(currents) // 2],
                                 currents[len(currents) * 99 // 100], currents[-1], limited))
    white = Matrix(ListStrip())
    white.fill((255, 255, 255))
    full = Matrix(ListStrip(), brightness=100, max_current_ma=10000)
    full.fill((255, 255, 255))
    print("  full white: %d mA uncapped at 100 %%, %d mA with the defaults (capped: %s)"
          % (full.current_ma, white.current_ma, white.limited))


def main():
    show_speed()
    show_micropython()
    game_current()


if __name__ == "__main__":
    main()
