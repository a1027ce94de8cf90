"""The link between handhelds: frames on a byte stream, and reliable messages around a ring.

Pure logic: bytes come in through ``feed(data, now_ms)``, bytes to send come out of
``output(limit)``, and ``poll(now_ms)`` runs the resend timers. No I/O and no clock of its own,
so the same object runs on a board's UART, a PC's socket and an in-memory wire in the tests.

Up to four nodes form a ring: each node's TX goes to the next node's RX (two nodes simply cross
TX and RX). A node delivers what is addressed to it or to everyone, and passes on what is not
its own, so a message reaches any node of the ring whatever its place. The host is node 0; a
guest learns its number from how far a host's broadcast has travelled (``Message.distance``).

Frame layout (docs/link.md): a body, COBS-encoded so that it holds no zero byte, then a zero
byte that ends it::

    0      kind (bits 0-4) | hops left (bits 5-7)
    1      source node << 4 | destination node (EVERYONE for a broadcast)
    2      sequence number: 0 for a message that is not acknowledged, else 1-255
    3      acknowledgement: the last sequence number received in order from the destination
    4      payload (0 .. MAX_PAYLOAD bytes)
    4+L    CRC-16/CCITT-FALSE of bytes 0 .. 3+L, big-endian

The zero byte makes every frame's end plain to see, whatever came before it: a damaged frame
fails its checks (length, addresses, checksum) and is dropped and counted, and the next frame
is read as if nothing had happened. Reliable messages go one at a time to each peer (stop and
wait): resent every ``RESEND_MS`` until acknowledged, delivered once and in order.
"""

from .save import crc16
from .vocab import ticks_diff

END = 0          # the byte that ends every frame on the wire
EVERYONE = 15
MAX_NODES = 4
MAX_PAYLOAD = 200
HEADER = 4
MAX_BODY = HEADER + MAX_PAYLOAD + 2
MAX_FRAME = MAX_BODY + MAX_BODY // 254 + 2  # COBS adds a byte per 254, then the END
RESEND_MS = 120       # a frame not acknowledged by then goes again
ACK_KIND = 0          # an acknowledgement with nothing else to say
RING_KIND = 31        # the wiring self-test's probe round the ring (rolit_core.selftest); the
                      # match's kinds (rolit_core.lockstep) count up from 1
MAX_QUEUE = 24        # reliable messages waiting for one peer before send() refuses more
MAX_OUTPUT = 2048     # bytes waiting to be sent before forwarded frames are dropped
_ADOPT_AFTER = 3      # the same unexpected sequence number this often: the peer restarted


def _next_seq(seq):
    return seq % 255 + 1


class Message:
    """One message delivered by the link: ``source`` node, ``kind`` (1-31), ``payload`` bytes,
    ``broadcast`` (addressed to everyone) and ``distance`` (nodes travelled to get here, 1 for
    the node right before this one). A broadcast from this node's own number comes back once it
    has gone round the ring (its distance is the ring's size), or came from another node that
    has the same number."""

    __slots__ = ("source", "kind", "payload", "broadcast", "distance")

    def __init__(self, source, kind, payload, broadcast, distance):
        self.source = source
        self.kind = kind
        self.payload = payload
        self.broadcast = broadcast
        self.distance = distance

    def __repr__(self):
        return "Message(%d, %d, %r)" % (self.source, self.kind, self.payload)


class _Peer:
    # What one node knows of one other node: its reliable stream each way.
    __slots__ = ("queue", "sent_seq", "in_flight", "sent_at", "got_seq", "ack_due",
                 "odd_seq", "odd_count", "heard")

    def __init__(self):
        self.queue = []        # (kind, payload) waiting, the first one in flight when sent
        self.sent_seq = 0      # the sequence number of the last message given a number
        self.in_flight = False
        self.sent_at = 0
        self.got_seq = -1      # last sequence number delivered from this peer; -1: none yet
        self.ack_due = False
        self.odd_seq = -1      # an unexpected sequence number, and how often in a row
        self.odd_count = 0
        self.heard = None      # when the last good frame from this peer came (ms), or None


def frame(kind, source, destination, seq=0, ack=0, payload=b"", hops=MAX_NODES):
    """The bytes of one frame on the wire (see the module docstring); raises ``ValueError`` on
    a field out of range."""
    length = len(payload)
    if not 0 <= kind < 32 or not 0 <= hops < 8 or length > MAX_PAYLOAD:
        raise ValueError("frame field out of range")
    if not 0 <= source < MAX_NODES or not (0 <= destination < MAX_NODES or destination == EVERYONE):
        raise ValueError("no such node")
    body = bytearray(HEADER + length + 2)
    body[0] = kind | hops << 5
    body[1] = source << 4 | destination
    body[2] = seq
    body[3] = ack
    body[HEADER:HEADER + length] = payload
    _seal(body)
    return cobs_encode(body)


