"""Computer players: four levels, from a child's opponent to a desktop search.

>>> from rolit_core import Game
>>> from rolit_core.ai import player
>>> game = Game(players=2, first="red", seed=1)
>>> bot = player("hard", seed=7)
>>> cell = bot.choose(game)          # all at once ...
>>> bot.start(game)                  # ... or in slices, so the device keeps animating
>>> while bot.step(200) is None:     # 200 search nodes per frame
...     pass

``easy`` looks one move ahead with a lot of chance. ``medium``, ``hard`` and ``expert`` search
with iterative-deepening alpha-beta on a copy of the board, with a transposition table (small and
fixed on the device levels, large for ``expert``), the table's move, a killer and the history
heuristic first: plain alpha-beta for two seats (also the two-colours-each variant, where a seat
plays both its colours and counts their total); for three and four players Best-Reply Search
(the opponents form one layer in which only the strongest single reply of any of them is
played), two plies deep for ``hard``: each of our moves against the best answer of any
opponent; over its last 6 empty cells ``hard`` searches to the end with every other seat
against it, for the first place they cannot take away. ``expert`` also solves the last empty
cells exactly with two seats, which makes it perfect on 4x4.

The evaluation is a weighted sum of features per colour, with weights fitted to self-play results
(bench/tune.py) for each player count and game phase: balls per kind of cell (corner, C, edge, X,
inner ring, centre), the frontier (ball and empty neighbour pairs: potential mobility for the
others), the X and C cells next to an empty corner, stable edge runs from owned corners, for
``expert`` the mobility (cells where a colour captures), and who moves next. A seat is valued
against the strongest other seat; a full board by its exact result: first place (with three or
four players a first shared by k counts as its share), then the margin.

Work is counted in nodes (positions looked at), never in wall time, so a player makes the same move
on a PC, in the browser and on a board, and a device level's thinking time is bounded. Budgets and
their calibration: docs/ai.md.
"""

import sys

from .board import _DIRECTIONS_OF, EMPTY
from .board import captures as _captures
from .lifetime import forget, load
from .rng import Random, fresh_seed
from .vocab import LEVELS

try:
    from micropython import const  # the names below are compiled in, not kept as globals
except ImportError:  # CPython
    def const(value):
        return value

_MOBILITY = "rolit_core.mobility"  # expert's evaluation term, loaded for its searches only

# With three or four players: how the opponents are searched.
_PARANOID = const(0)  # all of them against us
_BRS = const(1)       # Best-Reply Search: only the strongest reply of any one of them
_MODEL = const(2)     # each plays its own best one-move reply, so only our moves branch

# Per level: node budgets (two seats, three or four players), deepest iteration with two seats,
# deepest with three or four players, exact endgame when this few cells are empty (two seats), the
# search with three or four players, transposition table entries (a power of two, 0 for none),
# mobility in the evaluation, with three or four players a paranoid search to the end (for first
# place, every other seat against us) when this few cells are empty (0: never; hard from 6, where
# it won more first places against MCTS players in docs/ai.md), and the late moves: 0 for
# plain alpha-beta, else principal variation search with moves from this index in a node's list
# on (0 is the first) searched one ply shallower first (expert: a ply deeper in the same time,
# docs/ai.md). hard's budget with two seats puts its answer in the device's game loop (frames,
# LEDs and collections around the search) at about 0.5 s mean on the emulated RP2040; with three
# or four players its two plies of Best-Reply Search, and its last cells, end within that budget
# (partial third plies were weaker, and a whole third one is too slow for the device: docs/ai.md).
_SETTINGS = {
    "easy": ((0, 0), 1, 1, 0, _PARANOID, 0, False, 0, 0),
    "medium": ((120, 120), 2, 1, 0, _PARANOID, 0, False, 0, 0),
    "hard": ((200, 230), 8, 2, 8, _BRS, 256, False, 6, 0),
    "expert": ((10000, 10000), 30, 30, 12, _BRS, 1 << 16, True, 0, 3),
}

# Features per colour (indices into a weight row).
_F_CLASS = const(0)   # 0-5: balls on corner, C, edge, X, inner ring, centre cells
_F_FRONT = const(6)   # pairs (ball, empty neighbour)
_F_XOPEN = const(7)   # balls on an X cell diagonal to an empty corner
_F_COPEN = const(8)   # balls on a C cell next to an empty corner
_F_STABLE = const(9)  # balls in an edge run from an owned corner (the corner not counted)
_F_MOB = const(10)    # empty cells where the colour would capture
_F_TEMPO = const(11)  # 11-13: the colour moves now, next, the turn after
_FEATURES = const(14)

# Fitted by bench/tune.py; per player count (2 seats, 3, 4), per phase (board just set up, half
# full, full): one row of integer weights, 1024 to a logit. Between phases they are interpolated.
# These are the levels' without mobility; expert's, with it, are rolit_core/mobility.py's.
# -- tuned weights begin --
_WEIGHTS = (
    ((134, 1, 112, 132, 0, 16, -9, -23, -155, 324, 0, -1, 1, 0),
     (878, 120, 114, 103, -39, -15, 1, -622, -320, 87, 0, -33, 33, 0),
     (198, 348, 68, 311, 94, 134, -158, -492, 100, 62, 0, 77, -77, 0)),
    ((391, -68, -81, 12, 112, -14, -32, -291, -131, 395, 0, -78, -7, 85),
     (662, 34, 16, -2, -50, -11, 16, -305, -197, 157, 0, -20, 3, 17),
     (501, 619, 227, 537, 166, 143, -141, -466, -179, -10, 0, 327, -20, -307)),
    ((712, -133, -4, -41, -5, -38, -9, -409, -39, 261, 0, -92, -64, -45),
     (1295, 175, 79, -27, -25, 10, 8, -337, -179, 151, 0, 79, 66, 47),
     (413, 788, 272, 457, 272, 186, -154, -80, -225, -5, 0, 928, 549, 202)),
)
# -- tuned weights end --

