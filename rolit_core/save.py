"""The compact save format: settings and the match in progress, versioned and checksummed.

Layout (all numbers unsigned, big-endian)::

    0   2  magic b"RH" (Rolit Handheld)
    2   1  format version (2, or 3 for a linked game; version 1 still loads)
    3   2  payload length L
    5   L  payload
    5+L 2  CRC-16/CCITT-FALSE of bytes 0 .. 5+L-1

The payload is the settings (:data:`SETTINGS_SIZE` bytes, see ``Settings.to_bytes``), then one
byte: 0 if no game is in progress, 1 if a match follows. Version 2 then has the colour chosen to
start ("play again" starts with it; 0: tossed) and the milliseconds left of the move being
played under a time limit (3 bytes; 0: the move's full time). Version 3 (a linked game, see
docs/link.md) then has this handheld's part in it (:data:`LINK_SIZE` bytes): its role (1 host,
2 guest), the session number (2 bytes), its seat (0-3; 255: none) and the ring node of each
seat (4 bytes; 255: none). Then, in every version, the match::

    players, seat kinds x4 (0 human, 1 easy, 2 medium, 3 hard, 4 expert, 5 a linked handheld),
    size, teams (0/1),
    tie (0 shared, 1 none), rounds, time limit in seconds (2 bytes), hints (0/1),
    first colour of round 1 (1-4), number of rounds begun R,
    then R times: move count n, n cells (row * size + column)

Anything else (wrong magic, version, length, checksum, or a value out of range) raises
``SaveError``; a saved match is also replayed move by move, so an illegal move is caught too.
Reading is :mod:`rolit_core.load`'s (``decode_state``, ``unpack``...): only a start reads.
"""

from .vocab import SAVED_KINDS as KINDS
from .vocab import TIE_RULES as TIES

MAGIC = b"RH"
VERSION = 2
LINKED_VERSION = 3  # written only for a linked game, so every other save stays version 2
VERSIONS = (1, 2, 3)  # what loads
SETTINGS_SIZE = 14
_EXTRA_SIZE = 4     # version 2: first choice, clock (3 bytes)
LINK_SIZE = 8       # version 3: role, session (2 bytes), seat, the node of each seat (4 bytes)
HOST = 1            # roles in a linked game
GUEST = 2


def largest(rounds, size):
    """The most bytes a save of a ``rounds``-round match on ``size`` x ``size`` can take (a
    linked game's save takes :data:`LINK_SIZE` more)."""
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


def _frame(size, version=VERSION):
    # A buffer for a payload of size bytes, its header written.
    data = bytearray(size + 7)
    data[0:2] = MAGIC
    data[2] = version
    data[3] = size >> 8
    data[4] = size & 0xFF
    return data


def _seal(data):
    # The checksum of everything before the last two bytes, into them.
    crc = crc16(memoryview(data)[0:len(data) - 2])
    data[len(data) - 2] = crc >> 8
    data[len(data) - 1] = crc & 0xFF


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


def encode(settings, match=None, kinds=(), time_limit=0, hints=False, first=1, history=(),
           first_choice=None, clock=0, link=None):
    """The stored bytes for ``settings`` (a ``menu.Settings``) and the ``match`` in progress (or
    None): its seat ``kinds`` (names), options, the ``first`` colour of round 1, ``history``
    (the moves of its finished rounds), ``first_choice`` (the colour chosen to start, None for
    a toss) and ``clock`` (ms left of the move being played, 0 for its full time). ``link``:
    ``(role, session, seat, nodes)`` of a linked game (``seat`` and nodes None or 0-3)."""
    # Written straight into one buffer of the final size: the app saves after every move, and
    # pieces joined together would leave a board's small heap full of holes.
    size = SETTINGS_SIZE + 1
    if match is not None:
        trail = match.game.board._moves  # (cell << 3 | colour) per move: no list of cells made
        size += _EXTRA_SIZE + 14 + 1 + len(trail)
        for moves in history:
            size += 1 + len(moves)
        if link is not None:
            size += LINK_SIZE
    data = _frame(size, VERSION if link is None or match is None else LINKED_VERSION)
    data[5:5 + SETTINGS_SIZE] = settings.to_bytes()
    at = 5 + SETTINGS_SIZE
    if match is not None:
        data[at] = 1
        data[at + 1] = first_choice or 0
        data[at + 2] = clock >> 16 & 0xFF
        data[at + 3] = clock >> 8 & 0xFF
        data[at + 4] = clock & 0xFF
        at += 5
        if link is not None:
            role, session, seat, nodes = link
            data[at] = role
            data[at + 1] = session >> 8 & 0xFF
            data[at + 2] = session & 0xFF
            data[at + 3] = 255 if seat is None else seat
            for index in range(4):
                node = nodes[index] if index < len(nodes) else None
                data[at + 4 + index] = 255 if node is None else node
            at += LINK_SIZE
        at = _put_match(data, at, (
            match.players, [KINDS.index(k) for k in kinds], match.size, match.teams,
            TIES.index(match.tie), match.rounds, time_limit, hints, first), len(history) + 1)
        for moves in history:
            at = _put_cells(data, at, moves, 0)
        _put_cells(data, at, trail, 3)
    _seal(data)
    return bytes(data)

