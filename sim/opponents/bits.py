"""Rolit on bitboards, written from the rules (shared/RULES.md) alone: no code from rolit_core.

A position is one int per colour (bit ``row * size + column`` set where that colour is on top),
kept in a list indexed by colour 1-4 with index 0 unused. A move captures exactly as an Othello
move does if every other colour counts as "the opponent": a line of other colours closed by one of
the mover's balls. So the capturing moves are Othello's moves for (mine, everyone else's), found
with shift-and-mask flood fills; when there is none, any empty cell touching a ball is legal.
"""

RED, YELLOW, GREEN, BLUE = 1, 2, 3, 4

# int.bit_count is Python 3.10+.
popcount = getattr(int, "bit_count", None) or (lambda x: bin(x).count("1"))


class Geometry:
    """Masks and rays of one board size."""

    def __init__(self, size):
        self.size = size
        cells = size * size
        self.cells = cells
        self.full = (1 << cells) - 1
        not_a = 0
        not_h = 0
        for cell in range(cells):
            if cell % size:
                not_a |= 1 << cell
            if cell % size != size - 1:
                not_h |= 1 << cell
        # (shift, mask of the cells a shifted bit may land on): left shifts, then right shifts.
        self.left = ((1, not_a), (size, self.full), (size + 1, not_a), (size - 1, not_h))
        self.right = ((1, not_h), (size, self.full), (size + 1, not_h), (size - 1, not_a))
        # A line holds at most size - 2 other balls: a fill covers 2 steps, then doubles.
        self.doublings = {8: 2, 6: 1, 4: 0}[size]
        rays = []
        for cell in range(cells):
            r, c = divmod(cell, size)
            lines = []
            for dr, dc in ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)):
                line = []
                rr, cc = r + dr, c + dc
                while 0 <= rr < size and 0 <= cc < size:
                    line.append(1 << (rr * size + cc))
                    rr += dr
                    cc += dc
                if len(line) >= 2:
                    lines.append(tuple(line))
            rays.append(tuple(lines))
        self.rays = tuple(rays)
        last = size - 1
        corners = []
        for cr, cc, dr, dc in ((0, 0, 1, 1), (0, last, 1, -1), (last, 0, -1, 1),
                               (last, last, -1, -1)):
            corner = 1 << (cr * size + cc)
            x = 1 << ((cr + dr) * size + cc + dc)
            c_cells = 1 << ((cr + dr) * size + cc) | 1 << (cr * size + cc + dc)
            down = tuple(1 << ((cr + dr * k) * size + cc) for k in range(1, size))
            across = tuple(1 << (cr * size + cc + dc * k) for k in range(1, size))
            corners.append((corner, x, c_cells, down, across))
        self.corners = tuple(corners)
        self.corner_mask = sum(c[0] for c in corners)
        edges = 0
        for cell in range(cells):
            r, c = divmod(cell, size)
            if r in (0, last) or c in (0, last):
                edges |= 1 << cell
        self.edges = edges & ~self.corner_mask
        r0 = (size // 2 - 1) * size + size // 2 - 1
        # Red top-left, yellow top-right, blue bottom-left, green bottom-right.
        self.start = {RED: 1 << r0, YELLOW: 1 << (r0 + 1), BLUE: 1 << (r0 + size),
                      GREEN: 1 << (r0 + size + 1)}

    def near(self, x):
        """The cells next to any set cell of ``x`` (x itself included where it touches itself)."""
        out = 0
        for shift, mask in self.left:
            out |= (x << shift) & mask
        for shift, mask in self.right:
            out |= (x >> shift) & mask
        return out

    def captures(self, mine, others, empty):
        """The empty cells where a ball of ``mine`` would capture something."""
        moves = 0
        doublings = self.doublings
        for shift, mask in self.left:
            o = others & mask
            x = (mine << shift) & o
            x |= (x << shift) & o
            if doublings:
                pairs = o & (o << shift)
                twice = shift + shift
                for _ in range(doublings):
                    x |= (x << twice) & pairs
            moves |= (x << shift) & mask
        for shift, mask in self.right:
            o = others & mask
            x = (mine >> shift) & o
            x |= (x >> shift) & o
            if doublings:
                pairs = o & (o >> shift)
                twice = shift + shift
                for _ in range(doublings):
                    x |= (x >> twice) & pairs
            moves |= (x >> shift) & mask
        return moves & empty

    def moves(self, bbs, colour):
        """The legal cells of ``colour`` as a bit mask: captures if any, else every empty cell
        touching a ball."""
        occupied = bbs[1] | bbs[2] | bbs[3] | bbs[4]
        empty = self.full & ~occupied
        mine = bbs[colour]
        found = self.captures(mine, occupied & ~mine, empty) if mine else 0
        return found or self.near(occupied) & empty

    def flips(self, cell, mine, others):
        """The balls a ball of ``mine`` on ``cell`` turns, as a mask."""
        turned = 0
        for line in self.rays[cell]:
            run = 0
            for bit in line:
                if bit & others:
                    run |= bit
                    continue
                if bit & mine:
                    turned |= run
                break
        return turned


_GEOMETRIES = {}


def geometry(size):
    geo = _GEOMETRIES.get(size)
    if geo is None:
        geo = _GEOMETRIES[size] = Geometry(size)
    return geo


def play(geo, bbs, colour, cell):
    """The position after ``colour`` plays ``cell`` (a new list; ``bbs`` is left alone)."""
    mine = bbs[colour]
    occupied = bbs[1] | bbs[2] | bbs[3] | bbs[4]
    turned = geo.flips(cell, mine, occupied & ~mine) | 1 << cell
    keep = ~turned
    out = [0, bbs[1] & keep, bbs[2] & keep, bbs[3] & keep, bbs[4] & keep]
    out[colour] = mine | turned
    return out


def from_game(game):
    """Bitboards of a ``rolit_core.Game`` read through its public interface (``board[cell]``)."""
    board = game.board
    bbs = [0, 0, 0, 0, 0]
    for cell in range(len(board)):
        colour = board[cell]
        if colour:
            bbs[colour] |= 1 << cell
    return bbs


def cells_of(mask):
    """The set cells of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Rules:
    """What a search needs to know about the game: seats, turn order, scoring, from a Game."""

    def __init__(self, game):
        self.geo = geometry(game.size)
        self.seats = tuple(tuple(seat) for seat in game.seat_colours)
        self.colours = tuple(game.colours)
        after = [0] * 5
        seat_of = [-1] * 5
        for i, colour in enumerate(self.colours):
            after[colour] = self.colours[(i + 1) % len(self.colours)]
        for s, seat in enumerate(self.seats):
            for colour in seat:
                seat_of[colour] = s
        self.after = after
        self.seat_of = seat_of
        self.shared = game.tie == "shared"

    def points(self, bbs):
        return [sum(popcount(bbs[c]) for c in seat) for seat in self.seats]

    def rewards(self, bbs):
        """Per seat: 1 for a win, 1/k for a round shared by k, 0 otherwise."""
        points = self.points(bbs)
        best = max(points)
        winners = [s for s in range(len(points)) if points[s] == best]
        if len(winners) > 1 and not self.shared:
            return [0.0] * len(points)
        share = 1.0 / len(winners)
        return [share if p == best else 0.0 for p in points]
