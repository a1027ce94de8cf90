"""A Monte Carlo tree search Rolit player with max^n backup, independent of rolit_core's players.

UCT (UCB1 on each node's children), one node added per iteration, a uniformly random playout to the
full board, and the result as a vector with one entry per seat: 1 for a win, 1/k for a round shared
by k (0 for everyone under the "none" tie rule). Every node adds up the whole vector, and a node's
children are compared by the entry of the seat that chooses there (max^n; Nijssen & Winands
found it the strongest MCTS backup for multi-player Rolit). The move played is the most visited.

With ``bias`` (a probability, 0 to 1) each playout move is lightly steered: with that
probability a corner is taken when one is legal, and otherwise an X cell (diagonal to a corner)
next to an *empty* corner is left out when another move is legal. The tree itself is unbiased.

The budget is CPU time (``time.process_time``) or a number of iterations; with iterations the
player is deterministic for its seed.
"""

import math
import random
import time

from .bits import Rules, cells_of, from_game, play, popcount


class Node:
    __slots__ = ("bbs", "colour", "move", "untried", "children", "visits", "rewards")

    def __init__(self, bbs, colour, move, untried, seats):
        self.bbs = bbs
        self.colour = colour        # to move here
        self.move = move            # the cell that led here
        self.untried = untried      # cells not expanded yet
        self.children = []
        self.visits = 0
        self.rewards = [0.0] * seats


class MCTS:
    """``MCTS(ms=100)`` or ``MCTS(iterations=2000)``; call it with a Game for a cell."""

    def __init__(self, ms=None, iterations=None, seed=None, c=None, bias=0.0):
        if ms is None and iterations is None:
            ms = 100
        if not 0.0 <= bias <= 1.0:
            raise ValueError("bias is a probability, 0 to 1, not %r" % (bias,))
        self.bias = float(bias)
        self.ms = ms
        self.iterations = iterations
        self.rng = random.Random(seed)
        # UCB1's exploration constant. Measured at 40 ms a move (100-200 games each): with two
        # seats 0.3 and 0.7 drew level with each other; with four, 0.3 scored 27.5% among three
        # 0.7s and held one `hard` to 20% where 0.7 let it reach 32.5% (1.2: 31.5%).
        self.c = c
        self.c_for = {2: 0.7, 3: 0.3, 4: 0.3}
        self.done = 0

    def __call__(self, game):
        rules = Rules(game)
        geo = rules.geo
        bbs = from_game(game)
        colour = game.turn
        moves = cells_of(geo.moves(bbs, colour))
        if len(moves) == 1:
            return moves[0]
        self.rng.shuffle(moves)
        seats = len(rules.seats)
        self.explore = self.c if self.c is not None else self.c_for[seats]
        root = Node(bbs, colour, -1, moves, seats)
        deadline = None if self.ms is None else time.process_time() + self.ms / 1000.0
        done = 0
        while True:
            self._iterate(root, rules)
            done += 1
            if self.iterations is not None:
                if done >= self.iterations:
                    break
            elif time.process_time() > deadline:
                break
        self.done = done
        best = max(root.children, key=lambda child: child.visits)
        return best.move

    def _iterate(self, root, rules):
        geo = rules.geo
        seat_of = rules.seat_of
        c = self.explore
        node = root
        path = [root]
        # Selection: down through fully expanded nodes.
        while not node.untried and node.children:
            seat = seat_of[node.colour]
            log_n = math.log(node.visits)
            best = None
            best_value = -1.0
            for child in node.children:
                value = child.rewards[seat] / child.visits + c * math.sqrt(log_n / child.visits)
                if value > best_value:
                    best_value = value
                    best = child
            node = best
            path.append(node)
        # Expansion: one new node.
        if node.untried:
            cell = node.untried.pop()
            bbs = play(geo, node.bbs, node.colour, cell)
            colour = rules.after[node.colour]
            if (bbs[1] | bbs[2] | bbs[3] | bbs[4]) == geo.full:
                moves = []
            else:
                moves = cells_of(geo.moves(bbs, colour))
                self.rng.shuffle(moves)
            child = Node(bbs, colour, cell, moves, len(rules.seats))
            node.children.append(child)
            node = child
            path.append(node)
        rewards = rules.rewards(self._playout(geo, rules.after, node.bbs, node.colour))
        for visited in path:
            visited.visits += 1
            totals = visited.rewards
            for seat in range(len(totals)):
                totals[seat] += rewards[seat]

    def _playout(self, geo, after, bbs, colour):
        """Random legal moves until the board is full: uniform, or with probability ``bias``
        a move is first narrowed by :meth:`steer` (a legal corner taken, else the X cells next
        to an empty corner avoided when another move is legal)."""
        bbs = list(bbs)
        full = geo.full
        rnd = self.rng.random
        bias = self.bias
        captures = geo.captures
        near = geo.near
        flips = geo.flips
        steered = geo.corner_mask   # the cells steering can change anything about
        for _corner, x, _c, _down, _across in geo.corners:
            steered |= x
        while True:
            occupied = bbs[1] | bbs[2] | bbs[3] | bbs[4]
            if occupied == full:
                return bbs
            empty = full & ~occupied
            mine = bbs[colour]
            others = occupied & ~mine
            moves = captures(mine, others, empty) if mine else 0
            if not moves:
                moves = near(occupied) & empty
            if bias and moves & steered and rnd() < bias:
                moves = self.steer(geo, moves, occupied)
            for _ in range(int(rnd() * popcount(moves))):
                moves &= moves - 1
            bit = moves & -moves
            turned = flips(bit.bit_length() - 1, mine, others) | bit
            keep = ~turned
            for other in (1, 2, 3, 4):
                bbs[other] &= keep
            bbs[colour] = mine | turned
            colour = after[colour]

    @staticmethod
    def steer(geo, moves, occupied):
        """The legal ``moves`` (a mask) on the board ``geo`` narrowed as a biased playout does:
        to the corners among them if any, else without the X cells next to an empty corner if
        other moves remain."""
        good = moves & geo.corner_mask
        if good:
            return good
        bad = 0
        for corner, x, _c, _down, _across in geo.corners:
            if not occupied & corner:
                bad |= x
        if moves & ~bad:
            return moves & ~bad
        return moves
