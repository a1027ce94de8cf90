"""The hosting simulator's hub: up to three joiners over TCP or WebSocket in one virtual ring.

>>> hub = NetHost(8765)                 # listens on every address, port 8765
>>> print("\\n".join(hub.describe()))   # what it listens on
>>> hub.pump(link, now_ms)              # every frame, as UartLink.pump: bytes in, bytes out

One port carries all of it: a connection that opens with ``ROLIT-LINK`` is a joiner on plain
TCP (sim.net.wire), an HTTP request with ``Upgrade: websocket`` to ``/link`` is a browser
joining, and any other GET is a file of the web edition (``build/web``).

The ring (docs/network.md): the host is node 0 and holds places 1-3 for the joiners; the ring
is as big as the highest place taken + 1. The hub routes it as a star, every node seeing what
it would on a ring 0 -> 1 -> 2 -> 3 -> 0: a frame a node sends (its own, hops untouched) goes
straight to its destination, a broadcast to every other node and back to its sender, each copy
with the hops left that it would have after going round the ring from its sender to that node.
So a joiner in place n learns n as its node number from the host's broadcast, a free place
below it or not, and the host counts the ring from its own HELLO coming back. What a node
passes on is dropped: the hub has delivered it already. A joiner coming back asks for its node
and gets its place again. A new joiner takes the lowest free place that fits the host's game
as its HELLO tells it: one holding no seat while the lobby has a seat open, else one whose node
holds a seat (so it takes over the seat of a player who left: the host sees that node join
again and sends it the state).

A handheld on a cable takes a place too (:meth:`NetHost.add_cable`): a serial port to a
handheld's USB data channel or to a USB-serial adapter on its link pins (``sim.net.serial``),
or an emulated chip's UART (``sim.net.emulated.ChipCable``). It is one more node of the ring,
its frames checked as a socket's, but with no greeting, and it is never dropped: a cable's
noise is only counted, and its silence is the protocol's "link lost". So one game mixes
handhelds, emulated chips, simulators and pages, up to four seats.

Everything from a socket is hostile. The hub reads whole frames only, checks each as the link
would, and delivers only those sent by the node in that place; one it passes on must have the
hops left that its source gives it, and goes no further. A peer that sends more than ``RATE``
bytes a second (``BURST`` at once), more bad frames than ``BAD_LIMIT``, nothing for
``SILENT_MS``, or that stops reading, is dropped, and its place is freed. Nothing it sends
reaches the host's link but checked frames, so the match is only ever changed by the protocol.
"""

import json
import os
import posixpath
import selectors
import socket
from urllib.parse import parse_qs, unquote, urlsplit

from rolit_core.link import EVERYONE, MAX_NODES, cobs_decode, with_hops
from rolit_core.lockstep import HELLO, LOBBY, LOCAL

from .wire import (DEFAULT_PORT, MAGIC, MAX_LINE, TRANSPORT, Budget, FrameReader, NetError,
                   frame_fields, node_line, read_join, refused_line, why)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WEB_FOLDER = os.path.join(ROOT, "build", "web")

PLACES = MAX_NODES - 1   # joiners
INFO_PATH = "/link/info"  # the page asks it whether its server hosts a game
RATE = 16384             # bytes a second from one peer on average (a game: 608, bench net)
BURST = 32768            # and at once
BAD_LIMIT = 16           # bad frames, each forgiven after BAD_FORGIVE_MS
BAD_FORGIVE_MS = 500
SILENT_MS = 5000         # a joiner that sends nothing this long is gone (the host beats every 250)
TAKEOVER_MS = 2000       # a joiner coming back may take its place from a connection this silent
GREET_MS = 5000          # a new connection says who it is within this
READ_SIZE = 16384        # bytes read from one socket in one pump at the most
OUT_LIMIT = 65536        # bytes waiting for a joiner that does not read: then it is dropped
HEAD_LIMIT = 8192        # an HTTP request head
LINGER_MS = 30000        # a connection being closed, silent this long, is closed unread
MAX_CONNECTIONS = 24     # at once, joiners, browsers fetching files and newcomers together
MAX_MESSAGE = 16384      # a WebSocket message
MAX_FILE = 8 << 20       # a file served
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".wasm": "application/wasm", ".png": "image/png", ".txt": "text/plain; charset=utf-8",
         ".json": "application/json", ".ico": "image/x-icon", ".svg": "image/svg+xml"}
