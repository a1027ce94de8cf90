"""The host's side of a linked game (:mod:`rolit_core.lockstep`): it seats the guests, checks
every move with its own rules core and sends it on with a checksum of the position."""

from .lockstep_base import (BEAT, BYE, ENDED, FULL, HELLO, ILLEGAL, JOIN, LOBBY, LOCAL, LOST,
                            LOST_MS, MOVE, NEXT, NO, NOT_YOUR_TURN, OTHER_VERSION, PAUSED,
                            PLAYING, REASONS, REFUSED, REFUSED_PHASE, RESYNC, SEAT, SECOND_HOST,
                            STALE, STATE, TRY, Session, position_check, state_bytes)
from .link import MAX_NODES, MAX_PAYLOAD
from .vocab import ticks_diff


class Host(Session):
    """The host's side. ``match``, ``kinds`` (a name per seat) and ``nodes``: per seat ``0`` (this
    handheld: a local human or a computer) or ``LOCAL`` (a linked handheld will take it).
    ``session``: a number that tells this game from another host's (random in the app)."""

    def __init__(self, link, match, kinds, nodes, session, time_limit=0, hints=False,
                 history=None, first=None):
        if (history is None and match.round != 1) or (history is not None
                                                       and len(history) != match.round - 1):
            raise ValueError("a linked match begins at round 1, or names its finished rounds")
        Session.__init__(self, link)
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
        self._behind = [None] * MAX_NODES  # per node, the summary of a beat a move or more away

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
        self._send_states(self._guests())
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
        self._send_states(self._guests())

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
        # And once to everyone at once: a guest whose stream still waits for an earlier
        # message's acknowledgement sees the move without waiting for it.
        self.link.broadcast(MOVE, payload)
        self.events.append(("move", cell))
        return None

    def _send_state(self, node):
        self._send_states((node,))

    def _send_states(self, nodes):
        # The state is the same for every guest: made once, in the frame that needs it.
        if not nodes:
            return
        data = state_bytes(self.session, self.nodes, self.match, self.kinds, self.history,
                           self.first, self.time_limit, self.hints)
        share = MAX_PAYLOAD - 2
        parts = (len(data) + share - 1) // share
        for node in nodes:
            for part in range(parts):
                self.link.send(node, STATE, bytes((part, parts))
                               + data[part * share:(part + 1) * share])

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
        if source == 0:
            return  # our own number (a broadcast from a node that has it): no guest's word
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
        theirs = bytes(payload[:5])
        mine = self._summary()
        if theirs == mine:
            self._behind[node] = None
            return
        if theirs[:3] != mine[:3] and self._behind[node] != theirs:
            # Behind, with nothing on its way: the beat may have left before the last move
            # came, and that move's acknowledgement have been read with it. Ahead: it played
            # a guest's PLAYED move whose TRY is still on its way here. Still so at its next
            # beat, it missed a move or played one this host refused. (Another position at
            # the same ply: it disagrees.)
            self._behind[node] = theirs
            return
        self._behind[node] = None
        self._send_state(node)
