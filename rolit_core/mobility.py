"""Mobility, ``expert``'s evaluation term: per colour, the empty cells where it would capture,
with the weights fitted with it (bench/tune.py writes them here), and the board tables its search
walks.

The device levels value positions without mobility. A search that counts it (``expert``'s) loads
this module (``rolit_core.lifetime.load``), so a handheld, whose levels never do, holds neither
its code, its weights nor its tables.
"""

from .board import _DIRECTIONS_OF
from .geometry import Geometry

# Fitted by bench/tune.py as rolit_core.ai's _WEIGHTS, with the mobility feature: per player
# count (2 seats, 3, 4), per phase (board just set up, half full, full), 1024 to a logit; the
# two-seat mobility weights x3 before the full board's (bench/tune.py's MOBILITY_SCALE, set in
# the arena).
# -- tuned weights begin --
WEIGHTS = (
    ((137, 16, 113, 104, -37, -7, -8, -45, -145, 342, -3, -5, 5, 0),
     (845, 56, 67, 97, -44, -34, 22, -660, -316, 91, 156, -20, 20, 0),
     (86, 298, 49, 310, 105, 139, -91, -368, 27, 82, 262, 91, -91, 0)),
    ((401, -63, -64, 34, 136, -10, -35, -281, -125, 399, 24, -73, -9, 82),
     (661, 36, 15, -7, -54, -9, 13, -316, -197, 156, -25, -26, 4, 22),
     (455, 593, 212, 531, 167, 129, -115, -390, -196, -4, 157, 339, -24, -315)),
    ((461, -121, -76, -96, -9, -99, -9, -390, -152, 350, 40, -105, -80, -57),
     (1186, 143, 96, -29, -46, -18, 20, -346, -174, 121, -23, 37, 40, 34),
     (718, 771, 255, 441, 273, 181, -135, -115, -135, -33, 176, 979, 577, 212)),
)
# -- tuned weights end --


_GEOMETRIES = {}
_RAYS = {}


def geometry(size):
    """The board tables of ``size`` with every ray a tuple, for the search's own board: the
    device's tables hold ranges, which take less heap, and CPython walks a tuple faster (expert
    about 7% faster a node)."""
    tables = _GEOMETRIES.get(size)
    if tables is None:
        tables = _GEOMETRIES[size] = Geometry(size)
        tables.rays = tuple([tuple([tuple(ray) for ray in rays]) for rays in tables.rays])
    return tables


def _rays(geometry):
    """Per cell, the directions whose ray holds two cells or more (a bit per direction, as the
    board's neighbour masks), and per direction the ray's first cell and the rest as a tuple:
    a capture needs two balls, and CPython walks a tuple faster than the board's ranges."""
    rays = _RAYS.get(geometry.size)
    if rays is None:
        longs = bytearray(geometry.cells)
        firsts = []
        rests = []
        for cell in range(geometry.cells):
            first = [0] * 8
            rest = [()] * 8
            for d in range(8):
                ray = geometry.rays[cell][d]
                if len(ray) >= 2:
                    longs[cell] |= 1 << d
                    first[d] = ray[0]
                    rest[d] = tuple(ray[1:])
            firsts.append(tuple(first))
            rests.append(tuple(rest))
        rays = _RAYS[geometry.size] = (bytes(longs), tuple(firsts), tuple(rests))
    return rays


def count(search, cell):
    """Per colour, the empty cells where it would capture in ``search``'s position (its board
    as the search has it), counted in ``search.mob`` and returned; ``cell`` is a ball just put
    in place by a leaf (its neighbours' masks not updated yet), or -1."""
    board = search.board
    cells = board._cells
    near = board._near
    directions_of = _DIRECTIONS_OF
    longs, firsts, rests = _rays(board._geo)
    m1 = m2 = m3 = m4 = 0
    # A ball just put on ``cell`` in place: its empty neighbours gain a direction, and the
    # ones that touched no ball before are not in the frontier yet.
    added = []
    if cell >= 0:
        lines = search.rays[cell]
        for d in directions_of[search.onboard[cell]]:
            other = lines[d][0]
            if not cells[other]:
                if not near[other]:
                    added.append(other)
                # Seen from that neighbour, cell lies in the opposite direction, 7 - d.
                near[other] |= 128 >> d
    for group in (board._frontier, added):
        for empty in group:
            if cells[empty]:
                continue
            heads = firsts[empty]
            tails = rests[empty]
            found = 0
            for d in directions_of[near[empty] & longs[empty]]:
                # Who captures along d: every colour met beyond the first ball before an empty
                # cell or the edge, but the first ball's own.
                seen = 0
                for other in tails[d]:
                    colour = cells[other]
                    if not colour:
                        break
                    seen |= 1 << colour
                if seen:
                    found |= seen & ~(1 << cells[heads[d]])
            if found:
                if found & 2:
                    m1 += 1
                if found & 4:
                    m2 += 1
                if found & 8:
                    m3 += 1
                if found & 16:
                    m4 += 1
    if cell >= 0:
        lines = search.rays[cell]
        for d in directions_of[search.onboard[cell]]:
            other = lines[d][0]
            if not cells[other]:
                near[other] ^= 128 >> d
    mob = search.mob
    mob[1] = m1
    mob[2] = m2
    mob[3] = m3
    mob[4] = m4
    return mob
