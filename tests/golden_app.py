"""Golden sessions of ``App``: scripted key events and a fake clock through every screen, each
frame (with the cues, the mode and the public state) folded into a digest.

``test_app_golden.py`` replays every session and compares its digests with those stored in
``golden/app_frames.json``; ``python tests/golden_app.py --record`` writes that file. The
digests were recorded on the app before it was restructured, so a difference is a change of
behaviour. Only public names of the app are used, so that its insides may move freely.

Each session gives a digest at every ``CHECK_EVERY`` frames (so that a failure says where the
first difference lies) and one of its game records and saved bytes at the end.
"""

import hashlib
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
for _path in (ROOT, HERE):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from rolit_core.app import BACK, DOWN, LEFT, RIGHT, SELECT, UP, App  # noqa: E402
from rolit_core.ai import player  # noqa: E402
from rolit_core import Game  # noqa: E402

GOLDEN = os.path.join(HERE, "golden", "app_frames.json")
CHECK_EVERY = 200
WRAP = 1 << 29
ARROWS = (UP, DOWN, LEFT, RIGHT)

# A version 1 save (no first choice, no clock): 2 players, human against medium, 30 s, hints,
# 3 rounds, green first, three moves played.
V1_SAVE = bytes.fromhex("5248010021020002010108000101000000030001020002000008000003001e01030103"
                        "120a1df6ba")


class Store:
    """A storage double: keeps what is saved; ``fail_every`` makes every n-th save fail (by
    raising when ``raises``, else by returning False); ``load_error`` makes load raise."""

    def __init__(self, data=None, fail_every=0, raises=False, load_error=False, capacity=None,
                 error=None):
        self.data = data
        self.fail_every = fail_every
        self.raises = raises
        self.load_error = load_error
        if capacity is not None:
            self.capacity = capacity
        self.error = error
        self.calls = 0
        self.hash = hashlib.sha256()

    def load(self):
        if self.load_error:
            raise OSError("flash unreadable")
        return self.data

    def save(self, data):
        self.calls += 1
        data = bytes(data)
        self.hash.update(b"%d:" % len(data) + data)
        if self.fail_every and self.calls % self.fail_every == 0:
            if self.raises:
                raise OSError("flash full")
            self.hash.update(b"refused")
            return False
        self.data = data
        return True


