"""The reading side of :mod:`rolit_core.save`: checking stored bytes and decoding the settings
and the saved match (with ``pack`` and ``encode_match``, the writing helpers tools and tests use).

Needed once, when the app starts: the app loads it with ``rolit_core.lifetime.use_once`` and
resumes its saved game with :func:`boot`, so a board does not keep its code while playing.
"""

from .events import CUE_ERROR
from .lifetime import use_once
from .matchbytes import decode_match, encode_match, replay_match  # noqa: F401 (tools use them)
from .save import (_EXTRA_SIZE, GUEST, HOST, LINK_SIZE, MAGIC, SETTINGS_SIZE, VERSION, VERSIONS,
                   SaveError, _frame, _seal, crc16)
from .vocab import SAVED_KINDS as KINDS
from .vocab import HUMAN, LINKED, TIE_RULES, TIME_LIMITS, seating

# The match's bytes are read at boot, and while a linked game is played (rolit_core.linked).
USED_ONCE = ("rolit_core.matchbytes",)


def resume(app, data):
    """The starting ``app``'s saved game resumed from what its store's ``load()`` gave:
    ``data``, or the exception it raised, or None with the store's ``error`` set; a store that
    failed, or damaged or foreign data, is reported (``app.error``, the error screen) and
    replaced."""
    if isinstance(data, Exception):
        corrupt(app, "storage failed to load: %s" % (data,))
    elif data is None:  # the store found a damaged or foreign save: never start silently
        corrupt(app, str(app.storage.error))
    else:
        boot(app, data)
    if app.link is None:
        # Without a link, a seat the menu remembers as "link" is a human one.
        seats = app.settings.seats
        for seat in range(4):
            if seats[seat] == LINKED:
                seats[seat] = HUMAN


def corrupt(app, message):
    """``app``'s saved data refused with ``message``: fresh settings, the error screen, and
    the fresh state saved over the bad data."""
    app.error = message
    app.settings = type(app.settings)()  # menu.Settings: menu imports this module
    app.match = None
    app.show_once("ErrorScreen")
    app.cues.append(CUE_ERROR)
    app.save()


def boot(app, data):
    """The starting ``app``'s saved game resumed from its storage's ``data``; corrupt or
    foreign data is reported (``app.error``, the error screen) and replaced."""
    try:
        saved = decode_state(data, app.settings)
    except Exception as error:  # corrupt or foreign data, or an illegal saved move
        corrupt(app, str(error) or error.__class__.__name__)
        return
    if saved is None:
        return
    match, kinds, time_limit, hints, history, first_choice, clock, link = saved
    linked = None
    if link is not None:
        if app.link is None:  # no link here now: the other handhelds' seats are played here
            kinds = tuple([HUMAN if kind == LINKED else kind for kind in kinds])
        else:
            linked = app.linked_code(link[0], kinds)
            app.play = linked.LinkedPlay(app)
    if clock:
        app.play.clock = clock
        app.play.keep_clock = True
    app.begin_match(match, kinds, time_limit, hints, history=history)
    app.first_choice = first_choice
    if linked is not None:
        with use_once("rolit_core.lobby") as lobby:
            lobby.resume(app, link)
        del lobby
    app.cues = []


def pack(payload):
    """The stored bytes for ``payload``: header, payload, checksum."""
    size = len(payload)
    if size > 0xFFFF:
        raise ValueError("payload too long")
    data = _frame(size)
    data[5:5 + size] = payload
    _seal(data)
    return bytes(data)


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


def decode(data, settings):
    """Check stored ``data``, set ``settings`` from it and return the saved match as
    ``(match, kinds, time_limit, hints, history)``, or None if none was in progress. Raises
    ``SaveError`` (or another ``ValueError``) on anything wrong; every saved move is replayed
    through the rules."""
    saved = decode_state(data, settings)
    return None if saved is None else saved[:5]


def decode_state(data, settings):
    """``decode`` with three more items: ``(match, kinds, time_limit, hints, history,
    first_choice, clock, link)``. A version 1 save did not keep them: its ``first_choice`` is
    the menu's (``settings.first``) if that colour is in play, its ``clock`` 0. ``link`` is
    ``(role, session, seat, nodes)`` for a linked game (version 3), else None."""
    version, payload = unpack_version(data)
    settings_from_bytes(settings, payload[:SETTINGS_SIZE])
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
    link = None
    if version >= 3:
        if len(rest) < at + LINK_SIZE:
            raise SaveError("saved link is too short")
        link = _decode_link(rest[at:at + LINK_SIZE])
        at += LINK_SIZE
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
    match = replay_match((players, kinds, size, teams, tie, rounds, time_limit, hints, first,
                          rounds_moves))
    if link is not None:
        role, session, seat, nodes = link
        if (seat is not None and seat >= len(seats)) or len(nodes) > 4:
            raise SaveError("saved link names a seat not in play")
        link = (role, session, seat, nodes[:len(seats)])
    return match, kinds, time_limit, hints, rounds_moves[:-1], first_choice, clock, link


def _decode_link(data):
    role = data[0]
    if role not in (HOST, GUEST):
        raise SaveError("saved link has an unknown role")
    seat = None if data[3] == 255 else data[3]
    if seat is not None and seat > 3:
        raise SaveError("saved link has a seat out of range")
    nodes = []
    for index in range(4):
        node = data[4 + index]
        if node != 255 and node > 3:
            raise SaveError("saved link has a node out of range")
        nodes.append(None if node == 255 else node)
    return role, data[1] << 8 | data[2], seat, tuple(nodes)


def settings_from_bytes(settings, data):
    """``menu.Settings.from_bytes``: set ``settings`` from ``to_bytes`` output; raises
    ``ValueError`` (changing nothing) if invalid."""
    if len(data) != 14:
        raise ValueError("settings are %d bytes, expected 14" % len(data))
    players, size, teams, rounds = data[0], data[5], data[6], data[7]
    time, tie, first, hints, bright, blind = data[8], data[9], data[10], data[11], data[12], data[13]
    if (not 1 <= players <= 4 or size not in (4, 6, 8) or teams > 1 or not 1 <= rounds <= 7
            or time > 2 or tie > 1 or first > 4 or hints > 1 or not 1 <= bright <= 5
            or blind > 1):
        raise ValueError("settings value out of range")
    for seat in range(4):
        if data[1 + seat] >= len(KINDS):
            raise ValueError("unknown seat kind")
    settings.players = players
    settings.seats = [KINDS[data[1]], KINDS[data[2]], KINDS[data[3]], KINDS[data[4]]]
    settings.size = size
    settings.teams = bool(teams)
    settings.rounds = rounds
    settings.time_limit = TIME_LIMITS[time]
    settings.tie = TIE_RULES[tie]
    settings.first = first or None
    settings.hints = bool(hints)
    settings.brightness = bright
    settings.colour_blind = bool(blind)
    settings.fix()
