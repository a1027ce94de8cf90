"""One match on several handhelds: a host and up to three guests keep it move by move.

The host owns the match: it seats the guests, checks every move with its own rules core and
sends it on with a checksum of the position it leads to. Each guest plays the same move with its
own core; a move its core refuses, or a checksum that differs, means the boards disagree, and the
guest asks for the whole state (:func:`state_bytes`, the save format's match) instead. So two
boards never go on disagreeing. Pure logic over a :class:`rolit_core.link.Link` and a ms clock.

Messages (kind: payload; docs/link.md):

    HELLO  host -> everyone, every BEAT_MS: protocol, game version (2), session (2), phase,
           round, ply (2), checksum (2), the node of each seat (4)
    JOIN   guest -> host, every BEAT_MS until seated: protocol, game version (2)
    SEAT   host -> guest: the seat (0-3) and its first colour, or REFUSED and a reason code
    STATE  host -> guest: part, parts, then a share of session (2), nodes (4), match bytes
    MOVE   host -> guests: round, ply (2), cell, checksum (2) of the position after it
    TRY    guest -> host: round, ply (2), cell: the guest's player chose this move
    NO     host -> guest: round, ply (2), reason code: that move was refused
    BEAT   guest -> host, every BEAT_MS: round, ply (2), checksum (2)
    RESYNC guest -> host: send me the state
    NEXT   host -> guests: the round that begins now
    BYE    host -> everyone: the host has ended the game
"""

from . import __version__
from .lifetime import use_once
from .link import MAX_NODES, MAX_PAYLOAD
from .save import crc16
from .vocab import ticks_diff

PROTOCOL = 1
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
    in the save format's layout (:func:`rolit_core.load.encode_match`): its seat ``kinds``
    (names), the moves of its finished rounds (``history``), round 1's ``first`` colour."""
    from .save import KINDS, TIES

    numbers = [KINDS.index(kind) for kind in kinds]
    # The save's reader is needed only for a state now and then: not kept between them.
    with use_once("rolit_core.load") as load:
        encode_match = load.encode_match
    del load
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

    with use_once("rolit_core.load") as load:
        decode_match = load.decode_match
        replay_match = load.replay_match
    del load
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


class _Session:
    # What host and guest share: the link, the match, the clock and the events for the screens.

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


