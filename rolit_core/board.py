"""The Rolit board: cells, colours, move generation, play and undo.

Cells are ints, row by row from the top-left: cell = row * size + column, so on 8x8 ``a1`` is 0 and
``h8`` is 63. Colours are small ints. Everything here is integer-only and allocates little, because
the same code runs on a microcontroller.
"""

from .geometry import DIRECTIONS_OF as _DIRECTIONS_OF
from .geometry import Geometry as _Geometry
from .vocab import BLUE, COLOURS, EMPTY, GREEN, LETTERS, NAMES, RED, SIZES, YELLOW
from .vocab import COLUMNS as _COLUMNS


class IllegalMove(ValueError):
    """A move that the rules do not allow here. The board is left unchanged."""


def colour_of(value):
    """A colour from an int (1-4), a letter (``"G"``) or a name (``"green"``)."""
    if isinstance(value, int) and not isinstance(value, bool):
        if RED <= value <= BLUE:
            return value
    elif isinstance(value, str):
        text = value.strip().lower()
        for colour in COLOURS:
            if text == NAMES[colour] or text == LETTERS[colour].lower():
                return colour
    raise ValueError("not a colour: %r (use R, Y, G, B or 1-4)" % (value,))


_GEOMETRIES = {}


def _geometry(size):
    # type() first: 8.0 and True compare equal to ints but are not sizes
    geometry = _GEOMETRIES.get(size) if type(size) is int else None
    if geometry is None:
        if type(size) is not int or size not in SIZES:
            raise ValueError("board size must be 8, 6 or 4, not %r" % (size,))
        geometry = _GEOMETRIES[size] = _Geometry(size)
    return geometry


