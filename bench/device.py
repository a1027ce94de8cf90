"""Figures from the real firmware on the emulated Pico: ``python -m bench device``.

    python -m bench.device                       # everything (about half an hour here)
    python -m bench.device --parts ai --levels hard --players 2
    python -m bench.device --parts boot,heap,frames,attract,ai

Parts: ``boot`` (time to the first LED frame, the banner and the title, and how soon the title
answers a key; the deployed code.py unchanged),
``heap`` and ``frames`` (one run: free heap at the top of code.py and after its imports, then the
device's own main loop, title and menu, then a whole game of ``hard`` seats, 2 and 4 players:
lowest free heap after a collection, ``App.update`` time by what the app is doing, how long each
computer move takes in the app; by default (``--seats both``) also games of one human seat,
pressing SELECT, against ``hard``), ``log`` (no harness at all: the deployed files as they are,
a game set up from the menu with the buttons, one human seat pressing SELECT against ``hard``,
and the heap's lowest as the game log prints it), ``qstrs`` (the same game to its first move:
how many more names the qstr pools take before CircuitPython makes its next pool, and that
pool's heap; docs/memory.md), ``ai`` (``bot.choose()`` alone, whole
self-play games per level on 8x8, 2 and 4 players), ``attract`` (free heap over ``--minutes``
emulated minutes of the attract mode, 6 by default: the trend), ``book`` (the opening book's
module, what its lookups keep, their garbage and time, and the heap once it is forgotten).
All times are emulated time on the 125 MHz chip, unaffected by how busy this machine is; what
the emulator gets wrong: docs/emulator.md.

As a building block (the memory and AI work use it)::

    from bench.device import run_on_chip
    result = run_on_chip('''
    from rolit_core import Game
    game = Game(players=4)
    sample()
    fig("cells", len(game.board.cells))
    ''', free_kb=64)
    result.figures   # {"free_start": ..., "free_low": ..., "cells": ..., ...}
    result.ok        # finished, no MemoryError, no traceback

``free_kb`` takes all but that many KiB of the heap (a bytearray made first), so a snippet proves
it runs in a heap that small. In a snippet: ``fig(name, value)`` reports a figure, ``sample()``
collects and notes the lowest free heap and the most memory in use, ``us()`` is a microsecond
clock (CircuitPython's resolution: about 31 us).
"""

import argparse
import sys
import time

from sim import deploy
from sim.emulate import Emulator, missing_reason, with_settings
from sim.emulate import deployed_files as source_files
from sim.rp2040.mirror import with_harness

BOOT_MS = 30000
LEVELS = ("easy", "medium", "hard")
COMPILER = []  # --mpy-cross: every drive is the compiled deploy
SETTINGS = {}  # --set: lines every drive's settings.toml gets


def deployed_files(settings=None, compiler=None):
    """The drive as ``sim.deploy`` writes it: from source, or compiled with ``compiler`` (by
    default the one of ``--mpy-cross``)."""
    if SETTINGS:
        settings = dict(SETTINGS, **(settings or {}))
    compiler = compiler or (COMPILER[0] if COMPILER else None)
    if not compiler:
        return source_files(settings=settings)
    files = deploy.drive_files("pico", compiler)
    if settings:
        files["settings.toml"] = with_settings(files["settings.toml"], settings)
    return files

PROLOGUE = r'''import gc
import time
gc.collect()
_FREE_TOP = gc.mem_free()
_blob = None
if %(free)d:
    # Leave %(free)d bytes free: the blob's own overhead and the heap's bookkeeping are only
    # known afterwards, so adjust it (a few tries) until the free heap is close to that.
    _size = _FREE_TOP - %(free)d
    for _ in range(4):
        _blob = None
        gc.collect()
        _blob = bytearray(_size)
        gc.collect()
        _diff = gc.mem_free() - %(free)d
        if -64 <= _diff <= 64:
            break
        _size += _diff
gc.collect()
_LOW = [gc.mem_free()]
_PEAK = [gc.mem_alloc()]


def fig(name, value):
    print("@FIG %%s %%s" %% (name, value))


def sample():
    gc.collect()
    free = gc.mem_free()
    if free < _LOW[0]:
        _LOW[0] = free
    used = gc.mem_alloc()
    if used > _PEAK[0]:
        _PEAK[0] = used


def us():
    return time.monotonic_ns() // 1000


fig("free_top", _FREE_TOP)
fig("free_start", gc.mem_free())
fig("reserved", 0 if _blob is None else len(_blob))
'''

EPILOGUE = r'''
sample()
fig("free_low", _LOW[0])
fig("alloc_peak", _PEAK[0])
fig("free_end", gc.mem_free())
print("@END")
'''


