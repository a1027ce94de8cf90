"""The same scripted games under CPython and under real MicroPython give identical frames.

The script below drives the app only through ``update(now_ms, events)``: from the title through
the menu into a 2-player human game to its round end, a 4-player game with easy, medium and hard
computer seats, and a 3-round match on 4x4 with a pause, an undo and a time-limit expiry. It
prints a digest of every 25 frames (and of all of them at the end); both interpreters must print
exactly the same lines.
"""

import io
import contextlib

from micropython import run_micropython

SCRIPT = r'''
from rolit_core.app import App, UP, DOWN, LEFT, RIGHT, SELECT, BACK


class Run:
    def __init__(self, app, emit):
        self.app = app
        self.emit = emit
        self.now = (1 << 29) - 5000   # the clock wraps during the run
        self.frames = 0
        self.digest = 0
        self.total = 0
        self.seed = 12345
        self.cues = {}

    def tick(self, events=(), dt=20):
        self.now = (self.now + dt) & ((1 << 29) - 1)
        frame = self.app.update(self.now, list(events))
        h = self.digest
        for r, g, b in frame:
            h = (h * 33 + r * 7 + g * 11 + b * 13) & 0xFFFFF
        self.digest = h
        self.total = (self.total * 31 + h) & 0xFFFFF
        self.frames += 1
        for cue in self.app.cues:
            self.cues[cue] = self.cues.get(cue, 0) + 1
        if self.frames % 25 == 0:
            game = self.app.game
            self.emit("%d %s %d %s %s" % (self.frames, self.app.mode, h, ",".join(self.app.cues),
                                         game.board.to_text() if game else "-"))

    def tap(self, key):
        self.tick([(key, True)])
        self.tick([(key, False)])

    def wait(self, ms):
        for _ in range(ms // 20):
            self.tick()

    def pick(self, n):
        self.seed = (self.seed * 1103 + 12345) & 0xFFFF
        return self.seed % n

    def goto(self, cell):
        size = self.app.game.size
        while self.app.cursor != cell:
            row, col = divmod(self.app.cursor, size)
            want_row, want_col = divmod(cell, size)
            if row != want_row:
                self.tap(DOWN if want_row > row else UP)
            else:
                self.tap(RIGHT if want_col > col else LEFT)

    def play_round(self, time_out_at=-1):
        app = self.app
        moves = 0
        while app.mode == "play":
            if app.phase == "input":
                if moves == time_out_at:
                    self.wait(31000)
                else:
                    legal = app.game.legal_moves()
                    self.goto(legal[self.pick(len(legal))])
                    self.tap(SELECT)
                moves += 1
            else:
                self.tick()
        self.wait(3000)


def main(emit):
    app = App(seed=77)
    run = Run(app, emit)
    run.wait(3000)                 # title, then the menu
    for key in (DOWN, DOWN, DOWN, LEFT, BACK, SELECT):
        run.tap(key)               # second seat: human; start
    run.goto(27)
    run.tap(SELECT)                # taken: refused
    run.play_round()
    run.tap(BACK)                  # to the menu
    emit("game 1 %s" % app.mode)

    app.start(seats=("human", "easy", "medium", "hard"), first="blue")
    run.play_round()
    emit("game 2 %s %s" % (app.mode, app.game.scores()))
    run.tap(BACK)

    app.start(seats=("human", "human"), size=4, rounds=3, time_limit=30, hints=True)
    for round_number in range(3):
        if round_number == 1:
            legal = app.game.legal_moves()
            run.goto(legal[0])
            run.tap(SELECT)
            run.wait(1000)
            run.tick([(BACK, True)])
            run.wait(800)
            run.tick([(BACK, False)])
            run.tap(RIGHT)
            run.tap(SELECT)        # undo
        run.play_round(time_out_at=3 if round_number == 2 else -1)
        run.tap(SELECT)
        run.wait(500)
        run.tap(SELECT)
        run.wait(500)
    emit("match %s %s" % (app.mode, app.match.rounds_won))
    counts = []
    for cue in sorted(run.cues):
        counts.append("%s=%d" % (cue, run.cues[cue]))
    emit("cues " + " ".join(counts))
    emit("end %d %d" % (run.frames, run.total))
'''


def run_cpython():
    out = io.StringIO()
    scope = {"__name__": "app_script"}
    exec(compile(SCRIPT, "app_script", "exec"), scope)
    with contextlib.redirect_stdout(out):
        scope["main"](print)
    return out.getvalue()


def test_same_frames_under_cpython_and_micropython():
    expected = run_cpython()
    lines = expected.splitlines()
    assert len(lines) > 200
    assert lines[-1].startswith("end ") and "match match_end" in expected
    assert "game 2 round_end" in expected
    cues = dict([item.split("=") for item in lines[-2].split()[1:]])
    for cue in ("place", "capture", "illegal", "timeout", "undo", "win", "tick", "start"):
        assert int(cues.get(cue, 0)) > 0, cue
    got = run_micropython(SCRIPT + "\nmain(print)\n", trees=("rolit_core",))
    assert got.splitlines() == lines