class Recorder:
    """Drives one app with a fake clock and folds each frame into a digest."""

    def __init__(self, app, store=None, now=0, step=20):
        self.app = app
        self.store = store
        self.now = now
        self.step = step
        self.frames = 0
        self.checks = []
        self.hash = hashlib.sha256()
        self.notes = []

    # -- driving ----------------------------------------------------------------------------

    def tick(self, events=(), dt=None, now=None):
        if now is not None:
            self.now = now
        else:
            self.now += self.step if dt is None else dt
        frame = self.app.update(self.now % WRAP if now is None else now, events)
        self.fold(frame)
        return frame

    def fold(self, frame):
        app = self.app
        mode = app.mode
        game = app.game
        parts = [repr(tuple(frame)), repr(list(app.cues)), mode, repr(app.page),
                 repr(app.error), str(app.save_failures), repr(game is None),
                 repr(None if app.match is None else (app.match.round, app.match.rounds_won))]
        if game is not None:
            parts.append(repr((len(game.board.moves), game.turn, game.over)))
        if mode == "play":
            parts.append(repr((app.phase, app.cursor, app.illegal_reason,
                               app.thinker is None)))
        if self.store is not None:
            parts.append(str(self.store.calls))
        self.hash.update("|".join(parts).encode())
        self.frames += 1
        if self.frames % CHECK_EVERY == 0:
            self.checks.append(self.hash.hexdigest()[:16])

    def note(self, text):
        """Fold a line of text (a message, a refusal) into the digest."""
        self.hash.update(("#" + str(text)).encode())

    def wait(self, ms, step=None):
        step = step or self.step
        end = self.now + ms
        while self.now + step <= end:
            self.tick(dt=step)
        if self.now < end:
            self.tick(dt=end - self.now)

    def until(self, condition, limit_ms=600000, step=None):
        end = self.now + limit_ms
        while not condition() and self.now < end:
            self.tick(dt=step)

    def press(self, key):
        self.tick([(key, True)])

    def release(self, key):
        self.tick([(key, False)])

    def tap(self, key):
        self.press(key)
        self.release(key)

    def hold(self, key, ms):
        self.press(key)
        self.wait(ms)
        self.release(key)

    # -- playing ----------------------------------------------------------------------------

    def human_turn(self):
        app = self.app
        return app.mode == "play" and app.phase == "input"

    def goto(self, cell):
        app = self.app
        size = app.game.size
        for _ in range(4 * size):
            row, col = divmod(app.cursor, size)
            want_row, want_col = divmod(cell, size)
            if (row, col) == (want_row, want_col):
                return
            if row != want_row:
                self.tap(DOWN if (want_row - row) % size <= size // 2 else UP)
            else:
                self.tap(RIGHT if (want_col - col) % size <= size // 2 else LEFT)

    def play_cell(self, cell, hold_ms=0):
        self.goto(cell)
        self.press(SELECT)
        if hold_ms:
            self.wait(hold_ms)
        self.release(SELECT)

    def play_round(self, rng, limit_ms=900000, mistakes=True):
        """Humans pick random legal cells (now and then an illegal one first) until the round
        is over; computers play by themselves."""
        app = self.app
        end = self.now + limit_ms
        while app.mode == "play" and self.now < end:
            if self.human_turn():
                moves = app.game.legal_moves()
                if mistakes and rng.random() < 0.2:
                    cells = [c for c in range(app.game.size ** 2) if c not in moves]
                    if cells:
                        self.goto(rng.choice(cells))
                        self.tap(SELECT)
                        self.note(app.illegal_reason)
                        self.wait(rng.choice((0, 100, 400)))
                self.play_cell(rng.choice(moves), rng.choice((0, 0, 60, 300)))
            else:
                self.tick()

    def finish(self):
        app = self.app
        tail = [self.hash.hexdigest()]
        game = app.game
        tail.append(game.record() if game is not None else "")
        if self.store is not None:
            tail.append(self.store.hash.hexdigest())
            tail.append(repr(self.store.data))
        tail.append(repr(app.state_bytes()))
        tail.append(repr(app.error))
        digest = hashlib.sha256("\n".join(tail).encode()).hexdigest()[:16]
        return {"frames": self.frames, "checks": self.checks, "end": digest}


# -- sessions -----------------------------------------------------------------------------------


def session_menu_tour():
    """Title, every menu page in both directions with every value, BACK to title, title again."""
    store = Store()
    r = Recorder(App(storage=store, seed=11), store)
    r.tick(dt=0)
    r.wait(3000)
    for _ in range(20):
        for key in (RIGHT, RIGHT, LEFT, SELECT):
            if key == SELECT and r.app.page[0] in ("play", "self-test"):
                continue
            r.tap(key)
            r.wait(60)
        r.tap(DOWN)
        r.wait(250)
    for _ in range(14):
        r.tap(UP)
        r.tap(LEFT)
        r.wait(2100)  # settings saved when the menu rests
    r.tap(BACK)  # to the play page
    r.tap(BACK)  # to the title
    r.wait(500)
    r.tap(SELECT)
    r.wait(1000)
    for level in range(1, 6):
        r.app.brightness = level
        r.tick()
    try:
        r.app.brightness = 9
    except ValueError as error:
        r.note(error)
    return r.finish()


def session_attract():
    """The menu left alone: the attract mode, six minutes of it, then a key back to the menu."""
    store = Store()
    r = Recorder(App(storage=store, seed=5), store, step=50)
    r.tick(dt=0)
    r.wait(3000)
    r.wait(61000, step=100)
    r.wait(6 * 60000, step=50)
    r.tap(SELECT)
    r.wait(2000)
    r.wait(61000, step=200)
    r.wait(20000)
    r.tap(LEFT)
    r.wait(1000)
    return r.finish()


def session_selftest():
    """The self-test from the menu: the sweep, SELECT skipping it, every key, BACK held out."""
    r = Recorder(App(seed=3))
    r.tick(dt=0)
    r.wait(2500)
    r.tap(UP)  # the last page is the self-test
    r.wait(100)
    r.tap(SELECT)
    r.wait(3000)
    r.tap(SELECT)  # the key test at once
    for key in (UP, DOWN, LEFT, RIGHT, SELECT, BACK):
        r.hold(key, 300)
    r.press(UP)
    r.press(SELECT)
    r.wait(200)
    r.release(UP)
    r.release(SELECT)
    r.hold(BACK, 1000)
    r.hold(BACK, 1600)
    r.wait(500)
    # again, watching the sweep to its end
    r.tap(SELECT)
    r.wait(64 * 30 + 4 * 600 + 500)
    r.hold(BACK, 1600)
    r.wait(300)
    return r.finish()


def session_humans(seed, size, players, teams, tie, hints, first):
    store = Store()
    r = Recorder(App(storage=store, seed=seed), store)
    r.tick(dt=0)
    seats = ("human",) * players
    r.app.start(seats=seats, size=size, teams=teams, tie=tie, hints=hints, first=first)
    r.tick(dt=0)
    rng = random.Random(seed)
    r.play_round(rng)
    r.wait(1000)
    r.tap(SELECT)  # the bars at once
    r.wait(3000)
    r.tap(SELECT)  # again
    r.wait(500)
    for _ in range(4):
        r.play_cell(rng.choice(r.app.game.legal_moves()))
        r.wait(700)
    return r.finish()


def session_level(level, seed, players=2):
    """A human (random legal cells, some refused first) against ``level``."""
    store = Store()
    levels = ("easy", "medium", "hard", "expert")
    r = Recorder(App(storage=store, seed=seed, levels=levels), store)
    r.tick(dt=0)
    seats = ("human",) + (level,) * (players - 1)
    r.app.start(seats=seats, size=8 if players > 2 else 6)
    r.tick(dt=0)
    r.play_round(random.Random(seed))
    r.wait(8000)
    r.tap(BACK)  # to the menu
    r.wait(500)
    return r.finish()


def session_computers(seed, seats, rounds, tie="shared"):
    """Computers only over a match: round ends, the table, the match end, play again, quit."""
    store = Store()
    r = Recorder(App(storage=store, seed=seed), store)
    r.tick(dt=0)
    r.app.start(seats=seats, rounds=rounds, tie=tie)
    r.tick(dt=0)
    for _ in range(rounds):
        r.until(lambda: r.app.mode != "play")
        r.wait(6000)
        r.tap(SELECT)  # the table (or, for one round, play again)
        r.wait(1500)
        if r.app.mode == "table":
            r.tap(SELECT)  # the next round (or the match end)
        r.wait(300)
    r.wait(2000)
    r.tap(SELECT)  # play again
    r.wait(3000)
    r.hold(BACK, 700)  # pause
    r.tap(DOWN)
    r.tap(DOWN)
    r.tap(DOWN)
    r.tap(SELECT)  # quit
    r.wait(500)
    return r.finish()


def session_pause(seed):
    """Pause from play and mid-animation: every item, undo with computers and without,
    restart, quit; BACK held in the menu of pause."""
    store = Store()
    r = Recorder(App(storage=store, seed=seed), store)
    r.tick(dt=0)
    r.app.start(seats=("human", "medium"), time_limit=30)
    r.tick(dt=0)
    rng = random.Random(seed)
    for _ in range(3):
        r.until(r.human_turn)
        r.play_cell(rng.choice(r.app.game.legal_moves()))
    r.wait(100)
    r.hold(BACK, 700)  # pause during the animation or the computer's turn
    for key in (DOWN, DOWN, UP, LEFT, RIGHT, RIGHT, DOWN, DOWN):
        r.tap(key)
        r.wait(50)
    r.tap(BACK)  # resume
    r.until(r.human_turn)
    r.wait(4000)
    r.hold(BACK, 650)
    r.tap(DOWN)
    r.tap(SELECT)  # undo back to the human's turn
    r.wait(1000)
    r.hold(BACK, 650)
    r.tap(DOWN)
    r.tap(DOWN)
    r.tap(SELECT)  # restart the round
    r.wait(1000)
    r.hold(BACK, 650)
    r.tap(DOWN)
    r.tap(SELECT)  # undo with nothing to undo
    r.wait(300)
    r.tap(SELECT)  # resume
    r.wait(1000)
    r.hold(BACK, 650)
    r.tap(SELECT)  # resume
    r.wait(800)
    r.hold(BACK, 650)
    r.tap(UP)
    r.tap(SELECT)  # quit
    r.wait(1000)
    # humans only: undo takes one move back
    r.app.start(seats=("human", "human", "human"))
    r.tick(dt=0)
    for _ in range(4):
        r.play_cell(rng.choice(r.app.game.legal_moves()))
        r.wait(900)
    for _ in range(2):
        r.hold(BACK, 650)
        r.tap(DOWN)
        r.tap(SELECT)
        r.wait(700)
    r.hold(BACK, 650)
    r.tap(RIGHT)
    r.tap(RIGHT)
    r.tap(SELECT)  # restart
    r.wait(600)
    # computers only: undo refused
    r.app.start(seats=("easy", "easy"))
    r.tick(dt=0)
    r.wait(3000)
    r.hold(BACK, 650)
    r.tap(DOWN)
    r.tap(SELECT)
    r.wait(300)
    r.tap(BACK)
    r.wait(2000)
    return r.finish()


def session_time_limit(seed):
    """30 s a move: the countdown, the hurried last seconds, timeouts, a save every 10 s, a
    pause that keeps the time, a restore with the clock running."""
    store = Store()
    r = Recorder(App(storage=store, seed=seed), store, step=40)
    r.tick(dt=0)
    r.app.start(seats=("human", "easy", "human"), time_limit=30, hints=True)
    r.tick(dt=0)
    for _ in range(3):
        r.until(r.human_turn)
        r.wait(31000)  # the time runs out
    r.until(r.human_turn)
    r.wait(12000)
    r.hold(BACK, 700)
    r.wait(5000)
    r.tap(BACK)
    r.wait(14000)
    r.play_cell(r.app.game.legal_moves()[0])
    r.until(r.human_turn)
    r.wait(21500)
    # power lost: a new app from the save goes on with the clock it had
    resumed = Store(store.data)
    r2 = Recorder(App(storage=resumed, seed=seed + 1), resumed, now=r.now, step=40)
    r2.hash = r.hash
    r2.frames = r.frames
    r2.checks = r.checks
    r2.tick(dt=0)
    r2.wait(3000)
    r2.tap(SELECT)
    r2.wait(12000)
    r2.app.start(seats=("human", "human"), time_limit=60)
    r2.tick(dt=0)
    r2.wait(65000, step=100)
    return r2.finish()


def session_saves_fail(raises):
    """Every third save fails: the corners blink red, the count goes up, the game goes on."""
    store = Store(fail_every=3, raises=raises)
    r = Recorder(App(storage=store, seed=21), store)
    r.tick(dt=0)
    r.wait(2500)
    r.tap(RIGHT)
    r.wait(2500)  # the settings save
    r.app.start(seats=("human", "easy"))
    r.tick(dt=0)
    rng = random.Random(4)
    for _ in range(8):
        r.until(r.human_turn)
        r.play_cell(rng.choice(r.app.game.legal_moves()))
    r.wait(4000)
    return r.finish()


def session_errors():
    """Corrupt, foreign and unreadable saves: the error screen, then the title and the menu;
    a store that reports its own problem; a version 1 save that loads; one that fails to save
    after reporting corrupt data."""
    results = []
    cases = (
        Store(b"garbage that is no save"),
        Store(V1_SAVE[:-1] + b"\x00"),
        Store(load_error=True),
        Store(None, error="saved game is corrupt (checksum): ignored"),
        Store(V1_SAVE),
        Store(b"RH\x09\x00\x00\x00\x00", fail_every=1),
        Store(b"RH\x02" + V1_SAVE[3:]),
    )
    for store in cases:
        r = Recorder(App(storage=store, seed=8), store)
        r.tick(dt=0)
        r.wait(1500)
        r.wait(2000)
        r.wait(3000)
        r.tap(DOWN)
        r.wait(1000)
        results.append(r.finish()["end"])
    r = Recorder(App(seed=9))
    for text in results:
        r.note(text)
    return r.finish()


def session_refusals():
    """start() refusals leave the app (and its random sequence) as it was; a storage too
    small for the menu's match; load_record; bad clocks and bad events."""
    store = Store(capacity=200)
    r = Recorder(App(storage=store, seed=13), store)
    r.tick(dt=0)
    bad = (dict(seats="human"), dict(seats=5), dict(seats=("human", "grand")), dict(size=7),
           dict(rounds=0), dict(rounds=100), dict(time_limit=-1), dict(time_limit=3601),
           dict(seats=("human",) * 3, size=4), dict(teams=True, seats=("human",) * 3),
           dict(first="purple"), dict(tie="maybe"), dict(rounds=7), dict(record="1. R zz"),
           dict(seats=("human", "human"), first=2))
    for kwargs in bad:
        try:
            r.app.start(**kwargs)
            r.note("started %r" % (kwargs,))
        except ValueError as error:
            r.note(error)
        r.tick()
    for levels in (("easy", "grand"),):
        try:
            App(levels=levels)
        except ValueError as error:
            r.note(error)
    for nodes in (0, "5", 2.0):
        try:
            App(think_nodes=nodes)
        except ValueError as error:
            r.note(error)
    r.wait(3000)
    # rounds 7 on the menu: the storage refuses, the menu says so
    for _ in range(6):
        r.tap(DOWN)
    for _ in range(6):
        r.tap(RIGHT)
    r.tap(BACK)
    r.tap(SELECT)
    r.note(r.app.error)
    r.wait(500)
    # a record continued
    game = Game(players=2, first="green", seed=0)
    for _ in range(6):
        game.play(game.legal_moves()[1])
    r.app.load_record(game.record())
    r.tick(dt=0)
    r.app.load_record(game.record(), seats=("human", "medium"))
    r.tick(dt=0)
    r.app.start(seats=("human", "human", "human"), record=game.record())
    r.tick(dt=0)
    r.wait(500)
    # garbage in: bad clocks, bad events
    for now in (None, "soon", 2.5, -7, 1 << 40, WRAP - 1, 3):
        r.fold(r.app.update(now, []))
    for events in ((1,), [(9, True)], [(True, True)], [("up", True)], [(UP,)], [None],
                   [(UP, True, 1)], 7, [(-1, True)], [(SELECT, 0)], [(DOWN, False)]):
        r.tick(events)
    r.tick(dt=-500)
    r.tick(dt=5000)
    r.tick(dt=WRAP // 2 + 5)
    r.wait(1000)
    return r.finish()


def session_wrap(seed):
    """The clock wraps at 2**29 in the middle of a game with a time limit."""
    store = Store()
    r = Recorder(App(storage=store, seed=seed), store, now=WRAP - 40000, step=30)
    r.tick(dt=0)
    r.app.start(seats=("human", "hard"), time_limit=60, size=4)
    r.tick(dt=0)
    r.play_round(random.Random(seed))
    r.wait(6000)
    r.tap(SELECT)
    r.wait(2000)
    return r.finish()


def session_solo_and_teams(seed):
    store = Store()
    r = Recorder(App(storage=store, seed=seed), store)
    r.tick(dt=0)
    r.app.start(seats=("human",), size=4)
    r.tick(dt=0)
    rng = random.Random(seed)
    r.play_round(rng)
    r.wait(5000)
    r.tap(BACK)
    r.wait(300)
    r.app.start(seats=("human", "hard"), teams=True, tie="none", first=4, rounds=2)
    r.tick(dt=0)
    r.play_round(rng, mistakes=False)
    r.wait(5000)
    r.tap(SELECT)
    r.wait(1000)
    r.tap(SELECT)
    r.play_round(rng, mistakes=False)
    r.wait(5000)
    r.tap(SELECT)
    r.wait(1000)
    r.tap(SELECT)
    r.wait(3000)
    r.tap(BACK)
    r.wait(500)
    return r.finish()


def session_menu_play(seed):
    """A match set up and started in the menu: 3 players, a computer seat, 2 rounds, hints;
    power lost after a few moves and the match resumed; the self-test with unsaved
    settings."""
    store = Store()
    r = Recorder(App(storage=store, seed=seed), store)
    r.tick(dt=0)
    r.wait(2500)
    r.tap(DOWN)   # players
    r.tap(RIGHT)  # 3
    r.tap(DOWN)   # seat 1
    r.tap(DOWN)   # seat 2
    r.tap(RIGHT)  # easy
    r.tap(RIGHT)  # medium
    for _ in range(3):
        r.tap(DOWN)  # seat 3, size, rounds
    r.tap(RIGHT)
    for _ in range(4):
        r.tap(DOWN)  # time, tie, first, hints
    r.tap(SELECT)
    r.tap(BACK)
    r.tap(SELECT)  # play
    r.wait(200)
    rng = random.Random(seed)
    for _ in range(5):
        r.until(r.human_turn)
        r.play_cell(rng.choice(r.app.game.legal_moves()))
    resumed = Store(store.data)
    r2 = Recorder(App(storage=resumed, seed=seed), resumed, now=r.now)
    r2.hash, r2.frames, r2.checks = r.hash, r.frames, r.checks
    r2.tick(dt=0)
    r2.play_round(rng, mistakes=False)
    r2.wait(5000)
    r2.tap(SELECT)
    r2.wait(1000)
    r2.tap(BACK)  # quit from the table
    r2.wait(500)
    r2.tap(UP)
    r2.tap(RIGHT)  # a change not saved yet
    r2.tap(SELECT)  # the self-test saves it
    r2.wait(500)
    return r2.finish()


def session_monkey(seed):
    """Random keys, holds and clock steps from the title on, with a store that fails now and
    then: whatever the app reaches."""
    store = Store(fail_every=17)
    rng = random.Random(seed)
    r = Recorder(App(storage=store, seed=seed, think_nodes=1 + seed % 40), store)
    r.tick(dt=0)
    down = set()
    for _ in range(6000):
        events = []
        for _ in range(rng.choice((0, 0, 0, 1, 1, 2))):
            key = rng.randrange(6)
            if key in down and rng.random() < 0.7:
                down.discard(key)
                events.append((key, False))
            else:
                down.add(key)
                events.append((key, True))
        if rng.random() < 0.02:
            events.append(rng.choice(((9, True), ("x", 1), None, (UP,))))
        dt = rng.choice((0, 5, 16, 20, 20, 33, 50, 100, 700, 1500))
        if rng.random() < 0.003:
            dt = rng.choice((61000, 30000))
        r.tick(events, dt=dt)
    return r.finish()


SESSIONS = {
    "menu_tour": session_menu_tour,
    "attract": session_attract,
    "selftest": session_selftest,
    "humans_8x8_2": lambda: session_humans(1, 8, 2, False, "shared", False, None),
    "humans_6x6_3_hints": lambda: session_humans(2, 6, 3, False, "none", True, "yellow"),
    "humans_8x8_4": lambda: session_humans(3, 8, 4, False, "shared", False, None),
    "humans_4x4_teams": lambda: session_humans(4, 4, 2, True, "none", True, "blue"),
    "easy": lambda: session_level("easy", 31),
    "medium": lambda: session_level("medium", 32),
    "hard": lambda: session_level("hard", 33),
    "expert": lambda: session_level("expert", 34),
    "hard_3": lambda: session_level("hard", 35, players=3),
    "medium_4": lambda: session_level("medium", 36, players=4),
    "computers_match": lambda: session_computers(41, ("hard", "medium"), 3),
    "computers_4_none": lambda: session_computers(42, ("easy", "medium", "easy", "hard"), 2,
                                                  "none"),
    "computers_single": lambda: session_computers(43, ("easy", "easy", "easy"), 1),
    "pause": lambda: session_pause(51),
    "time_limit": lambda: session_time_limit(61),
    "saves_fail_false": lambda: session_saves_fail(False),
    "saves_fail_raise": lambda: session_saves_fail(True),
    "errors": session_errors,
    "refusals": session_refusals,
    "wrap": lambda: session_wrap(71),
    "solo_and_teams": lambda: session_solo_and_teams(81),
    "menu_play": lambda: session_menu_play(91),
    "monkey_1": lambda: session_monkey(1),
    "monkey_2": lambda: session_monkey(2),
    "monkey_3": lambda: session_monkey(3),
}


def computer_moves():
    """Each level's moves in self-play for a few seeds and player counts (expert: the first
    moves only), as one digest per level."""
    result = {}
    for level, games in (("easy", 6), ("medium", 4), ("hard", 3), ("expert", 1)):
        digest = hashlib.sha256()
        for seed in range(games):
            for players in (2, 3, 4):
                game = Game(players=players, seed=seed)
                bots = [player(level, seed * 10 + seat) for seat in range(players)]
                limit = 6 if level == "expert" else 99
                while not game.over and len(game.moves) < limit:
                    bot = bots[game.seat_of(game.turn)]
                    game.play(bot.choose(game))
                digest.update(game.record().encode())
        result[level] = digest.hexdigest()[:16]
    return result


def record_all():
    golden = {"sessions": {}, "computer_moves": computer_moves()}
    for name in SESSIONS:
        golden["sessions"][name] = SESSIONS[name]()
        print(name, golden["sessions"][name]["frames"])
    os.makedirs(os.path.dirname(GOLDEN), exist_ok=True)
    with open(GOLDEN + ".new", "w") as handle:
        json.dump(golden, handle, indent=1, sort_keys=True)
        handle.write("\n")
    os.replace(GOLDEN + ".new", GOLDEN)


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/golden_app.py --record   (writes %s)" % GOLDEN)
    record_all()
