"""A readable game log for the serial console: who plays, every move with the scores, results.

    game 1: 2 players on 8x8 - red human, green easy; red starts
      1. R c4   R 4  G 1  (Y 1 B 1)
      2. G e3   R 3  G 3  (Y 1 B 1)
    ...
    round over: red 36, green 28 - red wins

``GameLog(print).update(app)`` after every ``app.update``; it only looks closer when the app
reports a cue (a ball placed, a game started, moves undone...), so it costs nothing in between;
the lines that begin and end a game are ``hardware.gamelines``', loaded for them.
Given ``heap`` (code.py's ``hardware.pacing.Pacing``), each result is followed by the least the
heap had free after a collection during that game, and by the game's whole frames (each from
its start to the next one's: update, LEDs, link, log, collections and sleep; the one that began
the game, which sets it up and may load code, apart)::

    heap: 64512 bytes free at the lowest after a collection (58448 while a search ran)
    frames: the longest 41 ms, 0 over 50 ms, of 2315 after the one that began the game (96 ms)
"""

from rolit_core.lifetime import use_once

LETTERS = ".RYGB"
# Who plays, and how the game ended: printed twice a game, so their code is loaded for that.
_LINES = "hardware.gamelines"


class GameLog:
    def __init__(self, write=print, heap=None):
        self.write = write
        self.heap = heap
        self._game = None
        self._count = 0
        self._over = False
        self._games = 0

    def update(self, app):
        game = app.game
        if game is not self._game:
            self._game = game
            self._over = False
            self._count = 0
            if game is None:
                return
            self._games += 1
            if self.heap is not None:
                self.heap.reset_lows()
            with use_once(_LINES) as lines:
                self._count = lines.header(self.write, app, game, self._games)
        elif game is None or not app.cues:
            return
        moves = game.board.moves
        if len(moves) < self._count:
            self.write("  undo: back to move %d" % len(moves))
            self._count = len(moves)
            self._over = False
        while self._count < len(moves):
            cell, colour = moves[self._count]
            self._count += 1
            self.write("%3d. %s %s   %s" % (self._count, LETTERS[colour],
                                           game.board.cell_name(cell), self._scores(game)))
        if game.over and not self._over:
            self._over = True
            with use_once(_LINES) as lines:
                lines.result(self.write, game, self.heap)

    def _scores(self, game):
        board = game.board
        parts = []
        neutral = []
        for colour in (1, 2, 3, 4):
            text = "%s %d" % (LETTERS[colour], board.count(colour))
            if colour in game.colours:
                parts.append(text)
            elif board.count(colour):
                neutral.append(text)
        line = "  ".join(parts)
        if neutral:
            line += "  (" + " ".join(neutral) + ")"
        return line
