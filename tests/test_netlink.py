"""The network link (sim.net): a hosting simulator and joiners over real loopback sockets play
rolit_core.lockstep matches to the end on identical boards, whatever joins, leaves, floods or
lies on the socket."""

import os
import random
import select
import socket
import time

import pytest

from rolit_core import Match
from rolit_core.link import Link, MAX_FRAME, frame
from rolit_core import lockstep
from rolit_core.lockstep import LOCAL, Guest, Host, position_check
from sim.net import NetError, NetHost, NetJoin, parse_address
from sim.net import host as hub_module
from sim.net.wire import FrameReader, frame_fields, join_line, read_greeting, read_join

LOOPBACK = "127.0.0.1"


def _local_replay(players, size, rounds, seed, played):
    match = Match(rounds, players, size, seed=seed)
    for number, cell in played:
        if number != match.round:
            match.next_round()
        match.game.play(cell)
    return match


class Seat:
    """A joining simulator: its link, its lockstep guest and its connection."""

    def __init__(self, port, wait=True):
        self.link = Link()
        self.guest = Guest(self.link)
        self.cable = NetJoin(LOOPBACK, port, wait=wait, retry_ms=200)
        self.guest.join()


class NetTable:
    """A hub hosting a match (seat 0 plays on the host) and ``joiners`` simulators, on a clock
    of 10 ms a step. Loopback delivers what is sent before the next step."""

    def __init__(self, players, joiners, seed=0, size=6, rounds=1, web=None):
        self.hub = NetHost(0, LOOPBACK, web=web)
        self.now = 1000
        self.rng = random.Random(seed)
        self.seed = seed
        self.players = players
        self.size = size
        self.rounds = rounds
        self.match = Match(rounds, players, size, seed=seed)
        self.host_link = Link()
        nodes = [0] + [LOCAL] * (players - 1)
        self.host = Host(self.host_link, self.match, ["human"] * players, nodes, 0x4321 + seed)
        self.seats = [Seat(self.hub.port) for _ in range(joiners)]
        self.played = []
        self.round_over_at = None
        self.log = []
        self.hold_guest = False   # the guests' players do not move
        self.asleep = set()       # seats whose machine sleeps: not pumped, not updated

    def close(self):
        assert not [line for line in self.log if "internal error" in line], self.log
        for seat in self.seats:
            seat.cable.close()
        self.hub.close()

    @property
    def guests(self):
        return [seat.guest for seat in self.seats]

    def step(self, ms=10, play=True):
        now = self.now
        self.hub.pump(self.host_link, now)
        awake = [seat for index, seat in enumerate(self.seats) if index not in self.asleep]
        for seat in awake:
            seat.cable.pump(seat.link, now)
        for session in [self.host] + [seat.guest for seat in awake]:
            session.update(now)
            for event in session.take_events():
                if session is self.host and event[0] == "move":
                    self.played.append((self.match.round, event[1]))
        self.log += self.hub.take_log()
        if play:
            self._play()
        self.now += ms

    def _play(self):
        host = self.host
        match = self.match
        if host.phase != lockstep.PLAYING:
            return
        if match.game.over:
            if match.over:
                return
            if self.round_over_at is None:
                self.round_over_at = self.now
            elif self.now - self.round_over_at > 300:
                host.next_round()
                self.round_over_at = None
            return
        seat = host.seat_to_move()
        if host.nodes[seat] == 0:
            host.play(self.rng.choice(match.game.legal_moves()))
            return
        for index, guest in enumerate(self.guests):
            if self.hold_guest:
                break
            if index in self.asleep:
                continue
            if guest.seat == seat and guest.match is not None and not guest.match.game.over \
                    and guest.phase == lockstep.PLAYING:
                moves = guest.match.game.legal_moves()
                if moves:
                    guest.play(self.rng.choice(moves))

    def seat_everyone(self, limit=1000):
        for _ in range(limit):
            self.step(play=False)
            if self.host.seated():
                break
        assert self.host.seated(), ([g.phase_name for g in self.guests], self.log)
        self.host.start()

    def run(self, limit=20000):
        for _ in range(limit):
            self.step()
            if self.match.over and self.caught_up():
                return
        raise AssertionError("the match did not end: host %s, guests %s, log %s" % (
            self.host.phase_name, [g.phase_name for g in self.guests], self.log))

    def caught_up(self):
        for guest in self.guests:
            if guest.match is None or position_check(guest.match) != position_check(self.match) \
                    or guest.match.game.moves != self.match.game.moves:
                return False
        return True

    def assert_same_boards(self):
        local = _local_replay(self.players, self.size, self.rounds, self.seed, self.played)
        for session in [self.host] + self.guests:
            assert session.match.game.board == local.game.board
            assert session.match.game.moves == local.game.moves
            assert session.match.rounds_won == local.rounds_won
            assert session.match.points == local.points


@pytest.fixture
def tables():
    made = []

    def make(*args, **kwargs):
        table = NetTable(*args, **kwargs)
        made.append(table)
        return table
    yield make
    for table in made:
        table.close()