_METHODS = (b"GET ", b"HEAD ")

try:
    from websockets.frames import Opcode
    from websockets.protocol import State
    from websockets.server import ServerProtocol
except ImportError:  # pragma: no cover - the pinned requirements have it
    ServerProtocol = None


class _Peer:
    # One connection: a newcomer, a joiner (tcp or ws) or a browser fetching a file.
    def __init__(self, sock, address, now):
        self.sock = sock
        self.address = "%s:%d" % address[:2]
        self.kind = None          # None (has not said), "tcp", "ws", "http"
        self.head = bytearray()
        self.out = bytearray()
        self.closing = False      # close once ``out`` is sent
        self.opened = now
        self.last_in = now
        self.place = None
        self.ws = None
        self.ws_text = False      # the WebSocket message being read is text
        self.reader = FrameReader()
        self.frames = []          # checked frames it sent, to deliver: (encoded, fields)
        self.budget = Budget(RATE, BURST, now)
        self.bad = 0
        self.bad_at = now


class _CableEnd:
    # What a cable (anything with ``pump(link, now)``, as hardware.uartlink.UartLink) sees of
    # the hub: a link to feed the handheld's bytes to and take the bytes for it from.
    def __init__(self, hub, peer):
        self._hub = hub
        self._peer = peer

    def feed(self, data, now):
        peer = self._peer
        if data and peer.place is not None:
            peer.last_in = now
            self._hub._frames(peer, bytes(data), now)

    def output(self, limit=OUT_LIMIT):
        out = self._peer.out
        taken = bytes(out[:limit])
        del out[:limit]
        return taken

    def waiting_output(self):
        return len(self._peer.out)


