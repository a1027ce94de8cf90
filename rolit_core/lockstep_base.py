"""What a linked game's host and guests share: the messages, phases and reasons, the position's
checksum, the whole state as bytes, and :class:`Session`, the base of
:class:`rolit_core.lockstep_host.Host` and :class:`rolit_core.lockstep_guest.Guest`.

A handheld loads this module and the one of its role, never both roles' code
(:meth:`rolit_core.app.App.linked_code`); :mod:`rolit_core.lockstep` gathers them for the
desktop.

Messages (kind: payload; docs/link.md):

    HELLO  host -> everyone, every BEAT_MS: protocol, game version (2), session (2), phase,
           round, ply (2), checksum (2), the node of each seat (4)
    JOIN   guest -> host, every BEAT_MS until seated: protocol, game version (2)
    SEAT   host -> guest: the seat (0-3) and its first colour, or REFUSED and a reason code
    STATE  host -> guest: part, parts, then a share of session (2), nodes (4), match bytes
    MOVE   host -> each guest, and once to everyone: round, ply (2), cell, checksum (2) of the
           position after it
    TRY    guest -> host: round, ply (2), cell: the guest's player chose this move
    NO     host -> guest: round, ply (2), reason code: that move was refused
    BEAT   guest -> host, every BEAT_MS: round, ply (2), checksum (2)
    RESYNC guest -> host: send me the state
    NEXT   host -> guests: the round that begins now
    BYE    host -> everyone: the host has ended the game
    PLAYED guest -> everyone, not acknowledged, with its TRY: round, ply (2), cell; the other
           guests play it at once (checked by their own core) and the host's MOVE confirms it
"""

from . import __version__
from .link import MAX_NODES
from .matchbytes import decode_match, encode_match, replay_match
from .save import crc16
from .vocab import ticks_diff

PROTOCOL = 2
GAME_VERSION = tuple([int(part) for part in __version__.split(".")[:2]])

HELLO = 1
JOIN = 2
SEAT = 3
STATE = 4
MOVE = 5
TRY = 6
NO = 7
BEAT = 8
RESYNC = 9
NEXT = 10
BYE = 11
PLAYED = 12

RESYNC_MS = 1000  # a guest asks for the state at most this often
BEAT_MS = 250     # how often the host says hello and each guest answers
LOST_MS = 1500    # silence this long: the link is lost (the game pauses)
LOCAL = 0xFF      # a seat with no linked handheld yet (in the lobby)
REFUSED = 0xFF    # in SEAT: refused, and why follows

# Reason codes, and the words the screens show for them.
FULL = 1
OTHER_VERSION = 2
SECOND_HOST = 3
NOT_YOUR_TURN = 4
ILLEGAL = 5
STALE = 6
PAUSED = 7
SENT = 8
REASONS = ("", "the game is full", "another version of the game",
           "another handheld is already hosting", "it is not your turn",
           "that move is not legal", "the board has moved on", "the game is paused",
           "your move is on its way")

# Phases of a session (HELLO's phase byte is the host's).
LOBBY = 0
PLAYING = 1
LOST = 2
ENDED = 3
SEARCHING = 4   # a guest that has heard no host
REFUSED_PHASE = 5
PHASES = ("lobby", "playing", "lost", "ended", "searching", "refused")


def position_check(match):
    """A 16-bit checksum of the round, the board and whose turn it is."""
    game = match.game
    crc = crc16(game.board._cells)
    return crc16(bytes((match.round, game.turn)), crc)


def state_bytes(session, nodes, match, kinds, history, first, time_limit=0, hints=False):
    """The whole linked game as bytes: the ``session`` number, each seat's node, and the match
    in the save format's layout (:func:`rolit_core.matchbytes.encode_match`): its seat ``kinds``
    (names), the moves of its finished rounds (``history``), round 1's ``first`` colour."""
    from .save import KINDS, TIES

    numbers = [KINDS.index(kind) for kind in kinds]
    data = encode_match((match.players, numbers + [0] * (4 - len(numbers)), match.size,
                         match.teams, TIES.index(match.tie), match.rounds, time_limit, hints,
                         first, list(history) + [match.game.moves]))
    head = bytearray(6)
    head[0] = session >> 8 & 0xFF
    head[1] = session & 0xFF
    for seat in range(4):
        head[2 + seat] = nodes[seat] if seat < len(nodes) else LOCAL
    return bytes(head) + data


def read_state(data):
    """``(session, nodes, match, kinds, history, first, time_limit, hints)`` from
    :func:`state_bytes`; raises ``ValueError`` on anything wrong (every move is replayed through
    the rules)."""
    from .save import KINDS

    if len(data) < 6:
        raise ValueError("linked state is too short")
    session = data[0] << 8 | data[1]
    saved = decode_match(data[6:])
    kinds, time_limit, hints, first, rounds_moves = saved[1], saved[6], saved[7], saved[8], \
        saved[9]
    match = replay_match(saved)
    seats = len(match.seat_colours)
    nodes = tuple(data[2:2 + seats])
    for node in nodes:
        if node != LOCAL and node >= MAX_NODES:
            raise ValueError("linked state names node %d" % node)
    return (session, nodes, match, tuple([KINDS[k] for k in kinds[:seats]]), rounds_moves[:-1],
            first, time_limit, hints)


class Session:
    """What host and guest share: the link, the match, the clock and the events for the
    screens."""

    def __init__(self, link):
        self.link = link
        self.match = None
        self.nodes = ()           # the node of each seat (LOCAL: none yet)
        self.kinds = ()
        self.phase = LOBBY
        self.reason = ""          # words for a refusal or the end
        self.events = []
        self.history = []         # the moves of each finished round
        self.first = None         # the colour that began round 1
        self.time_limit = 0
        self.hints = False
        self.versions = (PROTOCOL, GAME_VERSION[0], GAME_VERSION[1])  # what this side speaks
        # What plays a checked move on the match: the app sets its board screen's, which
        # animates the move as it plays it. Called with the cell; the default plays it.
        self.apply = None
        self._beat_at = None

    def take_events(self):
        """What happened since the last call, oldest first: ``("move", cell)`` (a move to show),
        ``("state", None)`` (the whole match was replaced), ``("round", n)``, ``("no", words)``
        (a move of ours was refused), ``("phase", name)``."""
        events = self.events
        if events:
            self.events = []
        return events

    @property
    def phase_name(self):
        return PHASES[self.phase]

    def _set_phase(self, phase, reason=""):
        if phase != self.phase:
            self.phase = phase
            self.reason = reason
            self.events.append(("phase", PHASES[phase]))

    def _beat_due(self, now):
        if self._beat_at is None or ticks_diff(now, self._beat_at) >= BEAT_MS:
            self._beat_at = now
            return True
        return False

    def _summary(self):
        match = self.match
        if match is None:
            return bytes(5)
        ply = len(match.game.board._moves)
        check = position_check(match)
        return bytes((match.round, ply >> 8, ply & 0xFF, check >> 8, check & 0xFF))

    def _play_here(self, cell):
        if self.apply is None:
            self.match.game.play(cell)
        else:
            self.apply(cell)

    def seat_to_move(self):
        """The seat whose turn it is, or None when no round is being played."""
        match = self.match
        if match is None or match.game.over:
            return None
        return match.game.seat_of(match.game.turn)