class ChipResult:
    """What a run on the chip gave: ``figures`` (name -> int or text), ``lists`` (name -> list
    of ints from ``@LIST name v v ...`` lines), ``console``, emulated ``ms`` and ``cycles``,
    ``ok`` (finished without MemoryError or traceback) and ``problem``."""

    def __init__(self, pico, finished):
        self.console = pico.console
        self.ms = pico.ms
        self.cycles = pico.cycles
        self.frames = pico.frames
        self.figures = {}
        self.lists = {}
        for line in self.console.splitlines():
            line = line.strip()
            at = line.find("@FIG ")
            if at >= 0:
                parts = line[at:].split()
                if len(parts) >= 3:
                    self.figures[parts[1]] = _number(parts[2])
            at = line.find("@LIST ")
            if at >= 0:
                parts = line[at:].split()
                self.lists.setdefault(parts[1], []).extend(_number(p) for p in parts[2:])
        self.problem = None
        for word in ("MemoryError", "Traceback", "error in frame"):
            if word in self.console:
                self.problem = word
                break
        if not finished and self.problem is None:
            self.problem = "did not finish"
        self.ok = self.problem is None

    def __repr__(self):
        return "ChipResult(ok=%r, %.0f ms, %r)" % (self.ok, self.ms, self.figures)


def _number(text):
    try:
        return int(text)
    except ValueError:
        return text


def run_files(files, timeout_ms=600000, end="@END", firmware=None, on_start=None):
    """Boot ``files`` as the CIRCUITPY drive and run until ``end`` is printed, an error shows, or
    ``timeout_ms`` of emulated time; a :class:`ChipResult`."""
    with Emulator(firmware=firmware, files=files) as pico:
        if on_start is not None:
            on_start(pico)
        finished = False
        while pico.ms < timeout_ms:
            why = pico.run(2000, until_text=end)
            tail = pico.console[-3000:]
            if why == "text" or end in tail:
                finished = True
                break
            if "Traceback" in tail or "Code done running" in tail:
                break
        return ChipResult(pico, finished)


def run_on_chip(code, free_kb=None, files=None, settings=None, timeout_ms=600000,
                firmware=None):
    """Run the snippet ``code`` as code.py next to the deployed game (``rolit_core/``,
    ``hardware/``, ``lib/``), optionally with only ``free_kb`` KiB of heap left free; a
    :class:`ChipResult`."""
    drive = dict(files if files is not None else deployed_files(settings=settings))
    free = 0 if free_kb is None else int(free_kb * 1024)
    drive["code.py"] = (PROLOGUE % {"free": free} + code + EPILOGUE).encode()
    return run_files(drive, timeout_ms, firmware=firmware)


# -- the parts -------------------------------------------------------------------------------

AI_GAME = r'''
from rolit_core import Game
from rolit_core.ai import player

for players in %(players)r:
    for level in %(levels)r:
        for seed in range(%(games)d):
            game = Game(players=players, size=8, first="red", seed=seed + 1)
            bots = [player(level, 10 * seed + s) for s in range(len(game.seat_colours))]
            times = []
            while not game.over:
                bot = bots[game.seat_of(game.turn)]
                start = us()
                cell = bot.choose(game)
                times.append(us() - start)
                game.play(cell)
            print("@LIST %%s-%%dp %%s" %% (level, players, " ".join([str(t) for t in times])))
            times = None
            sample()
'''

# The deployed code.py (as rolit_main.py) under a harness that times App.update and whole frames,
# samples the heap and plays whole games in the device's own main loop: computer seats, and
# "human" seats played by pressing SELECT (the app puts the cursor on a legal cell). The harness
# is a module of its own (rolit_bench.py), imported first and measured (@FIG harness: its code
# and state), then the deployed code.py: free_top is a bare code.py's, free_import what the
# game's imports leave without the harness. (Imported after the game, the harness made code.py's
# collections take 37 ms instead of 28-29: where objects lie changes the collector's marking.)
HEAP_CODE_PY = r'''import gc
gc.collect()
FREE_TOP = gc.mem_free()
import rolit_bench
gc.collect()
HARNESS = FREE_TOP - gc.mem_free()
import rolit_main
gc.collect()
FREE_IMPORT = gc.mem_free() + HARNESS
rolit_bench.install()
print("@FIG free_top %d" % FREE_TOP)
print("@FIG free_import %d" % FREE_IMPORT)
print("@FIG harness %d" % HARNESS)
rolit_main.main()
'''

