"""A game of Rolit (seats, turn order, scores, records) and a match over several rounds."""

from .board import Board, IllegalMove, colour_of
from .rng import Random, fresh_seed
from .vocab import COLUMNS as _COLUMNS
from .vocab import COLOURS, LETTERS, MAX_RECORD_CHARS, NAMES, TIE_RULES, seating  # noqa: F401


def toss_first(colours, rng):
    """Roll a ball like a die until it shows a colour in play (the rulebook's way to pick who starts)."""
    while True:
        colour = COLOURS[rng.below(4)]
        if colour in colours:
            return colour


class Game:
    """One round of Rolit: a board, the seats and whose turn it is.

    ``first`` is the colour that starts (an int, letter or name); ``None`` tosses one, using
    ``seed`` when given. ``tie`` is ``"shared"`` (tied leaders all win) or ``"none"``.
    """

    def __init__(self, players=2, size=8, first=None, teams=False, tie="shared", seed=None):
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError("players must be 1, 2, 3 or 4, not %r" % (players,))
        teams = bool(teams)
        self.seat_colours = seating(players, teams)
        if size == 4 and players > 2:
            raise ValueError("the 4x4 board is for 2 players only")
        if tie not in TIE_RULES:
            raise ValueError("tie must be 'shared' or 'none', not %r" % (tie,))
        self.players = players
        self.size = size
        self.teams = teams
        self.tie = tie
        self.seed = seed
        colours = []
        for colour in COLOURS:
            for seat in self.seat_colours:
                if colour in seat:
                    colours.append(colour)
        # Colours in play, in clockwise order; the turn goes round this tuple.
        self.colours = tuple(colours)
        # The colour after each colour in play, indexed by colour.
        self._after = [0] * 5
        for i in range(len(colours)):
            self._after[colours[i]] = colours[(i + 1) % len(colours)]
        if first is None:
            first = toss_first(self.colours, Random(fresh_seed() if seed is None else seed))
        first = colour_of(first)
        if first not in self.colours:
            raise ValueError("%s is not in play" % NAMES[first])
        self.first = first
        self.board = Board(size)
        self.turn = first
        self._over = False

    # -- state -----------------------------------------------------------------------------

    @property
    def over(self):
        """True once the board is full or nobody can move."""
        return self._over

    @property
    def moves(self):
        """The cells played so far, in order."""
        return [cell for cell, _ in self.board.moves]

    def seat_of(self, colour):
        """The seat playing ``colour``, or ``None`` for a neutral colour."""
        if type(colour) is not int:
            return None  # True == 1 would otherwise find red's seat
        for seat in range(len(self.seat_colours)):
            if colour in self.seat_colours[seat]:
                return seat
        return None

    def next_colour(self, colour):
        """The colour that plays after ``colour``."""
        if type(colour) is not int or colour not in self.colours:
            raise ValueError("%r is not a colour in play" % (colour,))
        return self._after[colour]

    def legal_moves(self):
        """The cells the colour to move may play, ascending (empty once the game is over)."""
        if self._over:
            return []
        return self.board.legal_moves(self.turn)

    def is_legal(self, cell):
        return not self._over and self.board.is_legal(cell, self.turn)

    def scores(self):
        """Points per seat: the balls showing the seat's colours."""
        board = self.board
        result = []
        for seat in self.seat_colours:
            points = 0
            for colour in seat:
                points += board.count(colour)
            result.append(points)
        return tuple(result)

    def winners(self):
        """The seats that won the round (several on a shared tie, none on a tie under the "none"
        rule); empty while the game goes on."""
        if not self._over:
            return ()
        scores = self.scores()
        best = max(scores)
        leaders = tuple([seat for seat in range(len(scores)) if scores[seat] == best])
        if len(leaders) > 1 and self.tie == "none":
            return ()
        return leaders

    # -- moves -----------------------------------------------------------------------------

    def play(self, cell):
        """Play ``cell`` (an int or a name like ``"c3"``) for the colour to move; returns the turned
        cells. Raises ``IllegalMove`` and changes nothing if the move is not allowed."""
        if self._over:
            raise IllegalMove("the game is over")
        turned = self.board.play(cell, self.turn)
        self._advance()
        return turned

    def undo(self):
        """Take back the last move; returns its cell. Raises ``ValueError`` if there is none."""
        moves = self.board._moves
        if not moves:
            raise ValueError("no move to undo")
        self.turn = moves[-1] & 7
        self._over = False
        return self.board.undo()

    def _advance(self):
        board = self.board
        self.turn = self._after[self.turn]
        # Under these rules nobody can move only on a full board or one without balls.
        self._over = board.is_full() or not board._frontier

    # -- records ---------------------------------------------------------------------------

    def record(self):
        """The game as plain text: a header, then one move per line (``12. G c3``)."""
        board = self.board
        lines = [
            "# Rolit game record",
            "Size: %d" % self.size,
            "Players: %d" % self.players,
            "Teams: %s" % ("yes" if self.teams else "no"),
            "Tie: %s" % self.tie,
            "First: %s" % NAMES[self.first],
            "",
        ]
        size = self.size
        number = 1
        for move in board._moves:  # cell << 3 | colour: no list of pairs, one string per line
            cell = move >> 3
            lines.append("%d. %s %s%d" % (number, LETTERS[move & 7], _COLUMNS[cell % size],
                                          cell // size + 1))
            number += 1
        if self._over:
            scores = self.scores()
            parts = []
            for seat in range(len(scores)):
                parts.append("%s %d" % ("+".join([LETTERS[c] for c in self.seat_colours[seat]]),
                                        scores[seat]))
            lines.append("# Result: " + ", ".join(parts))
        # The closing newline from an empty last line: the text is made in one piece, not copied
        # again to add it (on a board the heap may have just one gap that big).
        lines.append("")
        return "\n".join(lines)

    @classmethod
    def from_record(cls, text):
        """Replay a record made by ``record()`` (or by hand). Every move is checked as it is
        read; reading stops at the first error, which names its ply and line. Text longer than
        ``MAX_RECORD_CHARS`` is refused at once. (The reading is in :mod:`rolit_core.record`,
        loaded on first use: the device never reads records.)"""
        from .record import read

        return read(cls, text)


class Match:
    """Several rounds of Rolit. The starting seat moves one seat clockwise each round; the match
    goes to the most rounds won, then the most points over all rounds; still tied, they share."""

    def __init__(self, rounds=3, players=2, size=8, teams=False, tie="shared", first=None,
                 seed=None):
        if type(rounds) is not int or rounds < 1:
            raise ValueError("rounds must be a whole number of at least 1, not %r" % (rounds,))
        if type(players) is not int:
            raise ValueError("players must be 1, 2, 3 or 4, not %r" % (players,))
        self.rounds = rounds
        self.players = players
        self.size = size
        self.teams = bool(teams)
        self.tie = tie
        self.seed = seed
        self.seat_colours = seating(players, teams)
        if first is None:
            colours = []
            for seat in self.seat_colours:
                colours.extend(seat)
            first = toss_first(colours, Random(fresh_seed() if seed is None else seed))
        self.game = Game(players, size, first, teams, tie)
        self.round = 1
        self._finished = []  # (scores, winners) of the rounds before this one

    def _results(self):
        results = list(self._finished)
        if self.game.over:
            results.append((self.game.scores(), self.game.winners()))
        return results

    @property
    def rounds_won(self):
        """Rounds won per seat, counting the current round once it is over."""
        won = [0] * len(self.seat_colours)
        for _, winners in self._results():
            for seat in winners:
                won[seat] += 1
        return tuple(won)

    @property
    def points(self):
        """Points per seat over the finished rounds."""
        total = [0] * len(self.seat_colours)
        for scores, _ in self._results():
            for seat in range(len(scores)):
                total[seat] += scores[seat]
        return tuple(total)

    @property
    def over(self):
        return self.round >= self.rounds and self.game.over

    def next_round(self):
        """Start the next round once this one is over; the next seat clockwise starts."""
        if not self.game.over:
            raise ValueError("round %d is still being played" % self.round)
        if self.over:
            raise ValueError("the match is over")
        game = self.game
        self._finished.append((game.scores(), game.winners()))
        self.round += 1
        self.game = Game(self.players, self.size, game.next_colour(game.first), self.teams,
                         self.tie)
        return self.game

    def winners(self):
        """The seats that won the match (several if they share it); empty until it is over."""
        if not self.over:
            return ()
        won = self.rounds_won
        points = self.points
        best = max(won)
        leaders = [seat for seat in range(len(won)) if won[seat] == best]
        most = max([points[seat] for seat in leaders])
        return tuple([seat for seat in leaders if points[seat] == most])
