"""A readable game log for the serial console: who plays, every move with the scores, results.

    game 1: 2 players on 8x8 - red human, green easy; red starts
      1. R c4   R 4  G 1  (Y 1 B 1)
      2. G e3   R 3  G 3  (Y 1 B 1)
    ...
    round over: red 36, green 28 - red wins

``GameLog(print).update(app)`` after every ``app.update``; it only looks closer when the app
reports a cue (a ball placed, a game started, moves undone...), so it costs nothing in between.
Given ``heap`` (code.py's ``hardware.pacing.Pacing``), each result is followed by the least the
heap had free after a collection during that game, and by the game's whole frames (each from
its start to the next one's: update, LEDs, link, log, collections and sleep; the one that began
the game, which sets it up and may load code, apart)::

    heap: 64512 bytes free at the lowest after a collection (58448 while a search ran)
    frames: the longest 41 ms, 0 over 50 ms, of 2315 after the one that began the game (96 ms)
"""

from hardware.pacing import SLOW_FRAME_MS

LETTERS = ".RYGB"
NAMES = ("empty", "red", "yellow", "green", "blue")


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
            self._header(app, game)
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
            self._result(game)

    def _header(self, app, game):
        kinds = getattr(app, "kinds", ())
        seats = []
        for seat in range(len(game.seat_colours)):
            colours = "+".join([NAMES[c] for c in game.seat_colours[seat]])
            kind = kinds[seat] if seat < len(kinds) else "?"
            seats.append("%s %s" % (colours, kind))
        match = getattr(app, "match", None)
        rounds = ""
        if match is not None and match.rounds > 1:
            rounds = ", round %d of %d" % (match.round, match.rounds)
        if self.heap is not None:
            self.heap.reset_lows()
        self.write("game %d%s: %d players on %dx%d - %s; %s starts" % (
            self._games, rounds, game.players, game.size, game.size, ", ".join(seats),
            NAMES[game.first]))
        played = len(game.board.moves)
        if played:
            self.write("  (resumed after move %d)" % played)
            self._count = played

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

    def _result(self, game):
        scores = game.scores()
        parts = []
        for seat in range(len(scores)):
            parts.append("%s %d" % ("+".join([NAMES[c] for c in game.seat_colours[seat]]),
                                    scores[seat]))
        winners = game.winners()
        if not winners:
            verdict = "a tie that counts for no one"
        elif len(winners) == 1:
            verdict = "+".join([NAMES[c] for c in game.seat_colours[winners[0]]]) + " wins"
        else:
            verdict = "shared by " + " and ".join(
                ["+".join([NAMES[c] for c in game.seat_colours[s]]) for s in winners])
        self.write("round over: %s - %s" % (", ".join(parts), verdict))
        heap = self.heap
        if heap is not None and heap.low_free:
            self.write("heap: %d bytes free at the lowest after a collection (%d while a search "
                       "ran)" % (heap.low_free, heap.low_free_searching))
        if heap is not None and heap.frames:
            begin = heap.begin_frame
            self.write("frames: the longest %d ms, %d over %d ms, of %d after the one that began "
                       "the game (%s)" % (heap.longest_frame, heap.slow_frames, SLOW_FRAME_MS,
                                          heap.frames, "%d ms" % begin if begin is not None
                                          and begin >= 0 else "not timed"))
