"""The opening book: moves for the first plies of 2-, 3- and 4-player games on 8x8, read from
a file by seek, so that a lookup holds no table in the heap (a few small objects, garbage once it
returns).

``check(path)`` reads a book file's header and checks its records once; ``move(game, moves, rng,
checked)`` is then a cell from the book for the position (one of its moves, picked by weight with
``rng``), or -1 when the book has nothing for it: the computer player then searches. A missing,
short, corrupt or foreign file is reported (printed) and never raises.

The module keeps no state: what ``check`` found is the caller's (``rolit_core.ai`` keeps it for
the session), so the module can be forgotten whenever no lookup follows and loaded again.

The file (``book.bin`` beside this module, written by ``python -m bench.book``; docs/ai.md):

- a 16-byte header: ``b"RLBK"``, the version (1), the record size (16), the plies (the book holds
  positions with fewer balls than this beyond the four of the start), a zero byte, the number of
  records (4 bytes, big-endian) and the CRC-32 of the records (4 bytes, big-endian);
- records of 16 bytes, sorted by key: the key (two 27-bit hashes, 4 bytes each, big-endian), then
  four (cell, weight) pairs, cell 255 for none.

The key is of the position alone (the balls and whose turn it is, so the order of the moves does
not matter) and of the player count. A position and its images under the board's symmetries that
map the game onto itself (with the colours renamed: a quarter turn with four players, a half turn
or a reflection with two) share one record, in the frame where the key is least; its cells are in
that frame and are mapped back onto the legal moves of the position asked about.
"""

MAGIC = b"RLBK"
VERSION = 1
HEADER = 16
RECORD = 16
SLOTS = 4          # moves per record
NONE = 255         # an unused slot's cell
MAX_PLIES = 12     # no book goes deeper (bench/book.py --plies)
_P1 = 134217689    # primes below 2**27: a hash times 7 plus 6 stays a small int everywhere
_P2 = 134217649

UNUSABLE = -2      # move's answer when the book cannot be read any more (said)


def shipped():
    """The path of the book shipped beside this module (book.bin)."""
    try:
        here = __file__
    except NameError:
        return "rolit_core/book.bin"
    at = here.rfind("/")
    if here.rfind("\\") > at:
        at = here.rfind("\\")
    return here[:at + 1] + "book.bin"


def _say(path, text):
    print("opening book %s: %s; the computer players search instead" % (path, text))


def _cell(t, cell):
    # The image of an 8x8 cell under symmetry t: bit 2 swaps row and column, then bit 0 mirrors
    # the column, bit 1 the row.
    r = cell >> 3
    c = cell & 7
    if t & 4:
        r, c = c, r
    if t & 1:
        c = 7 - c
    if t & 2:
        r = 7 - r
    return r << 3 | c


# Per player count, the symmetries of the rules: 6 bytes each, t (as in _cell) and the colour
# each colour becomes (empty first). Two players (red and green; yellow and blue neutral): the
# reflection that swaps yellow and blue, and the half turn and the other reflection that swap
# red and green; four: the quarter turns with the colours turned on; three: none
# (tests/test_book.py derives them from the start position and the turn order).
FRAMES = (b"", b"", b"\0\0\1\2\3\4\3\0\3\4\1\2\4\0\1\4\3\2\7\0\3\2\1\4", b"\0\0\1\2\3\4",
          b"\0\0\1\2\3\4\3\0\3\4\1\2\5\0\2\3\4\1\6\0\4\1\2\3")
_COLOURS = ((), (), (1, 3), (1, 2, 3), (1, 2, 3, 4))  # rolit_core.vocab.seating's, in order
_INVERSE = b"\0\1\2\3\4\6\5\7"  # the symmetry that undoes each


def position(game):
    """(h1, h2, ts) for the position to move in ``game``: its key, the least over the rules'
    symmetries, and the symmetries t that give it; None if the book is not for this game (not
    8x8, or seats of two colours)."""
    players = len(game.seat_colours)
    if game.board.size != 8 or players > 4 or game.colours != _COLOURS[players]:
        return None
    frames = FRAMES[players]
    cells = game.board._cells
    best1 = best2 = -1
    ts = []
    for at in range(0, len(frames), 6):
        t = frames[at]
        back = _INVERSE[t]
        h1 = players * 5 + frames[at + 1 + game.turn]
        h2 = h1
        for i in range(64):
            v = frames[at + 1 + cells[_cell(back, i)]]
            h1 = (h1 * 5 + v) % _P1
            h2 = (h2 * 7 + v + 1) % _P2
        if best1 < 0 or h1 < best1 or (h1 == best1 and h2 < best2):
            best1 = h1
            best2 = h2
            del ts[:]
            ts.append(t)
        elif h1 == best1 and h2 == best2:
            ts.append(t)
    return best1, best2, ts


