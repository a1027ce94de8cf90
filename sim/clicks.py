"""A click (or tap) on a cell of the board, for the simulator window and the browser page alike.

In play a click moves the cursor to the cell (``App.move_cursor``) and presses SELECT. While a move is still being
shown and the next turn is a person's, the App takes no keys yet: the click is kept and played
as a whole click once the App takes input again, if it is still that colour's turn and the cell
still legal; otherwise ``notice`` says why it was not played. A click while a computer is to
move is not kept: ``notice`` says "Green is moving…".

Runs under MicroPython too (the page copies it into its interpreter): plain code, no typing.
"""

from rolit_core.app import SELECT
from rolit_core.board import NAMES

WIDTH = 8


def board_cell(game, led):
    """The board cell under LED ``led`` (x, y), or None when it lies off the board (a small
    board sits centred on the panel)."""
    offset = (WIDTH - game.size) // 2
    x, y = led[0] - offset, led[1] - offset
    if 0 <= x < game.size and 0 <= y < game.size:
        return y * game.size + x
    return None


def _name(colour):
    return NAMES[colour][:1].upper() + NAMES[colour][1:]


class Clicks:
    """Clicks on the board of one App. ``click(app, led)`` answers how to treat a click now;
    ``due(app)``, asked before each update, gives the events of a kept click once it can be
    played. ``notice`` holds the words to show (None when there is nothing to say)."""

    def __init__(self):
        self.kept = None     # (cell, colour to move when it was made, the game it was made in)
        self.notice = None

    def click(self, app, led):
        """"play" (in play, on a human's turn: the cursor is moved there; send SELECT), "kept",
        "refused"
        (``notice`` says why), "off" (a cell off the board: nothing) or "select" (not in play:
        the click is SELECT)."""
        game = getattr(app, "game", None)
        if game is None or game.over or getattr(app, "mode", None) != "play" or \
                not hasattr(app, "cursor"):
            return "select"
        cell = board_cell(game, led)
        if cell is None:
            return "off"
        self.notice = None
        phase = getattr(app, "phase", "input")
        if phase == "input":
            self.kept = None
            app.move_cursor(cell)
            return "play"
        if phase == "animate" and self._human(app, game.turn):
            self.kept = (cell, game.turn, game)
            return "kept"
        self.notice = "%s is moving…" % _name(game.turn)
        return "refused"

    def due(self, app):
        """The events that play a kept click now (the cursor moved there, then SELECT down and
        up), or [] while it
        must wait or there is none. A kept click that can no longer be played is dropped, and
        ``notice`` says why."""
        if self.kept is None:
            return []
        cell, colour, made_in = self.kept
        game = getattr(app, "game", None)
        mode = getattr(app, "mode", None)
        if mode == "play" and game is made_in and not game.over and \
                getattr(app, "phase", None) == "animate":
            return []  # still showing the move
        self.kept = None
        if mode != "play" or game is not made_in:
            why = "the game was paused" if mode == "pause" else "the round is over"
        elif game.over:
            why = "the round is over"
        elif game.turn != colour:
            why = "it is %s's turn" % _name(game.turn)
        elif getattr(app, "phase", None) != "input":
            why = "%s is moving" % _name(game.turn)
        elif not game.is_legal(cell):
            why = _refusal(game, cell)
        else:
            app.move_cursor(cell)
            return [(SELECT, True), (SELECT, False)]
        self.notice = "%s was not played: %s" % (game.board.cell_name(cell), why)
        return []

    @staticmethod
    def _human(app, colour):
        kinds = getattr(app, "kinds", ())
        game = app.game
        try:
            return kinds[game.seat_of(colour)] == "human"
        except (AttributeError, IndexError, TypeError, ValueError):
            return False


def _refusal(game, cell):
    """Why ``cell`` is not a legal move for the side to move, in the rules' words."""
    try:
        game.board.copy().play(cell, game.turn)
    except ValueError as error:  # IllegalMove is a ValueError
        return str(error)
    return "it is not a legal move now"