class Board:
    """An N x N Rolit board (N = 8, 6 or 4), set up in the start position."""

    # Position text and cell names are notation.py's functions, imported on first use: a board
    # that only plays and logs its moves never loads them (about 1.5 KB less on a device).
    @classmethod
    def from_text(cls, text):
        """A board from position text such as ``"......../.../...RY.../..."``."""
        from . import notation

        return notation.from_text(cls, text)

    def to_text(self):
        """The position text: rows top to bottom, ``/`` between them, ``.RYGB`` per cell."""
        from . import notation

        return notation.to_text(self)

    def __repr__(self):
        from . import notation

        return notation.board_repr(self)

    def __str__(self):
        from . import notation

        return notation.diagram(self)

    def parse_cell(self, name):
        """The cell for a name like ``"c3"`` (column letter, then row number from the top)."""
        from . import notation

        return notation.parse_cell(self, name)

    def cell_name(self, cell):
        """The name of a cell, ``"c3"`` for the third column of the third row."""
        if type(cell) is not int or not 0 <= cell < self._geo.cells:
            raise ValueError("no cell %r on a %dx%d board" % (cell, self.size, self.size))
        row, col = divmod(cell, self.size)
        return _COLUMNS[col] + str(row + 1)

    def __init__(self, size=8):
        geometry = _geometry(size)
        self.size = size
        self._geo = geometry
        self._cells = bytearray(geometry.cells)
        # Per cell, a bit per direction whose neighbour holds a ball.
        self._near = bytearray(geometry.cells)
        # Empty cells touching a ball: the only cells anyone may play.
        self._frontier = set()
        self._counts = [geometry.cells, 0, 0, 0, 0]
        # Undo trail of ints: for each move its turned cells as (cell << 3 | old colour),
        # then one marker (turned count << 8 | cell). A whole game's mostly fits in 4 per cell.
        self._trail = _reserved(4 * geometry.cells)
        self._moves = _reserved(geometry.cells)  # (cell << 3 | colour) per move played
        # What the last legal_moves() learnt, so that play() need not scan again.
        self._version = 0
        self._known = -1  # version << 3 | colour of the scan
        self._known_capture = False
        for cell, colour in geometry.start:
            self._put(cell, colour)

    # -- copies and comparison ---------------------------------------------------------------

    def copy(self):
        """An independent board in the same position, with the same undo history."""
        other = object.__new__(Board)  # MicroPython has no Board.__new__
        other.size = self.size
        other._geo = self._geo
        other._cells = bytearray(self._cells)
        other._near = bytearray(self._near)
        other._frontier = set(self._frontier)
        other._counts = list(self._counts)
        other._version = 0
        other._known = -1
        other._known_capture = False
        cells = self._geo.cells
        # Room for a search to play on from here.
        other._trail = _reserved(max(4 * cells, len(self._trail) + 2 * cells), self._trail)
        other._moves = _reserved(cells, self._moves)
        return other

    def __getitem__(self, cell):
        if type(cell) is not int:
            raise TypeError("cells are ints, not %r" % (cell,))
        if not 0 <= cell < self._geo.cells:
            raise IndexError("no cell %r on a %dx%d board" % (cell, self.size, self.size))
        return self._cells[cell]

    def __len__(self):
        return self._geo.cells

    def __eq__(self, other):
        return isinstance(other, Board) and self._cells == other._cells

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(bytes(self._cells))

    # -- queries ---------------------------------------------------------------------------

    def count(self, colour):
        """How many balls show ``colour`` (``EMPTY`` counts the empty cells)."""
        return self._counts[colour]

    def is_full(self):
        return self._counts[EMPTY] == 0

    @property
    def moves(self):
        """The moves played on this board since it was set up, as (cell, colour) pairs."""
        return [(m >> 3, m & 7) for m in self._moves]

    def legal_moves(self, colour):
        """The cells ``colour`` may play, ascending: the capturing ones if any exist, else every
        empty cell next to a ball."""
        if type(colour) is not int or not RED <= colour <= BLUE:
            _check_colour(colour)
        moves = []
        self._known_capture = self._legal_into(colour, moves)
        self._known = self._version << 3 | colour
        moves.sort()
        return moves

    def _legal_into(self, colour, out):
        # Appends the cells colour may play to out, in no order: the capturing ones if any
        # (returns True), else the whole frontier. The search fills lists of its own with it.
        # The hottest loop of the rules core keeps its own copy of the walk of captures(): a
        # call per frontier cell made random games 5-12% slower than this copy on CPython and
        # 5-19% under MicroPython, a call per ray 20-27% on CPython (python -m bench core
        # --compare, each way of calling it against this copy).
        cells = self._cells
        near = self._near
        rays = self._geo.rays
        directions_of = _DIRECTIONS_OF
        start = len(out)
        for cell in self._frontier:
            lines = rays[cell]
            for d in directions_of[near[cell]]:
                ray = lines[d]
                if cells[ray[0]] == colour:
                    continue
                # Walk over other colours; a capture if the walk stops on an own ball.
                for other in ray:
                    seen = cells[other]
                    if seen == colour or not seen:
                        break
                if seen == colour:
                    out.append(cell)
                    break
        if len(out) > start:
            return True
        out.extend(self._frontier)
        return False

    def has_capture(self, colour):
        """True if ``colour`` has a capturing move somewhere."""
        _check_colour(colour)
        if self._known == self._version << 3 | colour:
            return self._known_capture
        found = False
        cells = self._cells
        near = self._near
        rays = self._geo.rays
        for cell in self._frontier:
            if captures(cells, rays[cell], _DIRECTIONS_OF[near[cell]], colour, None):
                found = True
                break
        self._known = self._version << 3 | colour
        self._known_capture = found
        return found

    def flip_lines(self, cell, colour):
        """The balls a move would turn, as one list per direction, each ordered outward from
        ``cell``. Empty if the move captures nothing or the cell is taken."""
        _check_colour(colour)
        self._check_cell(cell)
        lines = []
        cells = self._cells
        if cells[cell]:
            return lines
        rays = self._geo.rays[cell]
        line = []
        for d in _DIRECTIONS_OF[self._near[cell]]:
            # _DIRECTIONS_OF[1 << d]: d alone, from the table (no tuple made for it)
            if captures(cells, rays, _DIRECTIONS_OF[1 << d], colour, line):
                lines.append(line)
                line = []
        return lines

    def flips(self, cell, colour):
        """The cells a move would turn, ascending (empty if it captures nothing)."""
        turned = []
        for line in self.flip_lines(cell, colour):
            turned.extend(line)
        turned.sort()
        return turned

    def is_legal(self, cell, colour):
        """True if ``colour`` may play ``cell`` now."""
        _check_colour(colour)
        if type(cell) is not int or cell not in self._frontier:
            return False
        return self._captures_from(cell, colour) or not self.has_capture(colour)

    # -- changing the position -------------------------------------------------------------

    def play(self, cell, colour):
        """Put a ``colour`` ball on ``cell`` and turn what it captures. Returns the turned cells,
        ascending. Raises ``IllegalMove`` (and changes nothing) if the rules forbid the move."""
        if type(colour) is not int or not RED <= colour <= BLUE:
            _check_colour(colour)
        # type() first: 18.0 and True hash like ints and would pass the frontier test
        if type(cell) is not int or cell not in self._frontier:
            cell = self._resolve(cell)
        turned = self._turned(cell, colour)
        if not turned and self.has_capture(colour):
            raise IllegalMove("%s captures nothing, and %s must capture"
                              % (self.cell_name(cell), NAMES[colour]))
        self._apply(cell, colour, turned)
        return turned

    def _resolve(self, cell):
        # A playable cell from a cell name, or IllegalMove saying why the cell cannot be played.
        if isinstance(cell, str):
            try:
                cell = self.parse_cell(cell)
            except ValueError as error:
                raise IllegalMove(str(error))
            if cell in self._frontier:
                return cell
        if type(cell) is not int or not 0 <= cell < self._geo.cells:
            raise IllegalMove("no cell %r on a %dx%d board" % (cell, self.size, self.size))
        if self._cells[cell]:
            raise IllegalMove("%s is taken" % self.cell_name(cell))
        raise IllegalMove("%s does not touch a ball" % self.cell_name(cell))

    def _play(self, cell, colour):
        """Play a move known to be legal (no checks): for search. Returns the turned cells."""
        turned = self._turned(cell, colour)
        self._apply(cell, colour, turned)
        return turned

    def _turned(self, cell, colour):
        # The cells a ball of colour on (empty, frontier) cell would turn, ascending.
        cells = self._cells
        turned = []
        captures(cells, self._geo.rays[cell], _DIRECTIONS_OF[self._near[cell]], colour, turned)
        if len(turned) > 1:
            turned.sort()
        return turned

    def _apply(self, cell, colour, turned):
        cells = self._cells
        counts = self._counts
        trail = self._trail
        for other in turned:
            old = cells[other]
            trail.append(other << 3 | old)
            counts[old] -= 1
            cells[other] = colour
        counts[colour] += len(turned)
        trail.append(len(turned) << 8 | cell)
        self._moves.append(cell << 3 | colour)
        self._put(cell, colour)

    def undo(self):
        """Take back the last move. Returns its cell. Raises ``ValueError`` if there is none."""
        moves = self._moves
        if not moves:
            raise ValueError("no move to undo")
        trail = self._trail
        end = len(trail) - 1
        marker = trail[end]
        cell = marker & 0xFF
        colour = self._cells[cell]
        self._take(cell)
        cells = self._cells
        counts = self._counts
        start = end - (marker >> 8)
        for k in range(start, end):
            entry = trail[k]
            old = entry & 7
            cells[entry >> 3] = old
            counts[old] += 1
            counts[colour] -= 1
        # Slices, not pop(): MicroPython halves a list's block when a pop leaves it less than
        # half full, and the list would grow into a new block again on the next moves.
        del trail[start:]
        del moves[len(moves) - 1:]
        return cell

    def _captures_from(self, cell, colour):
        return captures(self._cells, self._geo.rays[cell], _DIRECTIONS_OF[self._near[cell]],
                        colour, None) > 0

    def _put(self, cell, colour):
        self._cells[cell] = colour
        self._counts[EMPTY] -= 1
        self._counts[colour] += 1
        self._version = (self._version + 1) & 0xFFFFFF
        self._frontier.discard(cell)
        near = self._near
        cells = self._cells
        frontier = self._frontier
        lines = self._geo.rays[cell]
        for d in _DIRECTIONS_OF[self._geo.onboard[cell]]:
            other = lines[d][0]
            # Seen from that neighbour, this cell lies in the opposite direction, 7 - d.
            near[other] |= 128 >> d
            if not cells[other]:
                frontier.add(other)

    def _take(self, cell):
        colour = self._cells[cell]
        self._cells[cell] = EMPTY
        self._counts[colour] -= 1
        self._counts[EMPTY] += 1
        self._version = (self._version + 1) & 0xFFFFFF
        near = self._near
        frontier = self._frontier
        lines = self._geo.rays[cell]
        for d in _DIRECTIONS_OF[self._geo.onboard[cell]]:
            other = lines[d][0]
            near[other] ^= 128 >> d  # the bit is set: this cell held a ball
            if not near[other]:
                frontier.discard(other)
        if near[cell]:
            frontier.add(cell)

    def _check_cell(self, cell):
        if type(cell) is not int or not 0 <= cell < self._geo.cells:
            raise ValueError("no cell %r on a %dx%d board" % (cell, self.size, self.size))


