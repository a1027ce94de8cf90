"""What both ends of a network link share: the greeting lines, the frame check, the byte budget.

A connection opens with one line each way (ASCII, ``\\n``-ended), then carries the link's bytes
(``rolit_core.link`` frames) and nothing else:

    joiner -> host   ROLIT-LINK 1 join          a new player
                     ROLIT-LINK 1 join 2        a player coming back as node 2
    host -> joiner   ROLIT-LINK 1 node 2        you are node 2 of the ring
                     ROLIT-LINK 1 refused WORDS then the host closes the connection

Over a WebSocket the host's line is the first (text) message and the joiner's wish is in the
address (``/link`` or ``/link?node=2``); binary messages then carry the link's bytes.
"""

from rolit_core.link import EVERYONE, HEADER, MAX_FRAME, MAX_NODES, cobs_decode
from rolit_core.save import crc16

DEFAULT_PORT = 8765
TRANSPORT = 1                     # the version of this greeting; the game's own is in HELLO
MAGIC = b"ROLIT-LINK "
MAX_LINE = 120                    # a greeting line is shorter than this
ACK_KIND = 0


class NetError(Exception):
    """A network link that cannot be opened, in one line for the user."""


def join_line(node=None):
    """The joiner's greeting: a new player, or one coming back as ``node``."""
    if node is None:
        return b"ROLIT-LINK %d join\n" % TRANSPORT
    return b"ROLIT-LINK %d join %d\n" % (TRANSPORT, node)


def node_line(node):
    return "ROLIT-LINK %d node %d" % (TRANSPORT, node)


def refused_line(words):
    return "ROLIT-LINK %d refused %s" % (TRANSPORT, words)


def read_join(line):
    """``(node or None, None)`` from a joiner's greeting line (bytes, without ``\\n``), or
    ``(None, words)`` saying what is wrong with it."""
    parts = line.split()
    if len(parts) < 3 or parts[0] != MAGIC.strip() or parts[2] != b"join":
        return None, "that is not a Rolit joiner"
    if parts[1] != b"%d" % TRANSPORT:
        return None, "another version of the network link"
    if len(parts) == 3:
        return None, None
    if len(parts) == 4 and parts[3] in (b"1", b"2", b"3"):
        return int(parts[3]), None
    return None, "that is not a Rolit joiner"


def read_greeting(line):
    """``("node", n)`` or ``("refused", words)`` from the host's line (text, without
    ``\\n``); ``("refused", words)`` for a line that is neither."""
    parts = line.strip().split(" ", 3)
    if len(parts) >= 3 and parts[0] == MAGIC.decode().strip() and parts[1] == str(TRANSPORT):
        if parts[2] == "node" and len(parts) == 4 and parts[3] in ("1", "2", "3"):
            return "node", int(parts[3])
        if parts[2] == "refused" and len(parts) == 4:
            return "refused", parts[3][:MAX_LINE]
    if len(parts) >= 2 and parts[0] == MAGIC.decode().strip() and parts[1] != str(TRANSPORT):
        return "refused", "the host speaks another version of the network link"
    return "refused", "that is not a Rolit host"


def frame_fields(encoded):
    """``(kind, hops, source, destination, payload)`` of one frame as it came off the wire
    without its end byte, or ``None`` if the link would drop it (the checks of ``Link.feed``)."""
    length = len(encoded)
    if not length or length >= MAX_FRAME:
        return None
    body = cobs_decode(encoded, length)
    if body is None or len(body) < HEADER + 2:
        return None
    end = len(body) - 2
    if crc16(memoryview(body)[0:end]) != (body[end] << 8 | body[end + 1]):
        return None
    kind = body[0] & 31
    hops = body[0] >> 5
    source = body[1] >> 4
    destination = body[1] & 15
    if (source >= MAX_NODES or not (destination < MAX_NODES or destination == EVERYONE)
            or not 1 <= hops <= MAX_NODES or (kind == ACK_KIND and len(body) > HEADER + 2)):
        return None
    return kind, hops, source, destination, body[HEADER:end]


class FrameReader:
    """Cuts a byte stream into frames (each without its end byte). A frame longer than the
    link's largest is never buffered: it comes out as ``None`` at its end, as does nothing
    else."""

    def __init__(self):
        self._part = bytearray()
        self._skipping = False

    def feed(self, data):
        """The frames ended in ``data`` (``bytes``; ``None`` for one too long), oldest first."""
        frames = []
        start = 0
        while True:
            end = data.find(b"\0", start)
            if end < 0:
                rest = len(data) - start
                if self._skipping:
                    pass
                elif len(self._part) + rest >= MAX_FRAME:
                    self._skipping = True
                    self._part = bytearray()
                else:
                    self._part += data[start:]
                return frames
            if self._skipping:
                frames.append(None)
                self._skipping = False
            else:
                whole = self._part + data[start:end]
                self._part = bytearray()
                if whole:
                    frames.append(bytes(whole) if len(whole) < MAX_FRAME else None)
            start = end + 1


class Budget:
    """A token bucket: ``rate`` bytes a second on average, ``burst`` at once. ``take`` returns
    False once a peer has sent more than that."""

    def __init__(self, rate, burst, now):
        self.rate = rate
        self.burst = burst
        self.level = burst
        self._at = now

    def take(self, count, now):
        elapsed = now - self._at
        if elapsed > 0:
            self.level = min(self.burst, self.level + elapsed * self.rate // 1000)
            self._at = now
        self.level -= count
        return self.level >= 0


def why(error):
    """An OSError in a few words."""
    if isinstance(error, PermissionError):
        return "permission denied (ports below 1024 need root)"
    names = {98: "the port is in use", 48: "the port is in use", 10048: "the port is in use",
             99: "that address is not on this machine", 49: "that address is not on this machine",
             111: "connection refused", 61: "connection refused", 10061: "connection refused",
             104: "connection reset", 54: "connection reset", 110: "timed out",
             60: "timed out", 32: "broken pipe"}
    if error.errno in names:
        return names[error.errno]
    return (error.strerror or str(error)).lower()