def with_hops(body, hops):
    """The frame on the wire of a decoded ``body`` (header, payload, CRC) going on with ``hops``
    left: its CRC sealed again, COBS-encoded, END at its end. ``body`` (a bytearray) is
    changed."""
    body[0] = body[0] & 31 | hops << 5
    _seal(body)
    return cobs_encode(body)


def _seal(body):
    end = len(body) - 2
    crc = crc16(memoryview(body)[0:end])
    body[end] = crc >> 8
    body[end + 1] = crc & 0xFF


def cobs_encode(body):
    """``body`` with its zero bytes taken out (Consistent Overhead Byte Stuffing), then END."""
    out = bytearray(len(body) + len(body) // 254 + 2)
    code_at = 0
    at = 1
    code = 1
    for byte in body:
        if byte:
            out[at] = byte
            at += 1
            code += 1
        if not byte or code == 0xFF:
            out[code_at] = code
            code_at = at
            at += 1
            code = 1
    out[code_at] = code
    out[at] = END
    return out[:at + 1]


def cobs_decode(data, length):
    """The body of ``data[:length]`` (COBS, without the END), or ``None`` if it is not valid."""
    body = bytearray(length)
    at = 0
    size = 0
    while at < length:
        code = data[at]
        if code == 0 or at + code > length:
            return None
        at += 1
        end = at + code - 1
        while at < end:
            body[size] = data[at]
            size += 1
            at += 1
        if code != 0xFF and at < length:
            body[size] = 0
            size += 1
    return body[:size]


class Link:
    """One node's end of the ring. ``node`` is this node's number (0 for the host), or ``None``
    for a guest that has not yet heard a host: it passes frames on and takes broadcasts, but
    cannot send until ``node`` is set.

    Counters for the curious and the tests: ``frames_in`` (good frames read), ``bad_frames``
    (dropped: damaged, foreign or malformed), ``resends``, ``dropped_output`` (bytes not
    queued because the output was full).
    """

    def __init__(self, node=None):
        self.node = node
        self._peers = [_Peer(), _Peer(), _Peer(), _Peer()]
        self._rx = bytearray(MAX_FRAME)
        self._rx_len = 0
        self._out = bytearray()
        self._inbox = []
        self.frames_in = 0
        self.bad_frames = 0
        self.resends = 0
        self.dropped_output = 0

    # -- sending --------------------------------------------------------------------------

    def send(self, destination, kind, payload=b""):
        """Queue a reliable message for node ``destination``: it arrives once, in order with the
        others to that node. Returns False (queueing nothing) when that node's queue is full."""
        self._check_send(destination, kind, payload)
        if destination == self.node:
            raise ValueError("a node does not send to itself")
        peer = self._peers[destination]
        if len(peer.queue) >= MAX_QUEUE:
            return False
        peer.queue.append((kind, bytes(payload)))
        return True

    def broadcast(self, kind, payload=b""):
        """Send a message to every node now, once, without acknowledgement (it may be lost)."""
        self._check_send(EVERYONE, kind, payload)
        self._emit(frame(kind, self.node, EVERYONE, 0, 0, payload))

    def tell(self, destination, kind, payload=b""):
        """Send a message to one node now, once, without acknowledgement (it may be lost)."""
        self._check_send(destination, kind, payload)
        self._emit(frame(kind, self.node, destination, 0, self._ack_for(destination), payload))

    def _check_send(self, destination, kind, payload):
        if self.node is None:
            raise ValueError("this node has no number yet")
        if not 1 <= kind < 32:
            raise ValueError("message kinds are 1-31, not %r" % (kind,))
        if len(payload) > MAX_PAYLOAD:
            raise ValueError("payload of %d bytes, the most is %d" % (len(payload), MAX_PAYLOAD))
        if destination != EVERYONE and not 0 <= destination < MAX_NODES:
            raise ValueError("no node %r" % (destination,))

    def pending(self, destination):
        """Reliable messages to ``destination`` not yet acknowledged (the one in flight too)."""
        return len(self._peers[destination].queue)

    def forget(self, node):
        """Drop everything queued for ``node`` and what is known of its streams (it left, or
        restarted and is to be treated as new)."""
        self._peers[node] = _Peer()

    def heard(self, node):
        """When the last good frame from ``node`` arrived (the ``now_ms`` given to ``feed``), or
        ``None`` if none has."""
        return self._peers[node].heard

    def _ack_for(self, peer):
        got = self._peers[peer].got_seq
        return got if got > 0 else 0

    def _emit(self, data):
        if len(self._out) + len(data) > MAX_OUTPUT:
            self.dropped_output += len(data)
            return False
        self._out.extend(data)
        return True

    def output(self, limit=MAX_OUTPUT):
        """Up to ``limit`` bytes to send, taken from the output (the rest waits)."""
        out = self._out
        if not out:
            return b""
        if len(out) <= limit:
            self._out = bytearray()
            return bytes(out)
        taken = bytes(out[:limit])
        self._out = out[limit:]
        return taken

    def waiting_output(self):
        """How many bytes wait to be sent."""
        return len(self._out)

    def poll(self, now):
        """Send what is due at ``now`` (ms): new reliable messages, resends, acknowledgements."""
        me = self.node
        if me is None:
            return
        for number in range(MAX_NODES):
            if number == me:
                continue
            peer = self._peers[number]
            if peer.queue and (not peer.in_flight or ticks_diff(now, peer.sent_at) >= RESEND_MS):
                if peer.in_flight:
                    self.resends += 1
                else:
                    peer.sent_seq = _next_seq(peer.sent_seq)
                    peer.in_flight = True
                kind, payload = peer.queue[0]
                if self._emit(frame(kind, me, number, peer.sent_seq, self._ack_for(number),
                                    payload)):
                    peer.ack_due = False
                peer.sent_at = now
            if peer.ack_due:
                if self._emit(frame(ACK_KIND, me, number, 0, self._ack_for(number))):
                    peer.ack_due = False

    # -- receiving ------------------------------------------------------------------------

    def receive(self):
        """The messages delivered since the last call, oldest first."""
        inbox = self._inbox
        if inbox:
            self._inbox = []
        return inbox

    def feed(self, data, now):
        """Read bytes that arrived at ``now`` (ms). Any bytes at all are safe: what is not a
        whole, correct frame is dropped."""
        rx = self._rx
        for byte in data:
            if byte != END:
                if self._rx_len < MAX_FRAME:  # at MAX_FRAME: too long, dropped at its END
                    rx[self._rx_len] = byte
                    self._rx_len += 1  # never more, so a flood grows no big integer
                continue
            length = self._rx_len
            self._rx_len = 0
            if not length:
                continue
            body = cobs_decode(rx, length) if length < MAX_FRAME else None
            if (body is None or len(body) < HEADER + 2
                    or crc16(memoryview(body)[0:len(body) - 2])
                    != (body[len(body) - 2] << 8 | body[len(body) - 1])):
                self.bad_frames += 1
                continue
            self._take(body, now)

    def _take(self, data, now):
        kind = data[0] & 31
        hops = data[0] >> 5
        source = data[1] >> 4
        destination = data[1] & 15
        if (source >= MAX_NODES or not (destination < MAX_NODES or destination == EVERYONE)
                or not 1 <= hops <= MAX_NODES or (kind == ACK_KIND and len(data) > HEADER + 2)):
            self.bad_frames += 1
            return
        self.frames_in += 1
        me = self.node
        if source == me and destination != EVERYONE:
            return  # our own frame, back after going round the ring
        if source != me and destination != me and hops > 1:
            self._emit(with_hops(bytearray(data), hops - 1))
        if destination != me and destination != EVERYONE:
            return
        peer = self._peers[source]
        peer.heard = now
        seq = data[2]
        if me is not None and destination == me:
            self._acknowledged(peer, data[3])
        payload = data[HEADER:len(data) - 2]
        if kind == ACK_KIND:
            return
        if seq and destination == me:
            if not self._in_order(peer, seq):
                return
        self._inbox.append(Message(source, kind, payload, destination == EVERYONE,
                                   MAX_NODES - hops + 1))

    def _acknowledged(self, peer, ack):
        if peer.in_flight and ack == peer.sent_seq:
            peer.queue.pop(0)
            peer.in_flight = False

    def _in_order(self, peer, seq):
        # True if this reliable message is new and next; acknowledge it either way.
        peer.ack_due = True
        got = peer.got_seq
        if got == seq:
            return False  # a copy of one already delivered
        if got == -1 or seq == _next_seq(got):
            peer.got_seq = seq
            peer.odd_count = 0
            return True
        # Out of order: a stale copy, or the peer restarted its numbering. A restarted peer
        # sends the same number again and again, a stale copy comes once.
        if seq == peer.odd_seq:
            peer.odd_count += 1
        else:
            peer.odd_seq = seq
            peer.odd_count = 1
        if peer.odd_count >= _ADOPT_AFTER:
            peer.got_seq = seq
            peer.odd_count = 0
            return True
        return False
