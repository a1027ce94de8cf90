"""An ordinary alpha-beta Rolit player, independent of rolit_core's search and evaluation.

Iterative deepening with a transposition table and history move ordering (the table's move
first, then corners, then moves that cut the search short before). Two seats (also two colours
each) are searched by negamax; three or four by Best-Reply Search (Schadd & Winands 2011): all
opponents form one layer in which only the single strongest reply of any of them is played.

The evaluation is an Othello-style one, per colour: mobility as the number of capturing moves,
frontier balls (next to an empty cell), corners, the X and C cells beside an empty corner, stable
edge runs from owned corners, and the ball count weighted up as the board fills; a full board is
scored exactly. A seat is valued against the strongest other seat.

The budget is CPU time (``time.process_time``) or a node count; with a node count the player is
deterministic for its seed.
"""

import random
import time

from .bits import Rules, cells_of, from_game, play as _play, popcount

WIN = 1 << 20
_INF = 1 << 30
EXACT, LOWER, UPPER = 0, 1, 2

# Evaluation weights (per colour).
MOBILITY = 8
FRONTIER = 3
CORNER = 40
X_CELL = 20
C_CELL = 8
STABLE = 6
DISC_EARLY = 1
DISC_LATE = 10


class OutOfTime(Exception):
    """Raised inside the search when the budget is spent."""