APP_HARNESS = r'''import gc
import time

GAMES = %(games)r
MENU_MS = 2000
STALL_MS = 50
KINDS = ("title", "menu", "idle", "animate", "think", "input", "other")
COUNT = [0] * 7
TOTAL = [0] * 7
WORST = [0] * 7
# Whole frames (one update to the next: update, LEDs, log, code.py's collections and sleep, less
# this harness's own time), split by whether a computer thought before or after the update.
FRAME = [0, 0, 0, 0, 0, 0]  # thinking: count, total us, worst; others: count, total us, worst
STALLS = [0]               # thinking frames longer than STALL_MS
NODES = [0, 0, 0]          # thinking frames: count, total slice, largest slice
LOW = [gc.mem_free()]
LOW_RAW = [gc.mem_free()]
LOW_PACED = [gc.mem_free(), 0]  # lowest free after code.py's own collections, how many
GC = [0, 0, 0]  # collections, total us, worst us
state = {"n": 0, "game": -1, "menu_at": None, "think_at": None, "moves": [], "last": None,
         "own": 0, "busy": False, "press": False, "after": []}


def kind_of(app):
    mode = app.mode
    if mode == "title":
        return 0
    if mode == "menu":
        return 1
    if mode == "play":
        phase = app.phase
        return 3 if phase == "animate" else (4 if phase == "think" else 5)
    return 6


def tag_of(seats):
    # "2p" for computer seats only, "human_2p" with a human seat; and the first computer's level
    level = [seat for seat in seats if seat != "human"][0]
    return ("human_" if "human" in seats else "") + "%%dp" %% len(seats), level


def report_game(app):
    tag, level = tag_of(GAMES[state["game"]])
    print("@LIST app-%%s-%%s %%s" %% (level, tag, " ".join([str(t) for t in state["moves"]])))
    print("@FIG low_free_%%s %%d" %% (tag, LOW[0]))
    print("@FIG low_free_raw_%%s %%d" %% (tag, LOW_RAW[0]))
    print("@FIG low_free_paced_%%s %%d" %% (tag, LOW_PACED[0]))
    print("@FIG collections_%%s %%d" %% (tag, LOW_PACED[1]))
    print("@LIST after-%%s %%s" %% (tag, " ".join([str(f) for f in state["after"]])))
    state["moves"] = []
    state["after"] = []


def next_game(app):
    if state["game"] >= 0:
        report_game(app)
    state["game"] += 1
    if state["game"] >= len(GAMES):
        for k in range(7):
            if COUNT[k]:
                print("@FIG update_%%s %%d %%d %%d" %% (KINDS[k], COUNT[k], TOTAL[k] // COUNT[k],
                                                    WORST[k]))
        print("@FIG update_gc %%d %%d %%d" %% (GC[0], GC[1] // max(1, GC[0]), GC[2]))
        print("@FIG frame_think %%d %%d %%d" %% (FRAME[0], FRAME[1] // max(1, FRAME[0]),
                                               FRAME[2]))
        print("@FIG frame_other %%d %%d %%d" %% (FRAME[3], FRAME[4] // max(1, FRAME[3]),
                                               FRAME[5]))
        print("@FIG stalls %%d" %% STALLS[0])
        print("@FIG slices %%d %%d %%d" %% (NODES[0], NODES[1] // max(1, NODES[0]), NODES[2]))
        print("@END")
        raise SystemExit
    gc.collect()
    LOW[0] = LOW_RAW[0] = LOW_PACED[0] = gc.mem_free()
    LOW_PACED[1] = 0
    app.start(seats=GAMES[state["game"]])


def timed(self, now_ms, events=()):
    if state["game"] >= 0 and self.mode == "play" and self.phase == "input":
        # a human seat: press SELECT, release it in the next frame (the release plays the cell)
        state["press"] = not state["press"]
        events = ((SELECT, state["press"]),)
    busy = self.thinker is not None
    slice_nodes = self.think_nodes
    start = time.monotonic_ns()
    frame = _update(self, now_ms, events)
    ended = time.monotonic_ns()
    spent = (ended - start) // 1000
    last = state["last"]
    if last is not None and state["game"] >= 0:
        frame_us = (start - last) // 1000 - state["own"]
        at = 0 if state["busy"] else 3
        FRAME[at] += 1
        FRAME[at + 1] += frame_us
        if frame_us > FRAME[at + 2]:
            FRAME[at + 2] = frame_us
        if at == 0 and frame_us > STALL_MS * 1000:
            STALLS[0] += 1
    if busy and state["game"] >= 0:
        NODES[0] += 1
        NODES[1] += slice_nodes
        if slice_nodes > NODES[2]:
            NODES[2] = slice_nodes
    state["busy"] = busy or self.thinker is not None
    kind = kind_of(self)
    if kind == 1 and state["menu_at"] is None:
        state["menu_at"] = now_ms
    if kind == 1 and not events:
        kind = 2
    COUNT[kind] += 1
    TOTAL[kind] += spent
    if spent > WORST[kind]:
        WORST[kind] = spent
    if kind == 4 and state["think_at"] is None:
        state["think_at"] = now_ms
    elif kind != 4 and state["think_at"] is not None:
        state["moves"].append((now_ms - state["think_at"]) & 0x1FFFFFFF)
        state["think_at"] = None
    n = state["n"] = state["n"] + 1
    if state["game"] >= 0 and n %% 10 == 0:
        free = gc.mem_free()
        if free < LOW_RAW[0]:
            LOW_RAW[0] = free
    at = state["menu_at"]
    if at is not None and (state["game"] < 0 and ((now_ms - at) & 0x1FFFFFFF) > MENU_MS
                           or state["game"] >= 0 and self.mode == "round_end"):
        next_game(self)
        state["last"] = None
    else:
        state["last"] = start
    # This harness's own time in the frame (before the update it is a few attribute reads).
    state["own"] = (time.monotonic_ns() - ended) // 1000
    return frame


def paced_collect(self, planned=False):
    # code.py's own collections (after a search, and planned mid-search ones): how long they
    # take and the free heap they leave. This harness collects nothing itself: a collection
    # of its own after each move would hide the search's garbage from Room, which learns from
    # code.py's collections how much a node leaves. Room asks the heap what each one left
    # (LOW: after the collection that follows each move; LOW_PACED: after any of them).
    gc_start = time.monotonic_ns()
    _collect(self, planned)
    gc_us = (time.monotonic_ns() - gc_start) // 1000
    if state["game"] >= 0 and self.room is not None:
        GC[0] += 1
        GC[1] += gc_us
        if gc_us > GC[2]:
            GC[2] = gc_us
        LOW_PACED[1] += 1
        free = self.room.free
        if free < LOW_PACED[0]:
            LOW_PACED[0] = free
        if not planned:
            state["after"].append(free)
            if free < LOW[0]:
                LOW[0] = free


def install():
    # After code.py's imports: the game's classes, wrapped.
    global SELECT, _update, _collect
    from rolit_core.app import App, SELECT
    from hardware.pacing import Pacing

    _update = App.update
    App.update = timed
    _collect = Pacing.collect
    Pacing.collect = paced_collect
'''