class Host(_Session):
    """The host's side. ``match``, ``kinds`` (a name per seat) and ``nodes``: per seat ``0`` (this
    handheld: a local human or a computer) or ``LOCAL`` (a linked handheld will take it).
    ``session``: a number that tells this game from another host's (random in the app)."""

    def __init__(self, link, match, kinds, nodes, session, time_limit=0, hints=False,
                 history=None, first=None):
        if (history is None and match.round != 1) or (history is not None
                                                       and len(history) != match.round - 1):
            raise ValueError("a linked match begins at round 1, or names its finished rounds")
        _Session.__init__(self, link)
        link.node = 0
        self.match = match
        self.history = list(history or ())
        self.first = match.game.first if first is None else first
        self.kinds = tuple(kinds)
        self.nodes = list(nodes)
        self.session = session & 0xFFFF
        self.time_limit = time_limit
        self.hints = hints
        self.ring = 0             # nodes on the ring, counted when its HELLO comes back
        self.lost = []            # seated nodes not heard for LOST_MS
        self._refused = []

    def seated(self):
        """True when every linked seat has a handheld."""
        return LOCAL not in self.nodes

    def update(self, now):
        """Read what arrived, answer it, say hello, check who is still there, send what is due."""
        link = self.link
        for message in link.receive():
            self._handle(message, now)
        if self._beat_due(now) and self.phase != ENDED:
            phase = LOBBY if not self.seated() else self.phase
            link.broadcast(HELLO, bytes(self.versions)
                           + bytes((self.session >> 8, self.session & 0xFF, phase))
                           + self._summary() + bytes(self._nodes4()))
        if self.phase in (PLAYING, LOST):
            lost = []
            for node in self._guests():
                heard = link.heard(node)
                if heard is None or ticks_diff(now, heard) >= LOST_MS:
                    lost.append(node)
            self.lost = lost
            self._set_phase(LOST if lost else PLAYING,
                            "link lost" if lost else "")
        link.poll(now)

    def start(self):
        """Begin play once every linked seat is taken: each guest gets the whole state."""
        if not self.seated():
            raise ValueError("a linked seat is still free")
        for node in self._guests():
            self._send_state(node)
        self._set_phase(PLAYING)

    def play(self, cell):
        """The host's own move (a local human or a computer seat). Returns ``None`` when played,
        or the words why not."""
        if self.phase != PLAYING:
            return REASONS[PAUSED]
        seat = self.seat_to_move()
        if seat is None or self.nodes[seat] != 0:
            return REASONS[NOT_YOUR_TURN]
        return self._apply(cell)

    def resume(self):
        """Go on with a match restored from this handheld's save: play waits (the link is
        lost) until every guest is heard again; a guest that rejoins is given the state."""
        self.phase = PLAYING
        self._set_phase(LOST, "link lost")
        self.lost = self._guests()

    def restart(self, match):
        """A new match (round 1) on the same seats, here and on every guest."""
        self.match = match
        self.first = match.game.first
        self.history = []
        for node in self._guests():
            self._send_state(node)

    def next_round(self):
        """Start the next round here and on every guest."""
        moves = self.match.game.moves
        self.match.next_round()
        self.history.append(moves)
        for node in self._guests():
            self.link.send(node, NEXT, bytes((self.match.round,)))
        self.events.append(("round", self.match.round))

    def stop(self):
        """End the linked game: every guest is told."""
        self.link.broadcast(BYE)
        self._set_phase(ENDED, "you ended the game")

    def _guests(self):
        found = []
        for node in self.nodes:
            if node != 0 and node != LOCAL and node not in found:
                found.append(node)
        return found

    def _nodes4(self):
        return list(self.nodes) + [LOCAL] * (4 - len(self.nodes))

    def _apply(self, cell):
        game = self.match.game
        if not game.is_legal(cell):
            return REASONS[ILLEGAL]
        ply = len(game.board._moves)
        self._play_here(cell)
        check = position_check(self.match)
        payload = bytes((self.match.round, ply >> 8, ply & 0xFF, cell, check >> 8, check & 0xFF))
        for node in self._guests():
            self.link.send(node, MOVE, payload)
        self.events.append(("move", cell))
        return None

    def _send_state(self, node):
        data = state_bytes(self.session, self.nodes, self.match, self.kinds, self.history,
                           self.first, self.time_limit, self.hints)
        share = MAX_PAYLOAD - 2
        parts = (len(data) + share - 1) // share
        for part in range(parts):
            self.link.send(node, STATE, bytes((part, parts)) + data[part * share:(part + 1) * share])

    def _handle(self, message, now):
        kind = message.kind
        source = message.source
        payload = message.payload
        if kind == HELLO:
            if source == 0 and len(payload) >= 5:
                if (payload[3] << 8 | payload[4]) == self.session:
                    self.ring = message.distance  # our own hello, back round the ring
                else:
                    self._set_phase(REFUSED_PHASE, REASONS[SECOND_HOST])
            return
        if kind == JOIN:
            self._join(source, payload)
        elif kind == TRY:
            self._try(source, payload)
        elif kind == BEAT:
            self._beat(source, payload)
        elif kind == RESYNC:
            if source in self._guests():
                self._send_state(source)

    def _join(self, node, payload):
        if len(payload) < 3 or bytes(payload[:3]) != bytes(self.versions):
            self._refuse(node, OTHER_VERSION)
            return
        if node in self.nodes:
            # Seated before: it restarted. Start its streams afresh and give it the state.
            self.link.forget(node)
            self.link.send(node, SEAT, self._seat(self.nodes.index(node)))
            if self.phase != LOBBY:
                self._send_state(node)
            return
        if LOCAL not in self.nodes or self.phase != LOBBY:
            self._refuse(node, FULL)
            return
        seat = self.nodes.index(LOCAL)
        self.nodes[seat] = node
        self.link.send(node, SEAT, self._seat(seat))
        self.events.append(("seated", seat))

    def _seat(self, seat):
        # SEAT's payload: the seat, and the colour it plays first (so the guest can glow in it)
        return bytes((seat, self.match.seat_colours[seat][0]))

    def _refuse(self, node, code):
        # Tell the node why, and show it here too (once per node and reason).
        self.link.send(node, SEAT, bytes((REFUSED, code)))
        if (node, code) not in self._refused:
            self._refused.append((node, code))
            self.events.append(("refused", "handheld %d: %s" % (node + 1, REASONS[code])))

    def _try(self, node, payload):
        if len(payload) < 4:
            return
        match = self.match
        ply = payload[1] << 8 | payload[2]
        reason = 0
        seat = self.seat_to_move()
        if self.phase != PLAYING:
            reason = PAUSED
        elif payload[0] != match.round or ply != len(match.game.board._moves):
            reason = STALE
        elif seat is None or self.nodes[seat] != node:
            reason = NOT_YOUR_TURN
        elif self._apply(payload[3]) is not None:
            reason = ILLEGAL
        if reason:
            self.link.send(node, NO, bytes((payload[0], payload[1], payload[2], reason)))

    def _beat(self, node, payload):
        if len(payload) < 5 or node not in self._guests() or self.phase == LOBBY:
            return
        if self.link.pending(node):
            return  # moves or a state still on their way: the guest is not behind for good
        if bytes(payload[:5]) != self._summary():
            self._send_state(node)