class AlphaBeta:
    """``AlphaBeta(ms=300)`` or ``AlphaBeta(nodes=20000)``; call it with a Game for a cell."""

    def __init__(self, ms=None, nodes=None, seed=None, table=1 << 20):
        if ms is None and nodes is None:
            ms = 300
        self.ms = ms
        self.node_budget = nodes
        self.rng = random.Random(seed)
        self.table_size = table
        self.table = {}
        self.nodes = 0
        self.depth = 0

    # -- driver --------------------------------------------------------------------------------

    def __call__(self, game):
        rules = Rules(game)
        self.rules = rules
        self.geo = rules.geo
        bbs = from_game(game)
        colour = game.turn
        root_moves = cells_of(self.geo.moves(bbs, colour))
        if len(root_moves) == 1:
            return root_moves[0]
        self.rng.shuffle(root_moves)
        if len(self.table) > self.table_size:
            self.table.clear()
        self.history = [[0] * 64 for _ in range(5)]
        self.nodes = 0
        self.deadline = None if self.ms is None else time.process_time() + self.ms / 1000.0
        self.me = rules.seat_of[colour]
        self.my_colour = colour
        self.multi = len(rules.seats) > 2
        empties = self.geo.cells - popcount(bbs[1] | bbs[2] | bbs[3] | bbs[4])
        best = root_moves[0]
        for depth in range(1, empties + 1):
            self.depth = depth
            try:
                value, move = self._root(bbs, colour, depth, root_moves, best)
            except OutOfTime:
                if self._partial is not None:
                    best = self._partial
                break
            best = move
            if value >= WIN or value <= -WIN:
                break  # the result is proven
        return best

    def _tick(self):
        self.nodes += 1
        if self.node_budget is not None:
            if self.nodes >= self.node_budget:
                raise OutOfTime
        elif not self.nodes & 127 and time.process_time() > self.deadline:
            raise OutOfTime

    def _root(self, bbs, colour, depth, moves, previous):
        # The previous iteration's best move first: once it is searched, a better move found in
        # an unfinished iteration can be trusted.
        moves.remove(previous)
        moves.insert(0, previous)
        self._partial = None
        alpha = -_INF
        best = previous
        geo = self.geo
        for cell in moves:
            child = _play(geo, bbs, colour, cell)
            if self.multi:
                value = self._brs(child, False, depth - 1, alpha, _INF)
            else:
                nxt = self.rules.after[colour]
                if self.rules.seat_of[nxt] != self.me:
                    value = -self._negamax(child, nxt, depth - 1, -_INF, -alpha)
                else:
                    value = self._negamax(child, nxt, depth - 1, alpha, _INF)
            if value > alpha:
                alpha = value
                best = cell
                self._partial = cell
        return alpha, best

    # -- two seats: negamax --------------------------------------------------------------------

    def _probe(self, key, depth, alpha, beta):
        """(a value that settles this node or None, the table's best move or -1)."""
        entry = self.table.get(key)
        if entry is None:
            return None, -1
        e_depth, flag, e_value, first = entry
        if e_depth >= depth and (flag == EXACT or flag == LOWER and e_value >= beta
                                 or flag == UPPER and e_value <= alpha):
            return e_value, first
        return None, first

    def _store(self, key, depth, value, alpha, beta, move):
        """Keep a node's ``value`` as exact or as a bound of the (alpha, beta) it was searched in."""
        flag = EXACT if alpha < value < beta else (LOWER if value >= beta else UPPER)
        self.table[key] = (depth, flag, value, move)

    def _negamax(self, bbs, colour, depth, alpha, beta):
        self._tick()
        geo = self.geo
        occupied = bbs[1] | bbs[2] | bbs[3] | bbs[4]
        seat = self.rules.seat_of[colour]
        if occupied == geo.full:
            return self._final(bbs, seat)
        if depth <= 0:
            return self._evaluate(bbs, seat)
        key = (bbs[1], bbs[2], bbs[3], bbs[4], colour)
        cut, first = self._probe(key, depth, alpha, beta)
        if cut is not None:
            return cut
        nxt = self.rules.after[colour]
        flip = self.rules.seat_of[nxt] != seat
        start_alpha = alpha
        best = -_INF
        best_move = -1
        history = self.history[colour]
        for cell in self._ordered(geo.moves(bbs, colour), first, history):
            child = _play(geo, bbs, colour, cell)
            if flip:
                value = -self._negamax(child, nxt, depth - 1, -beta, -alpha)
            else:
                value = self._negamax(child, nxt, depth - 1, alpha, beta)
            if value > best:
                best = value
                best_move = cell
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        history[cell] += depth * depth
                        break
        self._store(key, depth, best, start_alpha, beta, best_move)
        return best

    # -- three or four seats: Best-Reply Search ------------------------------------------------

    def _brs(self, bbs, mine, depth, alpha, beta):
        """Value for the root seat. ``mine``: the root seat's layer, else all opponents' layer."""
        self._tick()
        geo = self.geo
        occupied = bbs[1] | bbs[2] | bbs[3] | bbs[4]
        if occupied == geo.full:
            return self._final(bbs, self.me)
        if depth <= 0:
            return self._evaluate(bbs, self.me)
        key = (bbs[1], bbs[2], bbs[3], bbs[4], mine)
        cut, first = self._probe(key, depth, alpha, beta)
        if cut is not None:
            return cut
        start_alpha, start_beta = alpha, beta
        best_move = -1
        if mine:
            best = -_INF
            colour = self.my_colour
            history = self.history[colour]
            for cell in self._ordered(geo.moves(bbs, colour), first, history):
                value = self._brs(_play(geo, bbs, colour, cell), False, depth - 1, alpha, beta)
                if value > best:
                    best = value
                    best_move = cell
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            history[cell] += depth * depth
                            break
        else:
            best = _INF
            replies = []
            for colour in self.rules.colours:
                if colour != self.my_colour:
                    history = self.history[colour]
                    for cell in cells_of(geo.moves(bbs, colour)):
                        replies.append((-(1 << 20 if cell << 3 | colour == first else
                                          history[cell]), cell, colour))
            replies.sort()
            for _, cell, colour in replies:
                value = self._brs(_play(geo, bbs, colour, cell), True, depth - 1, alpha, beta)
                if value < best:
                    best = value
                    best_move = cell << 3 | colour
                    if value < beta:
                        beta = value
                        if alpha >= beta:
                            self.history[colour][cell] += depth * depth
                            break
        self._store(key, depth, best, start_alpha, start_beta, best_move)
        return best

    def _ordered(self, mask, first, history):
        corners = self.geo.corner_mask
        keyed = []
        for cell in cells_of(mask):
            if cell == first:
                score = 1 << 20
            else:
                score = history[cell] + (1 << 16 if (1 << cell) & corners else 0)
            keyed.append((-score, cell))
        keyed.sort()
        return [cell for _, cell in keyed]

    # -- evaluation ----------------------------------------------------------------------------

    def _final(self, bbs, seat):
        points = self.rules.points(bbs)
        mine = points[seat]
        best_other = max(points[s] for s in range(len(points)) if s != seat)
        margin = mine - best_other
        if margin > 0:
            return WIN + margin
        if margin < 0:
            return -WIN + margin
        return 0

    def _evaluate(self, bbs, seat):
        geo = self.geo
        rules = self.rules
        occupied = bbs[1] | bbs[2] | bbs[3] | bbs[4]
        empty = geo.full & ~occupied
        next_to_empty = geo.near(empty)
        filled = geo.cells - popcount(empty)
        disc = DISC_EARLY + (DISC_LATE - DISC_EARLY) * filled // geo.cells
        score = [0, 0, 0, 0, 0]
        for colour in rules.colours:
            mine = bbs[colour]
            if not mine:
                continue
            mobility = geo.captures(mine, occupied & ~mine, empty)
            score[colour] = (MOBILITY * popcount(mobility)
                             - FRONTIER * popcount(mine & next_to_empty)
                             + disc * popcount(mine))
        for corner, x, c_cells, down, across in geo.corners:
            if corner & empty:
                for colour in rules.colours:
                    mine = bbs[colour]
                    if mine & x:
                        score[colour] -= X_CELL
                    if mine & c_cells:
                        score[colour] -= C_CELL * popcount(mine & c_cells)
            else:
                for colour in rules.colours:
                    mine = bbs[colour]
                    if mine & corner:
                        run = 0
                        for line in (down, across):
                            for bit in line:
                                if not bit & mine:
                                    break
                                run += 1
                        score[colour] += CORNER + STABLE * run
                        break
        values = [sum(score[c] for c in s) for s in rules.seats]
        mine = values[seat]
        return mine - max(values[s] for s in range(len(values)) if s != seat)