@pytest.mark.parametrize("joiners,rounds", [(1, 2), (2, 1), (3, 1)])
def test_a_host_and_joiners_over_sockets_end_the_match_on_the_same_board(tables, joiners,
                                                                          rounds):
    table = tables(joiners + 1, joiners, seed=joiners, rounds=rounds)
    table.seat_everyone()
    assert [seat.cable.node for seat in table.seats] == list(range(1, joiners + 1))
    assert [seat.link.node for seat in table.seats] == list(range(1, joiners + 1))
    assert [node for node, _, kind in table.hub.joiners()] == list(range(1, joiners + 1))
    table.run()
    assert table.match.over
    table.assert_same_boards()
    assert table.host.ring == joiners + 1  # the host's hello went round every joiner


def test_a_joiner_that_drops_comes_back_as_its_node_and_resyncs(tables):
    table = tables(3, 2, seed=4)
    table.seat_everyone()
    for _ in range(150):
        table.step()
        if len(table.played) >= 16:   # half the round: it drops mid-game
            break
    assert not table.match.game.over
    first = table.seats[0]
    first.cable.retry_ms = 2500   # the Wi-Fi is back after 2.5 s
    first.cable.disconnect(table.now)
    moves = len(table.played)
    for _ in range(200):  # 2 s: the host and the other joiner say "link lost"
        table.step()
        if table.host.phase == lockstep.LOST:
            break
    assert table.host.phase == lockstep.LOST
    assert any("node 1" in line and "left" in line for line in table.log), table.log
    table.run()
    assert first.cable.connections == 2 and first.cable.node == 1
    assert len(table.played) > moves
    table.assert_same_boards()


@pytest.mark.parametrize("sleep_ms", [3000, 6500])
def test_a_laptop_that_sleeps_with_its_socket_open_pauses_everyone_within_2_s(tables,
                                                                              sleep_ms):
    # A laptop that sleeps (or a Wi-Fi that stops carrying packets) closes nothing: its
    # socket stays open and is simply silent. Every other seat says "link lost" within 2 s
    # and no move is played meanwhile; back before the hub's SILENT_MS it goes on on the same
    # connection, back after it connects again as its node; either way it resyncs.
    table = tables(3, 2, seed=5)
    table.seat_everyone()
    for _ in range(120):
        table.step()
        if len(table.played) >= 12:   # it sleeps mid-game
            break
    assert table.host.phase == lockstep.PLAYING and len(table.played) >= 3
    assert not table.match.game.over
    sleeper, other = table.seats
    table.asleep = {0}
    slept_at = table.now
    lost_at = {}
    while table.now - slept_at < sleep_ms:
        table.step()
        for name, session in (("host", table.host), ("other joiner", other.guest)):
            if session.phase == lockstep.LOST and name not in lost_at:
                lost_at[name] = table.now - slept_at
                moves = len(table.match.game.moves)
        if len(lost_at) == 2:
            # paused: the host refuses its own move, in words, and nothing is played
            if table.host.seat_to_move() == 0:
                assert table.host.play(table.match.game.legal_moves()[0]) == \
                    "the game is paused"
            assert len(table.match.game.moves) == moves
    assert sorted(lost_at) == ["host", "other joiner"], lost_at
    assert max(lost_at.values()) <= 2000, lost_at
    assert table.host.phase == lockstep.LOST and other.guest.phase == lockstep.LOST
    went_silent = any("node 1" in line and "went silent" in line for line in table.log)
    assert went_silent == (sleep_ms > hub_module.SILENT_MS), table.log
    table.asleep = set()   # it wakes: its clock has jumped, its socket may be gone
    table.run()
    assert sleeper.cable.node == 1
    assert sleeper.cable.connections == (2 if sleep_ms > hub_module.SILENT_MS else 1)
    table.assert_same_boards()


def test_a_new_simulator_takes_the_place_of_one_that_left_and_resyncs(tables):
    table = tables(2, 1, seed=6)
    table.seat_everyone()
    for _ in range(200):
        table.step()
    table.seats[0].cable.close()      # that laptop is gone for good
    table.seats[0] = Seat(table.hub.port)   # another takes its seat, from nothing
    table.run()
    assert table.seats[0].link.node == 1
    table.assert_same_boards()


def test_the_ring_stays_numbered_when_a_middle_joiner_leaves(tables):
    # Node 1 leaves: node 2 keeps its place, still two nodes from the host on the ring, and a
    # newcomer is told node 1 again.
    table = tables(3, 2, seed=2)
    table.seat_everyone()
    table.seats[0].cable.close()
    for _ in range(30):
        table.step(play=False)
    assert [node for node, _, _ in table.hub.joiners()] == [2]
    newcomer = Link()
    cable = NetJoin(LOOPBACK, table.hub.port)
    for _ in range(60):
        table.step(play=False)
        cable.pump(newcomer, table.now)
    assert cable.node == 1
    cable.close()