class NetHost:
    """The hub on ``port`` (0: any free one) of ``address`` ("" for every address of this
    machine, "127.0.0.1" for this machine only). ``web``: the folder of the web edition served
    over HTTP on the same port (``None``: none). Raises :class:`NetError` in one line when the
    port cannot be had."""

    def __init__(self, port=DEFAULT_PORT, address="", web=WEB_FOLDER):
        if type(port) is not int or not 0 <= port <= 65535:
            raise NetError("port must be 0-65535, not %r" % (port,))
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind((address, port))
            listener.listen(8)
            listener.setblocking(False)
        except OSError as error:
            listener.close()
            raise NetError("cannot host on port %d: %s" % (port, why(error))) from None
        self._listener = listener
        self.address = address
        self.port = listener.getsockname()[1]
        self.web = web
        self._selector = selectors.DefaultSelector()
        self._selector.register(listener, selectors.EVENT_READ, None)
        self._peers = []
        self._places = [None] * (PLACES + 1)     # index = node; 0 is the host itself
        self._own = FrameReader()                # the host's link's frames, to deliver
        self._seats = None                       # the node of each seat, as the host said
        self.log = []                            # lines for the user: who joined, who was dropped
        self.dropped = 0
        self._cables = []                        # the places' peers that are cables
        self.cable_noise = 0                     # bad frames from cables, past BAD_LIMIT

    # -- what the user sees -----------------------------------------------------------------

    def describe(self):
        """Lines saying what the hub listens on and how to join it."""
        names = _addresses() if self.address in ("", "0.0.0.0") else [self.address]
        lines = ["hosting a linked game on port %d" % self.port]
        for name in names:
            lines.append("  join: python -m sim --join %s:%d" % (name, self.port))
        for name in names:
            if self.web is not None:
                lines.append("  in a browser: http://%s:%d/" % (name, self.port))
        for peer in self._cables:
            lines.append("  node %d: the handheld on %s (it joins from its menu)"
                         % (peer.place, peer.address))
        return lines

    def info(self):
        """What ``GET /link/info`` answers, as JSON: that this server hosts a linked game (the
        page offers to join it), the network link's version, and how many have joined."""
        return json.dumps({"rolit_link": TRANSPORT, "path": "/link",
                           "joiners": len(self.joiners()), "places": PLACES})

    def joiners(self):
        """``[(node, address, "tcp", "ws" or "cable")]`` of the joiners in the ring now."""
        return [(node, peer.address, peer.kind) for node, peer in enumerate(self._places)
                if peer is not None and node]

    def add_cable(self, cable, name, now=0):
        """Give the handheld on ``cable`` (anything with ``pump(link, now)`` and ``close()``:
        ``sim.net.serial.SerialLink``, ``sim.net.emulated.ChipCable``) the lowest free place,
        for as long as the hub runs; ``name`` says where it is in the log and ``joiners()``.
        Returns its node; raises :class:`NetError` when every place is taken."""
        free = [node for node in range(1, PLACES + 1) if self._places[node] is None]
        if not free:
            raise NetError("no place left for the handheld on %s: the game is full" % name)
        peer = _Peer(None, (name, 0), now)
        peer.address = name
        peer.kind = "cable"
        peer.cable = cable
        peer.end = _CableEnd(self, peer)
        peer.place = free[0]
        self._places[free[0]] = peer
        self._cables.append(peer)
        self.log.append("node %d: the handheld on %s" % (free[0], name))
        return free[0]

    def take_log(self):
        """The lines logged since the last call."""
        lines = self.log
        self.log = []
        return lines

    def close(self):
        """Close every connection and cable, and stop listening."""
        for peer in list(self._peers):
            self._close(peer)
        for peer in self._cables:
            peer.cable.close()
        self._selector.close()
        self._listener.close()

    # -- the pump ---------------------------------------------------------------------------

    def pump(self, link, now):
        """Take new connections, read what came, deliver the ring's frames (``link``'s to the
        joiners, theirs to ``link`` and to each other), write what waits. Never blocks."""
        for peer in self._cables:
            peer.cable.pump(peer.end, now)
        for key, _ in self._selector.select(0):
            if key.data is None:
                self._accept(now)
            else:
                try:
                    self._read(key.data, now)
                except Exception as error:  # a fault of the hub's own: that peer goes, not the game
                    self._drop(key.data, "internal error: %r" % (error,))
        for peer in list(self._peers):
            if peer.kind is None and now - peer.opened >= GREET_MS:
                self._drop(peer, "said nothing")
            elif peer.place is not None and now - peer.last_in >= SILENT_MS:
                self._drop(peer, "went silent")
            elif peer.closing and now - peer.last_in >= LINGER_MS:
                self._close(peer)
        self._route(link, now)
        for peer in list(self._peers):
            self._write(peer)
        for peer in self._cables:
            peer.cable.pump(peer.end, now)  # what the ring said to it, on its way now

    def _route(self, link, now):
        size = self._top() + 1
        bound = [bytearray() for _ in range(size)]   # what each node is sent in this pump
        for encoded in self._own.feed(link.output()):
            fields = frame_fields(encoded) if encoded is not None else None
            if fields is None:
                continue
            self._watch(fields)
            # Its own frames (hops untouched) from place 0, whatever their source: the
            # self-test's probe has one of its own. What it passes on was delivered already.
            if fields[1] == MAX_NODES:
                self._deliver(encoded, fields[3], 0, size, bound)
        for node in range(1, size):
            peer = self._places[node]
            if peer is not None:
                for encoded, fields in peer.frames:
                    self._deliver(encoded, fields[3], node, size, bound)
                peer.frames = []
        if bound[0]:
            link.feed(bytes(bound[0]), now)
        for node in range(1, size):
            if bound[node]:
                self._send(self._places[node], bytes(bound[node]))

    def _deliver(self, encoded, destination, origin, size, bound):
        # A frame sent from place ``origin``, to each node it is for, as a ring would bring it:
        # after d hops from its sender (d = size back at the sender), with MAX_NODES + 1 - d
        # hops left, its CRC sealed again.
        if destination == EVERYONE:
            targets = [node for node in range(size)
                       if node == 0 or self._places[node] is not None]
        elif destination != origin and destination < size \
                and (destination == 0 or self._places[destination] is not None):
            targets = (destination,)
        else:
            return  # for nobody on the ring: it would go round to its sender, who drops it
        body = cobs_decode(encoded, len(encoded))
        for node in targets:
            hops = MAX_NODES + 1 - ((node - origin) % size or size)
            bound[node] += with_hops(body, hops)

    def _watch(self, fields):
        # Which nodes hold a seat in the host's game: a newcomer is given a place by it.
        if fields[0] == HELLO and fields[2] == 0 and len(fields[4]) >= 15:
            payload = fields[4]
            self._seats = (payload[5] == LOBBY and LOCAL in payload[11:15],
                           tuple(payload[11:15]))

    def _top(self):
        for node in range(PLACES, 0, -1):
            if self._places[node] is not None:
                return node
        return 0

    # -- connections ------------------------------------------------------------------------

    def _accept(self, now):
        while True:
            try:
                sock, address = self._listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:  # out of descriptors, a reset before accept
                self.log.append("a connection could not be taken: %s" % why(error))
                return
            if len(self._peers) >= MAX_CONNECTIONS:
                sock.close()
                self.dropped += 1
                continue
            sock.setblocking(False)
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass
            peer = _Peer(sock, address, now)
            self._peers.append(peer)
            self._selector.register(sock, selectors.EVENT_READ, peer)

    def _read(self, peer, now):
        if peer.closing:
            try:
                peer.sock.recv(READ_SIZE)  # what a refused peer still sends is not read
            except OSError:
                pass
            return
        try:
            data = peer.sock.recv(READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            self._drop(peer, why(error))
            return
        if not data:
            self._drop(peer, "closed the connection")
            return
        peer.last_in = now
        if not peer.budget.take(len(data), now):
            self._drop(peer, "sent more than %d bytes a second" % RATE)
            return
        if peer.kind is None:
            self._greet(peer, data, now)
        elif peer.kind == "tcp":
            self._frames(peer, data, now)
        elif peer.kind == "ws":
            self._ws_in(peer, data, now)
        # "http": one request per connection, the rest is not read

    def _greet(self, peer, data, now):
        head = peer.head
        head += data
        if head.startswith(MAGIC) or MAGIC.startswith(bytes(head)):
            end = head.find(b"\n")
            if end < 0:
                if len(head) > MAX_LINE:
                    self._drop(peer, "sent no greeting")
                return
            node, problem = read_join(bytes(head[:end]))
            rest = bytes(head[end + 1:])
            peer.head = bytearray()
            peer.kind = "tcp"
            if problem:
                self._refuse(peer, problem)
                return
            self._seat(peer, node, now)
            if rest and not peer.closing:
                self._frames(peer, rest, now)
            return
        if any(head.startswith(m) or m.startswith(bytes(head)) for m in _METHODS):
            end = head.find(b"\r\n\r\n")
            if end < 0:
                if len(head) > HEAD_LIMIT:
                    self._drop(peer, "sent an HTTP request too long")
                return
            self._http(peer, bytes(head[:end + 4]), now)
            return
        self._drop(peer, "is not a Rolit joiner nor a browser")

    def _seat(self, peer, wanted, now):
        place, words = self._place_for(wanted, now)
        if place is None:
            self._refuse(peer, words)
            return
        old = self._places[place]
        if old is not None:
            self._drop(old, "replaced by a new connection for node %d" % place)
        self._places[place] = peer
        peer.place = place
        self._say(peer, node_line(place))
        self.log.append("node %d joined from %s (%s)" % (place, peer.address, peer.kind))

    def _place_for(self, wanted, now):
        if wanted is not None:
            holder = self._places[wanted]
            if holder is not None and holder.kind == "cable":
                return None, "node %d is a handheld on a cable" % wanted
            if holder is None or now - holder.last_in >= TAKEOVER_MS:
                return wanted, None
            return None, "node %d is still linked from another connection" % wanted
        free = [node for node in range(1, PLACES + 1) if self._places[node] is None]
        if not free:
            return None, "the game is full"
        if self._seats is not None:
            # A seat open in the lobby: a place holding none. Else take over the seat of a
            # player who left (the host sees that node join again and gives it the state).
            open_seat, nodes = self._seats
            for node in free:
                if (node in nodes) != open_seat:
                    return node, None
        return free[0], None

    def _refuse(self, peer, words):
        self._say(peer, refused_line(words))
        if peer.ws is not None:
            peer.ws.send_close(1008, words[:100])
            self._ws_out(peer)
        peer.closing = True
        self.log.append("refused %s: %s" % (peer.address, words))

    def _say(self, peer, line):
        if peer.kind == "ws":
            peer.ws.send_text(line.encode())
            self._ws_out(peer)
        else:
            peer.out += line.encode() + b"\n"

    def _frames(self, peer, data, now):
        size = self._top() + 1
        place = peer.place
        for encoded in peer.reader.feed(data):
            fields = frame_fields(encoded) if encoded is not None else None
            if fields is not None:
                hops, source = fields[1], fields[2]
                if source == place and hops == MAX_NODES:
                    peer.frames.append((encoded, fields))  # sent by the node in this place
                    continue
                if source < size and hops == MAX_NODES - (place - source) % size:
                    continue  # passed on after as many hops as lie between: delivered already
            if now - peer.bad_at >= BAD_FORGIVE_MS:
                forgiven = (now - peer.bad_at) // BAD_FORGIVE_MS
                peer.bad = max(0, peer.bad - forgiven)
                peer.bad_at = now
            peer.bad += 1
            if peer.bad > BAD_LIMIT:
                if peer.kind == "cable":  # noise on a wire: counted, the handheld stays
                    self.cable_noise += peer.bad
                    peer.bad = 0
                    continue
                self._drop(peer, "sent bad frames")
                return

    def _send(self, peer, data):
        if peer.closing:
            return
        if peer.kind == "ws":
            if peer.ws.state is not State.OPEN:
                return
            peer.ws.send_binary(data)
            self._ws_out(peer)
        else:
            peer.out += data
        if len(peer.out) > OUT_LIMIT:
            if peer.kind == "cable":  # a cable that cannot take it: dropped, as on a full UART
                del peer.out[:len(peer.out) - OUT_LIMIT]
                return
            self._drop(peer, "does not read what is sent")

    def _write(self, peer):
        if peer.out:
            try:
                sent = peer.sock.send(peer.out)
            except (BlockingIOError, InterruptedError):
                sent = 0
            except OSError as error:
                self._drop(peer, why(error))
                return
            del peer.out[:sent]
        if peer.closing and not peer.out:
            self._close(peer)

    def _drop(self, peer, why):
        if peer.place is not None:
            self.log.append("node %d (%s) left: %s" % (peer.place, peer.address, why))
        elif peer.kind != "http":
            self.log.append("dropped %s: %s" % (peer.address, why))
        self._close(peer)

    def _leave(self, peer, why):
        # Out of the ring now, the socket closed once what waits (a close frame) is sent.
        if peer.place is not None:
            self.log.append("node %d (%s) left: %s" % (peer.place, peer.address, why))
            self._free(peer)
        peer.closing = True

    def _free(self, peer):
        if peer.place is not None and self._places[peer.place] is peer:
            self._places[peer.place] = None
        peer.place = None

    def _close(self, peer):
        if peer not in self._peers:
            return
        self._peers.remove(peer)
        self._free(peer)
        try:
            self._selector.unregister(peer.sock)
        except (KeyError, ValueError):
            pass
        peer.sock.close()

    # -- WebSocket ---------------------------------------------------------------------------

    def _ws_in(self, peer, data, now):
        ws = peer.ws
        ws.receive_data(data)
        stream = []
        for event in ws.events_received():
            opcode = getattr(event, "opcode", None)
            if opcode is Opcode.BINARY or (opcode is Opcode.CONT and not peer.ws_text):
                peer.ws_text = False
                stream.append(event.data)
            elif opcode is Opcode.TEXT or opcode is Opcode.CONT:
                peer.ws_text = True  # a joiner says nothing in text after the greeting
        self._ws_out(peer)
        if ws.state is State.CLOSING or ws.state is State.CLOSED:
            self._leave(peer, "closed the connection" if getattr(ws, "close_rcvd", None)
                        else "broke the WebSocket protocol")
            return
        if stream:
            self._frames(peer, b"".join(stream), now)

    def _ws_out(self, peer):
        for chunk in peer.ws.data_to_send():
            if chunk:
                peer.out += chunk
            else:
                peer.closing = True

    # -- HTTP: the web edition's files, and the WebSocket handshake ---------------------------

    def _http(self, peer, head, now):
        lines = head.split(b"\r\n")
        parts = lines[0].split(b" ")
        headers = {}
        for line in lines[1:]:
            name, sep, value = line.partition(b":")
            if sep:
                headers[name.strip().lower()] = value.strip().lower()
        if len(parts) != 3 or not parts[2].startswith(b"HTTP/1."):
            self._drop(peer, "sent a bad HTTP request")
            return
        try:
            target = parts[1].decode("ascii")
        except UnicodeDecodeError:
            target = "?"
        if b"websocket" in headers.get(b"upgrade", b""):
            self._ws_open(peer, head, target, now)
            return
        peer.kind = "http"
        if urlsplit(target).path == INFO_PATH:
            peer.closing = True
            peer.out += _response(200, "application/json", self.info().encode("ascii"),
                                  parts[0] == b"HEAD")
            return
        self._serve_file(peer, parts[0].decode("ascii"), target)

    def _ws_open(self, peer, head, target, now):
        peer.kind = "ws"
        ws = ServerProtocol(max_size=MAX_MESSAGE)
        peer.ws = ws
        ws.receive_data(head)
        request = None
        for event in ws.events_received():
            request = event
        url = urlsplit(target)
        if request is None or url.path != "/link":
            peer.kind = "http"
            peer.ws = None
            peer.out += _response(404, "text/plain; charset=utf-8",
                                  b"the link is at /link\n", False)
            peer.closing = True
            return
        response = ws.accept(request)
        ws.send_response(response)
        self._ws_out(peer)
        if response.status_code != 101:
            peer.closing = True
            return
        wanted = None
        asked = parse_qs(url.query).get("node")
        if asked and asked[0] in ("1", "2", "3"):
            wanted = int(asked[0])
        self._seat(peer, wanted, now)

    def _serve_file(self, peer, method, target):
        peer.closing = True
        path = unquote(urlsplit(target).path)
        if self.web is None:
            peer.out += _response(404, "text/plain; charset=utf-8",
                                  b"this host serves no web page\n", method == "HEAD")
            return
        if path.endswith("/"):
            path += "index.html"
        clean = posixpath.normpath(path)
        if ".." in clean.split("/") or "\0" in clean or "\\" in clean:
            peer.out += _response(404, "text/plain; charset=utf-8", b"no such file\n",
                                  method == "HEAD")
            return
        folder = os.path.realpath(self.web)
        file = os.path.realpath(os.path.join(folder, clean.lstrip("/")))
        if not file.startswith(folder + os.sep) or not os.path.isfile(file):
            words = b"no such file\n" if os.path.isdir(folder) else \
                b"the web edition is not built on this host (make web)\n"
            peer.out += _response(404, "text/plain; charset=utf-8", words, method == "HEAD")
            return
        try:
            if os.path.getsize(file) > MAX_FILE:
                raise OSError("too large")
            with open(file, "rb") as handle:
                body = handle.read()
        except OSError:
            peer.out += _response(500, "text/plain; charset=utf-8", b"cannot read it\n",
                                  method == "HEAD")
            return
        kind = TYPES.get(os.path.splitext(file)[1].lower(), "application/octet-stream")
        peer.out += _response(200, kind, body, method == "HEAD")


_STATUS = {200: "OK", 404: "Not Found", 500: "Internal Server Error"}


def _response(status, kind, body, head_only):
    # X-Rolit-Link: the page asks its own address (HEAD) whether its server hosts a game,
    # which any server answers without an error in the browser's console.
    top = ("HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n"
           "Cache-Control: no-store\r\nX-Rolit-Link: %d\r\nConnection: close\r\n\r\n"
           % (status, _STATUS[status], kind, len(body), TRANSPORT)).encode("ascii")
    return top if head_only else top + body


def _addresses():
    # This machine's addresses others can reach, found without sending anything: the address a
    # UDP socket would use toward a LAN address (connect on UDP sends no packet), and loopback.
    found = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, nothing is sent
        found.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    if "127.0.0.1" not in found:
        found.append("127.0.0.1")
    return found