_INF = const(1 << 29)
_WIN = const(1 << 22)  # a decided full board: beyond any evaluation

# A full board with three or four players: first place, a first shared by k counted as its
# share. On the scale of the evaluation (ours minus the strongest other seat, in 1024ths of a
# logit) a share of 1/k is what the fitted logit gives one rival -ln(k - 1) logits ahead of us:
# 0 for two, -710 for three, -1125 for four (0 is also a draw with two seats).
_SHARED = (0, 0, 0, -710, -1125)
_MAX_PLY = const(66)
_EXACT = const(0)
_LOWER = const(1)
_UPPER = const(2)

_POP = bytes([bin(mask).count("1") for mask in range(256)])


def _cell_tables(size):
    """Per cell its class (the _F_CLASS features) and move-ordering rank, the number of cells
    around it, and the corners with their X and C cells and edges."""
    last = size - 1
    classes = []
    ranks = []
    around = []
    for cell in range(size * size):
        r, c = divmod(cell, size)
        edge_r = r == 0 or r == last
        edge_c = c == 0 or c == last
        near_r = r == 1 or r == last - 1
        near_c = c == 1 or c == last - 1
        if edge_r and edge_c:
            kind, rank = 0, 0        # corner: can never be taken back
        elif (edge_r and near_c) or (edge_c and near_r):
            kind, rank = 1, 6        # C cell: next to a corner on the edge
        elif edge_r or edge_c:
            kind, rank = 2, 1        # edge
        elif near_r and near_c:
            kind, rank = 3, 7        # X cell: diagonal to a corner
        elif near_r or near_c:
            kind, rank = 4, 4        # the ring that hands out edges
        else:
            kind, rank = 5, 2
        classes.append(kind)
        ranks.append(rank)
        around.append((3 if 0 < r < last else 2) * (3 if 0 < c < last else 2) - 1)
    corners = []
    for corner, dr, dc in ((0, 1, 1), (last, 1, -1), (last * size, -1, 1),
                           (last * size + last, -1, -1)):
        r, c = divmod(corner, size)
        x = (r + dr) * size + c + dc
        c1 = (r + dr) * size + c
        c2 = r * size + c + dc
        # The two edges from this corner, for the stability walk: the steps along them.
        corners.append((corner, x, c1, c2, dr * size, dc))
    return bytes(classes), bytes(ranks), tuple(corners), bytes(around)


_TABLES = {}


def _tables(size):
    tables = _TABLES.get(size)
    if tables is None:
        tables = _TABLES[size] = _cell_tables(size)
    return tables


