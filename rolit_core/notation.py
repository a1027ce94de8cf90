"""Position text (``"......../.../...RY.../..."``) and cell names (``"c3"``) of a ``Board``.

``Board``'s methods of the same names call these (``from_text`` as a class method,
``board_repr`` and ``diagram`` as ``repr()`` and ``str()``; ``cell_name`` is the board's own, as
the game log needs it on a device). Kept apart from the move generation in board.py and imported
on first use, so that a device that only plays never holds this code.
"""

from .vocab import COLUMNS as _COLUMNS
from .vocab import LETTERS, SIZES


def from_text(cls, text):
    """A board from position text such as ``"......../.../...RY.../..."`` (rows top to bottom)."""
    if not isinstance(text, str):
        raise ValueError("position text must be a string")
    if text[:1] == "\ufeff":  # a byte-order mark from a Windows editor
        text = text[1:]
    text = text.strip()
    # Rows are separated by "/"; one row per line is accepted too.
    rows = text.split("/") if "/" in text else text.split()
    size = len(rows)
    if size not in SIZES:
        raise ValueError("position text has %d rows; it needs 8, 6 or 4 separated by '/'" % size)
    board = cls(size)
    for cell, _ in board._geo.start:
        board._take(cell)
    for r in range(size):
        row = rows[r].strip()
        if len(row) != size:
            raise ValueError("row %d has %d cells, expected %d" % (r + 1, len(row), size))
        for c in range(size):
            colour = LETTERS.find(row[c].upper())
            if colour < 0:
                raise ValueError("row %d column %s: %r is not one of . R Y G B"
                                 % (r + 1, _COLUMNS[c], row[c]))
            if colour:
                board._put(r * size + c, colour)
    return board


def to_text(board):
    """The position text: rows top to bottom, ``/`` between them, ``.RYGB`` per cell."""
    size = board.size
    cells = board._cells
    rows = []
    for r in range(size):
        rows.append("".join([LETTERS[cells[i]] for i in range(r * size, r * size + size)]))
    return "/".join(rows)


def board_repr(board):
    """``repr(board)``: ``Board.from_text(...)`` with its position text."""
    return "Board.from_text(%r)" % to_text(board)


def diagram(board):
    """``str(board)``: the cells as letters, rows numbered, columns lettered."""
    size = board.size
    lines = []
    for r in range(size):
        row = [LETTERS[board._cells[r * size + c]] for c in range(size)]
        lines.append("%d %s" % (r + 1, " ".join(row)))
    lines.append("  " + " ".join(_COLUMNS[:size]))
    return "\n".join(lines)


def parse_cell(board, name):
    """The cell for a name like ``"c3"`` (column letter, then row number from the top)."""
    if not isinstance(name, str):
        raise ValueError("a cell name must be a string like 'c3', not %r" % (name,))
    text = name.strip().lower()
    size = board.size
    if len(text) != 2:
        raise ValueError("%r is not a cell name like 'c3'" % (name,))
    col = _COLUMNS.find(text[0])
    row = "12345678".find(text[1])
    if not 0 <= col < size or not 0 <= row < size:
        raise ValueError("%r is not a cell of a %dx%d board (a1-%s%d)"
                         % (name, size, size, _COLUMNS[size - 1], size))
    return row * size + col


def cell_name(board, cell):
    """The name of a cell, ``"c3"`` for the third column of the third row."""
    return board.cell_name(cell)
