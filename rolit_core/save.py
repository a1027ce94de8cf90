"""The compact save format: settings and the match in progress, versioned and checksummed.

Layout (all numbers unsigned, big-endian)::

    0   2  magic b"RH" (Rolit Handheld)
    2   1  format version (2; version 1 still loads)
    3   2  payload length L
    5   L  payload
    5+L 2  CRC-16/CCITT-FALSE of bytes 0 .. 5+L-1

The payload is the settings (:data:`SETTINGS_SIZE` bytes, see ``Settings.to_bytes``), then one
byte: 0 if no game is in progress, 1 if a match follows. Version 2 then has the colour chosen to
start ("play again" starts with it; 0: tossed) and the milliseconds left of the move being
played under a time limit (3 bytes; 0: the move's full time). Then, in both versions, the match::

    players, seat kinds x4 (0 human, 1 easy, 2 medium, 3 hard, 4 expert), size, teams (0/1),
    tie (0 shared, 1 none), rounds, time limit in seconds (2 bytes), hints (0/1),
    first colour of round 1 (1-4), number of rounds begun R,
    then R times: move count n, n cells (row * size + column)

Anything else (wrong magic, version, length, checksum, or a value out of range) raises
``SaveError``; a saved match is also replayed move by move, so an illegal move is caught too.
"""

from .game import Match, seating

KINDS = ("human", "easy", "medium", "hard", "expert")  # seat kinds by their number
TIES = ("shared", "none")

MAGIC = b"RH"
VERSION = 2
VERSIONS = (1, 2)  # what loads
SETTINGS_SIZE = 14
_EXTRA_SIZE = 4     # version 2: first choice, clock (3 bytes)


def largest(rounds, size):
    """The most bytes a save of a ``rounds``-round match on ``size`` x ``size`` can take."""
    return 7 + SETTINGS_SIZE + 1 + _EXTRA_SIZE + 14 + rounds * (size * size - 3)


MENU_LARGEST = largest(7, 8)  # the largest the menu allows: 7 rounds on 8x8 (467 bytes)


class SaveError(ValueError):
    """Saved data that is corrupt, foreign or from another version."""