def _crc(handle, size):
    # The CRC-32 of the next size bytes of the file, in chunks.
    try:
        from binascii import crc32
    except ImportError:
        crc32 = None
    buf = bytearray(256)
    view = memoryview(buf)
    crc = 0
    hi = lo = 0xFFFF
    while size > 0:
        n = handle.readinto(buf)
        if not n:
            return -1
        if n > size:
            n = size
        size -= n
        if crc32 is not None:
            crc = crc32(view[:n], crc)
            continue
        # A board without binascii.crc32: the same CRC on two 16-bit halves (no big ints).
        for k in range(n):
            lo ^= buf[k]
            for _ in range(8):
                bit = lo & 1
                lo = lo >> 1 | (hi & 1) << 15
                hi >>= 1
                if bit:
                    hi ^= 0xEDB8
                    lo ^= 0x8320
    if crc32 is None:
        return (hi ^ 0xFFFF) << 16 | (lo ^ 0xFFFF)
    return crc & 0xFFFFFFFF


def check(path=None):
    """``(path, records, plies)`` for the book file at ``path`` (None: :func:`shipped`) once its
    header and the CRC of its records are checked, or None when it cannot be used (said why)."""
    path = path or shipped()
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEADER)
            if len(head) < HEADER or head[:4] != MAGIC:
                _say(path, "not a book file")
                return None
            if head[4] != VERSION or head[5] != RECORD:
                _say(path, "version %d, this game reads %d" % (head[4], VERSION))
                return None
            count = int.from_bytes(head[8:12], "big")
            if handle.seek(0, 2) != HEADER + count * RECORD:
                _say(path, "its size is wrong (cut short?)")
                return None
            handle.seek(HEADER)
            if _crc(handle, count * RECORD) != int.from_bytes(head[12:16], "big"):
                _say(path, "damaged (its check does not match)")
                return None
    except OSError as error:
        _say(path, "cannot be read (%s)" % (error,))
        return None
    return path, count, head[6]


def _find(handle, count, h1, h2, buf):
    # Binary search of the count records for the key; True with the record in buf.
    lo = 0
    hi = count
    while lo < hi:
        mid = (lo + hi) >> 1
        handle.seek(HEADER + mid * RECORD)
        if handle.readinto(buf) != RECORD:
            return False
        k1 = buf[0] << 24 | buf[1] << 16 | buf[2] << 8 | buf[3]
        if k1 == h1:
            k2 = buf[4] << 24 | buf[5] << 16 | buf[6] << 8 | buf[7]
            if k2 == h2:
                return True
            below = k2 < h2
        else:
            below = k1 < h1
        if below:
            lo = mid + 1
        else:
            hi = mid
    return False


def _record(game, checked):
    # (the record, the frames of the key) for the game's position in the checked book, or None.
    path, count, plies = checked
    board = game.board
    if board.size != 8 or 60 - board._counts[0] >= plies:
        return None
    key = position(game)
    if key is None:
        return None
    buf = bytearray(RECORD)
    with open(path, "rb") as handle:
        if not _find(handle, count, key[0], key[1], buf):
            return None
    return buf, key[2]


def _weight(buf, slot, ts, m):
    # The share of the slot's weight that the cell m gets: the frames ts map the stored cell
    # back onto one or more cells (more when the position is symmetric), each an equal share.
    cell = buf[8 + 2 * slot]
    if cell == NONE:
        return 0
    mine = False
    hits = 0
    for k in range(len(ts)):
        back = _cell(_INVERSE[ts[k]], cell)
        if back == m:
            mine = True
        first = True
        for j in range(k):
            if _cell(_INVERSE[ts[j]], cell) == back:
                first = False
        if first:
            hits += 1
    if not mine:
        return 0
    return buf[9 + 2 * slot] * 12 // hits


def move(game, moves, rng, checked):
    """A cell of ``moves`` (the legal moves of ``game``) from the book that :func:`check`
    returned ``checked``, picked by weight with ``rng`` (a ``rolit_core.rng.Random``), or -1 if
    the book has no move for the position, or :data:`UNUSABLE` if the file failed (said).
    Draws from ``rng`` only when it answers."""
    try:
        found = _record(game, checked)
        if found is None:
            return -1
        buf, ts = found
        total = 0
        for slot in range(SLOTS):
            for m in moves:
                total += _weight(buf, slot, ts, m)
        if total <= 0:
            return -1  # nothing legal: a key that is another position's (or a damaged record)
        pick = rng.below(total)
        for slot in range(SLOTS):
            for m in moves:
                pick -= _weight(buf, slot, ts, m)
                if pick < 0:
                    return m
    except (OSError, ValueError, IndexError, MemoryError) as error:
        _say(checked[0], "cannot be used (%s)" % (error,))
        return UNUSABLE
    return -1