def captures(cells, lines, directions, colour, out):
    """The capture walk behind every capture test and every list of turned balls, here and in
    the search (``rolit_core.ai``): what a ``colour`` ball turns from a cell whose rays are
    ``lines`` (``Geometry.rays[cell]``), looking along ``directions`` (those with a ball next to
    the cell). ``cells`` holds a colour per cell (``Board._cells``). Along each ray the run of
    other colours up to the nearest ``colour`` ball is turned; a run that ends on an empty cell
    or at the edge turns nothing. With ``out`` a list, the turned balls are appended to it, ray
    by ray, each outward, and their number returned; with ``out`` None, 1 at the first capture
    found, else 0."""
    n = 0
    for d in directions:
        ray = lines[d]
        if cells[ray[0]] == colour:
            continue
        for other in ray:
            seen = cells[other]
            if seen == colour or not seen:
                break
        if seen == colour:
            if out is None:
                return 1
            for other in ray:
                if cells[other] == colour:
                    break
                out.append(other)
                n += 1
    return n


def _reserved(room, items=()):
    """A list of ``items`` with room for ``room`` of them. On MicroPython ``del items[:]`` keeps
    the list's block, so appending up to ``room`` never moves it: a list that grows is copied to
    a block twice the size each time, and the blocks left behind split a board's heap."""
    reserved = [0] * room
    del reserved[:]
    reserved.extend(items)
    return reserved


def _check_colour(colour):
    if type(colour) is not int or not RED <= colour <= BLUE:
        raise ValueError("not a colour: %r (RED, YELLOW, GREEN or BLUE)" % (colour,))
