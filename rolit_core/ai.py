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
with iterative-deepening alpha-beta on a copy of the board: plain alpha-beta for two seats (also the
two-colours-each variant, where a seat plays both its colours and counts their total), and for
three and four players ``expert`` uses paranoid alpha-beta (every other seat plays against us)
while ``hard`` models its opponents (each plays its best one-move reply, so only our moves branch:
a whole round fits in its budget). ``expert`` also solves the last 12 empty cells exactly with two
seats, which makes it perfect on 4x4. The evaluation knows corners, edges, balls next to an empty
corner, stable edge runs from owned corners, the frontier (balls next to empty cells: potential
mobility for the others) and the ball count, weighted by how full the board is.

Work is counted in nodes (positions looked at), never in wall time, so a player makes the same move
on a PC, in the browser and on a board, and a device level's thinking time is bounded. Budgets:
medium 120 nodes, hard 500, expert 30000 (desktop).

Calibration (docs/ai.md, bench/ai.py): under the MicroPython WebAssembly runner on the reference PC
a hard move of at most 500 nodes takes 24 ms on average and 34 ms at worst (27 and 41 ms in a
slower run; 45-80 us a node). An RP2040 at 125 MHz running CircuitPython is assumed 20x slower
than the runner (the slow end of the 10-20x estimate: a Cortex-M0+ interpreting from flash through
a small cache, and CircuitPython a little slower than MicroPython), so a hard move takes about
0.5 s there, 0.8 s at worst.

