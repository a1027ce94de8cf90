"""The tables behind move generation that depend only on the board's size: for each cell its rays
and the directions it has neighbours in, for each mask of directions the directions in it. Built
once, shared by every board. Kept apart from board.py so that a board compiles each of the two in
less heap."""

from .vocab import BLUE, GREEN, RED, YELLOW

# Directions d as (row step, column step); d and 7 - d are opposite.
DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))

# Both tables hold slices of one memoryview each, on every interpreter: on a board a slice is one
# 16-byte block, as small as a range and a half to a third of a tuple of the same cells, and
# walks as fast as a range. The same type everywhere means the tests' interpreters walk the
# tables the board walks (CPython walks a tuple faster: random games 13-15% slower with slices,
# 30% with ranges; python -m bench core --compare, --chip for the board's figures).


class Geometry:
    """Tables that depend only on the board size, built once per size and shared by all boards."""

    def __init__(self, size):
        self.size = size
        self.cells = cells = size * size
        # Every ray is a slice of one memoryview: per direction, every line of the board in that
        # direction, cell after cell, so that the ray from a cell is the rest of its line.
        flat = bytearray(8 * cells)
        where = bytearray(8 * cells)  # per direction, each cell's place among its lines
        k = 0
        for d in range(8):
            dr, dc = DIRECTIONS[d]
            for cell in range(cells):
                row = cell // size
                col = cell % size
                # A line starts at a cell with no neighbour behind it in this direction.
                if 0 <= row - dr < size and 0 <= col - dc < size:
                    continue
                while 0 <= row < size and 0 <= col < size:
                    flat[k] = row * size + col
                    where[d * cells + row * size + col] = k - d * cells
                    k += 1
                    row += dr
                    col += dc
        view = memoryview(flat)
        empty = view[0:0]
        onboard = bytearray(cells)
        rays = [()] * cells
        # Filled anew for each cell, so that building leaves almost no garbage between the
        # tables (on a board, gaps there would split the heap for the rest of the game).
        lines = [()] * 8
        # A ray of one cell is only its first cell, so every such ray ending on the same edge
        # cell is one shared object (84 rays on 8x8 share 28 slices: 0.9 KB less on a board).
        single = [None] * cells
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
                    onboard[cell] |= 1 << d
                    at = d * cells + where[d * cells + cell] + 1
                    if length == 1:
                        ray = single[flat[at]]
                        if ray is None:
                            ray = single[flat[at]] = view[at:at + 1]
                    else:
                        ray = view[at:at + length]
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
    # generation looks only along lines that start with a ball: slices of one memoryview.
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