class RawJoiner:
    """A joiner on a bare socket that passes nothing on: what reaches it came from the hub."""

    def __init__(self, hub, host_link, clock, wish=None):
        self.sock = socket.create_connection((LOOPBACK, hub.port), timeout=2)
        self.sock.sendall(join_line(wish))
        self.link = Link()
        got = b""
        for _ in range(200):
            clock[0] += 10
            hub.pump(host_link, clock[0])
            got += self.read(0.005)
            if b"\n" in got:
                break
        line, _, self.rest = got.partition(b"\n")
        what, self.node = read_greeting(line.decode())
        assert what == "node", line

    def read(self, wait=0.3):
        """The bytes that have come, waiting up to ``wait`` s for the first."""
        got = b""
        ready, _, _ = select.select([self.sock], [], [], wait)
        while ready:
            data = self.sock.recv(65536)
            if not data:
                break
            got += data
            ready, _, _ = select.select([self.sock], [], [], 0.01)
        return got

    def messages(self, wait=0.3, now=0):
        """What its link makes of the bytes that have come."""
        data, self.rest = self.rest + self.read(wait), b""
        self.link.feed(data, now)
        return self.link.receive()


@pytest.fixture
def star():
    # A hub whose host is a bare Link (node 0), and three joiners on bare sockets.
    hub = NetHost(0, LOOPBACK, web=None)
    host_link = Link(0)
    clock = [1000]
    joiners = [RawJoiner(hub, host_link, clock) for _ in range(3)]
    for joiner in joiners:
        joiner.link.node = joiner.node   # as the greeting says (a guest learns it from HELLO)
    yield hub, host_link, joiners, clock
    for joiner in joiners:
        joiner.sock.close()
    hub.close()


def _seen(messages):
    return [(m.source, m.kind, bytes(m.payload), m.broadcast, m.distance) for m in messages]


def test_a_frame_the_host_sends_to_node_3_reaches_it_in_the_same_pump(star):
    # Not round the ring through places 1 and 2: straight there, with the hops left it would
    # have after three hops, so node 3's link sees it 3 nodes away.
    hub, host_link, joiners, clock = star
    assert [joiner.node for joiner in joiners] == [1, 2, 3]
    host_link.tell(3, 9, b"to three")
    hub.pump(host_link, clock[0] + 10)      # once
    assert _seen(joiners[2].messages()) == [(0, 9, b"to three", False, 3)]
    assert joiners[0].read(0.05) == b"" and joiners[1].read(0.05) == b""


def test_the_hub_delivers_each_frame_as_the_ring_would_have_it(star):
    hub, host_link, joiners, clock = star
    one, two, three = joiners
    # a joiner to another: straight there, two hops on the ring from place 1 to place 3
    one.sock.sendall(frame(9, 1, 3, 0, 0, b"one to three"))
    for _ in range(20):
        clock[0] += 10
        hub.pump(host_link, clock[0])
        got = three.messages(0.02)
        if got:
            break
    assert _seen(got) == [(1, 9, b"one to three", False, 2)]
    assert two.read(0.05) == b"" and host_link.receive() == []
    # a broadcast: to every node at its distance round the ring, and back to its sender
    two.sock.sendall(frame(10, 2, 15, 0, 0, b"all"))
    heard = {}
    for _ in range(20):
        clock[0] += 10
        hub.pump(host_link, clock[0])
        for joiner in joiners:
            for message in joiner.messages(0.02):
                heard[joiner.node] = _seen([message])[0]
        for message in host_link.receive():
            heard[0] = _seen([message])[0]
        if len(heard) == 4:
            break
    assert heard == {0: (2, 10, b"all", True, 2), 1: (2, 10, b"all", True, 3),
                     3: (2, 10, b"all", True, 1), 2: (2, 10, b"all", True, 4)}
    # the host's broadcast: each joiner n hops away, and back to the host after the ring
    host_link.broadcast(11, b"hello")
    hub.pump(host_link, clock[0] + 10)
    assert [_seen(joiner.messages()) for joiner in joiners] == \
        [[(0, 11, b"hello", True, n)] for n in (1, 2, 3)]
    hub.pump(host_link, clock[0] + 20)
    assert _seen(host_link.receive()) == [(0, 11, b"hello", True, 4)]