ATTRACT_HARNESS = r'''import gc
import rolit_main
from rolit_core.app import App

EVERY = 250  # updates between samples (about 5 s at 50 frames/s)
state = {"n": 0, "game": None}
_update = App.update


def sampled(self, now_ms, events=()):
    frame = _update(self, now_ms, events)
    n = state["n"] = state["n"] + 1
    if n %% EVERY == 0:
        gc.collect()
        print("@S %%d %%s %%d %%d" %% (now_ms, self.mode, gc.mem_free(), gc.mem_alloc()))
    game = self.play.game if self.mode == "attract" else None
    if game is not None and game is not state["game"]:
        # a new attract game, its first frame: the same point of every game
        gc.collect()
        print("@G %%d %%d" %% (now_ms, gc.mem_free()))
    state["game"] = game
    return frame


App.update = sampled
rolit_main.main()
'''


def part_boot(report):
    drive = deployed_files()
    with Emulator(files=drive) as pico:
        pico.run_until_text("controls:", BOOT_MS)
        banner = pico.ms
        while not pico.frames and pico.ms < BOOT_MS:
            pico.run(100, until_frame=True)
        first = pico.frames[0]
        # The title: the main loop's first frame, the first one sent after the banner. From
        # then on every frame reads the keys first; a SELECT pressed as the title shows is
        # answered by the menu (the first frame that differs from the title's).
        while not (pico.frames[-1].ms >= banner and len(pico.frames) > 1) and pico.ms < BOOT_MS:
            pico.run(10, until_frame=True)
        title = pico.frames[-1]
        pico.press("select")
        pico.run(80)
        pico.release("select")
        answer = None
        while answer is None and pico.ms < title.ms + 5000:
            pico.run(20, until_frame=True)
            for frame in pico.frames:
                if frame.ms > title.ms and frame.data != title.data:
                    answer = frame
                    break
        report("boot: power-on to the banner", "%.2f s" % (banner / 1000))
        report("boot: power-on to the first LED frame", "%.2f s" % (first.ms / 1000))
        report("boot: power-on to the title (the main loop's first frame: keys are read)",
               "%.2f s" % (title.ms / 1000))
        report("boot: SELECT pressed then: the menu shown after",
               "%.0f ms" % (answer.ms - title.ms) if answer is not None else "not seen")
        report("boot: one 64-pixel neopixel_write", "%.2f ms" % ((first.ns - first.start_ns) / 1e6))


def _mean_worst(values):
    if not values:
        return "-"
    return "mean %.0f, worst %.0f" % (sum(values) / len(values), max(values))


def play_on_chip(games, seed=11, timeout_ms=1800000):
    """The deployed code.py under :data:`APP_HARNESS`: the menu, then one game per entry of
    ``games`` (seats, e.g. ``("hard", "hard")``) in the device's own main loop; a
    :class:`ChipResult` whose figures are the ``@FIG`` lines of the harness (``low_free_2p``,
    ``frame_think`` (use :func:`frame_figures`), ``stalls``, ...)."""
    drive = with_harness(deployed_files(settings={"ROLIT_SEED": seed}))
    drive["code.py"] = HEAP_CODE_PY.encode()
    drive["rolit_bench.py"] = (APP_HARNESS % {"games": tuple(games)}).encode()
    return run_files(drive, timeout_ms=timeout_ms)


