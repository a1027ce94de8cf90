"""Computer players (first version: greedy with a positional table; search follows)."""

from .rng import Random

LEVELS = ("easy", "medium", "hard", "expert")


class Player:
    def __init__(self, level, seed=None):
        if level not in LEVELS:
            raise ValueError("level must be one of easy, medium, hard, expert, not %r" % (level,))
        self.level = level
        self.seed = seed
        self._rng = Random(seed)
        self.thinking = False
        self.progress = 0
        self._game = None

    def choose(self, game):
        self.start(game)
        cell = None
        while cell is None:
            cell = self.step(1000)
        return cell

    def start(self, game):
        self._game = game
        self.thinking = True
        self.progress = 0

    def step(self, budget):
        game = self._game
        if game is None:
            raise ValueError("call start(game) before step()")
        moves = game.legal_moves()
        if not moves:
            raise ValueError("the game is over")
        board = game.board
        size = board.size
        last = size - 1
        best = None
        best_score = -1000000
        for cell in moves:
            r, c = divmod(cell, size)
            score = len(board.flips(cell, game.turn)) * 4
            if (r == 0 or r == last) and (c == 0 or c == last):
                score += 40
            elif r == 0 or r == last or c == 0 or c == last:
                score += 6
            score += self._rng.below(8 if self.level == "easy" else 2)
            if score > best_score:
                best = cell
                best_score = score
        self.thinking = False
        self.progress = 100
        self._game = None
        return best


def player(level, seed=None):
    """A computer player: ``level`` is "easy", "medium", "hard" or "expert"."""
    return Player(level, seed)