def test_a_frame_a_joiner_passes_on_is_dropped_and_not_counted_bad(star):
    hub, host_link, joiners, clock = star
    one, two, three = joiners
    host_link.broadcast(11, b"hello")
    hub.pump(host_link, clock[0] + 10)
    clock[0] += 10
    data = one.rest + one.read()
    one.rest = b""
    # node 1's link passes the host's broadcast on, as a handheld on a cable does
    passer = Link(1)
    passer.feed(data, clock[0])
    onward = passer.output()
    assert frame_fields(onward[:-1])[1:4] == (3, 0, 15)
    two.read(0.05), three.read(0.05)            # the broadcast itself
    host_link.receive()
    one.sock.sendall(onward * (3 * hub_module.BAD_LIMIT))
    for _ in range(10):
        clock[0] += 10
        hub.pump(host_link, clock[0])
    assert two.read(0.05) == b"" and three.read(0.05) == b""
    assert host_link.receive() == [] and host_link.bad_frames == 0
    assert [node for node, _, _ in hub.joiners()] == [1, 2, 3]
    assert hub._places[1].bad == 0
    assert not [line for line in hub.take_log() if "left" in line]
    # one with hops its source could not give it there is bad, as before
    one.sock.sendall(frame(11, 0, 15, 0, 0, b"hello", hops=2))
    for _ in range(5):
        clock[0] += 10
        hub.pump(host_link, clock[0])
    assert hub._places[1].bad == 1
    assert two.read(0.05) == b"" and host_link.receive() == []


def test_the_host_counts_the_ring_from_its_own_hello_and_joiners_learn_their_node():
    # Only place 3 taken, by a joiner that passes nothing on: it is 3 nodes from the host, and
    # the host's HELLO comes back to it after a ring of 4.
    hub = NetHost(0, LOOPBACK, web=None)
    host_link = Link()
    host = Host(host_link, Match(1, 4, 6, seed=1), ["human"] * 4, [0, LOCAL, LOCAL, LOCAL], 7)
    clock = [1000]
    far = RawJoiner(hub, host_link, clock, wish=3)
    try:
        guest = Guest(far.link)
        for _ in range(60):
            clock[0] += 10
            host.update(clock[0])
            hub.pump(host_link, clock[0])
            far.link.feed(far.rest + far.read(0.005), clock[0])
            far.rest = b""
            guest.update(clock[0])
        assert far.node == 3 and far.link.node == 3
        assert host.ring == 4
        # the wiring self-test's probe (a source of its own, the host's link without a
        # number) comes back after the ring's size too
        host_link.node = None
        host_link.receive()
        host_link.node = 3
        host_link.broadcast(31, b"\x01\x02\x00")
        host_link.node = None
        hub.pump(host_link, clock[0] + 10)
        hub.pump(host_link, clock[0] + 20)
        assert _seen(host_link.receive()) == [(3, 31, b"\x01\x02\x00", True, 4)]
        assert _seen(far.messages()) == [(3, 31, b"\x01\x02\x00", True, 3)]
    finally:
        far.sock.close()
        hub.close()


def test_a_fifth_player_is_refused_in_words(tables):
    table = tables(4, 3)
    table.seat_everyone()
    late = Seat(table.hub.port)
    for _ in range(20):
        table.step(play=False)
        late.cable.pump(late.link, table.now)
    assert late.cable.state == "refused"
    assert late.cable.reason == "the game is full"
    # a raw socket reads the same words, then the host closes it
    with socket.create_connection((LOOPBACK, table.hub.port), timeout=2) as raw:
        raw.sendall(join_line())
        got = _read_until_closed(raw, table)
    assert got == b"ROLIT-LINK 1 refused the game is full\n"
    late.cable.close()
    table.run()
    table.assert_same_boards()


@pytest.mark.parametrize("versions", [(lockstep.PROTOCOL + 1, 1, 0), (lockstep.PROTOCOL, 9, 9)])
def test_a_joiner_of_another_game_version_is_refused_in_words_over_the_socket(tables,
                                                                              versions):
    table = tables(2, 0)
    other = Seat(table.hub.port)
    other.guest.versions = versions
    other.guest.join()
    table.seats.append(other)
    for _ in range(100):
        table.step(play=False)
    assert other.cable.state == "linked"   # the hub let it in: the game refuses it
    assert other.guest.phase_name == "refused"
    assert other.guest.reason == "another version of the game"
    assert not table.host.seated()
    # a joiner of this version then takes the seat, and they play to the end
    table.seats.remove(other)
    other.cable.close()
    table.seats.append(Seat(table.hub.port))
    table.seat_everyone()
    table.run()
    table.assert_same_boards()


def test_a_second_host_joining_over_the_socket_is_refused_in_words(tables):
    # On a cable both hosts are refused. Through the hub only the newcomer is: it hears the
    # host's HELLO and stops, while its own frames, sent as node 0 from place 1, could never
    # pass the hub's check, so the hosting game is not disturbed and goes on.
    table = tables(2, 0)
    link = Link()
    second = Host(link, Match(1, 2, 6, seed=3), ["human"] * 2, [0, LOCAL], 0x77)
    cable = NetJoin(LOOPBACK, table.hub.port, retry_ms=200)
    for _ in range(300):
        table.step(play=False)
        cable.pump(link, table.now)
        second.update(table.now)
    assert second.phase_name == "refused"
    assert second.reason == "another handheld is already hosting"
    assert table.host.phase_name == "lobby" and not table.host.seated()
    cable.close()
    table.seats.append(Seat(table.hub.port))
    table.seat_everyone()
    table.run()
    table.assert_same_boards()