def _weights(table, players, filled, cells):
    """The weight row for a position with ``filled`` balls: the fitted rows of the player count
    in ``table`` (_WEIGHTS, or mobility.WEIGHTS), interpolated between the phases."""
    rows = table[players - 2 if players > 2 else 0]
    span = cells - 4
    k = 2 * (filled - 4)
    if k < 0:
        k = 0
    if k > 2 * span:
        k = 2 * span
    if k <= span:
        a, b, t = rows[0], rows[1], k
    else:
        a, b, t = rows[1], rows[2], k - span
    return [(a[f] * (span - t) + b[f] * t) // span for f in range(_FEATURES)]


_ZOBRIST = None


def _zobrist():
    """The keys of the search table's positions, made at the first call: one 30-bit number per
    (colour, cell), the same on every interpreter."""
    global _ZOBRIST
    if _ZOBRIST is None:
        rng = Random(0x5EED)
        _ZOBRIST = tuple([rng.bits() for _ in range(5 * 64)])
    return _ZOBRIST


class _Search:
    """Iterative-deepening alpha-beta on a copy of the board, run with an explicit stack so that
    it can stop after any node and go on later. Values are from the root seat's side: its plies
    maximise, the others' minimise (with three or four players as the ``multi`` mode says)."""

    def __init__(self, game, budget, max_depth, exact, rng, multi=_PARANOID, table=None,
                 mobility=False, late=0):
        board = game.board.copy()
        self.board = board
        size = board.size
        self.size = size
        self.cells = size * size
        self.classes, self.ranks, self.corners, self.around = _tables(size)
        self.rays = board._geo.rays
        self.onboard = board._geo.onboard
        root = game.turn
        self.root = root
        seats = game.seat_colours
        seat_of = [-1] * 5
        nxt = [0] * 5
        for colour in game.colours:
            seat_of[colour] = game.seat_of(colour)
            nxt[colour] = game.next_colour(colour)
        self.seat_of = seat_of
        self.nxt = nxt
        self.colours = game.colours
        # The tempo features: per colour to move, it, the next and the one after (as many as
        # differ).
        order = [()] * 5
        for colour in game.colours:
            second = nxt[colour]
            order[colour] = (colour, second, nxt[second]) if len(game.colours) > 2 else \
                (colour, second)
        self.order = order
        self.players = len(seats)
        self.root_seat = seat_of[root]
        self.seats = seats
        self.mine = seats[self.root_seat]
        # Two seats of one colour each: the value is ours minus the other colour's.
        self.duel = seats[1 - self.root_seat][0] if len(seats) == 2 and len(self.mine) == 1 else 0
        self.value = [0, 0, 0, 0, 0]
        self.others = [seats[s] for s in range(len(seats)) if s != self.root_seat]
        # Best-Reply Search: the colours of the opponents' layer, listed once for the search
        # (a list per node was garbage).
        self.theirs = [c for c in game.colours if seat_of[c] != self.root_seat]
        # Per seat, the other seats (for valuing a position from an opponent's side).
        self.rivals = [[seats[o] for o in range(len(seats)) if o != s] for s in range(len(seats))]
        self.multi = multi if len(seats) > 2 else _PARANOID
        # Under the "none" tie rule a shared first wins nothing (three or four seats).
        self.tie_shared = getattr(game, "tie", "shared") == "shared" or len(seats) == 2
        self.model = self.multi == _MODEL
        # With mobility (expert), its count and its weights come from their own module.
        if mobility:
            counter = load(_MOBILITY)
            self.mobility = counter.count
            self.weights = counter.WEIGHTS
            board._geo = counter.geometry(size)
            self.rays = board._geo.rays
        else:
            self.mobility = None
            self.weights = _WEIGHTS
        self.extra = 0
        self.exhausted = False
        self.stopped = False  # the last slice ended because stop() said so
        self.budget = budget
        self.max_depth = max_depth
        self.exact = exact if len(seats) == 2 else 0
        self.wld = False     # the iteration in progress looks for the result only
        self.margin = False  # the last iteration: to the end, for the best margin
        self.rng = rng
        self.nodes = 0
        # Transposition table: (keys, values, infos) lists of a power-of-two length, or None.
        self.table = table
        if table is not None:
            zobrist = _zobrist()
            keys = table[0]
            for i in range(len(keys)):
                keys[i] = -1
        h = 0
        cells = board._cells
        if table is not None:
            for cell in range(self.cells):
                if cells[cell]:
                    h ^= zobrist[cells[cell] << 6 | cell]
        # The running sums per colour (cell weights and frontier) and the weights, set for each
        # iteration in _weigh().
        self.pos = [0, 0, 0, 0, 0]
        self.w = None
        self.base = [0] * self.cells
        self.front = 0
        self.mob = [0, 0, 0, 0, 0]
        # The balls a leaf's move turns, emptied and refilled for each leaf: one list for the
        # whole search, where a list per leaf was a large part of its garbage (30-60 bytes each on
        # a board, and every collection costs a board ~20 ms). A move turns at most 3 balls in
        # each of its 8 directions on 4x4, 5 on 6x6, 6 on 8x8.
        self.turned = [0] * (8 * (size - 2))
        # The stack's depth: no deeper than the empty cells, nor than the deepest iteration
        # (rounded up to whole rounds with the opponent model) or the exact endgame. Sized to
        # it, where 66 plies for every search held ~3 KB more on a board for hard's 8.
        plies = max_depth + len(seats) if max_depth + len(seats) > self.exact else self.exact
        empties = board._counts[EMPTY]
        plies = (plies if plies < empties else empties) + 2
        if plies > _MAX_PLY:
            plies = _MAX_PLY
        # Per ply, the list of moves its nodes search (made on first use, then refilled).
        self.lists = [None] * (plies + 1)
        self.specials = [-1, -1]  # the moves _children puts first
        self.mover = [0]          # the one colour whose moves _children lists (not BRS)
        self.reply_cells = []     # a predicted reply's choices (model), refilled by _run
        # The stack: one entry per ply.
        self.moves = [None] * plies
        self.index = [0] * plies
        self.best = [0] * plies
        self.best_move = [0] * plies
        self.alpha = [0] * plies
        self.beta = [0] * plies
        self.window = [0] * (2 * plies)   # alpha, beta when the node was entered
        self.is_max = [False] * plies
        self.depth_left = [0] * plies
        self.research = [0] * plies  # the ply's last move: 1 null window, 2 also shallower
        self.full = [-1] * plies     # the ply's move searched again in full
        self.late = late
        self.hashes = [0] * (plies + 1)
        self.hashes[0] = h
        self.killer = [-1] * (plies + 1)
        self.ply = 0
        # History heuristic: per (colour, cell), how often the move cut the search short.
        self.history = [0] * 320
        # Root moves, in a seeded random order among equal ranks.
        ranks = self.ranks
        root_moves = []
        for cell in board.legal_moves(root):
            root_moves.append(((ranks[cell] << 10 | rng.below(1024)) << 6 | cell) << 3 | root)
        root_moves.sort()
        self.root_moves = root_moves
        self.result = root_moves[0]
        self.result_value = -_INF
        self.depth = 0
        self.completed = 0
        self.done = len(root_moves) == 1
        self._next_iteration()

    # -- iterations --------------------------------------------------------------------------

    def _next_iteration(self):
        empties = self.board._counts[EMPTY]
        low, high = -_INF, _INF
        if self.wld:
            # The result is known: now, with what is left, the best margin.
            self.wld = False
            self.margin = True
            depth = self.depth
        else:
            if self.margin or self.depth >= empties or self.depth >= self.max_depth:
                self.done = True
                return
            depth = self.depth + 1
            if self.exact and empties <= self.exact and depth >= 3:
                # To the end, first for the result only: a null window around a draw proves a
                # win, a draw or a loss with far fewer nodes than the exact margin needs.
                depth = empties
                low, high = -1, 1
                self.wld = True
            if self.model:
                # Whole rounds only: a value taken in the middle of a round flatters whoever
                # moved last.
                depth = (self.depth // len(self.seats) + 1) * len(self.seats)
        self.depth = depth
        self._weigh(self.cells - empties + depth)
        # The previous best first.
        moves = self.root_moves
        best = self.result
        ordered = [best]
        for m in moves:
            if m != best:
                ordered.append(m)
        self.root_moves = ordered
        self._push(0, ordered, True, depth, low, high)

    def _weigh(self, filled):
        """Set the weights for leaves with ``filled`` balls, and the running sums with them."""
        if filled > self.cells:
            filled = self.cells
        w = _weights(self.weights, self.players, filled, self.cells)
        self.w = w
        front = -w[_F_FRONT]
        self.front = front
        classes = self.classes
        around = self.around
        base = self.base
        board = self.board
        cells = board._cells
        near = board._near
        pos = self.pos
        for colour in range(5):
            pos[colour] = 0
        # A ball's value: its cell's weight minus the frontier weight for each cell around it,
        # given back (front * _POP[near]) for each neighbour that holds a ball.
        for cell in range(self.cells):
            base[cell] = w[classes[cell]] - front * around[cell]
            if cells[cell]:
                pos[cells[cell]] += base[cell] + front * _POP[near[cell]]

    def _push(self, ply, moves, is_max, depth, alpha, beta):
        self.ply = ply
        self.moves[ply] = moves
        self.index[ply] = 0
        self.best[ply] = -_INF if is_max else _INF
        self.best_move[ply] = moves[0]
        self.alpha[ply] = alpha
        self.beta[ply] = beta
        self.window[2 * ply] = alpha
        self.window[2 * ply + 1] = beta
        self.is_max[ply] = is_max
        self.depth_left[ply] = depth
        self.full[ply] = -1
        self.research[ply] = 0

    def release(self):
        """Let go of the search's working state (its board, stacks, move lists and counts) once
        it has answered or been given up. A board's collector is conservative: a stale word
        left on the C stack that still points at this object keeps it alive, and with it all
        it holds (on the emulated chip 9.6 KB more stayed free after each move once the
        player emptied its searches: docs/memory.md)."""
        self.board = self.lists = self.moves = self.index = self.best = None
        self.best_move = self.alpha = self.beta = self.window = self.is_max = None
        self.depth_left = self.research = self.full = self.hashes = self.killer = None
        self.history = self.root_moves = self.turned = self.table = self.reply_cells = None

    def run(self, budget, stop=None):
        """Search for up to ``budget`` nodes, or until ``stop()`` is true (asked between nodes,
        once at least one was searched). Returns True once the answer is final."""
        spent = 0
        self.stopped = False
        while not self.done and budget > 0:
            used = self._run(budget, spent, stop)
            budget -= used
            spent += used
            if self.ply < 0:
                # The iteration finished: its best move is the answer so far (unless all lose
                # to the end: then the previous iteration's choice keeps the most hope).
                if not self.wld or self.best[0] >= 0:
                    self.result = self.best_move[0]
                    self.result_value = self.best[0]
                self.completed = self.depth
                if not self.wld and (self.result_value >= _WIN or self.result_value <= -_WIN):
                    self.done = True  # decided: deeper looks cannot change it
                else:
                    self._next_iteration()
            if (self.nodes >= self.budget or self.exhausted) and not self.done:
                self._stop()
            elif not used and not self.done:
                break  # the next node does not fit in this slice: it opens the next one
            elif self.stopped:
                break  # out of time: the next node opens the next slice
        return self.done

    def _stop(self):
        # Out of nodes. The unfinished iteration searched the previous best first, so its best
        # move is sound once that first move is done. The search board is simply dropped.
        if self.ply >= 0 and (self.index[0] > 1 or (self.index[0] == 1 and self.ply == 0)) and \
                (not self.wld or self.best[0] >= 0):
            self.result = self.best_move[0]
            self.result_value = self.best[0]
        self.ply = -1
        self.done = True

    def _run(self, budget, spent=0, stop=None):
        board = self.board
        counts = board._counts
        trail = board._trail
        cells = board._cells
        near = board._near
        base = self.base
        pop = _POP
        front = self.front
        rays = self.rays
        directions_of = _DIRECTIONS_OF
        pos = self.pos
        moves_at = self.moves
        index = self.index
        best = self.best
        best_move = self.best_move
        alpha = self.alpha
        beta = self.beta
        is_max = self.is_max
        depth_left = self.depth_left
        seat_of = self.seat_of
        root_seat = self.root_seat
        history = self.history
        hashes = self.hashes
        table = self.table
        if table is not None:
            keys, values, infos = table
            mask = len(keys) - 1
            zobrist = _ZOBRIST
        ply = self.ply
        used = 0
        model = self.model
        late = self.late
        research = self.research
        full = self.full
        nodes = self.nodes
        total = self.budget
        limit = self.budget - self.nodes
        if budget > limit:
            budget = limit
        while True:
            moves = moves_at[ply]
            i = index[ply]
            if i >= len(moves) or alpha[ply] >= beta[ply]:
                # This node is done: hand its value to the parent. A move that cut the search
                # short is tried early elsewhere too (history heuristic, killer).
                value = best[ply]
                if i < len(moves):
                    m = best_move[ply]
                    k = (m & 7) << 6 | (m >> 3 & 63)
                    h = history[k] + depth_left[ply] * depth_left[ply]
                    history[k] = h if h < 1023 else 1023
                    self.killer[ply] = m & 511
                if ply == 0:
                    ply = -1
                    break
                if table is not None:
                    if value <= self.window[2 * ply]:
                        flag = _UPPER
                    elif value >= self.window[2 * ply + 1]:
                        flag = _LOWER
                    else:
                        flag = _EXACT
                    slot = hashes[ply] & mask
                    keys[slot] = hashes[ply]
                    values[slot] = value
                    infos[slot] = (depth_left[ply] << 2 | flag) << 10 | (best_move[ply] & 511)
                ply -= 1
                self._undo()
                m = moves_at[ply][index[ply] - 1]
            else:
                if used >= budget:
                    break
                if stop is not None and (used or spent) and stop():
                    # Out of time for this slice (the device's frame clock): the same place
                    # as a slice out of nodes, so the answer does not change.
                    self.stopped = True
                    break
                m = moves[i]
                depth = depth_left[ply] - 1
                low = alpha[ply]
                high = beta[ply]
                research[ply] = 0
                if late and i and i != full[ply] and depth > 0:
                    # Principal variation search: a move after the first is tried with a null
                    # window, and from the late-th on, with two plies or more below it, one ply
                    # shallower (late move reduction); one that may be better is searched
                    # again in full.
                    if is_max[ply]:
                        high = low + 1
                    else:
                        low = high - 1
                    research[ply] = 1
                    if i >= late and depth >= 2 and not (self.wld or self.margin):
                        depth -= 1
                        research[ply] = 2
                if depth > 0 and model:
                    if nodes + used + len(board._frontier) >= total:
                        # Predicting the next reply could overrun the budget: stop here.
                        self.exhausted = True
                        break
                index[ply] = i + 1
                colour = m & 7
                used += 1
                if depth <= 0:
                    # A leaf: value it without making the move on the board.
                    value = self._leaf(m >> 3 & 63, colour)
                    research[ply] = 0
                else:
                    cell = m >> 3 & 63
                    # Running sums follow the move: the balls next to the cell lose an empty
                    # neighbour, then each turned ball takes its weight and frontier to the mover.
                    lines = rays[cell]
                    for d in directions_of[near[cell]]:
                        pos[cells[lines[d][0]]] += front
                    board._play(cell, colour)
                    end = len(trail) - 1
                    gain = base[cell] + front * pop[near[cell]]
                    for k in range(end - (trail[end] >> 8), end):
                        entry = trail[k]
                        other = entry >> 3
                        w = base[other] + front * pop[near[other]]
                        gain += w
                        pos[entry & 7] -= w
                    pos[colour] += gain
                    if counts[EMPTY]:
                        first = -1
                        if table is not None:
                            h = hashes[ply] ^ zobrist[colour << 6 | cell]
                            for k in range(end - (trail[end] >> 8), end):
                                entry = trail[k]
                                other = entry >> 3
                                h ^= zobrist[(entry & 7) << 6 | other] ^ zobrist[colour << 6 | other]
                            hashes[ply + 1] = h
                            slot = h & mask
                            if keys[slot] == h:
                                info = infos[slot]
                                first = info & 1023
                                if info >> 12 >= depth:
                                    flag = info >> 10 & 3
                                    value = values[slot]
                                    if (flag == _EXACT or (flag == _LOWER and value >= high)
                                            or (flag == _UPPER and value <= low)):
                                        self._undo()
                                        first = -2
                        if first != -2:
                            if model and seat_of[self.nxt[colour]] != root_seat:
                                # The reply to predict looks at all the mover's moves at once:
                                # a slice that has done work starts it only if it fits (else
                                # the move is taken back and opens the next slice).
                                replies = self.reply_cells
                                del replies[:]
                                board._legal_into(self.nxt[colour], replies)
                                replies.sort()  # as Board.legal_moves: the order picks ties
                                if (used > 1 or spent) and used + len(replies) > budget:
                                    self._undo()
                                    index[ply] = i
                                    used -= 1
                                    break
                            child = self._children(colour, first, ply + 1)
                            if self.extra:
                                used += self.extra
                                self.extra = 0
                            self._push(ply + 1, child, seat_of[child[0] & 7] == root_seat,
                                       depth, low, high)
                            ply += 1
                            continue
                    else:
                        value = self._final()
                        self._undo()
                        research[ply] = 0
            if research[ply]:
                # A null-window or shallower look: searched again in full if it may be better
                # (a null window's cut-off stands; a shallower look's does not).
                if is_max[ply]:
                    again = value > alpha[ply] and (value < beta[ply] or research[ply] == 2)
                else:
                    again = value < beta[ply] and (value > alpha[ply] or research[ply] == 2)
                research[ply] = 0
                if again:
                    index[ply] -= 1
                    full[ply] = index[ply]
                    continue
            # Back the value of move m up into this node's bounds.
            if is_max[ply]:
                if value > best[ply]:
                    best[ply] = value
                    best_move[ply] = m
                    if value > alpha[ply]:
                        alpha[ply] = value
            elif value < best[ply]:
                best[ply] = value
                best_move[ply] = m
                if value < beta[ply]:
                    beta[ply] = value
        self.ply = ply
        self.nodes += used
        return used

    def _undo(self):
        board = self.board
        trail = board._trail
        cells = board._cells
        near = board._near
        base = self.base
        front = self.front
        pos = self.pos
        end = len(trail) - 1
        marker = trail[end]
        cell = marker & 0xFF
        colour = cells[cell]
        loss = base[cell] + front * _POP[near[cell]]
        for k in range(end - (marker >> 8), end):
            entry = trail[k]
            other = entry >> 3
            w = base[other] + front * _POP[near[other]]
            loss += w
            pos[entry & 7] += w
        pos[colour] -= loss
        board.undo()
        lines = self.rays[cell]
        for d in _DIRECTIONS_OF[near[cell]]:
            pos[cells[lines[d][0]]] -= front

    def _leaf(self, cell, colour, seat=-1):
        # Put the ball and turn the balls in place (cells, counts and running sums only), value
        # the position, and put everything back.
        board = self.board
        cells = board._cells
        counts = board._counts
        near = board._near
        pos = self.pos
        base = self.base
        front = self.front
        # What the move turns (as Board._turned, unsorted, which nothing here needs), into the
        # search's own list: emptied, not made anew, so that it keeps its block of heap.
        turned = self.turned
        del turned[:]
        lines = self.rays[cell]
        n = _captures(cells, lines, _DIRECTIONS_OF[near[cell]], colour, turned)
        # The board's neighbour masks stay as before the move: a turned ball's empty neighbours
        # still include the cell, which the loop over the cell's neighbours then takes off.
        gain = base[cell] + front * _POP[near[cell]]
        for k in range(n):
            other = turned[k]
            old = cells[other]
            w = base[other] + front * _POP[near[other]]
            pos[old] -= w
            counts[old] -= 1
            gain += w
            cells[other] = colour
            turned[k] = other << 3 | old
        pos[colour] += gain
        counts[colour] += n + 1
        counts[EMPTY] -= 1
        cells[cell] = colour
        if counts[EMPTY] == 0:
            # A full board: its exact result (for a predicted reply, from the replier's seat).
            value = self._final(seat)
        else:
            directions = _DIRECTIONS_OF[near[cell]]
            for d in directions:
                pos[cells[lines[d][0]]] += front
            value = self._evaluate(self.nxt[colour], seat, cell)
            for d in directions:
                pos[cells[lines[d][0]]] -= front
        cells[cell] = EMPTY
        counts[EMPTY] += 1
        counts[colour] -= n + 1
        pos[colour] -= gain
        for k in range(n):
            entry = turned[k]
            other = entry >> 3
            old = entry & 7
            cells[other] = old
            counts[old] += 1
            pos[old] += base[other] + front * _POP[near[other]]
        return value

    def _children(self, colour, first, ply):
        """The replies after ``colour`` moved, encoded and ordered (best guesses first: the
        table's move, the killer, moves that cut the search short elsewhere, then corners, edges
        ...)."""
        ranks = self.ranks
        history = self.history
        # The list of this ply's node before is done with (its node was left): refilled.
        out = self.lists[ply]
        if out is None:
            out = self.lists[ply] = []
        else:
            del out[:]
        seat = self.seat_of[colour]
        mover = self.nxt[colour]
        if self.model and self.seat_of[mover] != self.root_seat:
            best = 0
            best_value = -_INF
            moves = self.reply_cells  # filled by _run just before, for this node
            self.extra += len(moves)
            mover_seat = self.seat_of[mover]
            for cell in moves:
                value = self._leaf(cell, mover, mover_seat)
                if value > best_value:
                    best_value = value
                    best = cell
            out.append(best << 3 | mover)
            return out
        if self.multi == _BRS:
            movers = self.mine if seat != self.root_seat else self.theirs
        else:
            movers = self.mover
            movers[0] = mover
        for mover in movers:
            start = len(out)
            self.board._legal_into(mover, out)
            for k in range(start, len(out)):
                cell = out[k]
                out[k] = ((1023 - history[mover << 6 | cell] << 3 | ranks[cell]) << 6 | cell) << 3 \
                    | mover
        out.sort()
        # The table's move first, then the killer, each where the list holds it.
        place = 0
        specials = self.specials  # a list kept for this, where a tuple would be garbage
        specials[0] = first
        specials[1] = self.killer[ply]
        for special in specials:
            if special >= 0:
                for k in range(place, len(out)):
                    if out[k] & 511 == special:
                        if k != place:
                            out.insert(place, out.pop(k))
                        place += 1
                        break
        return out

    # -- evaluation ------------------------------------------------------------------------

    def _final(self, seat=-1):
        """A full board from ``seat``'s side (the root seat by default): first place alone is
        beyond any evaluation (then the margin), a first shared by k is its share (_SHARED),
        anything else is a loss (then the margin)."""
        counts = self.board._counts
        if seat < 0:
            mine_colours = self.mine
            others = self.others
        else:
            mine_colours = self.seats[seat]
            others = self.rivals[seat]
        mine = 0
        for colour in mine_colours:
            mine += counts[colour]
        worst = 0
        level = 1
        for other in others:
            points = 0
            for colour in other:
                points += counts[colour]
            if points > worst:
                worst = points
                level = 1
            elif points == worst:
                level += 1
        margin = mine - worst
        if margin > 0:
            return _WIN + margin
        if margin < 0:
            return margin - _WIN
        if self.tie_shared:
            return _SHARED[level + 1]
        return -_WIN

    def _evaluate(self, to_move, seat=-1, cell=-1):
        """The position's value for ``seat`` (the root seat by default); ``to_move`` is the colour
        to move, ``cell`` a ball just put in place (its neighbours' masks not yet updated)."""
        board = self.board
        cells = board._cells
        pos = self.pos
        w = self.w
        value = self.value
        value[1] = pos[1]
        value[2] = pos[2]
        value[3] = pos[3]
        value[4] = pos[4]
        size = self.size
        x_open = w[_F_XOPEN]
        c_open = w[_F_COPEN]
        stable = w[_F_STABLE]
        for corner, x, c1, c2, step_r, step_c in self.corners:
            owner = cells[corner]
            if owner == EMPTY:
                # Balls next to an empty corner hand it to someone else.
                value[cells[x]] += x_open
                value[cells[c1]] += c_open
                value[cells[c2]] += c_open
            else:
                # Stable run along both edges from an owned corner.
                run = 0
                k = corner + step_r
                for _ in range(size - 1):
                    if cells[k] != owner:
                        break
                    run += 1
                    k += step_r
                k = corner + step_c
                for _ in range(size - 1):
                    if cells[k] != owner:
                        break
                    run += 1
                    k += step_c
                value[owner] += run * stable
        if self.mobility is not None:
            mob = self.mobility(self, cell)
            weight = w[_F_MOB]
            for colour in self.colours:
                value[colour] += weight * mob[colour]
        # Who moves next: the colour to move, then the one after, ...
        order = self.order[to_move]
        value[order[0]] += w[_F_TEMPO]
        value[order[1]] += w[_F_TEMPO + 1]
        if len(order) > 2:
            value[order[2]] += w[_F_TEMPO + 2]
        if seat < 0:
            if self.duel:
                return value[self.root] - value[self.duel]
            return self._for_seat(value, self.mine, self.others)
        return self._for_seat(value, self.seats[seat], self.rivals[seat])

    def _for_seat(self, value, mine_colours, others):
        mine = 0
        for colour in mine_colours:
            mine += value[colour]
        worst = -_INF
        for seat in others:
            points = 0
            for colour in seat:
                points += value[colour]
            if points > worst:
                worst = points
        return mine - worst


class Player:
    """A computer player of one level. Deterministic for a given seed.

    ``choose(game)`` returns a legal cell for ``game.turn``. The same thinking in slices:
    ``start(game)``, then ``step(budget)`` until it returns a cell (``None`` while it is still
    thinking); ``budget`` is a number of search nodes. ``thinking`` is True between ``start`` and
    the answer, ``progress`` goes from 0 to 100. The game is never changed; if it changes while the
    player thinks (a move or an undo elsewhere), ``step`` starts again on the new position.
    ``seed=None`` picks a fresh seed, like ``Game``.
    """

    def __init__(self, level, seed=None):
        if not isinstance(level, str) or level not in _SETTINGS:
            raise ValueError("level must be one of easy, medium, hard, expert, not %r" % (level,))
        if seed is None:
            seed = fresh_seed()
        self.level = level
        self.seed = seed
        self._rng = Random(seed)
        (self.budgets, self.max_depth, self.multi_depth, self.exact, self._multi, self._entries,
         self._mobility, self._endgame, self._late) = _SETTINGS[level]
        # The budget of the game in hand (set by start): budgets[0] with two seats, else [1].
        self.budget = self.budgets[0]
        self._table = None
        self._searcher = _Search  # bench/multi.py measures other objectives with its own
        self.thinking = False
        self.progress = 0
        self.nodes = 0
        self._search = None
        self._answer = None
        self._game = None
        self._mark = None
        self.book = True  # medium and above play the opening book's moves (rolit_core/book.py)

    def choose(self, game):
        """A legal cell for the colour to move. Raises ``ValueError`` if the game is over."""
        self.start(game)
        cell = None
        while cell is None:
            cell = self.step(4096)
        return cell

    def ready(self, game):
        """Load and make now what the first answer in ``game`` needs and would take too long
        for a frame that thinks: the opening book's reader while the game is in its opening
        (from source that module is compiled as it loads) and the keys of the search's table.
        The frame that begins a round takes them."""
        if self.book and self.level != "easy":
            _open_book(game)
        if self._entries:
            # The keys of the search table's positions: 18 ms on an RP2040, which made the
            # update that began the first search after the book's moves a stalled frame. The
            # table itself is quick to make, and waits for that search (the book is gone then).
            _zobrist()

    def start(self, game):
        """Begin thinking about ``game`` (its board is copied; the game is left alone)."""
        moves = game.legal_moves()
        if not moves:
            raise ValueError("the game is over: there is no move to choose")
        self.thinking = True
        self.progress = 0
        self.nodes = 0
        if self._search is not None:
            self._search.release()
            self._search = None
        self._answer = None
        self._game = game
        self._mark = _mark(game)
        if self.level == "easy":
            self._answer = _easy_move(game, moves, self._rng)
        elif len(moves) == 1:
            self._answer = moves[0]
        else:
            cell = _book_move(game, moves, self._rng) if self.book else -1
            if cell >= 0:
                self._answer = cell
                return
            two = len(game.seat_colours) == 2
            depth = self.max_depth if two else self.multi_depth
            self.budget = self.budgets[0 if two else 1]
            if self._entries and self._table is None:
                self._table = _new_table(self._entries)
                if self._table is None:
                    self._entries = 0
            multi = self._multi
            empties = game.board._counts[EMPTY]
            if not two and empties <= self._endgame:
                # The last few cells: every line to the end, the others all against us, so the
                # move keeps the best first place they cannot take away.
                multi = _PARANOID
                depth = empties
            self._search = self._searcher(game, self.budget, depth, self.exact, self._rng, multi,
                                          self._table, self._mobility, self._late)

    def step(self, budget=200, stop=None):
        """Think for up to ``budget`` nodes, or until ``stop()`` is true (a function the caller
        may give: it is asked between nodes, after the first, so that a slice can end on time
        as well; the answer is the same either way). Returns the chosen cell, or ``None``
        while thinking."""
        game = self._game
        if game is None:
            raise ValueError("call start(game) before step()")
        if _mark(game) != self._mark:
            self.start(game)  # the position changed under us: think again
        search = self._search
        if search is not None:
            if search.run(budget if budget > 0 else 1, stop):
                self._answer = search.result >> 3 & 63
                self._search = None
                search.release()
            else:
                self.nodes = search.nodes
                self.progress = search.nodes * 100 // search.budget
                return None
            self.nodes = search.nodes
        cell = self._answer
        self.thinking = False
        self.progress = 100
        return cell


_BOOK = "rolit_core.book"
_book_path = None  # the opening book file (None: the shipped one)
_book = None       # the session's book once checked (rolit_core.book.check), or () if unusable
_off_book = None   # (game, balls placed) where the book last had no move for that game


def use_book(path=None):
    """The computer players read their opening book from ``path`` from now on (None: the
    ``book.bin`` shipped beside rolit_core/book.py); it is checked again at its first use."""
    global _book_path, _book, _off_book
    _book_path = path
    _book = None
    _off_book = None


def _book_asks(game):
    # True while the book may have a move for game; else its module is forgotten.
    global _off_book
    if _off_book is not None and _off_book[0] is not game:
        _off_book = None  # another game asks: the last one is let go
    board = game.board
    placed = 60 - board._counts[EMPTY]
    if (board.size != 8 or _book == () or (_book is not None and placed >= _book[2])
            or (_off_book is not None and placed >= _off_book[1])):
        if _BOOK in sys.modules:
            forget(_BOOK)
        return False
    return True


def _open_book(game):
    # The book's module loaded (and its file checked) while game may ask it, else None.
    global _book
    if not _book_asks(game):
        return None
    book = load(_BOOK)
    if _book is None:
        _book = book.check(_book_path) or ()
        if not _book:
            forget(_BOOK)
            return None
    return book


def _book_move(game, moves, rng):
    """A move of the opening book for the first plies of an 8x8 game, or -1 (then the level
    searches). The book's module (rolit_core.lifetime) is loaded for a lookup and kept only
    while its answers come: it is forgotten when the book has no move (a search follows, which
    needs the heap) or the game is past its plies, and not asked again in that game unless it
    goes back (an undo). A book that cannot be used is said once and not asked again."""
    global _book, _off_book
    book = _open_book(game)
    if book is None:
        return -1
    cell = book.move(game, moves, rng, _book)
    if cell >= 0:
        return cell
    if cell == book.UNUSABLE:
        _book = ()
    else:
        _off_book = (game, 60 - game.board._counts[EMPTY])
    forget(_BOOK)
    return -1


def _new_table(entries):
    """A transposition table (keys, values, infos), allocated once per player and reused, so no
    garbage per move. A heap too small for it (expert's on a board) gets a smaller one."""
    while entries >= 16:
        try:
            return ([-1] * entries, [0] * entries, [0] * entries)
        except MemoryError:
            entries >>= 2
    return None


def _mark(game):
    # What identifies the position to think about: the board's version (bumped by every ball
    # put or taken back, so two undos and two other moves that end on the same cell differ),
    # the moves played and whose turn it is.
    board = game.board
    moves = board._moves
    return (board._version, len(moves), moves[-1] if moves else -1, game.turn)


def _easy_move(game, moves, rng):
    """One move ahead, with a lot of chance: a third of the time any legal move, else the move
    that turns many balls, give or take; a free corner is taken about half the time."""
    if rng.below(3) == 0:
        return rng.choice(moves)
    board = game.board
    colour = game.turn
    corners = _tables(board.size)[2]
    best = moves[0]
    best_score = -_INF
    for cell in moves:
        score = len(board.flips(cell, colour)) * 3 + rng.below(16)
        for corner in corners:
            if cell == corner[0] and rng.below(2):
                score += 12
        if score > best_score:
            best = cell
            best_score = score
    return best


def player(level, seed=None):
    """A computer player: ``level`` is "easy", "medium", "hard" or "expert"."""
    return Player(level, seed)