def part_heap_frames(report, games):
    result = play_on_chip(games)
    if not result.ok:
        report("heap/frames: FAILED", "%s; console ends: %s" % (result.problem,
                                                                 result.console[-800:]))
        return result
    f = result.figures
    report("heap: free at the top of code.py", "%d bytes" % f["free_top"])
    report("heap: free after code.py's imports", "%d bytes" % f["free_import"])
    harness = f.get("harness", 0)
    report("heap: held by this bench's harness (its code and state, imported first; the figures "
           "below are under it, --parts log gives the game's own without it)", "%d bytes" % harness)
    for seats in games:
        tag, level = _tag(seats)
        what = ("one human seat (SELECT) and %d %s" % (len(seats) - 1, level) if "human" in seats
                else "%d %s seats" % (len(seats), level) if len(set(seats)) == 1
                else "seats " + "+".join(seats))
        low = f["low_free_" + tag]
        report("heap: lowest free in a game of %s (after code.py's collection after each move)"
               % what, "%d bytes" % low)
        report("heap: lowest free, same game, no collection (every 10 frames)",
               "%d bytes" % f["low_free_raw_" + tag])
        if "low_free_paced_" + tag in f:
            report("heap: lowest free after code.py's own collections (%d, mid-search too)"
                   % f["collections_" + tag], "%d bytes" % f["low_free_paced_" + tag])
        moves = result.lists.get("app-%s-%s" % (level, tag), [])
        report("app: %s answer time in the app, %s (ms, %d moves)" % (level, tag, len(moves)),
               _mean_worst(moves))
    names = {"title": "title", "idle": "menu, idle", "menu": "menu, keys", "animate":
             "play, animating", "think": "play, a computer thinks", "input": "play, human",
             "other": "round end", "gc": "code.py's collections with what they ask the heap "
             "(within the frames above)"}
    for kind, label in names.items():
        if "update_%s" % kind in f:
            count, mean, worst = _three(result, "update_" + kind)
            report("App.update, %s (us; %d)" % (label, count),
                   "mean %d, worst %d" % (mean, worst))
    if "frame_think" in f:
        count, mean, worst = _three(result, "frame_think")
        report("frame, a computer thinks before or after the update (us; %d)" % count,
               "mean %d, worst %d; %d over 50 ms" % (mean, worst, f["stalls"]))
        count, mean, worst = _three(result, "frame_other")
        report("frame, the others in those games (us; %d)" % count,
               "mean %d, worst %d" % (mean, worst))
        count, mean, worst = _three(result, "slices")
        report("search nodes per thinking update (code.py's pacer)",
               "mean %d, largest %d" % (mean, worst))
    return result


def _tag(seats):
    """The harness's name for a game of ``seats`` (tag_of there) and its first computer level."""
    level = [seat for seat in seats if seat != "human"][0]
    return ("human_" if "human" in seats else "") + "%dp" % len(seats), level


def frame_figures(result, name):
    """Count, mean and worst of a ``@FIG name count mean worst`` line of :data:`APP_HARNESS`
    (``frame_think``, ``frame_other``, ``slices``, ``update_think``, ...)."""
    return _three(result, name)


def _three(result, name):
    """The three ints of the ``@FIG name a b c`` line."""
    for line in result.console.splitlines():
        at = line.find("@FIG %s " % name)
        if at >= 0:
            parts = line[at:].split()
            return int(parts[2]), int(parts[3]), int(parts[4])
    return 0, 0, 0


def part_ai(report, levels, players, games):
    code = AI_GAME % {"levels": tuple(levels), "players": tuple(players), "games": games}
    result = run_on_chip(code, timeout_ms=3600000)
    if not result.ok:
        report("ai: FAILED", "%s; console ends: %s" % (result.problem, result.console[-800:]))
        return result
    for n in players:
        for level in levels:
            moves = [t / 1000 for t in result.lists.get("%s-%dp" % (level, n), [])]
            report("ai: %s choose(), %dp, 8x8 (ms, %d moves)" % (level, n, len(moves)),
                   _mean_worst(moves) if max(moves or [0]) >= 10 else
                   "mean %.1f, worst %.1f" % (sum(moves) / max(1, len(moves)), max(moves or [0])))
    report("ai: lowest free heap in those games (after a collection)",
           "%d bytes" % result.figures["free_low"])
    return result