def test_a_busy_port_is_a_one_line_error():
    with socket.socket() as taken:
        taken.bind((LOOPBACK, 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(NetError) as error:
            NetHost(port, LOOPBACK)
    words = str(error.value)
    assert words == "cannot host on port %d: the port is in use" % port
    assert "\n" not in words


def test_a_refused_port_is_a_one_line_error():
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        port = probe.getsockname()[1]   # bound, not listening: nothing answers there
        with pytest.raises(NetError) as error:
            NetJoin(LOOPBACK, port)
    assert str(error.value) == "cannot join 127.0.0.1:%d: connection refused" % port


def test_a_joiner_without_a_host_keeps_trying_and_says_why():
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        port = probe.getsockname()[1]
        cable = NetJoin(LOOPBACK, port, wait=False, retry_ms=100)
        link = Link()
        for now in range(0, 1000, 10):
            cable.pump(link, now)
            time.sleep(0.001)
        assert cable.state == "connecting" and "connection refused" in cable.reason
        cable.close()


def _read_until_closed(raw, table, limit=200):
    raw.setblocking(False)
    got = b""
    for _ in range(limit):
        table.step(play=False)
        try:
            data = raw.recv(4096)
        except BlockingIOError:
            continue
        if not data:
            return got
        got += data
    raise AssertionError("the host did not close the connection: %r" % got)


def _attacker(port, greet=True):
    sock = socket.create_connection((LOOPBACK, port), timeout=2)
    sock.setblocking(False)
    if greet:
        sock.send(join_line())
    return sock


def _send(sock, data):
    try:
        return sock.send(data)
    except (BlockingIOError, BrokenPipeError, ConnectionResetError):
        return 0


def _closed_by_host(sock):
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
    except BlockingIOError:
        return False
    except (ConnectionResetError, BrokenPipeError):
        return True


WHY = {"random": "sent bad frames", "oversized": "sent bad frames",
       "flood": "sent more than 16384 bytes a second", "lies": "sent bad frames",
       "half-open": "said nothing", "silent": "went silent",
       "garbage-greeting": "is not a Rolit joiner", "http-garbage": "HTTP request too long",
       "websocket-garbage": "broke the WebSocket protocol"}
WS_OPEN = (b"GET /link HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
HOSTILE = sorted(WHY)


@pytest.mark.parametrize("attack", HOSTILE)
def test_hostile_bytes_on_the_socket_never_change_a_board_and_are_dropped(tables, attack):
    table = tables(2, 1, seed=8, size=8)
    table.seat_everyone()
    for _ in range(500):
        table.step()          # a few moves; then the guest's seat to move, the guest waiting
        table.hold_guest = len(table.played) >= 4
        if table.hold_guest and table.host.seat_to_move() == 1 and table.caught_up():
            break
    assert table.host.seat_to_move() == 1 and table.caught_up()
    game = table.match.game
    steal = bytes((table.match.round, 0, len(game.moves), game.legal_moves()[0]))
    before = (position_check(table.match), list(table.match.game.moves))
    guest_before = list(table.guests[0].match.game.moves)
    rng = random.Random(attack)
    sock = _attacker(table.hub.port, greet=attack not in ("garbage-greeting", "http-garbage",
                                                          "websocket-garbage"))
    if attack == "half-open":
        sock.close()
        sock = _attacker(table.hub.port, greet=False)
        sock.send(b"ROLIT-LI")   # and never the rest
    elif attack == "garbage-greeting":
        sock.send(bytes(rng.getrandbits(8) for _ in range(300)))
    elif attack == "websocket-garbage":
        sock.send(WS_OPEN)
    elif attack == "http-garbage":
        sock.send(b"GET /" + b"x" * (hub_module.HEAD_LIMIT + 100))
    steps = 0
    dropped = False
    deadline = table.now + hub_module.GREET_MS + hub_module.SILENT_MS + 2000
    while table.now < deadline:
        if attack in ("random", "websocket-garbage") and steps > 2:
            _send(sock, bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 200))))
        elif attack == "oversized":
            if steps % 10 == 0:   # 100 kB/s would be a flood: 10 frames of 1 kB a second
                _send(sock, b"\x01" * 1000 + b"\x00")
        elif attack == "flood":
            _send(sock, frame(8, 2, 0, 0, 0, bytes(5)) * 300)
        elif attack == "lies":
            # well-made frames from node 0 (BYE to everyone, a MOVE for the guest) and TRYs for
            # the guest's seat: frames the place of node 2 could never pass on
            for kind, source, to, payload in [(lockstep.BYE, 0, 15, b""),
                                              (lockstep.MOVE, 0, 1, bytes(6)),
                                              (lockstep.TRY, 1, 0, steal)]:
                _send(sock, frame(kind, source, to, rng.randrange(1, 256), 0, payload))
        table.step(play=False)
        steps += 1
        if _closed_by_host(sock):
            dropped = True
            break
    sock.close()
    assert dropped, table.log
    assert any(WHY[attack] in line for line in table.log), table.log
    assert (position_check(table.match), list(table.match.game.moves)) == before
    assert table.guests[0].match.game.moves == guest_before
    assert table.guests[0].phase != lockstep.ENDED
    assert table.hub.joiners()[0][0] == 1 and len(table.hub.joiners()) == 1
    table.hold_guest = False
    table.run()
    table.assert_same_boards()


