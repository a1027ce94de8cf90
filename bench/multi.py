"""Three or four players: which search wins most, at the same node budget and evaluation?

    python -m sim.arena --players bench.multi:searcher:mode=maxn,sim.opponents:mcts:ms=40,\\
        sim.opponents:mcts:ms=40,sim.opponents:mcts:ms=40 --games 200 --jobs 2

``searcher`` is an arena player (a factory with options) that searches with rolit_core.ai's
evaluation (its tuned weights, valued for any seat) within a node budget (``nodes``, 500 like
``hard``), by one of:

- ``paranoid``: alpha-beta, every other seat minimises our value;
- ``brs``: Best-Reply Search, all opponents in one layer in which only the strongest single reply
  of any of them is played (``hard``'s with ``depth=2``);
- ``model``: the opponent model (``hard``'s before it played Best-Reply Search): each opponent
  plays its own best one-move reply, our moves branch;
- ``maxn``: max^n, each seat maximises its own value, no pruning.

``objective`` is what a seat's value is: ``margin`` (rolit_core.ai's own: its evaluation minus
the strongest other seat's, a full board by first place, a shared first by its share, then the
margin) or ``win`` (its chance of first place by the fitted logit, a full board by its share of
the win: ``WinSearch``). ``endgame=N`` searches paranoid to the end once N cells or fewer are
empty (by default ``hard``'s own, 0: never); ``exact=N`` plays max^n to the end with no node
limit once N cells or fewer are empty; ``depth`` is the deepest iteration (8 by default, as in
the rows of docs/ai.md; ``hard``'s own is 2).

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

    def __init__(self, nodes, seed, searcher=ai._Search):
        self.nodes_budget = nodes
        self.rng = Random(seed)
        self.searcher = searcher

    def __call__(self, game):
        moves = game.legal_moves()
        if len(moves) == 1:
            return moves[0]
        search = self.searcher(game, self.nodes_budget, 1, 0, self.rng, ai._PARANOID, None,
                               False)
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
        return [search._final(seat) for seat in range(len(search.seats))]


def _exp_table():
    # exp(-k / 32 logit) * 2**14 for k = 0..256 (8 logits), with small ints only.
    table = [1 << 14]
    e = 1 << 18
    for _ in range(256):
        e = e * 1985 >> 11  # exp(-1/32) * 2**11 = 1984.99
        table.append((e + 8) >> 4)
    return tuple(table)


EXP = _exp_table()
ONE = 1 << 20   # a sure first place with the ``win`` objective


class WinSearch(ai._Search):
    """rolit_core.ai's search valuing a seat (one colour each, three or four seats) by its
    chance of first place: the fitted multinomial logit, P(seat i wins) = exp(v_i) / sum_j
    exp(v_j) with v in 1024ths of a logit, times ONE; a full board by its share of the win (ONE
    plus the margin alone first, ONE // k for a first shared by k, 0-63 by the distance to the
    leader otherwise)."""

    def _for_seat(self, value, mine_colours, others):
        colour = mine_colours[0]
        colours = self.colours
        top = value[colours[0]]
        for other in colours:
            if value[other] > top:
                top = value[other]
        total = 0
        mine = 0
        for other in colours:
            x = top - value[other]
            k = x >> 5
            if k < 256:
                e = EXP[k]
                e -= (e - EXP[k + 1]) * (x & 31) >> 5
                total += e
                if other == colour:
                    mine = e
        return (mine << 14) // total << 6

    def _final(self, seat=-1):
        counts = self.board._counts
        colour = self.root if seat < 0 else self.seats[seat][0]
        mine = counts[colour]
        best = 0
        level = 1
        for other in self.colours:
            if other != colour:
                points = counts[other]
                if points > best:
                    best = points
                    level = 1
                elif points == best:
                    level += 1
        if mine > best:
            return ONE + mine - best
        if mine == best and self.tie_shared:
            return ONE // (level + 1)
        return 64 + mine - best


OBJECTIVES = ("margin", "win")


def searcher(seed=None, mode="model", nodes=500, objective="margin", endgame=None, exact=0,
             depth=8):
    """An arena player searching with ``mode`` (paranoid, brs, model, maxn) in ``nodes``, for
    ``objective`` (``margin``: rolit_core.ai's own; ``win``: WinSearch's chance of first place),
    paranoid to the end from ``endgame`` empty cells (hard's own by default; 0 for never).
    ``exact=N``: with N cells or fewer empty, max^n to the end with no node limit (each seat
    for its own first place, then margin): what reading the last cells exactly is worth, at a
    cost no handheld has. ``depth``: the deepest iteration (max^n deepens until the nodes run
    out)."""
    if objective not in OBJECTIVES:
        raise TypeError("objective must be margin or win, not %r" % (objective,))
    search = WinSearch if objective == "win" else ai._Search
    if mode == "maxn":
        return MaxN(nodes, seed, search)
    if mode not in MODES:
        raise TypeError("mode must be paranoid, brs, model or maxn, not %r" % (mode,))
    bot = ai.player("hard", seed)
    bot.budgets = (nodes, nodes)
    bot.multi_depth = depth
    bot._multi = MODES[mode]
    bot._searcher = search
    if endgame is not None:
        bot._endgame = endgame
    if not exact:
        return bot.choose
    solver = MaxN(1 << 30, seed, search)

    def choose(game):
        if game.board._counts[EMPTY] <= exact:
            return solver(game)
        return bot.choose(game)

    return choose


searcher.arena_factory = True