BOOK_LOOKUPS = r'''
from rolit_core import Game, lifetime
from rolit_core.rng import Random

games = []
for players in (2, 3, 4):
    for plies in range(6):
        rng = Random(players * 10 + plies)
        game = Game(players=players, first="red")
        for _ in range(plies):
            game.play(rng.choice(game.legal_moves()))
        games.append((game, game.legal_moves()))
rng = Random(1)
times = [0] * (3 * len(games))
found = 0
garbage = 0
# every name this snippet binds, bound before the figures (a new global grows the dict)
round = cell = start = free = used = held = 0
book = checked = None
before = 0
gc.collect()
before = gc.mem_free()
book = lifetime.load("rolit_core.book")
gc.collect()
fig("book_code", before - gc.mem_free())
checked = book.check()  # the file's check, once, as rolit_core.ai makes it once a session
for game, moves in games:  # every game's lookup made once before the figures
    book.move(game, moves, rng, checked)
gc.collect()
held = gc.mem_free()
at = 0
for round in range(3):
    for game, moves in games:
        gc.collect()
        gc.disable()
        free = gc.mem_free()
        start = us()
        cell = book.move(game, moves, rng, checked)
        times[at] = us() - start
        used = free - gc.mem_free()
        gc.enable()
        at += 1
        if used > garbage:
            garbage = used
        if cell >= 0:
            found += 1
gc.collect()
fig("book_kept", held - gc.mem_free())
fig("book_garbage", garbage)
fig("book_found", found)
fig("book_asked", len(times))
book = checked = None
lifetime.forget("rolit_core.book")
gc.collect()
fig("book_forgotten", before - gc.mem_free())
print("@LIST book_us " + " ".join([str(t) for t in times]))
'''


def part_book(report):
    """The opening book on the chip: its module's heap, what a lookup holds after it returns
    (nothing, if it reads by seek), its garbage and time, and the heap once it is forgotten."""
    result = run_on_chip(BOOK_LOOKUPS, timeout_ms=120000)
    if not result.ok:
        report("book: FAILED", "%s; console ends: %s" % (result.problem, result.console[-800:]))
        return result
    f = result.figures
    times = [t / 1000 for t in result.lists.get("book_us", [])]
    report("book: rolit_core.book loaded (its code)", "%d bytes" % f["book_code"])
    report("book: heap a lookup keeps once it returned (%d lookups, %d in the book)"
           % (f["book_asked"], f["book_found"]), "%d bytes" % f["book_kept"])
    report("book: garbage of one lookup, at most", "%d bytes" % f["book_garbage"])
    report("book: one lookup (ms)", "mean %.1f, worst %.1f" % (sum(times) / max(1, len(times)),
                                                              max(times or [0])))
    report("book: heap still held once it is forgotten", "%d bytes" % f["book_forgotten"])
    return result


def _tap(pico, key, hold_ms=80, gap_ms=160):
    pico.press(key)
    pico.run(hold_ms)
    pico.release(key)
    pico.run(gap_ms)


def play_from_menu(files, players, until, timeout_ms=600000):
    """Boot ``files``; from the title, the menu's keys set ``players`` seats with ``hard`` on all
    but the first, SELECT starts the game, and the human seat plays by pressing SELECT (each turn
    the cursor starts on a legal cell) until the console shows ``until`` or a traceback.
    Returns the console."""
    keys = ["select", "down"] + ["right"] * (players - 2) + ["down"]
    for seat in range(1, players):
        keys += ["down", "right", "right"]  # the seat's page: easy -> medium -> hard
    keys.append("back")  # to the play page
    with Emulator(files=files) as pico:
        pico.run_until_text("controls:", BOOT_MS)
        pico.run(1500)
        for key in keys:
            _tap(pico, key)
        limit = pico.ms + timeout_ms
        while pico.ms < limit and until not in pico.console:
            _tap(pico, "select", 80, 320)
            if "Traceback" in pico.console:
                break
        pico.run(200)
        return pico.console


def play_unmodified(players, seed=11, timeout_ms=600000):
    """The deployed files as they are, no harness, a game played as :func:`play_from_menu` does
    until the game log prints the heap's lowest (``hardware.gamelog``). Returns ``(low_free,
    low_free_searching, console)``, or ``(None, None, console)``."""
    console = play_from_menu(deployed_files(settings={"ROLIT_SEED": seed}), players, "heap: ",
                             timeout_ms)
    for line in console.splitlines():
        if line.startswith("heap: "):
            words = line.replace("(", " ").split()
            return int(words[1]), int(words[10]), console
    return None, None, console


# Put before the deployed code.py: at the collection after the first move (the game log's
# first figure), new names are interned one at a time until the heap drops at once by more than
# a name's own few bytes: the qstr pool's next block. Its few names of its own count as used.
QSTR_PROBE = '''import gc
import hardware.pacing
_collect_now = hardware.pacing.Pacing._collect_now
def _probe(self, planned):
    _collect_now(self, planned)
    if planned:
        return
    hardware.pacing.Pacing._collect_now = _collect_now
    class Holder:
        pass
    holder = Holder()
    gc.collect()
    start = last = gc.mem_free()
    for count in range(1, 3000):
        getattr(holder, "q%d" % count, None)  # interns the name, and adds nothing that lasts
        gc.collect()
        free = gc.mem_free()
        if last - free > 4096:
            print("@QSTRS %d %d %d" % (count, last - free, start))
            return
        last = free
    print("@QSTRS 0 0 0")
hardware.pacing.Pacing._collect_now = _probe
del _probe
'''