def test_a_hub_never_holds_more_connections_than_its_bound(tables):
    table = tables(2, 1)
    table.seat_everyone()
    socks = []
    for _ in range(40):
        sock = socket.socket()
        sock.setblocking(False)
        sock.connect_ex((LOOPBACK, table.hub.port))
        socks.append(sock)
        table.step(play=False)
        assert len(table.hub._peers) <= hub_module.MAX_CONNECTIONS
    assert table.hub.dropped >= 40 - hub_module.MAX_CONNECTIONS
    for sock in socks:
        sock.close()
    for _ in range(int(hub_module.GREET_MS / 10) + 10):
        table.step(play=False)
    assert len(table.hub._peers) == 1
    table.run()
    table.assert_same_boards()


def test_the_hub_passes_on_only_whole_checked_frames():
    reader = FrameReader()
    good = bytes(frame(8, 1, 0, 0, 0, b"abc"))
    chunks = [good[:3], good[3:] + good, b"\x05" * (MAX_FRAME + 5), b"\x00", good]
    frames = []
    for chunk in chunks:
        frames += reader.feed(chunk)
    assert frames == [good[:-1], good[:-1], None, good[:-1]]
    assert frame_fields(good[:-1]) == (8, 4, 1, 0, b"abc")
    damaged = bytearray(good[:-1])
    damaged[3] ^= 1
    assert frame_fields(bytes(damaged)) is None


def test_greeting_lines():
    assert read_join(b"ROLIT-LINK 1 join") == (None, None)
    assert read_join(b"ROLIT-LINK 1 join 3") == (3, None)
    assert read_join(b"ROLIT-LINK 1 join 4") == (None, "that is not a Rolit joiner")
    assert read_join(b"ROLIT-LINK 2 join") == (None, "another version of the network link")
    assert read_greeting("ROLIT-LINK 1 node 2") == ("node", 2)
    assert read_greeting("ROLIT-LINK 1 refused the game is full") == \
        ("refused", "the game is full")
    assert read_greeting("SSH-2.0-OpenSSH") == ("refused", "that is not a Rolit host")
    assert parse_address("10.0.0.5") == ("10.0.0.5", 8765)
    assert parse_address("box:9000") == ("box", 9000)
    for bad in ("", ":80", "box:x", "box:70000"):
        with pytest.raises(ValueError):
            parse_address(bad)


# -- the web edition and the WebSocket endpoint -----------------------------------------------

