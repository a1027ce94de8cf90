"""Memory figures of each part of the game: ``python -m bench memory``.

On the real firmware (the default; nothing to build): each scenario runs as ``code.py`` on the
emulated Pico (``sim.emulate``, CircuitPython's own UF2 from ``$ROLIT_FIRMWARE`` or
``../shared/firmware/``), with the game's files on its drive. Figures: free heap at the top of
code.py, the most memory live at once (``gc.mem_alloc()`` after ``gc.collect()``), what is live at
the end, and whether it ran without a ``MemoryError``.
``python -m bench.memory --min-heap core`` also finds the smallest free heap (to 2 KiB) each
scenario runs in on the chip, by taking heap away with a blob first (a boot per try: slow). The
device scenario on the chip is ``python -m bench.device --parts heap``.

The older path, a 32-bit MicroPython *unix port*: ``python -m bench.memory --unix`` (or
``$MICROPYTHON`` set). The WebAssembly runner in node_modules cannot limit its heap, so this benchmark needs the
MicroPython *unix port*, whose ``-X heapsize=N`` option fixes the heap as a board's is fixed. It is
looked for in ``$MICROPYTHON``, then as ``micropython`` on PATH. A 32-bit build is the one to use:
objects then have a board's sizes (an RP2040 is 32-bit; a 64-bit build needs up to twice the
heap). To build one (outside this repository; nothing of it is committed)::

    git clone https://github.com/micropython/micropython && cd micropython
    sudo apt-get install gcc-multilib          # for -m32; libffi-dev and pkg-config for defaults
    make -C mpy-cross
    make -C ports/unix VARIANT=standard BUILD=build-32 CFLAGS_EXTRA=-m32 LDFLAGS_EXTRA=-m32 \\
        FROZEN_MANIFEST= MICROPY_PY_FFI=0 MICROPY_PY_BTREE=0 MICROPY_PY_SSL=0
    export MICROPYTHON=$PWD/ports/unix/build-32/micropython

(``FROZEN_MANIFEST=`` and the ``=0`` switches avoid the git submodules.) Like CircuitPython with
``.py`` files, the unix port compiles every module on import, so the figures include compiling.

Scenarios, each in a fresh interpreter: ``rules`` (``import rolit_core``, one random 4-player
game and its record: the rules core's 64 KiB target), ``core`` (the same with two games),
``ai`` (``hard`` against ``hard`` on 8x8, then a 4-player game of ``hard`` seats), ``app``
(``App()`` with a fake clock through a scripted game against a ``hard`` seat, then a 4-player game
with three ``hard`` seats), ``device`` (the folder ``python -m sim.deploy`` writes, running
``code.py`` with the device doubles of tests/device_doubles through a scripted game against
``hard``). For each: the smallest heap that runs it, and every heap up to 32 KB bigger (bisection
to 1 KB); the most memory live at once (``gc.mem_alloc()`` right after ``gc.collect()``, sampled
along the way); what is live at the end; and in ``device`` the live size of the doubles for
CircuitPython's built-in modules (C on a board: subtract it for a board's figure). Figures and
what they mean: docs/memory.md.
"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUDGET_KB = 150   # what the game may use of an RP2040's ~190 KB CircuitPython heap
STEP = 1024
SURE = 32 * 1024
SURE_STEP = 4 * 1024
TOP = 1024 * 1024

# Shared by every scenario: the peak of live memory, sampled after a collection.
PROLOGUE = r'''
import gc
import sys
PEAK = [0]
BUILTINS = [0]
MEASURE = %(measure)d


def sample():
    if MEASURE:
        gc.collect()
        live = gc.mem_alloc()
        if live > PEAK[0]:
            PEAK[0] = live


def done():
    gc.collect()
    print("OK live-peak %%d live-end %%d free-end %%d builtins %%d" %% (
        PEAK[0], gc.mem_alloc(), gc.mem_free(), BUILTINS[0]))
'''

CORE = r'''
from rolit_core import Game
from rolit_core.rng import Random
rng = Random(5)
for first in ("red", "blue"):
    game = Game(players=4, first=first, seed=3)
    while not game.over:
        moves = game.legal_moves()
        game.play(moves[rng.below(len(moves))])
        sample()
    game.record()
    sample()
done()
'''

# The rules core's target: import, an 8x8 board and one full random 4-player game (with its
# record) in a 64 KiB heap.
RULES = r'''
from rolit_core import Game
from rolit_core.rng import Random
rng = Random(5)
game = Game(players=4, first="red", seed=3)
while not game.over:
    moves = game.legal_moves()
    game.play(moves[rng.below(len(moves))])
    sample()
game.record()
sample()
done()
'''

AI = r'''
from rolit_core import Game
from rolit_core.ai import player


def play(game, bots):
    while not game.over:
        bot = bots[game.seat_of(game.turn)]
        game.play(bot.choose(game))
        sample()


play(Game(players=2, size=8, first="red", seed=1), [player("hard", 1), player("hard", 2)])
play(Game(players=4, size=8, first="red", seed=2), [player("hard", s) for s in range(4)])
done()
'''

APP = r'''
from rolit_core.app import App, UP, DOWN, LEFT, RIGHT, SELECT


class Run:
    def __init__(self, app):
        self.app = app
        self.now = (1 << 29) - 5000
        self.seed = 12345
        self.frames = 0

    def tick(self, events=(), dt=20):
        self.now = (self.now + dt) & ((1 << 29) - 1)
        self.app.update(self.now, events)
        self.frames += 1
        if self.frames % 16 == 0:
            sample()

    def tap(self, key):
        self.tick([(key, True)])
        self.tick([(key, False)])

    def wait(self, ms):
        for _ in range(ms // 20):
            self.tick()

    def goto(self, cell):
        size = self.app.game.size
        while self.app.cursor != cell:
            row, col = divmod(self.app.cursor, size)
            want_row, want_col = divmod(cell, size)
            if row != want_row:
                self.tap(DOWN if want_row > row else UP)
            else:
                self.tap(RIGHT if want_col > col else LEFT)

    def play_round(self):
        app = self.app
        while app.mode == "play":
            if app.phase == "input":
                legal = app.game.legal_moves()
                self.seed = (self.seed * 1103 + 12345) & 0xFFFF
                self.goto(legal[self.seed % len(legal)])
                self.tap(SELECT)
            else:
                self.tick()
        self.wait(3000)


app = App(seed=77)
run = Run(app)
run.wait(3000)                      # title, then the menu
app.start(seats=("human", "hard"))
run.play_round()
app.start(seats=("human", "hard", "hard", "hard"))
run.play_round()
done()
'''

# The device: code.py in the deployed folder, with the doubles for what CircuitPython builds in.
DEVICE = r'''
import os
sys.path.insert(0, %(doubles)r)
sys.path.insert(0, %(builtins)r)
os.chdir(%(dest)r)
sys.path.insert(0, %(dest)r + "/lib")
sys.path.insert(0, %(dest)r)
# What CircuitPython builds in (C there, Python doubles here) is loaded first and its live size
# reported as "builtins": subtract it for a board's figure.
import board, digitalio, neopixel_write, supervisor, keypad, analogio, pwmio, microcontroller
import adafruit_pixelbuf
gc.collect()
BUILTINS[0] = gc.mem_alloc()
supervisor.STEP = %(step)d
supervisor.START = %(start)d
supervisor.STOP_AT = %(stop)d


class FileScript:
    """keypad.SCRIPT read a line at a time, so the key script takes no heap to speak of."""

    def __init__(self, path):
        self.file = open(path)
        self.pop(0)

    def __len__(self):
        return 0 if self.head is None else 1

    def __getitem__(self, index):
        return self.head

    def pop(self, index):
        head = getattr(self, "head", None)
        line = self.file.readline().split()
        self.head = (int(line[0]), line[1], line[2] == "1") if line else None
        return head


keypad.SCRIPT = FileScript(%(script)r)
_ticks = supervisor.ticks_ms
def ticks_ms():
    if supervisor.elapsed %% 320 == 0:
        sample()
    return _ticks()
supervisor.ticks_ms = ticks_ms
import code  # compiled from the file, as a board runs it; main() is what __main__ runs
try:
    code.main()
except KeyboardInterrupt:
    pass
print("FRAMES", neopixel_write.count)
done()
'''

SCENARIOS = ("rules", "core", "ai", "app", "device")
DEVICE_STEP = 20
DEVICE_START = (1 << 29) - 30000


def find_micropython():
    """The unix MicroPython binary: ``$MICROPYTHON`` or ``micropython`` on PATH (or None)."""
    path = os.environ.get("MICROPYTHON") or shutil.which("micropython")
    if path and os.path.isfile(path) and os.access(path, os.X_OK):
        return path
    return None


def version(binary):
    out = subprocess.run([binary, "-c", "import sys; print(sys.implementation._machine, "
                          "sys.version); print(tuple(sys.implementation.version))"],
                         capture_output=True, text=True, timeout=30).stdout.split("\n")
    bits = subprocess.run(["file", "-b", binary], capture_output=True, text=True).stdout
    return "%s (%s)" % (out[0].strip(), "32-bit" if "32-bit" in bits else "64-bit"
                        if "64-bit" in bits else "?")


def device_script(seed=11):
    """Key script for the device: a whole game against the default ``hard`` seat, worked out on
    CPython with the same App, clock and keys the device sees (as tests/test_deploy.py does).
    Returns (script, frames)."""
    sys.path.insert(0, ROOT)
    from rolit_core.app import App, DOWN, LEFT, RIGHT, SELECT, UP
    pins = ("GP2", "GP3", "GP4", "GP5", "GP6", "GP7")   # up, down, left, right, select, back
    app = App(storage=None, seed=seed)
    script = []
    over_at = None
    k = 0
    while over_at is None or k < over_at + 60:
        keys = []
        if app.mode in ("title", "menu") and k % 10 == 5:
            keys = [SELECT]
        elif app.mode == "play" and app.phase == "input":
            game = app.game
            moves = game.legal_moves()
            target = moves[(len(game.moves) * 7) % len(moves)]
            size = game.size
            row, col = divmod(app.cursor, size)
            down = (target // size - row) % size
            right = (target % size - col) % size
            keys = [DOWN] * down if down <= size // 2 else [UP] * (size - down)
            keys += [RIGHT] * right if right <= size // 2 else [LEFT] * (size - right)
            keys.append(SELECT)
        events = []
        for key in keys:
            events += [(key, True), (key, False)]
            script.append((k * DEVICE_STEP, pins[key], True))
            script.append((k * DEVICE_STEP, pins[key], False))
        app.update((DEVICE_START + k * DEVICE_STEP) & ((1 << 29) - 1), events)
        if app.game is not None and app.game.over and over_at is None:
            over_at = k
        k += 1
    return script, k


def prepare_device(work):
    """Deploy into ``work``; returns the scenario source (without the prologue)."""
    sys.path.insert(0, ROOT)
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from device_doubles import DOUBLES, library_path
    from sim import deploy
    dest = os.path.join(work, "CIRCUITPY")
    builtins = os.path.join(work, "builtins")
    os.makedirs(builtins)
    with open(os.devnull, "w") as quiet:
        saved, sys.stdout = sys.stdout, quiet
        try:
            if deploy.main([dest]) != 0:
                raise RuntimeError("sim.deploy failed")
        finally:
            sys.stdout = saved
    with open(os.path.join(dest, "settings.toml"), "ab") as handle:
        handle.write(b"\n# bench run\nROLIT_FRAME_MS = 0\nROLIT_SEED = 11\n")
    shutil.copy(library_path("adafruit_pixelbuf"), os.path.join(builtins, "adafruit_pixelbuf.py"))
    script, frames = device_script(11)
    script_path = os.path.join(work, "keys.txt")
    with open(script_path, "w") as handle:
        for at, pin, pressed in script:
            handle.write("%d %s %d\n" % (at, pin, pressed))
    return DEVICE % {
        "doubles": DOUBLES, "builtins": builtins, "dest": dest, "step": DEVICE_STEP,
        "start": DEVICE_START, "stop": (frames - 1) * DEVICE_STEP, "script": script_path}


def sources(work):
    return {"rules": RULES, "core": CORE, "ai": AI, "app": APP, "device": prepare_device(work)}


def run(binary, body, heap, work, measure=False):
    """Run ``body`` with a ``heap`` of bytes, its script written in the folder ``work``;
    returns (ok, output)."""
    path = os.path.join(work, "scenario_%d.py" % measure)
    with open(path, "w") as handle:
        handle.write(PROLOGUE % {"measure": int(measure)} + body)
    env = dict(os.environ, MICROPYPATH=ROOT)
    try:
        done = subprocess.run([binary, "-X", "heapsize=%d" % heap, path], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    out = done.stdout + done.stderr
    ok = done.returncode == 0 and "\nOK " in "\n" + out and "error in frame" not in out
    return ok, out


def smallest_heap(binary, body, work, low=8 * 1024, high=TOP):
    """The smallest heap the scenario completes in, and in every heap up to SURE bytes bigger
    (checked every SURE_STEP): where the collector runs depends on the heap size, so a scenario
    can pass in a heap and fail in a slightly bigger one. Bisection to STEP bytes."""
    if not run(binary, body, high, work)[0]:
        return None
    while True:
        while high - low > STEP:
            middle = (low + high) // 2 // STEP * STEP
            if run(binary, body, middle, work)[0]:
                high = middle
            else:
                low = middle
        for bigger in range(high + SURE_STEP, min(high + SURE, TOP), SURE_STEP):
            if not run(binary, body, bigger, work)[0]:
                low, high = bigger, TOP
                break
        else:
            return high


def figures(out):
    for line in out.splitlines():
        if line.startswith("OK "):
            words = line.split()
            return dict(zip(words[1::2], (int(w) for w in words[2::2])))
    return {}


def chip_run(body, free_kb=None):
    """Run a scenario body (with this file's PROLOGUE) as code.py on the emulated Pico."""
    from bench.device import run_on_chip

    code = PROLOGUE % {"measure": 1} + body
    code = code.replace("import gc\nimport sys\n", "import sys\n", 1)
    result = run_on_chip(code, free_kb=free_kb, timeout_ms=3600000)
    live = figures(result.console)
    ok = result.ok and bool(live)
    return ok, result, live


def chip_min_heap(body, low_kb=16, high_kb=180, step_kb=2):
    """The smallest free heap (KiB, to ``step_kb``) the scenario completes in on the chip."""
    if not chip_run(body, high_kb)[0]:
        return None
    while high_kb - low_kb > step_kb:
        middle = (low_kb + high_kb) // 2
        if chip_run(body, middle)[0]:
            high_kb = middle
        else:
            low_kb = middle
    return high_kb


def main_chip(names, min_heap=False):
    from sim.emulate import missing_reason

    reason = missing_reason()
    if reason:
        print("memory bench skipped: " + reason)
        return None
    print("on the real firmware, emulated Raspberry Pi Pico (CircuitPython heap, .py files "
          "compiled on import)")
    print("%-8s %9s %14s %14s %14s%s" % ("scenario", "runs", "free top KB", "live peak KB",
                                        "live end KB", "  min free KB" if min_heap else ""))
    results = {}
    for name in names:
        if name == "device":
            print("%-8s see `python -m bench.device --parts heap` (the deployed code.py in a "
                  "whole game)" % name)
            continue
        body = {"rules": RULES, "core": CORE, "ai": AI, "app": APP}[name]
        ok, result, live = chip_run(body)
        figs = result.figures
        smallest = chip_min_heap(body) if min_heap and ok else None
        results[name] = (ok, figs, live, smallest)
        print("%-8s %9s %14.1f %14s %14s%s" % (
            name, "yes" if ok else "NO: " + str(result.problem), figs.get("free_top", 0) / 1024,
            "%.1f" % (live["live-peak"] / 1024) if live else "-",
            "%.1f" % (live["live-end"] / 1024) if live else "-",
            ("  %12s" % (smallest if smallest is not None else "-")) if min_heap else ""))
        sys.stdout.flush()
    return results


def main(names=SCENARIOS):
    args = list(names)
    unix = "--unix" in args or bool(os.environ.get("MICROPYTHON"))
    min_heap = "--min-heap" in args
    names = [name for name in args if not name.startswith("--")] or list(SCENARIOS)
    if not unix:
        return main_chip(names, min_heap)
    binary = find_micropython()
    if binary is None:
        print("needs the MicroPython unix port: set $MICROPYTHON or put `micropython` on PATH "
              "(how to build one: the docstring of bench/memory.py)")
        return None
    print("interpreter: %s" % version(binary))
    print("%-8s %12s %14s %14s %12s" % ("scenario", "min heap KB", "live peak KB", "live end KB",
                                         "builtins KB"))
    results = {}
    work = tempfile.mkdtemp(prefix="rolit-memory-")
    try:
        bodies = sources(work)
        for name in names:
            body = bodies[name]
            ok, out = run(binary, body, TOP, work, measure=True)
            if not ok:
                print("%-8s failed even with %d KB:\n%s" % (name, TOP // 1024, out[-2000:]))
                continue
            live = figures(out)
            heap = smallest_heap(binary, body, work)
            results[name] = (heap, live)
            own = None if heap is None else heap - live["builtins"]
            print("%-8s %12s %14.1f %14.1f %12.1f%s" % (
                name, "-" if heap is None else heap // 1024, live["live-peak"] / 1024,
                live["live-end"] / 1024, live["builtins"] / 1024,
                "" if own is not None and own <= BUDGET_KB * 1024 else "  over %d KB" % BUDGET_KB))
            sys.stdout.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return results


if __name__ == "__main__":
    main(sys.argv[1:] or SCENARIOS)