def qstr_room(players, seed=11):
    """Boot the deployed files with :data:`QSTR_PROBE` before ``code.py``, play to the first
    move's collection and return ``(names, block_bytes, free)``: the new name that made the qstr
    pools grow (so ``names - 1`` fitted), what that growth took, and the heap free after that
    collection. Names are interned for good (CircuitPython never frees them), so compiling from
    source, which interns every identifier and every string of up to 10 characters, uses the
    room up sooner than ``.mpy`` files, which keep only the names the code looks up. ``None`` if
    the probe failed."""
    files = deployed_files(settings={"ROLIT_SEED": seed})
    files["code.py"] = QSTR_PROBE.encode() + files["code.py"]
    console = play_from_menu(files, players, "@QSTRS ")
    for line in console.splitlines():
        if line.startswith("@QSTRS "):
            names, block, free = (int(word) for word in line.split()[1:])
            return (names, block, free) if names else None
    return None


def part_qstrs(report, players):
    for n in players:
        room = qstr_room(n)
        if room is None:
            report("qstrs: FAILED, %dp" % n, "")
            continue
        names, block, free = room
        report("qstrs: %dp, at the first move: names the qstr pool takes before it grows · the "
               "bytes its next block takes · free after the collection" % n,
               "%d · %d bytes · %d bytes" % (names - 1, block, free))


def part_log(report, players):
    for n in players:
        low, searching, console = play_unmodified(n)
        if low is None or "Traceback" in console or "MemoryError" in console:
            report("log: FAILED, %dp" % n, "console ends: %s" % console[-800:])
            continue
        header = [line for line in console.splitlines() if line.startswith("game ")]
        report("log: %s" % (header[-1] if header else "%dp" % n), "")
        report("log: the unmodified code.py's own figures (game log), %dp: lowest free after a "
               "collection, between searches / while a search ran" % n,
               "%d / %d bytes" % (low, searching))


