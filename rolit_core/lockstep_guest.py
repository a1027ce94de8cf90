"""A guest's side of a linked game (:mod:`rolit_core.lockstep`): it hears a host, asks for a
seat, sends its player's moves and plays every move the host sends with its own rules core.

A move another guest's player chose is played here as soon as its PLAYED passes (the ring need
not carry it to the host and back): checked by this core, from the handheld whose seat is to move,
at this very ply. The host's MOVE then confirms it; a MOVE for that ply with another move or
position, or a host that has not caught up within ``RESYNC_MS``, is a desync like any other.
"""

from .lockstep_base import (BEAT, BYE, ENDED, HELLO, ILLEGAL, JOIN, LOBBY, LOST, LOST_MS, MOVE,
                            NEXT, NO, NOT_YOUR_TURN, OTHER_VERSION, PAUSED, PLAYED, PLAYING,
                            REASONS, REFUSED, REFUSED_PHASE, RESYNC, RESYNC_MS, SEARCHING, SEAT,
                            SENT, STATE, TRY, Session, position_check, read_state)
from .vocab import ticks_diff


class Guest(Session):
    """A guest's side: it hears a host, joins with ``join()``, and plays its seat's moves with
    ``play(cell)``."""

    def __init__(self, link):
        Session.__init__(self, link)
        self.phase = SEARCHING
        self.session = None
        self.seat = None
        self.colour = None        # the colour of the seat, as SEAT said
        self.host_phase = None
        self._joining = False
        self._parts = []
        self._asked = None        # when a resync was last asked for
        self._tried = None        # (round, ply) of a move sent and not yet answered
        self._early = None        # (round, ply, ms) of a PLAYED move the host has not confirmed
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
        move = bytes((self.match.round, ply >> 8, ply & 0xFF, cell))
        self.link.send(0, TRY, move)
        self.link.broadcast(PLAYED, move)
        self._tried = (self.match.round, ply)
        return None

    def _handle(self, message, now):
        kind = message.kind
        payload = message.payload
        if message.source != 0:
            if kind == PLAYED:
                self._played(message.source, payload, now)
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
            self._move(payload, now, message.broadcast)
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
                # Ahead: only a PLAYED move the host has yet to read may put us there.
                early = self._early
                if (early is None or early[:2] != self._ply_before() or early[:2] != (
                        theirs[0], theirs[1] << 8 | theirs[2])
                        or ticks_diff(self._now, early[2]) >= RESYNC_MS):
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
        self._early = None
        # Until the app shows this match (it adopts it in its next update), a move that comes
        # is played on the match itself, not on the board screen's game it replaces.
        self.apply = None
        self.events.append(("state", None))
        self._set_phase(PLAYING)

    def _ply_before(self):
        # (round, ply) of the position before the last move of this round
        return (self.match.round, len(self.match.game.board._moves) - 1)

    def _played(self, source, payload, now):
        # Another guest's move, passing by on its way to the host (see the module docstring).
        match = self.match
        if (len(payload) < 4 or self.phase != PLAYING or match is None
                or source == self.link.node):
            return
        seat = self.seat_to_move()
        ply = payload[1] << 8 | payload[2]
        if (seat is None or self.nodes[seat] != source or payload[0] != match.round
                or ply != len(match.game.board._moves) or not match.game.is_legal(payload[3])):
            return  # not this ply's move, or not from its mover: the host's MOVE will tell
        self._play_here(payload[3])
        self._early = (match.round, ply, now)
        self.events.append(("move", payload[3]))

    def _move(self, payload, now, broadcast=False):
        # A MOVE comes twice: broadcast, not acknowledged, and in the reliable stream, which
        # alone may call for a resync (a broadcast may pass a reliable one still on its way).
        if len(payload) < 6 or self.match is None:
            return
        match = self.match
        game = match.game
        ply = payload[1] << 8 | payload[2]
        mine = len(game.board._moves)
        if payload[0] == match.round and ply < mine:
            if ply == mine - 1:
                # The host's word on our last move (played early, or a state came meanwhile)
                self._early = None
                if (game.board._moves[ply] >> 3 != payload[3]
                        or position_check(match) != (payload[4] << 8 | payload[5])):
                    self._resync()
            return
        if payload[0] != match.round or ply != mine or not game.is_legal(payload[3]):
            if not broadcast:
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
