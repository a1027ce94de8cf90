"""Three or four players: which search wins most, at the same node budget and evaluation?

    python -m sim.arena --players bench.multi:searcher:mode=maxn,sim.opponents:mcts:ms=40,\\
        sim.opponents:mcts:ms=40,sim.opponents:mcts:ms=40 --games 200 --jobs 2

``searcher`` is an arena player (a factory with options) that searches with rolit_core.ai's
evaluation (its tuned weights, valued for any seat) within a node budget (``nodes``, 500 like
``hard``), by one of:

- ``paranoid``: alpha-beta, every other seat minimises our value;
- ``brs``: Best-Reply Search, all opponents in one layer in which only the strongest single reply
  of any of them is played;
- ``model``: what ``hard`` does: each opponent plays its own best one-move reply, our moves branch;
- ``maxn``: max^n, each seat maximises its own value, no pruning.

``objective`` is what a seat's value is: ``win`` (its chance of first place from the fitted
logit, a full board by its share of the win: rolit_core.ai's own) or ``margin`` (its evaluation
minus the strongest other seat's, a full board by result then margin: the objective before).

The first three are rolit_core.ai's own search with the mode set; max^n is written here, on the
same board, evaluation and node count (a node is a position looked at), iterative deepening
until the budget would be exceeded. The objective that counts is the arena's score: 1 for a win,
1/k for a round shared by k.
"""

from rolit_core import ai
from rolit_core.board import EMPTY
from rolit_core.rng import Random

MODES = {"paranoid": ai._PARANOID, "brs": ai._BRS, "model": ai._MODEL}


class MaxN:
    """Iterative-deepening max^n within a node budget, on rolit_core.ai's evaluation."""

    def __init__(self, nodes, seed, share=True):
        self.nodes_budget = nodes
        self.rng = Random(seed)
        self.share = share

    def __call__(self, game):
        moves = game.legal_moves()
        if len(moves) == 1:
            return moves[0]
        search = ai._Search(game, self.nodes_budget, 1, 0, self.rng, ai._PARANOID, None, False,
                            self.share)
        self.search = search
        self.board = search.board
        self.used = 0
        best = moves[0]
        empties = self.board._counts[EMPTY]
        for depth in range(1, empties + 1):
            self.limit_hit = False
            search._weigh(search.cells - empties + depth)
            found = self._root(game.turn, depth)
            if self.limit_hit:
                break
            best = found
        return best

    def _root(self, colour, depth):
        seat = self.search.seat_of[colour]
        best, best_value = None, None
        for cell in self.board.legal_moves(colour):
            values = self._child(cell, colour, depth)
            if values is None:
                return None
            if best_value is None or values[seat] > best_value:
                best, best_value = cell, values[seat]
        return best

    def _child(self, cell, colour, depth):
        """The value vector after ``colour`` plays ``cell``, searched ``depth - 1`` more plies."""
        if self.used >= self.nodes_budget:
            self.limit_hit = True
            return None
        self.used += 1
        search = self.search
        board = self.board
        board._play(cell, colour)
        nxt = search.nxt[colour]
        try:
            if not board._counts[EMPTY]:
                return self._final()
            if depth <= 1:
                return self._vector(nxt)
            seat = search.seat_of[nxt]
            best = None
            for reply in board.legal_moves(nxt):
                values = self._child(reply, nxt, depth - 1)
                if values is None:
                    return None
                if best is None or values[seat] > best[seat]:
                    best = values
            return best
        finally:
            board.undo()

    def _vector(self, to_move):
        # The running sums are not kept through this search: recount them for the leaf.
        search = self.search
        search._weigh(search.cells - self.board._counts[EMPTY])
        return [search._evaluate(to_move, seat) for seat in range(len(search.seats))]

    def _final(self):
        search = self.search
        if search.share:
            return [search._final_share(seat[0]) for seat in search.seats]
        counts = self.board._counts
        points = [sum(counts[c] for c in seat) for seat in self.search.seats]
        out = []
        for seat in range(len(points)):
            other = max(points[s] for s in range(len(points)) if s != seat)
            margin = points[seat] - other
            out.append(margin + (ai._WIN if margin > 0 else -ai._WIN if margin < 0 else 0))
        return out


OBJECTIVES = ("win", "margin")


def searcher(seed=None, mode="model", nodes=500, objective="win"):
    """An arena player searching with ``mode`` (paranoid, brs, model, maxn) in ``nodes``, for
    ``objective``: ``win`` (the chance of first place, rolit_core.ai's own with three or four
    players) or ``margin`` (our value minus the strongest other seat's)."""
    if objective not in OBJECTIVES:
        raise TypeError("objective must be win or margin, not %r" % (objective,))
    share = objective == "win"
    if mode == "maxn":
        return MaxN(nodes, seed, share)
    if mode not in MODES:
        raise TypeError("mode must be paranoid, brs, model or maxn, not %r" % (mode,))
    bot = ai.player("hard", seed)
    bot.budgets = (nodes, nodes)
    bot._multi = MODES[mode]
    bot._share = share
    return bot.choose


searcher.arena_factory = True
