"""Fuzz: random keys at random times. Nothing raises, every frame is 64 valid colours, and every
change of ``app.game.board`` is one legal move (or an undo, or a fresh round).

``ROLIT_FUZZ_EVENTS`` sets how many events (default 200000); ``ROLIT_FUZZ_SEED`` the seed.
"""

import os
import random

from rolit_core.app import App
from test_app_support import Storage

EVENTS = int(os.environ.get("ROLIT_FUZZ_EVENTS", "200000"))
SEED = int(os.environ.get("ROLIT_FUZZ_SEED", "2024"))
# SELECT and the arrows most, so that games get played; BACK less, so that they last
KEYS = (0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 4, 5)


def check_frame(frame):
    assert len(frame) == 64
    for colour in frame:
        assert type(colour) is tuple and len(colour) == 3
        for value in colour:
            assert type(value) is int and 0 <= value <= 255


class Watch:
    """Remembers the game shown last and checks how its board changed."""

    def __init__(self):
        self.game = None
        self.board = None
        self.turn = None
        self.moves = 0
        self.changes = 0

    def check(self, app):
        game = app.game
        if game is None:
            self.game = None
            return
        moves = game.board.moves
        if game is self.game:
            old = self.board.moves
            if moves != old:
                # undone moves (a common start, shorter), then new moves, each one legal
                same = 0
                while same < len(old) and same < len(moves) and old[same] == moves[same]:
                    same += 1
                while len(self.board.moves) > same:
                    self.board.undo()
                turn = self.turn if same == len(old) else old[same][1]
                for cell, colour in moves[same:]:
                    assert colour == turn, (cell, colour)
                    assert self.board.is_legal(cell, colour), (cell, colour)
                    self.board.play(cell, colour)
                    self.moves += 1
                    turn = game.next_colour(colour)
                self.changes += 1
            assert self.board == game.board
        else:
            # a new round, a restart or a resumed game: a legal history from the start
            self.game = game
            self.board = game.board.__class__(game.size)
            for cell, colour in moves:
                assert self.board.is_legal(cell, colour)
                self.board.play(cell, colour)
            assert self.board == game.board
        self.turn = game.turn


def test_fuzz_random_events_at_random_times():
    rng = random.Random(SEED)
    storage = Storage()
    app = App(storage=storage, seed=SEED, levels=("easy", "medium"))
    watch = Watch()
    now = rng.randrange(1 << 29)
    sent = 0
    restarts = 0
    modes = set()
    while sent < EVENTS:
        roll = rng.random()
        if roll < 0.0005:
            # power loss: a new app from what was stored (sometimes damaged)
            data = storage.data
            if data and rng.random() < 0.3:
                data = bytearray(data)
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
                storage.data = bytes(data)
            app = App(storage=storage, seed=rng.randrange(1000), levels=("easy", "medium"))
            restarts += 1
        if roll < 0.0008:
            dt = rng.randrange(60000, 70000)  # long idle: the attract mode
            events = []
        else:
            dt = rng.choice((0, 1, 5, 16, 20, 33, 50, 100, 400, 700, 1500))
            events = []
            for _ in range(rng.choice((0, 1, 1, 1, 2, 3))):
                events.append((rng.choice(KEYS), rng.random() < 0.55))
        if rng.random() < 0.001:
            events.append((rng.choice((-1, 6, 99, "up", None)), True))
        while dt > 1000:
            now += 1000
            check_frame(app.update(now & ((1 << 29) - 1), []))
            watch.check(app)
            dt -= 1000
        now += dt
        frame = app.update(now & ((1 << 29) - 1), events)
        sent += len(events)
        check_frame(frame)
        watch.check(app)
        modes.add(app.mode)
    assert watch.moves > 200 and restarts > 10
    assert {"menu", "play", "pause", "round_end"} <= modes
