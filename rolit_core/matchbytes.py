"""A match in the save format's layout, both ways: :func:`encode_match`, :func:`decode_match`,
and :func:`replay_match`, which plays its moves through the rules.

The save (:mod:`rolit_core.save` writes it, :mod:`rolit_core.load` reads it at boot) and a
linked game's state (:mod:`rolit_core.lockstep_base`) share it. A linked game keeps it loaded
while it lasts, so that sending or taking the whole state loads no code in the frame it is
needed; otherwise only the boot uses it.
"""

from .game import Match
from .save import SaveError, _put_cells, _put_match
from .vocab import SAVED_KINDS as KINDS
from .vocab import TIE_RULES


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
        if kind >= len(KINDS):
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


def replay_match(session):
    """The ``Match`` of a ``decode_match`` tuple, every move replayed through the rules; raises
    ``SaveError`` (or ``IllegalMove``, a ``ValueError``) if a move is illegal or an earlier
    round unfinished."""
    players, _, size, teams, tie, rounds, _, _, first, rounds_moves = session
    match = Match(rounds, players, size, teams, TIE_RULES[tie], first, 0)
    for index in range(len(rounds_moves)):
        if index:
            match.next_round()
        for cell in rounds_moves[index]:
            match.game.play(cell)
        if index < len(rounds_moves) - 1 and not match.game.over:
            raise SaveError("an earlier round is not finished")
    return match
