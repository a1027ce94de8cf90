"""The tables behind move generation that depend only on the board's size: for each cell its rays
and the directions it has neighbours in, for each mask of directions the directions in it. Built
once, shared by every board. Kept apart from board.py so that a board compiles each of the two in
less heap."""

from .vocab import BLUE, GREEN, RED, YELLOW

# Directions d as (row step, column step); d and 7 - d are opposite.
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))

# One type per table on every interpreter, so that the tests' interpreters walk the tables the
# board walks: a ray is a range, the directions of a mask a slice of one memoryview. On a board
# each is one 16-byte block, where a tuple of the same cells or directions takes up to 48 bytes,
# and walks as fast. (Memoryview slices for the rays too kept 528 B more on the emulated Pico,
# for their cells' bytes. CPython walks tuples fastest: with these tables random games take 30%
# longer there than with tuples, 15% with slices for the rays; python -m bench core --compare,
# --chip for the board.)


class Geometry:
    """Tables that depend only on the board size, built once per size and shared by all boards."""

    def __init__(self, size):
        self.size = size
        self.cells = cells = size * size
        onboard = bytearray(cells)
        rays = [()] * cells
        # Filled anew for each cell, so that building leaves almost no garbage between the
        # tables (on a board, gaps there would split the heap for the rest of the game).
        lines = [()] * 8
        # A ray of one cell is only its first cell, so every such ray ending on the same edge
        # cell is one shared object (84 rays on 8x8 share 28 ranges: 0.9 KB less on a board).
        single = [None] * cells
        empty = range(0)  # the ray beyond an edge, never walked: a range too, one for all
        for cell in range(cells):
            row = cell // size
            col = cell % size
            for d in range(8):
                dr, dc = DIRECTIONS[d]
                # Cells to the board's edge in this direction.
                length = size
                if dr:
                    length = min(length, size - 1 - row if dr > 0 else row)
                if dc:
                    length = min(length, size - 1 - col if dc > 0 else col)
                if length:
                    step = dr * size + dc
                    onboard[cell] |= 1 << d
                    first = cell + step
                    if length == 1:
                        ray = single[first]
                        if ray is None:
                            ray = single[first] = range(first, first + 1)
                    else:
                        ray = range(first, cell + step * (length + 1), step)
                    lines[d] = ray
                else:
                    lines[d] = empty
            rays[cell] = tuple(lines)
        # onboard[cell]: a bit per direction d in which cell has a neighbour (rays[cell][d][0]);
        # with the rays this replaces a tuple of neighbours per cell (2.8 KB on an 8x8 board).
        self.onboard = bytes(onboard)
        # rays[cell][d]: the cells from cell outward in direction d, nearest first
        self.rays = tuple(rays)
        half = size // 2
        top_left = (half - 1) * size + half - 1
        # Red top-left, yellow top-right, blue bottom-left, green bottom-right.
        self.start = ((top_left, RED), (top_left + 1, YELLOW),
                      (top_left + size, BLUE), (top_left + size + 1, GREEN))


def _directions_of_masks():
    # For each 8-bit mask of occupied neighbours, the directions that are set, so that move
    # generation looks only along lines that start with a ball.
    # Slices of one memoryview: each is one 16-byte block where a tuple of 3 to 8 directions
    # takes 32 to 48, so the table holds 6.3 KB on a board instead of 8.8.
    flat = bytearray(1024)  # every mask's directions, one mask after the other
    view = memoryview(flat)
    table = [()] * 256
    at = 0
    for mask in range(256):
        start = at
        for d in range(8):
            if mask >> d & 1:
                flat[at] = d
                at += 1
        table[mask] = view[start:at]
    return tuple(table)


DIRECTIONS_OF = _directions_of_masks()
