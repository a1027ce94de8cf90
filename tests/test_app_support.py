"""Helpers for the app tests: a fake clock and keys driving ``App``, a memory storage.

(No tests here: the other tests/test_app*.py modules import these.)
"""

from rolit_core import app as appmod
from rolit_core.app import App, BACK, DOWN, LEFT, RIGHT, SELECT, UP

WRAP = 1 << 29


class Storage:
    """``load``/``save`` in memory, counting writes; ``fail`` makes both raise."""

    def __init__(self, data=None):
        self.data = data
        self.writes = 0
        self.history = []
        self.fail = False

    def load(self):
        if self.fail:
            raise OSError("flash unreadable")
        return self.data

    def save(self, data):
        if self.fail:
            raise OSError("flash full")
        self.data = bytes(data)
        self.history.append(self.data)
        self.writes += 1


class Driver:
    """Drives an app with a fake millisecond clock (wrapping like CircuitPython's ticks)."""

    def __init__(self, app=None, step=20, start=0, **kwargs):
        self.app = app if app is not None else App(**kwargs)
        self.step = step
        self.now = start
        self.cues = []
        self.frames = 0
        self.frame = tuple(self.app.update(self.now % WRAP, []))
        self.cues.extend(self.app.cues)

    def tick(self, events=(), dt=None):
        self.now += self.step if dt is None else dt
        frame = self.app.update(self.now % WRAP, list(events))
        self.frame = tuple(frame)
        self.frames += 1
        self.cues.extend(self.app.cues)
        return self.frame

    def start(self, **kwargs):
        """``app.start(**kwargs)``, then one frame."""
        self.app.start(**kwargs)
        return self.tick(dt=0)

    def wait(self, ms):
        end = self.now + ms
        while self.now + self.step <= end:
            self.tick()
        if self.now < end:
            self.tick(dt=end - self.now)
        return self.frame

    def wait_until(self, condition, limit_ms=120000):
        end = self.now + limit_ms
        while not condition():
            assert self.now < end, "condition not reached within %d ms" % limit_ms
            self.tick()
        return self.frame

    def press(self, key):
        return self.tick([(key, True)])

    def release(self, key):
        return self.tick([(key, False)])

    def tap(self, key):
        self.press(key)
        return self.release(key)

    def hold(self, key, ms):
        self.press(key)
        self.wait(ms)
        return self.release(key)

    # -- reading frames ---------------------------------------------------------------------

    def pixel(self, x, y):
        return self.frame[y * 8 + x]

    def at_cell(self, cell, size=None):
        """The frame colour at a board cell (small boards are centred)."""
        size = size or self.app.game.size
        off = (8 - size) // 2
        return self.frame[(cell // size + off) * 8 + cell % size + off]

    def colour(self, index, level=255):
        return self.app.shades.get(index, level)

    # -- playing ----------------------------------------------------------------------------

    def goto(self, cell):
        """Move the cursor to ``cell`` with arrow taps (the cursor wraps at the edges)."""
        app = self.app
        size = app.game.size
        for _ in range(4 * size):
            row, col = divmod(app.cursor, size)
            want_row, want_col = divmod(cell, size)
            if row == want_row and col == want_col:
                return
            if row != want_row:
                self.tap(DOWN if (want_row - row) % size <= size // 2 else UP)
            else:
                self.tap(RIGHT if (want_col - col) % size <= size // 2 else LEFT)
        raise AssertionError("cursor did not reach %d" % cell)

    def play(self, cell):
        """Move to ``cell``, tap SELECT and wait until the move's animation is over."""
        self.goto(cell)
        board_before = self.app.game.board.copy()
        self.tap(SELECT)
        assert self.app.game.board != board_before, "the move was not played"
        self.finish_move()

    def finish_move(self):
        self.wait_until(lambda: self.app.mode != "play" or self.app.phase != "animate")

    def wait_for_human(self, limit_ms=120000):
        """Let computer seats play until a human is to move or the round is over."""
        self.wait_until(lambda: self.app.mode != "play" or self.app.phase == "input", limit_ms)


def board_frame_cells(driver):
    """The board as the frame shows it: a list of palette colour indices per cell (-1 if the
    pixel shows something else)."""
    app = driver.app
    size = app.game.size
    result = []
    for cell in range(size * size):
        seen = driver.at_cell(cell, size)
        found = -1
        for colour in range(5):
            if seen == app.shades.get(colour):
                found = colour
        result.append(found)
    return result


__all__ = ["App", "BACK", "DOWN", "LEFT", "RIGHT", "SELECT", "UP", "Driver", "Storage", "appmod",
           "board_frame_cells"]