def _http_get(table, path):
    with socket.create_connection((LOOPBACK, table.hub.port), timeout=2) as raw:
        raw.sendall(b"GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path.encode())
        got = _read_until_closed(raw, table)
    head, _, body = got.partition(b"\r\n\r\n")
    return head.split(b"\r\n")[0], head, body


def test_the_host_serves_the_web_editions_files_on_the_same_port(tables, tmp_path):
    (tmp_path / "index.html").write_bytes(b"<!doctype html><title>Rolit</title>")
    (tmp_path / "main.js").write_bytes(b"export {};")
    secret = tmp_path.parent / "secret.txt"
    secret.write_text("no")
    table = tables(2, 1, web=str(tmp_path))
    status, head, body = _http_get(table, "/")
    assert status == b"HTTP/1.1 200 OK" and body == b"<!doctype html><title>Rolit</title>"
    assert b"text/html" in head
    status, head, body = _http_get(table, "/main.js")
    assert status == b"HTTP/1.1 200 OK" and b"text/javascript" in head
    for path in ("/../secret.txt", "/%2e%2e/secret.txt", "/nothing.js"):
        assert _http_get(table, path)[0] == b"HTTP/1.1 404 Not Found", path
    table.seat_everyone()
    table.run()
    table.assert_same_boards()


def test_without_a_built_page_the_host_says_so(tables, tmp_path):
    table = tables(2, 1, web=str(tmp_path / "not-built"))
    status, _, body = _http_get(table, "/")
    assert status == b"HTTP/1.1 404 Not Found" and b"make web" in body


websockets = pytest.importorskip("websockets")


class WsSeat:
    """A guest whose link's bytes travel in binary WebSocket messages (the websockets library's
    own client, as a browser page would use the endpoint)."""

    def __init__(self, table):
        from websockets.sync.client import connect
        import threading

        opened = {}

        def opening():   # the handshake waits for the hub, which the table pumps meanwhile
            opened["ws"] = connect("ws://%s:%d/link" % (LOOPBACK, table.hub.port),
                                   open_timeout=5, compression=None).__enter__()
        thread = threading.Thread(target=opening)
        thread.start()
        while thread.is_alive():
            table.step(play=False)
            time.sleep(0.001)
        self.ws = opened["ws"]
        self.link = Link()
        self.guest = Guest(self.link)
        self.guest.join()
        self.greeting = None
        self.cable = self

    def close(self):
        self.ws.close()

    def pump(self, link, now):
        from websockets.exceptions import ConnectionClosed

        time.sleep(0.0005)  # the client's own thread reads the socket
        try:
            while True:
                message = self.ws.recv(timeout=0)
                if isinstance(message, str):
                    self.greeting = message
                else:
                    self.link.feed(message, now)
        except TimeoutError:
            pass
        except ConnectionClosed:
            return
        data = self.link.output()
        if data:
            self.ws.send(data)


def test_a_browser_over_websocket_plays_a_match_to_the_end(tables, monkeypatch):
    # The client's own thread reads the socket; on a loaded machine it may lag many steps of
    # the table's clock: the game then pauses ("link lost") and goes on, but the hub must not
    # take that lag for a page gone silent.
    monkeypatch.setattr(hub_module, "SILENT_MS", 600000)
    table = tables(3, 1, seed=11)
    page = WsSeat(table)
    table.seats.append(page)   # closed with the table
    table.seat_everyone(limit=3000)
    # The simulator joiner and the page connect at once: which greets the hub first (and so
    # takes node 1) is the machine's to decide.
    assert page.greeting in ("ROLIT-LINK 1 node 1", "ROLIT-LINK 1 node 2")
    assert sorted([kind for _, _, kind in table.hub.joiners()]) == ["tcp", "ws"]
    table.run(limit=40000)
    table.assert_same_boards()


def test_a_websocket_to_a_full_game_is_refused_in_words_and_closed(tables):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    table = tables(4, 3)
    table.seat_everyone()
    import threading
    result = {}

    def client():
        with connect("ws://%s:%d/link" % (LOOPBACK, table.hub.port), open_timeout=5) as ws:
            result["greeting"] = ws.recv(timeout=5)
            try:
                ws.recv(timeout=5)
            except ConnectionClosed as closed:
                result["reason"] = closed.rcvd.reason if closed.rcvd else None
    thread = threading.Thread(target=client)
    thread.start()
    while thread.is_alive():
        table.step(play=False)
        time.sleep(0.001)
    assert result == {"greeting": "ROLIT-LINK 1 refused the game is full",
                      "reason": "the game is full"}


def test_a_websocket_elsewhere_than_link_is_refused(tables):
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect
    import threading

    table = tables(2, 1)
    result = {}

    def client():
        try:
            connect("ws://%s:%d/other" % (LOOPBACK, table.hub.port), open_timeout=5)
        except InvalidStatus as error:
            result["status"] = error.response.status_code
    thread = threading.Thread(target=client)
    thread.start()
    while thread.is_alive():
        table.step(play=False)
        time.sleep(0.001)
    assert result == {"status": 404}


def test_a_joiner_back_while_its_old_connection_still_holds_the_node_asks_again(tables):
    # A laptop back from sleep before the host noticed it left: its old connection is still
    # the node's. It is told so in words and tries again, and gets the node once that goes.
    table = tables(2, 1)
    table.seat_everyone()
    old = table.seats[0]
    node = old.cable.node
    back = NetJoin(LOOPBACK, table.hub.port, wait=False, retry_ms=200)
    link = Link(node)
    for _ in range(30):
        table.step(play=False)
        back.pump(link, table.now)
        if "still linked" in back.reason:
            break
    assert back.state == "connecting"
    assert back.reason == "link lost: node %d is still linked from another connection" % node
    old.cable.close()  # the old connection goes
    table.seats.remove(old)  # the table steps the others only
    for _ in range(200):
        table.step(play=False)
        back.pump(link, table.now)
        if back.state == "linked":
            break
    assert back.state == "linked" and back.node == node
    back.close()


def test_the_simulators_frame_sends_what_its_update_said_in_the_same_frame():
    # As code.py's loop does: a move made in a frame leaves in that frame, not the next one.
    from rolit_core.app import App
    from sim.device import Device

    pumps = []

    class Cable:
        def pump(self, link, now):
            pumps.append((now, bytes(link.output())))

    app = App(seed=2, link=Link())
    app.link.node = 0
    device = Device(app)
    device.cable = Cable()
    device.update(0)
    assert [now for now, _ in pumps] == [0]  # nothing said: one pump
    real = app.update

    def update(now, events):
        frame = real(now, events)
        app.link.tell(1, 5, b"move")
        return frame

    app.update = update
    device.update(20)
    assert [now for now, _ in pumps] == [0, 20, 20] and b"move" in pumps[-1][1]


class CableSeat:
    """A handheld on a cable into the hub (a serial port, an emulated chip's UART): its link,
    its guest, and the two directions of the wire (``tests/link_wire.Wire``, ``faults`` on
    both). ``hub_end`` is what the hub pumps (:meth:`NetHost.add_cable`), ``cable`` the
    handheld's own pump."""

    def __init__(self, table, faults=None, seed=0):
        from link_wire import Wire
        from rolit_core.rng import Random

        rng = Random(seed)
        self.table = table
        self.to_hub = Wire(rng, faults)
        self.to_handheld = Wire(rng, faults)
        self.link = Link()
        self.guest = Guest(self.link)
        self.guest.join()
        self.cable = self
        self.hub_end = _HubSideOfCable(self)
        self.closed = False

    def pump(self, link, now):
        link.feed(self.to_handheld.read(now), now)
        self.to_hub.write(link.output(), now)

    def close(self):
        self.closed = True


class _HubSideOfCable:
    def __init__(self, seat):
        self.seat = seat

    def pump(self, end, now):
        end.feed(self.seat.to_hub.read(now), now)
        self.seat.to_handheld.write(end.output(), now)

    def close(self):
        self.seat.closed = True


def _mixed_table(tables, monkeypatch, faults=None, page=True, seed=21):
    # The host, a handheld on a cable, a simulator over TCP and (``page``) a page over
    # WebSocket: every kind of seat the hub takes, in one game.
    monkeypatch.setattr(hub_module, "SILENT_MS", 600000)  # see the browser test above
    table = tables(4 if page else 3, 1, seed=seed)
    handheld = CableSeat(table, faults, seed)
    assert table.hub.add_cable(handheld.hub_end, "a test's cable", table.now) == 1
    table.seats.append(handheld)
    if page:
        table.seats.append(WsSeat(table))
    return table, handheld


def test_a_handheld_on_a_cable_a_simulator_and_a_page_play_one_game_to_the_end(tables,
                                                                                 monkeypatch):
    table, handheld = _mixed_table(tables, monkeypatch)
    table.seat_everyone(limit=3000)
    kinds = sorted([kind for _, _, kind in table.hub.joiners()])
    assert kinds == ["cable", "tcp", "ws"]
    assert 1 in table.host.nodes  # the handheld holds a seat
    table.run(limit=40000)
    table.assert_same_boards()
    assert handheld.link.node == 1 and handheld.guest.seat == table.host.nodes.index(1)
    table.close()
    assert handheld.closed  # the hub lets its cables go when it closes


def test_a_noisy_cable_into_the_hub_is_put_right_and_the_handheld_stays(tables, monkeypatch):
    noisy = {"drop": 0.05, "dup": 0.05, "flip": 0.1, "extra": 0.05, "delay": 0.1}
    table, handheld = _mixed_table(tables, monkeypatch, noisy, page=False, seed=23)
    table.seat_everyone(limit=3000)
    table.run(limit=60000)
    table.assert_same_boards()
    assert handheld.link.bad_frames > 0  # the noise reached it, and was put right
    assert [node for node, _, kind in table.hub.joiners() if kind == "cable"] == [1]


def test_hostile_bytes_on_a_cable_never_change_the_board_nor_lose_the_handheld(tables,
                                                                                 monkeypatch):
    table, handheld = _mixed_table(tables, monkeypatch, page=False, seed=25)
    table.seat_everyone(limit=3000)
    for _ in range(100):
        table.step()
    table.hold_guest = True
    for _ in range(100):  # what was on its way arrives
        table.step(play=False)
    rng = random.Random(5)
    before = (position_check(table.match), list(table.match.game.moves))
    for _ in range(400):
        junk = bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 120)))
        if rng.random() < 0.5:  # or well-made frames in another's name
            junk = frame(rng.randrange(1, 32), rng.choice([0, 2, 3]), rng.choice([0, 15]),
                         rng.randrange(256), rng.randrange(256),
                         bytes(rng.getrandbits(8) for _ in range(rng.randrange(20))))
        handheld.to_hub.write(junk, table.now)
        table.step(play=False)
    assert (position_check(table.match), list(table.match.game.moves)) == before
    assert [node for node, _, kind in table.hub.joiners() if kind == "cable"] == [1]
    assert table.hub.cable_noise > 0  # counted, and the handheld kept its place
    assert not [line for line in table.log if "left" in line], table.log
    table.hold_guest = False
    table.run(limit=40000)
    table.assert_same_boards()


def test_a_cable_holds_its_place_against_a_joiner_asking_for_it(tables, monkeypatch):
    table, handheld = _mixed_table(tables, monkeypatch, page=False, seed=27)
    words = table.hub._place_for(1, table.now + 60000)[1]
    assert words == "node 1 is a handheld on a cable"
    taken = [node for node in range(1, 4) if table.hub._places[node] is not None]
    for name in range(3 - len(taken)):
        table.hub.add_cable(_HubSideOfCable(handheld), "cable %d" % name, table.now)
    with pytest.raises(NetError, match="the game is full"):
        table.hub.add_cable(_HubSideOfCable(handheld), "one cable too many", table.now)
