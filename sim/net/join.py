"""A joiner's end of a network link: the simulator taking a seat in another one's game over TCP.

>>> cable = NetJoin("192.168.1.20", 8765)   # NetError in one line if it cannot connect
>>> cable.pump(link, now_ms)                # every frame, as UartLink.pump: bytes in, bytes out

The connection greets the host (sim.net.wire), then carries the link's bytes both ways. When it
drops (the host's machine slept, the Wi-Fi went), the joiner is as a handheld whose cable was
pulled: the link's bytes go nowhere, the game says "link lost", and the pump connects again
every ``RETRY_MS``, asking for its node back, so the protocol resyncs it. A refusal from the
host ends that: ``state`` is "refused" and ``reason`` says why, in words.
"""

import select
import selectors
import socket

from .wire import DEFAULT_PORT, MAX_LINE, NetError, join_line, read_greeting, why

RETRY_MS = 1000          # between two attempts to connect again
CONNECT_S = 3.0          # the first connection, which the constructor waits for
READ_SIZE = 4096
READS = 4                # reads in one pump at the most (the host's bytes, bounded per frame)
OUT_LIMIT = 16384        # bytes waiting for the host; more are dropped as on a full UART


def parse_address(text, default_port=DEFAULT_PORT):
    """``"HOST[:PORT]"`` -> ``(host, port)``; ``ValueError`` in words otherwise."""
    host, sep, port = text.strip().rpartition(":")
    if not sep:
        host, port = text.strip(), str(default_port)
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host:
        raise ValueError("%r names no host (HOST or HOST:PORT)" % text)
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError("%r: the port must be a number 1-65535" % text)
    return host, int(port)


class NetJoin:
    """The connection to the host at ``host``:``port``. With ``wait`` the constructor connects
    first and raises :class:`NetError` if it cannot; without, the first pump starts it."""

    def __init__(self, host, port=DEFAULT_PORT, wait=True, retry_ms=RETRY_MS):
        self.host = host
        self.port = port
        self.retry_ms = retry_ms
        self.state = "connecting"   # "connecting", "greeting", "linked", "refused", "closed"
        self.reason = ""            # why it is not linked, in words
        self.node = None            # the node the host gave
        self.connections = 0
        self.bytes_in = 0
        self.bytes_out = 0
        self._sock = None
        self._selector = selectors.DefaultSelector()
        self._line = bytearray()
        self._out = bytearray()
        self._retry_at = None
        self._asked = None
        if wait:
            try:
                sock = socket.create_connection((host, port), timeout=CONNECT_S)
            except OSError as error:
                raise NetError("cannot join %s:%d: %s" % (host, port, why(error))) from None
            self._opened(sock, connected=True)

    def pump(self, link, now):
        """Connect (again) when due, feed what the host sent to ``link``, send ``link``'s
        bytes."""
        if self.state in ("refused", "closed"):
            link.output()
            return
        if self._sock is None:
            link.output()  # no cable: what the link says goes nowhere
            if self._retry_at is None or now >= self._retry_at:
                self._connect(link, now)
            return
        if self.state == "connecting":
            self._asked = link.node
            if not self._finish_connect(now):
                return
        for _ in range(READS):
            if not self._selector.select(0):
                break
            try:
                data = self._sock.recv(READ_SIZE)
            except (BlockingIOError, InterruptedError):
                break
            except OSError as error:
                self._lost(now, why(error))
                return
            if not data:
                self._lost(now, "the host closed the connection")
                return
            self.bytes_in += len(data)
            if self.state == "greeting":
                data = self._greeting(data, link, now)
                if self.state != "linked":
                    return
            if data:
                link.feed(data, now)
        if self.state == "linked":
            data = link.output()
            if data and len(self._out) + len(data) <= OUT_LIMIT:
                self._out += data
        else:
            link.output()
        self._flush(now)

    def disconnect(self, now):
        """Drop the connection as a Wi-Fi drop would; the pump connects again after
        ``retry_ms``."""
        if self._sock is not None:
            self._lost(now, "disconnected")

    def close(self):
        """Leave for good."""
        self._shut()
        self.state = "closed"
        self._selector.close()

    # -- inside -----------------------------------------------------------------------------

    def _connect(self, link, now):
        self._asked = link.node
        self._retry_at = now + self.retry_ms
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.connect_ex((self.host, self.port))
        except OSError as error:  # a name that does not resolve
            sock.close()
            self.reason = "cannot join %s:%d: %s" % (self.host, self.port, why(error))
            return
        self._opened(sock, connected=False)

    def _opened(self, sock, connected):
        sock.setblocking(False)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass
        self._sock = sock
        self._line = bytearray()
        self._out = bytearray()
        self.state = "connecting"
        if connected:
            self._greet()

    def _finish_connect(self, now):
        _, ready, _ = select.select([], [self._sock], [], 0)
        if not ready:
            return False
        error = self._sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        if error:
            self.reason = "cannot join %s:%d: %s" % (self.host, self.port,
                                                     why(OSError(error, "")))
            self._shut()
            self._retry_at = now + self.retry_ms
            return False
        self._greet()
        return True

    def _greet(self):
        self._selector.register(self._sock, selectors.EVENT_READ)
        self.connections += 1
        self.state = "greeting"
        self._out += join_line(self._asked)

    def _greeting(self, data, link, now):
        line = self._line
        line += data
        end = line.find(b"\n")
        if end < 0:
            if len(line) > MAX_LINE:
                self._refused("that is not a Rolit host")
            return b""
        what, value = read_greeting(line[:end].decode("ascii", "replace"))
        rest = bytes(line[end + 1:])
        self._line = bytearray()
        if what == "node":
            self.node = value
            self.state = "linked"
            self.reason = ""
            link.output()  # what it said while unlinked is stale
            return rest
        if "still linked" in value:
            # Back after a drop the host has not noticed yet (a half-open connection it hears
            # nothing on): the node is given back once the old connection is closed or silent.
            self._lost(now, value)
            return b""
        self._refused(value)
        return b""

    def _refused(self, words):
        self._shut()
        self.state = "refused"
        self.reason = words

    def _flush(self, now):
        if not self._out:
            return
        try:
            sent = self._sock.send(self._out)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            self._lost(now, why(error))
            return
        self.bytes_out += sent
        del self._out[:sent]

    def _lost(self, now, why):
        self._shut()
        self.state = "connecting"
        self.reason = "link lost: %s" % why
        self._retry_at = now + self.retry_ms

    def _shut(self):
        if self._sock is None:
            return
        try:
            self._selector.unregister(self._sock)
        except (KeyError, ValueError):
            pass
        self._sock.close()
        self._sock = None
