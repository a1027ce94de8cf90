"""The first game's how-to-play, for the simulator window and the browser page alike: three
pictures from docs/rules.md (a capture, "you must capture", no capture anywhere), each made by
playing the rules code, so they show what the game does.

Each page is a dict: ``title``, ``text``, ``before`` and ``after`` (64 (r, g, b) LED colours,
row by row, as the App's frame at brightness 5; ``after`` is None for a one-board picture)
and ``move`` (the cell name played, or None); the last page has ``closing``, the offer of
hints. Runs under MicroPython too (the page copies it).
"""

from rolit_core import Game
from rolit_core.palette import NORMAL, WHITE

HINT_LEVEL = 60  # a cell where one may play: white at the App's hint level
HINT = tuple([value * HINT_LEVEL // 255 for value in NORMAL[WHITE]])
PAGE_COUNT = 3
CLOSING = "Your first game has hints on: the dim dots show where you may play."


def _frame(game, marks=()):
    """The LEDs of ``game``'s board (8x8) with ``marks`` (cells) lit as hints."""
    frame = [NORMAL[0]] * 64
    board = game.board
    for cell in range(64):
        if board[cell]:
            frame[cell] = NORMAL[board[cell]]
    for cell in marks:
        frame[cell] = HINT
    return frame


def pages():
    """The three pages, in order."""
    game = Game(players=2, first="green")
    before = _frame(game, game.legal_moves())
    game.play("c3")
    capture = {"title": "1. Put a ball next to a ball, and capture",
               "text": "On your turn, put one ball of your colour on an empty cell that touches a "
                       "ball. Balls of other colours shut in between it and your colour roll "
                       "over: green plays c3 and red d4 turns green.",
               "before": before, "after": _frame(game), "move": "c3"}
    start = Game(players=2, first="red")
    must = {"title": "2. If you can capture, you must",
            "text": "At the start red can capture at d6, f4 or f6 (the dim dots), so red must "
                    "play one of them. c3 captures nothing and is refused, and so is a1: it "
                    "touches no ball.",
            "before": _frame(start, start.legal_moves()), "after": None, "move": None}
    before = _frame(game, game.legal_moves())  # red has no ball left: no capture anywhere
    game.play("c4")
    none = {"title": "3. No capture anywhere? Any cell next to a ball",
            "text": "Red has no ball left, so no cell captures: red may use any empty cell that "
                    "touches a ball, and plays c4. When the board is full, the colour on most "
                    "balls wins.",
            "before": before, "after": _frame(game), "move": "c4", "closing": CLOSING}
    return [capture, must, none]


def hints_on(app):
    """The how-to's offer taken: hints on in the menu's settings (kept with the next save, as if
    chosen there) and for the game in play."""
    app.settings.hints = True
    app.hints = True
    app.dirty = True  # the menu saves changed settings once it rests, as after a change