Memory: the search works on one copy of the board, a stack of at most 66 plies (one move list per
ply in use) and a 320-entry history table: a few KB, independent of the budget; there are no
transposition tables. Measured peak per move on CPython (64-bit objects): 18 KB for hard.
"""

from .board import _DIRECTIONS_OF, EMPTY
from .rng import Random, fresh_seed

LEVELS = ("easy", "medium", "hard", "expert")

# Per level: node budget, deepest iteration with two seats, deepest with three or four players,
# exact endgame when this few cells are empty (two seats only).
_SETTINGS = {
    "easy": (0, 1, 1, 0),
    "medium": (120, 2, 1, 0),
    "hard": (500, 8, 8, 0),
    "expert": (30000, 30, 30, 12),
}

# With three or four players: how much the leader among the others counts against us, and how
# much the field's mean does.
_LEADER = 1
_DISC = 4
_DISC_LATE = 12
_FIELD = 1

# Levels that model opponents (3-4 players) instead of assuming they all play against us.
_MODEL_LEVELS = ("hard",)

# Frontier: per pair (ball, empty neighbour) the ball's owner loses this much. A ball next to
# empty cells gives the others lines to capture through (Othello's potential mobility).
_FRONTIER = 3

# Per 8-bit mask of occupied neighbours: the frontier weight times the bits set, which a ball
# gets back for each neighbour that is not empty.
_FULL = tuple([_FRONTIER * bin(mask).count("1") for mask in range(256)])

_INF = 1 << 29
_MAX_PLY = 66


def _cell_tables(size):
    """Static weights and move-ordering ranks per cell, and the corners with their X and C cells."""
    last = size - 1
    weights = []
    ranks = []
    for cell in range(size * size):
        r, c = divmod(cell, size)
        edge_r = r == 0 or r == last
        edge_c = c == 0 or c == last
        near_r = r == 1 or r == last - 1
        near_c = c == 1 or c == last - 1
        if edge_r and edge_c:
            w, rank = 40, 0          # corner: can never be taken back
        elif (edge_r and near_c) or (edge_c and near_r):
            w, rank = 4, 6           # C cell: next to a corner on the edge
        elif near_r and near_c:
            w, rank = -4, 7          # X cell: diagonal to a corner
        elif edge_r or edge_c:
            w, rank = 8, 1           # edge
        elif near_r or near_c:
            w, rank = -1, 4          # the ring that hands out edges
        else:
            w, rank = 1, 2
        if size == 4 and not (edge_r and edge_c):
            w, rank = 2, 3
        weights.append(w)
        ranks.append(rank)
    corners = []
    for corner, dr, dc in ((0, 1, 1), (last, 1, -1), (last * size, -1, 1),
                           (last * size + last, -1, -1)):
        r, c = divmod(corner, size)
        x = (r + dr) * size + c + dc
        c1 = (r + dr) * size + c
        c2 = r * size + c + dc
        # The two edges from this corner, for the stability walk: (step, length).
        corners.append((corner, x, c1, c2, dr * size, dc))
    # A ball's value before its frontier: the cell weight minus the frontier weight for every
    # neighbour cell on the board (_FULL gives back the ones that hold a ball).
    base = []
    for cell in range(size * size):
        r, c = divmod(cell, size)
        around = (3 if 0 < r < last else 2) * (3 if 0 < c < last else 2) - 1
        base.append(weights[cell] - _FRONTIER * around)
    return tuple(weights), tuple(ranks), tuple(corners), tuple(base)


_TABLES = {}


def _tables(size):
    tables = _TABLES.get(size)
    if tables is None:
        tables = _TABLES[size] = _cell_tables(size)
    return tables


class _Search:
    """Iterative-deepening paranoid alpha-beta (plain alpha-beta for two seats; with an opponent
    model, only our moves branch) on a copy of the board, run with an explicit stack so that it
    can stop after any node and go on later."""

    def __init__(self, game, budget, max_depth, exact, rng, model=False):
        board = game.board.copy()
        self.board = board
        size = board.size
        self.cells = size * size
        self.weights, self.ranks, self.corners, self.base = _tables(size)
        self.frontier = _FRONTIER
        self.rays = board._geo.rays
        self.size = size
        root = game.turn
        self.root = root
        seat_of = [-1] * 5
        nxt = [0] * 5
        for colour in game.colours:
            seat_of[colour] = game.seat_of(colour)
            nxt[colour] = game.next_colour(colour)
        self.seat_of = seat_of
        self.nxt = nxt
        self.root_seat = seat_of[root]
        self.seats = game.seat_colours
        self.mine = game.seat_colours[self.root_seat]
        others = []
        for seat in range(len(game.seat_colours)):
            if seat != self.root_seat:
                others.append(game.seat_colours[seat])
        self.others = others
        # Per seat, the other seats (for valuing a position from an opponent's side).
        rivals = []
        for seat in range(len(game.seat_colours)):
            rivals.append([game.seat_colours[other] for other in range(len(game.seat_colours))
                           if other != seat])
        self.rivals = rivals
        # Opponent model (3-4 players): each opponent is expected to play its best move by a
        # one-move look from its own side, so only our moves branch.
        self.model = model and len(game.seat_colours) > 2
        self.extra = 0
        self.exhausted = False
        self.budget = budget
        self.max_depth = max_depth
        self.exact = exact if len(game.seat_colours) == 2 else 0
        self.rng = rng
        self.nodes = 0
        # Positional sums per colour, kept up to date move by move.
        pos = [0, 0, 0, 0, 0]
        cells = board._cells
        near = board._near
        base = self.base
        for cell in range(self.cells):
            if cells[cell]:
                pos[cells[cell]] += base[cell] + _FULL[near[cell]]
        self.pos = pos
        # The stack: one entry per ply.
        self.moves = [None] * _MAX_PLY
        self.index = [0] * _MAX_PLY
        self.best = [0] * _MAX_PLY
        self.best_move = [0] * _MAX_PLY
        self.alpha = [0] * _MAX_PLY
        self.beta = [0] * _MAX_PLY
        self.is_max = [False] * _MAX_PLY
        self.depth_left = [0] * _MAX_PLY
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
        if self.depth >= empties or self.depth >= self.max_depth:
            self.done = True
            return
        depth = self.depth + 1
        if self.exact and empties <= self.exact and depth >= 3:
            depth = empties
        if self.model:
            # Whole rounds only: a value taken in the middle of a round flatters whoever moved last.
            depth = (self.depth // len(self.seats) + 1) * len(self.seats)
        self.depth = depth
        # The previous best first.
        moves = self.root_moves
        best = self.result
        ordered = [best]
        for m in moves:
            if m != best:
                ordered.append(m)
        self.root_moves = ordered
        self._push(0, ordered, True, depth, -_INF, _INF)

    def _push(self, ply, moves, is_max, depth, alpha, beta):
        self.ply = ply
        self.moves[ply] = moves
        self.index[ply] = 0
        self.best[ply] = -_INF if is_max else _INF
        self.best_move[ply] = moves[0]
        self.alpha[ply] = alpha
        self.beta[ply] = beta
        self.is_max[ply] = is_max
        self.depth_left[ply] = depth

    def run(self, budget):
        """Search for up to ``budget`` nodes. Returns True once the answer is final."""
        while not self.done and budget > 0:
            used = self._run(budget)
            budget -= used
            if self.ply < 0:
                # The iteration finished: its best move is the answer so far.
                self.result = self.best_move[0]
                self.result_value = self.best[0]
                self.completed = self.depth
                self._next_iteration()
            if (self.nodes >= self.budget or self.exhausted) and not self.done:
                self._stop()
        return self.done

    def _stop(self):
        # Out of nodes. The unfinished iteration searched the previous best first, so its best
        # move is sound once that first move is done. The search board is simply dropped.
        if self.ply >= 0 and (self.index[0] > 1 or (self.index[0] == 1 and self.ply == 0)):
            self.result = self.best_move[0]
            self.result_value = self.best[0]
        self.ply = -1
        self.done = True

    def _run(self, budget):
        board = self.board
        counts = board._counts
        trail = board._trail
        cells = board._cells
        near = board._near
        base = self.base
        full = _FULL
        frontier = self.frontier
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
        ply = self.ply
        used = 0
        model = self.model
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
                # short is tried early elsewhere too (history heuristic).
                if i < len(moves):
                    m = best_move[ply]
                    k = (m & 7) << 6 | (m >> 3 & 63)
                    h = history[k] + depth_left[ply] * depth_left[ply]
                    history[k] = h if h < 1023 else 1023
                if ply == 0:
                    ply = -1
                    break
                value = best[ply]
                ply -= 1
                self._undo()
                m = moves_at[ply][index[ply] - 1]
            else:
                if used >= budget:
                    break
                m = moves[i]
                depth = depth_left[ply] - 1
                if depth > 0 and model and nodes + used + len(board._frontier) >= total:
                    # Predicting the next reply could overrun the budget: stop here.
                    self.exhausted = True
                    break
                index[ply] = i + 1
                colour = m & 7
                used += 1
                if depth <= 0:
                    # A leaf: value it without making the move on the board.
                    value = self._leaf(m >> 3 & 63, colour)
                else:
                    cell = m >> 3 & 63
                    # Positional sums follow the move: the balls next to the cell lose an empty
                    # neighbour, then each turned ball takes its weight and frontier to the mover.
                    if frontier:
                        lines = rays[cell]
                        for d in directions_of[near[cell]]:
                            pos[cells[lines[d][0]]] += frontier
                    board._play(cell, colour)
                    end = len(trail) - 1
                    gain = base[cell] + full[near[cell]]
                    for k in range(end - (trail[end] >> 8), end):
                        entry = trail[k]
                        other = entry >> 3
                        w = base[other] + full[near[other]]
                        gain += w
                        pos[entry & 7] -= w
                    pos[colour] += gain
                    if counts[EMPTY]:
                        child = self._children(colour)
                        if self.extra:
                            used += self.extra
                            self.extra = 0
                        self._push(ply + 1, child, seat_of[child[0] & 7] == root_seat, depth,
                                   alpha[ply], beta[ply])
                        ply += 1
                        continue
                    value = self._final()
                    self._undo()
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
        full = _FULL
        pos = self.pos
        end = len(trail) - 1
        marker = trail[end]
        cell = marker & 0xFF
        colour = cells[cell]
        loss = base[cell] + full[near[cell]]
        for k in range(end - (marker >> 8), end):
            entry = trail[k]
            other = entry >> 3
            w = base[other] + full[near[other]]
            loss += w
            pos[entry & 7] += w
        pos[colour] -= loss
        board.undo()
        frontier = self.frontier
        if frontier:
            lines = self.rays[cell]
            for d in _DIRECTIONS_OF[near[cell]]:
                pos[cells[lines[d][0]]] -= frontier

    def _leaf(self, cell, colour, seat=-1):
        # Put the ball and turn the balls in place (cells, counts and positional sums only),
        # value the position, and put everything back.
        board = self.board
        cells = board._cells
        counts = board._counts
        near = board._near
        pos = self.pos
        base = self.base
        full = _FULL
        frontier = self.frontier
        turned = board._turned(cell, colour)
        # The board's neighbour masks stay as before the move: a turned ball's empty neighbours
        # still include the cell, which the loop over the cell's neighbours then takes off.
        gain = base[cell] + full[near[cell]]
        for k in range(len(turned)):
            other = turned[k]
            old = cells[other]
            w = base[other] + full[near[other]]
            pos[old] -= w
            counts[old] -= 1
            gain += w
            cells[other] = colour
            turned[k] = other << 3 | old
        pos[colour] += gain
        counts[colour] += len(turned) + 1
        counts[EMPTY] -= 1
        cells[cell] = colour
        if counts[EMPTY] == 0 and seat < 0:
            value = self._final()
        else:
            if frontier:
                lines = self.rays[cell]
                directions = _DIRECTIONS_OF[near[cell]]
                for d in directions:
                    pos[cells[lines[d][0]]] += frontier
                value = self._evaluate(seat)
                for d in directions:
                    pos[cells[lines[d][0]]] -= frontier
            else:
                value = self._evaluate(seat)
        cells[cell] = EMPTY
        counts[EMPTY] += 1
        counts[colour] -= len(turned) + 1
        pos[colour] -= gain
        for entry in turned:
            other = entry >> 3
            old = entry & 7
            cells[other] = old
            counts[old] += 1
            pos[old] += base[other] + full[near[other]]
        return value

    def _children(self, colour):
        """The replies of the next colour after ``colour`` moved, encoded and ordered (best
        guesses first: moves that cut the search short elsewhere, then corners, edges ...)."""
        ranks = self.ranks
        history = self.history
        mover = self.nxt[colour]
        out = []
        seat = self.seat_of[mover]
        if self.model and seat != self.root_seat:
            best = 0
            best_value = -_INF
            moves = self.board.legal_moves(mover)
            self.extra += len(moves)
            for cell in moves:
                value = self._leaf(cell, mover, seat)
                if value > best_value:
                    best_value = value
                    best = cell
            out.append(best << 3 | mover)
            return out
        for cell in self.board.legal_moves(mover):
            out.append(((1023 - history[mover << 6 | cell] << 3 | ranks[cell]) << 6 | cell) << 3
                       | mover)
        out.sort()
        return out

    # -- evaluation ------------------------------------------------------------------------

    def _final(self):
        counts = self.board._counts
        mine = 0
        for colour in self.mine:
            mine += counts[colour]
        worst = 0
        for seat in self.others:
            points = 0
            for colour in seat:
                points += counts[colour]
            if points > worst:
                worst = points
        return (mine - worst) << 8

    def _evaluate(self, seat=-1):
        board = self.board
        cells = board._cells
        counts = board._counts
        pos = self.pos
        empties = counts[EMPTY]
        total = self.cells
        # Discs count more as the board fills; position counts more early on.
        value = [0, 0, 0, 0, 0]
        disc = _DISC + _DISC_LATE * (total - empties) // total
        for colour in (1, 2, 3, 4):
            value[colour] = counts[colour] * disc + pos[colour]
        size = self.size
        for corner, x, c1, c2, step_r, step_c in self.corners:
            owner = cells[corner]
            if owner == EMPTY:
                # Balls next to an empty corner hand it to someone else.
                value[cells[x]] -= 24
                value[cells[c1]] -= 10
                value[cells[c2]] -= 10
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
                value[owner] += run * 6
        if seat < 0:
            return self._for_seat(value, self.mine, self.others)
        return self._for_seat(value, self.seats[seat], self.rivals[seat])

    def _for_seat(self, value, mine_colours, others):
        mine = 0
        for colour in mine_colours:
            mine += value[colour]
        if len(others) == 1:
            theirs = 0
            for colour in others[0]:
                theirs += value[colour]
            return mine - theirs
        worst = -_INF
        total_others = 0
        for seat in others:
            points = 0
            for colour in seat:
                points += value[colour]
            total_others += points
            if points > worst:
                worst = points
        return mine - (worst * _LEADER + total_others // len(others) * _FIELD) // (_LEADER + _FIELD)


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
        self.budget, self.max_depth, self.multi_depth, self.exact = _SETTINGS[level]
        self.thinking = False
        self.progress = 0
        self.nodes = 0
        self._search = None
        self._answer = None
        self._game = None
        self._mark = None

    def choose(self, game):
        """A legal cell for the colour to move. Raises ``ValueError`` if the game is over."""
        self.start(game)
        cell = None
        while cell is None:
            cell = self.step(4096)
        return cell

    def start(self, game):
        """Begin thinking about ``game`` (its board is copied; the game is left alone)."""
        moves = game.legal_moves()
        if not moves:
            raise ValueError("the game is over: there is no move to choose")
        self.thinking = True
        self.progress = 0
        self.nodes = 0
        self._search = None
        self._answer = None
        self._game = game
        self._mark = _mark(game)
        if self.level == "easy":
            self._answer = _easy_move(game, moves, self._rng)
        elif len(moves) == 1:
            self._answer = moves[0]
        else:
            depth = self.max_depth if len(game.seat_colours) == 2 else self.multi_depth
            self._search = _Search(game, self.budget, depth, self.exact, self._rng,
                                   self.level in _MODEL_LEVELS)

    def step(self, budget=200):
        """Think for up to ``budget`` nodes. Returns the chosen cell, or ``None`` while thinking."""
        game = self._game
        if game is None:
            raise ValueError("call start(game) before step()")
        if _mark(game) != self._mark:
            self.start(game)  # the position changed under us: think again
        search = self._search
        if search is not None:
            if search.run(budget if budget > 0 else 1):
                self._answer = search.result >> 3 & 63
                self._search = None
            else:
                self.nodes = search.nodes
                self.progress = search.nodes * 100 // search.budget
                return None
            self.nodes = search.nodes
        cell = self._answer
        self.thinking = False
        self.progress = 100
        return cell


def _mark(game):
    # What identifies the position to think about: the moves played and whose turn it is.
    moves = game.board._moves
    return (len(moves), moves[-1] if moves else -1, game.turn)


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