class Guest(_Session):
    """A guest's side: it hears a host, joins with ``join()``, and plays its seat's moves with
    ``play(cell)``."""

    def __init__(self, link):
        _Session.__init__(self, link)
        self.phase = SEARCHING
        self.session = None
        self.seat = None
        self.colour = None        # the colour of the seat, as SEAT said
        self.host_phase = None
        self._joining = False
        self._parts = []
        self._asked = None        # when a resync was last asked for
        self._tried = None        # (round, ply) of a move sent and not yet answered
        self._now = 0

    def join(self):
        """Ask the host heard for a seat (the one press)."""
        self._joining = True

    def update(self, now):
        """Read what arrived, answer it, beat, watch the host's silence, send what is due."""
        link = self.link
        self._now = now
        for message in link.receive():
            self._handle(message, now)
        heard = link.heard(0) if link.node is not None else None
        if self.phase in (PLAYING, LOST, LOBBY) and self.seat is not None:
            if heard is None or ticks_diff(now, heard) >= LOST_MS or self.host_phase == LOST:
                self._set_phase(LOST, "link lost")
            elif self.phase == LOST:
                self._set_phase(PLAYING if self.match is not None else LOBBY)
        if link.node is not None and self._beat_due(now):
            if self.seat is None and self._joining and self.phase not in (REFUSED_PHASE, ENDED):
                link.tell(0, JOIN, bytes(self.versions))
            elif self.seat is not None:
                link.tell(0, BEAT, self._summary())
        link.poll(now)

    def play(self, cell):
        """Send this handheld's move to the host. Returns ``None`` when sent, or the words why
        not (it is checked here first, so the player hears at once)."""
        if self.phase != PLAYING or self.match is None:
            return REASONS[PAUSED]
        seat = self.seat_to_move()
        if seat is None or seat != self.seat:
            return REASONS[NOT_YOUR_TURN]
        game = self.match.game
        ply = len(game.board._moves)
        if self._tried == (self.match.round, ply):
            return REASONS[SENT]
        if not game.is_legal(cell):
            return REASONS[ILLEGAL]
        self.link.send(0, TRY, bytes((self.match.round, ply >> 8, ply & 0xFF, cell)))
        self._tried = (self.match.round, ply)
        return None

    def _handle(self, message, now):
        kind = message.kind
        payload = message.payload
        if message.source != 0:
            return
        if kind == HELLO:
            self._hello(message, payload)
        elif kind == SEAT and len(payload) >= 1:
            if payload[0] == REFUSED:
                code = payload[1] if len(payload) > 1 and payload[1] < len(REASONS) else 0
                self._set_phase(REFUSED_PHASE, REASONS[code] or "refused")
                self._joining = False
            elif payload[0] < 4:
                self.seat = payload[0]
                if len(payload) > 1 and 1 <= payload[1] <= 4:
                    self.colour = payload[1]
                if self.phase in (SEARCHING, REFUSED_PHASE):
                    self._set_phase(LOBBY)
        elif kind == STATE:
            self._state(payload)
        elif kind == MOVE:
            self._move(payload, now)
        elif kind == NO and len(payload) >= 4:
            code = payload[3] if payload[3] < len(REASONS) else 0
            self._tried = None
            self.events.append(("no", REASONS[code]))
        elif kind == NEXT and len(payload) >= 1:
            match = self.match
            if (match is not None and match.game.over and not match.over
                    and payload[0] == match.round + 1):
                self.history.append(match.game.moves)
                match.next_round()
                self.events.append(("round", match.round))
            elif match is None or payload[0] != match.round:
                self._resync()
        elif kind == BYE:
            self._set_phase(ENDED, "the host ended the game")

    def _hello(self, message, payload):
        if len(payload) < 15:
            return
        if self.link.node is None:
            self.link.node = message.distance
        if bytes(payload[:3]) != bytes(self.versions):
            self._set_phase(REFUSED_PHASE, REASONS[OTHER_VERSION])
            self._joining = False
            return
        session = payload[3] << 8 | payload[4]
        if self.session is None or self.seat is None:
            self.session = session
        elif session != self.session:
            return  # another host's game: not ours
        self.host_phase = payload[5]
        if self.match is None:
            self.nodes = tuple(payload[11:15])
        if self.phase == SEARCHING:
            self._set_phase(LOBBY)
        if self.match is not None and self.host_phase != LOBBY:
            # Same round and ply but another position: the boards disagree. (A host ahead is
            # only a move on its way; a host behind cannot be.)
            mine = self._summary()
            theirs = bytes(payload[6:11])
            if mine[:3] == theirs[:3] and mine[3:5] != theirs[3:5]:
                self._resync()
            elif mine[0] > theirs[0] or (mine[0] == theirs[0] and mine[1:3] > theirs[1:3]):
                self._resync()

    def _state(self, payload):
        if len(payload) < 2 or payload[1] == 0 or payload[0] >= payload[1]:
            return
        if payload[0] == 0:
            self._parts = []
        if len(self._parts) != payload[0]:
            self._parts = []
            return
        self._parts.append(bytes(payload[2:]))
        if len(self._parts) < payload[1]:
            return
        data = b"".join(self._parts)
        self._parts = []
        try:
            session, nodes, match, kinds, history, first, time_limit, hints = read_state(data)
        except ValueError:
            self._asked = None
            self._resync()
            return
        self.session = session
        self.nodes = nodes
        self.match = match
        self.kinds = kinds
        self.history = history
        self.first = first
        self.time_limit = time_limit
        self.hints = hints
        self.events.append(("state", None))
        self._set_phase(PLAYING)

    def _move(self, payload, now):
        if len(payload) < 6 or self.match is None:
            return
        match = self.match
        game = match.game
        ply = payload[1] << 8 | payload[2]
        mine = len(game.board._moves)
        if payload[0] == match.round and ply < mine:
            return  # one we have: a state came meanwhile
        if payload[0] != match.round or ply != mine or not game.is_legal(payload[3]):
            self._resync()
            return
        self._play_here(payload[3])
        if position_check(match) != (payload[4] << 8 | payload[5]):
            self._resync()
            return
        self.events.append(("move", payload[3]))

    def _resync(self):
        # Ask for the whole state, at most once per RESYNC_MS (one may be on its way).
        now = self._now
        if self.link.node is None or (self._asked is not None
                                      and ticks_diff(now, self._asked) < RESYNC_MS):
            return
        self._asked = now
        self.link.send(0, RESYNC)