# CRC-16/CCITT-FALSE of each 4-bit value: two table steps a byte instead of eight bit steps
# (an RP2040 took 4.9 ms for a 61-byte save bit by bit, and every save sums it twice).
_NIBBLE = (0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
           0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF)


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF): ``crc16(b"123456789") == 0x29B1``;
    ``crc`` continues an earlier sum."""
    table = _NIBBLE
    for byte in data:
        crc = (crc << 4 & 0xFFFF) ^ table[crc >> 12 ^ byte >> 4]
        crc = (crc << 4 & 0xFFFF) ^ table[crc >> 12 ^ byte & 15]
    return crc


def pack(payload):
    """The stored bytes for ``payload``: header, payload, checksum."""
    size = len(payload)
    if size > 0xFFFF:
        raise ValueError("payload too long")
    data = _frame(size)
    data[5:5 + size] = payload
    _seal(data)
    return bytes(data)


def _frame(size):
    # A buffer for a payload of size bytes, its header written.
    data = bytearray(size + 7)
    data[0:2] = MAGIC
    data[2] = VERSION
    data[3] = size >> 8
    data[4] = size & 0xFF
    return data


def _seal(data):
    # The checksum of everything before the last two bytes, into them.
    crc = crc16(memoryview(data)[0:len(data) - 2])
    data[len(data) - 2] = crc >> 8
    data[len(data) - 1] = crc & 0xFF


def unpack(data):
    """The payload of stored bytes; raises ``SaveError`` if they are not a valid save."""
    return unpack_version(data)[1]


def unpack_version(data):
    """``(version, payload)`` of stored bytes; raises ``SaveError`` if they are not a valid
    save of a version this program reads."""
    if not isinstance(data, (bytes, bytearray)):
        raise SaveError("saved data is not bytes")
    if len(data) < 7 or data[0:2] != MAGIC:
        raise SaveError("not a Rolit save")
    if data[2] not in VERSIONS:
        raise SaveError("save format version %d, expected %d" % (data[2], VERSION))
    size = data[3] << 8 | data[4]
    if len(data) != size + 7:
        raise SaveError("save length %d, expected %d" % (len(data), size + 7))
    if crc16(data[:size + 5]) != (data[size + 5] << 8 | data[size + 6]):
        raise SaveError("save checksum does not match")
    return data[2], bytes(data[5:size + 5])


def encode_match(session):
    """Bytes for a ``session`` tuple: (players, kinds, size, teams, tie, rounds, time_limit,
    hints, first, rounds_moves) where ``kinds`` are 4 ints and ``rounds_moves`` a list of cell
    lists, one per round begun."""
    rounds_moves = session[9]
    length = 14
    for moves in rounds_moves:
        length += 1 + len(moves)
    data = bytearray(length)
    at = _put_match(data, 0, session, len(rounds_moves))
    for moves in rounds_moves:
        at = _put_cells(data, at, moves, 0)
    return bytes(data)


def _put_match(data, at, session, count):
    # The match's first 14 bytes (see the module docstring; count: rounds begun) into data from
    # at; returns the end.
    players, kinds, size, teams, tie, rounds, time_limit, hints, first = session[:9]
    data[at] = players
    for seat in range(4):
        data[at + 1 + seat] = kinds[seat] if seat < len(kinds) else 0
    data[at + 5] = size
    data[at + 6] = 1 if teams else 0
    data[at + 7] = tie
    data[at + 8] = rounds
    data[at + 9] = time_limit >> 8 & 0xFF
    data[at + 10] = time_limit & 0xFF
    data[at + 11] = 1 if hints else 0
    data[at + 12] = first
    data[at + 13] = count
    return at + 14


def _put_cells(data, at, moves, shift):
    # A round's move count and cells (each move >> shift) into data from at; returns the end.
    data[at] = len(moves)
    for move in moves:
        at += 1
        data[at] = move >> shift
    return at + 1


def decode_match(data):
    """The ``session`` tuple of ``encode_match``; raises ``SaveError`` on a bad value."""
    if len(data) < 15:
        raise SaveError("saved match is too short")
    players = data[0]
    kinds = (data[1], data[2], data[3], data[4])
    size = data[5]
    teams = data[6]
    tie = data[7]
    rounds = data[8]
    time_limit = data[9] << 8 | data[10]
    hints = data[11]
    first = data[12]
    count = data[13]
    if (not 1 <= players <= 4 or size not in (4, 6, 8) or teams > 1 or tie > 1
            or not 1 <= rounds <= 99 or hints > 1 or not 1 <= first <= 4
            or not 1 <= count <= rounds or time_limit > 3600):
        raise SaveError("saved match has a value out of range")
    for kind in kinds:
        if kind > 4:
            raise SaveError("saved match has an unknown seat kind")
    at = 14
    rounds_moves = []
    for _ in range(count):
        if at >= len(data):
            raise SaveError("saved match is cut short")
        n = data[at]
        at += 1
        if at + n > len(data) or n > size * size:
            raise SaveError("saved match is cut short")
        rounds_moves.append(list(data[at:at + n]))
        at += n
    if at != len(data):
        raise SaveError("saved match has extra bytes")
    return (players, kinds, size, bool(teams), tie, rounds, time_limit, bool(hints), first,
            rounds_moves)


def encode(settings, match=None, kinds=(), time_limit=0, hints=False, first=1, history=(),
           first_choice=None, clock=0):
    """The stored bytes for ``settings`` (a ``menu.Settings``) and the ``match`` in progress (or
    None): its seat ``kinds`` (names), options, the ``first`` colour of round 1, ``history``
    (the moves of its finished rounds), ``first_choice`` (the colour chosen to start, None for
    a toss) and ``clock`` (ms left of the move being played, 0 for its full time)."""
    # Written straight into one buffer of the final size: the app saves after every move, and
    # pieces joined together would leave a board's small heap full of holes.
    size = SETTINGS_SIZE + 1
    if match is not None:
        trail = match.game.board._moves  # (cell << 3 | colour) per move: no list of cells made
        size += _EXTRA_SIZE + 14 + 1 + len(trail)
        for moves in history:
            size += 1 + len(moves)
    data = _frame(size)
    data[5:5 + SETTINGS_SIZE] = settings.to_bytes()
    at = 5 + SETTINGS_SIZE
    if match is not None:
        data[at] = 1
        data[at + 1] = first_choice or 0
        data[at + 2] = clock >> 16 & 0xFF
        data[at + 3] = clock >> 8 & 0xFF
        data[at + 4] = clock & 0xFF
        at = _put_match(data, at + 5, (
            match.players, [KINDS.index(k) for k in kinds], match.size, match.teams,
            TIES.index(match.tie), match.rounds, time_limit, hints, first), len(history) + 1)
        for moves in history:
            at = _put_cells(data, at, moves, 0)
        _put_cells(data, at, trail, 3)
    _seal(data)
    return bytes(data)


def decode(data, settings):
    """Check stored ``data``, set ``settings`` from it and return the saved match as
    ``(match, kinds, time_limit, hints, history)``, or None if none was in progress. Raises
    ``SaveError`` (or another ``ValueError``) on anything wrong; every saved move is replayed
    through the rules."""
    saved = decode_state(data, settings)
    return None if saved is None else saved[:5]


def decode_state(data, settings):
    """``decode`` with two more items: ``(match, kinds, time_limit, hints, history,
    first_choice, clock)``. A version 1 save did not keep them: its ``first_choice`` is the
    menu's (``settings.first``) if that colour is in play, its ``clock`` 0."""
    version, payload = unpack_version(data)
    settings.from_bytes(payload[:SETTINGS_SIZE])
    rest = payload[SETTINGS_SIZE:]
    if len(rest) < 1 or rest[0] > 1 or (rest[0] == 0 and len(rest) != 1):
        raise SaveError("bad game flag")
    if rest[0] == 0:
        return None
    first_choice = settings.first
    clock = 0
    at = 1
    if version >= 2:
        if len(rest) < 1 + _EXTRA_SIZE:
            raise SaveError("saved match is too short")
        first_choice = rest[1] or None
        clock = rest[2] << 16 | rest[3] << 8 | rest[4]
        at = 1 + _EXTRA_SIZE
    players, kinds, size, teams, tie, rounds, time_limit, hints, first, rounds_moves = \
        decode_match(rest[at:])
    seats = seating(players, teams)
    in_play = False
    for colours in seats:
        if first_choice in colours:
            in_play = True
    if not in_play:
        if version >= 2 and first_choice is not None:
            raise SaveError("saved first colour is not in play")
        first_choice = None
    if clock > time_limit * 1000:
        raise SaveError("saved clock is beyond the time limit")
    kinds = tuple([KINDS[k] for k in kinds[:len(seats)]])
    match = Match(rounds, players, size, teams, TIES[tie], first, 0)
    for index in range(len(rounds_moves)):
        if index:
            match.next_round()
        for cell in rounds_moves[index]:
            match.game.play(cell)
        if index < len(rounds_moves) - 1 and not match.game.over:
            raise SaveError("an earlier round is not finished")
    return match, kinds, time_limit, hints, rounds_moves[:-1], first_choice, clock