def part_attract(report, minutes):
    drive = with_harness(deployed_files(settings={"ROLIT_SEED": 5}))
    drive["code.py"] = (ATTRACT_HARNESS % {}).encode()
    samples = []
    with Emulator(files=drive) as pico:
        pico.run_until_text("controls:", BOOT_MS)
        attract_from = None
        limit = pico.ms + (75 + minutes * 60) * 1000
        while pico.ms < limit:
            pico.run(5000)
            samples = _samples(pico.console)
            if attract_from is None:
                for at, mode, free, used in samples:
                    if mode == "attract":
                        attract_from = pico.ms
                        limit = pico.ms + minutes * 60 * 1000
                        break
        console = pico.console
    attract = [(at, free) for at, mode, free, used in samples if mode == "attract"]
    if len(attract) < 3 or "Traceback" in console or "MemoryError" in console:
        report("attract: FAILED", "%d samples; console ends: %s" % (len(attract),
                                                                     console[-800:]))
        return
    times = [((at - attract[0][0]) & 0x1FFFFFFF) / 60000 for at, _ in attract]
    frees = [free for _, free in attract]
    slope = _slope(times, frees)
    third = max(1, len(frees) // 3)
    report("attract: free heap after a collection over %.1f emulated minutes (%d samples)"
           % (times[-1], len(frees)), "min %d, max %d" % (min(frees), max(frees)))
    report("attract: first third mean vs last third mean",
           "%d -> %d bytes" % (sum(frees[:third]) / third, sum(frees[-third:]) / third))
    report("attract: trend (least squares)", "%+.0f bytes per minute" % slope)
    # The samples above fall anywhere in a game (its moves, the round end); the first frame of
    # each game is the same point every time: a leak would show there as a trend.
    starts = _game_starts(console)
    if len(starts) >= 3:
        minutes = [((at - starts[0][0]) & 0x1FFFFFFF) / 60000 for at, _ in starts]
        frees = [free for _, free in starts]
        report("attract: free heap at the first frame of each game, after a collection "
               "(%d games)" % len(frees), "min %d, max %d; first %d, last %d"
               % (min(frees), max(frees), frees[0], frees[-1]))
        report("attract: trend over those games (least squares)",
               "%+.0f bytes per minute" % _slope(minutes, frees))
        report("attract: each game's, in order", " ".join([str(free) for free in frees]))


def _marked(console, mark, count):
    """The fields after ``mark`` ("@S", "@G") of each console line that has it and ``count``
    of them."""
    found = []
    for line in console.splitlines():
        at = line.find(mark + " ")
        if at >= 0:
            parts = line[at:].split()[1:]
            if len(parts) == count:
                found.append(parts)
    return found


def _game_starts(console):
    return [(int(at), int(free)) for at, free in _marked(console, "@G", 2)]


def _samples(console):
    return [(int(at), mode, int(free), int(used))
            for at, mode, free, used in _marked(console, "@S", 4)]


def _slope(xs, ys):
    n = len(xs)
    mean_x = sum(xs) / n
    mean_y = sum(ys) / n
    spread = sum((x - mean_x) ** 2 for x in xs)
    if not spread:
        return 0.0
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread


XIP_WORK = r'''
from rolit_core import Game
from rolit_core.ai import player
from rolit_core.app import App

print("@XIP start")
game = Game(players=2, size=8, first="red", seed=3)
bots = [player("hard", 1), player("hard", 2)]
for _ in range(12):
    game.play(bots[game.seat_of(game.turn)].choose(game))
app = App(seed=3)
now = 0
for _ in range(300):
    now += 20
    app.update(now, [])
app.start(seats=("hard", "hard"))
for _ in range(600):
    now += 20
    app.update(now, [])
print("@XIP stop")
'''
MISS_CYCLES = (30, 60)  # sys clock cycles to fill an 8-byte line over QSPI (estimated range)


def part_xip(report):
    """How much a real chip's XIP cache misses would add: typical work (hard moves, App frames)
    with every flash read through a model of the cache."""
    drive = deployed_files()
    drive["code.py"] = XIP_WORK.encode()
    with Emulator(files=drive, xip=True) as pico:
        pico.run_until_text("@XIP start", BOOT_MS + 20000)
        pico.xip_counts(reset=True)
        start = pico.cycles
        while "@XIP stop" not in pico.console and pico.ms < 600000:
            pico.run(2000, until_text="@XIP stop")
        counts = pico.xip_counts()
        cycles = pico.cycles - start
    reads = counts["hits"] + counts["misses"] + counts["uncached"]
    misses = counts["misses"] + counts["uncached"]
    report("xip: flash reads in %.1f M cycles of game work" % (cycles / 1e6),
           "%d (%.1f%% missed the modelled cache)" % (reads, 100.0 * misses / max(1, reads)))
    low, high = MISS_CYCLES
    report("xip: a real chip would add (at %d-%d cycles a miss)" % (low, high),
           "%.0f-%.0f%%" % (100.0 * misses * low / cycles, 100.0 * misses * high / cycles))


PARTS = ("boot", "heap", "log", "qstrs", "ai", "attract", "xip", "book")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.device", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--parts", default=",".join(PARTS),
                        help="comma-separated: boot, heap (heap and frames), log (the unmodified "
                        "code.py against hard, its own heap figures), ai, attract, xip, book")
    parser.add_argument("--levels", default=",".join(LEVELS), help="for ai: easy,medium,hard")
    parser.add_argument("--players", default="2,4", help="for ai and heap: 2,4")
    parser.add_argument("--seats", default="both", choices=("hard", "human", "both"),
                        help="for heap: games of hard seats only, of one human (pressing SELECT) "
                        "against hard, or both")
    parser.add_argument("--games", type=int, default=1, help="for ai: games per level and count")
    parser.add_argument("--minutes", type=float, default=6.0,
                        help="for attract: emulated minutes of the attract mode (default 6)")
    parser.add_argument("--firmware", help="the UF2 (default: $ROLIT_FIRMWARE or "
                        "../shared/firmware/)")
    parser.add_argument("--mpy-cross", metavar="PATH", help="measure the compiled deploy "
                        "(sim.deploy --mpy-cross PATH): CircuitPython's mpy-cross of the UF2's "
                        "version")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a settings.toml line on every drive, e.g. --set "
                        "ROLIT_LINK_TX=GP12 (repeatable; the bench's own keys win)")
    args = parser.parse_args([] if argv is None else argv)
    from sim.emulate import parse_setting

    try:
        SETTINGS.clear()
        SETTINGS.update(parse_setting(item) for item in args.set)
    except ValueError as error:
        print("device bench: %s" % error)
        return None
    if args.mpy_cross:
        try:
            print("compiled deploy: %s" % deploy.MpyCross(args.mpy_cross).banner)
        except deploy.DeployError as error:
            print("device bench: %s" % error)
            return None
        COMPILER[:] = [args.mpy_cross]
    if args.firmware:
        import os

        os.environ["ROLIT_FIRMWARE"] = args.firmware
    reason = missing_reason()
    if reason:
        print("device bench skipped: " + reason)
        return None
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    players = [int(p) for p in args.players.split(",")]
    levels = [level.strip() for level in args.levels.split(",")]
    figures = []

    def report(what, value):
        figures.append((what, value))
        print("%-78s %s" % (what, value))
        sys.stdout.flush()

    started = time.time()
    if "boot" in parts:
        part_boot(report)
    if "heap" in parts or "frames" in parts:
        games = []
        if args.seats in ("hard", "both"):
            games += [("hard",) * n for n in players]
        if args.seats in ("human", "both"):
            games += [("human",) + ("hard",) * (n - 1) for n in players]
        part_heap_frames(report, games)
    if "log" in parts:
        part_log(report, players)
    if "qstrs" in parts:
        part_qstrs(report, players)
    if "ai" in parts:
        part_ai(report, levels, players, args.games)
    if "attract" in parts:
        part_attract(report, args.minutes)
    if "xip" in parts:
        part_xip(report)
    if "book" in parts:
        part_book(report)
    print("(emulated time on the 125 MHz RP2040; %.0f s of this machine's time)"
          % (time.time() - started))
    return figures


if __name__ == "__main__":
    main(sys.argv[1:])
