"""A linked match (rolit_core.lockstep): host and guests end every game on the same board, the
board a local game with the same moves ends on, whatever the wires do."""

import random

import pytest

from link_wire import Ring
from rolit_core import Match
from rolit_core.link import Link, frame
from rolit_core import lockstep
from rolit_core.lockstep import (BEAT_MS, LOCAL, LOST_MS, Guest, Host, position_check,
                                 read_state, state_bytes)

NOISY = {"drop": 0.08, "dup": 0.08, "flip": 0.08, "extra": 0.04, "delay": 0.2}


class Table:
    """A host (node 0, owning ``host_seats``) and guests on a ring; players pick seeded moves."""

    def __init__(self, players, guests, seed=0, faults=None, rounds=1, size=8, host_seats=(0,)):
        self.ring = Ring(guests + 1, seed, faults)
        self.rng = random.Random(seed)
        nodes = [0 if seat in host_seats else LOCAL for seat in range(players)]
        self.match = Match(rounds, players, size, seed=seed)
        self.host = Host(self.ring.links[0], self.match, ["human"] * players, nodes, 0x1234 + seed)
        self.guests = [Guest(link) for link in self.ring.links[1:]]
        self.played = []          # every move the host applied, in order, per round
        self.round_over_at = None

    @property
    def sessions(self):
        return [self.host] + self.guests

    def step(self, ms=10, play=True):
        ring = self.ring
        for session in self.sessions:
            session.update(ring.now)
            for event in session.take_events():
                if session is self.host and event[0] == "move":
                    self.played.append((self.match.round, event[1]))
        if play:
            self._play()
        ring.step(ms)

    def _play(self):
        host = self.host
        if host.phase != lockstep.PLAYING:
            return
        match = self.match
        if match.game.over:
            if match.over:
                return
            if self.round_over_at is None:
                self.round_over_at = self.ring.now
            elif self.ring.now - self.round_over_at > 300:
                host.next_round()
                self.round_over_at = None
            return
        seat = host.seat_to_move()
        if host.nodes[seat] == 0:
            host.play(self.rng.choice(match.game.legal_moves()))
            return
        for guest in self.guests:
            if guest.seat == seat and guest.match is not None and not guest.match.game.over:
                moves = guest.match.game.legal_moves()
                if moves:
                    guest.play(self.rng.choice(moves))

    def seat_everyone(self, limit=3000):
        for guest in self.guests:
            guest.join()
        for _ in range(limit):
            self.step(play=False)
            if self.host.seated():
                break
        assert self.host.seated(), [g.phase_name for g in self.guests]
        self.host.start()

    def run(self, limit=40000):
        for _ in range(limit):
            self.step()
            if self.match.over and self.caught_up():
                return
        raise AssertionError("the match did not end: host %s, guests %s" % (
            self.host.phase_name, [g.phase_name for g in self.guests]))

    def caught_up(self):
        for guest in self.guests:
            if guest.match is None or position_check(guest.match) != position_check(self.match) \
                    or guest.match.game.moves != self.match.game.moves:
                return False
        return True


def _local_replay(players, size, rounds, seed, played):
    match = Match(rounds, players, size, seed=seed)
    for number, cell in played:
        if number != match.round:
            match.next_round()
        match.game.play(cell)
    return match


@pytest.mark.parametrize("players,guests,host_seats", [
    (2, 1, (0,)), (3, 2, (0,)), (4, 3, (0,)), (4, 1, (0, 2, 3)), (3, 1, (1, 2))])
@pytest.mark.parametrize("seed", range(3))
def test_every_board_ends_the_same_as_a_local_game_over_noisy_wires(players, guests, host_seats,
                                                                      seed):
    table = Table(players, guests, seed, NOISY, rounds=2, host_seats=host_seats)
    table.seat_everyone()
    table.run()
    local = _local_replay(players, 8, 2, seed, table.played)
    for session in table.sessions:
        assert session.match.game.board == local.game.board
        assert session.match.game.moves == local.game.moves
        assert session.match.rounds_won == local.rounds_won
        assert session.match.points == local.points
    assert table.guests[0].history == table.host.history == [
        [cell for number, cell in table.played if number == 1]]


def test_a_pulled_cable_pauses_every_handheld_within_two_seconds_and_loses_no_move():
    table = Table(3, 2, seed=5)
    table.seat_everyone()
    for _ in range(100):
        table.step()
    moves_before = list(table.match.game.moves)
    assert 5 < len(moves_before) < 40  # mid-game
    table.ring.cut(1)             # the cable from guest 1 to guest 2
    cut_at = table.ring.now
    lost_at = {}
    for _ in range(300):
        table.step()
        for index, session in enumerate(table.sessions):
            if session.phase == lockstep.LOST and index not in lost_at:
                lost_at[index] = table.ring.now - cut_at
    assert sorted(lost_at) == [0, 1, 2]
    assert max(lost_at.values()) <= 2000, lost_at
    during = list(table.match.game.moves)
    assert during[:len(moves_before)] == moves_before
    assert len(during) - len(moves_before) <= 2  # at most moves already on their way
    assert table.host.play(table.match.game.legal_moves()[0]) is not None  # paused
    table.ring.cut(1, False)
    table.run()
    assert len(table.played) == len(set((n, c) for n, c in table.played))  # nothing doubled
    local = _local_replay(3, 8, 1, 5, table.played)
    for session in table.sessions:
        assert session.match.game.board == local.game.board


def test_a_guest_that_loses_power_rejoins_and_resyncs_while_the_others_wait():
    table = Table(2, 1, seed=2)
    table.seat_everyone()
    for _ in range(400):
        table.step()
    assert table.guests[0].match.game.moves == table.match.game.moves
    table.ring.links[1] = Link()  # power cut: a fresh link and session, its own save aside
    table.guests[0] = Guest(table.ring.links[1])
    for _ in range(int(LOST_MS / 10) + 20):
        table.step()
    assert table.host.phase == lockstep.LOST
    moves = len(table.match.game.moves)
    table.guests[0].join()   # the rebooted handheld rejoins from its menu (or its own save)
    table.run()
    assert len(table.played) >= moves
    assert table.guests[0].match.game.board == table.match.game.board


@pytest.mark.parametrize("versions", [(lockstep.PROTOCOL + 1, 1, 0), (lockstep.PROTOCOL, 9, 9)])
def test_a_guest_of_another_version_is_refused_in_words_on_both_sides(versions):
    table = Table(2, 1)
    guest = table.guests[0]
    guest.versions = versions
    guest.join()
    events = []
    for _ in range(100):
        table.step(play=False)
        events += table.host.take_events()
    assert guest.phase_name == "refused" and guest.reason == "another version of the game"
    assert not table.host.seated()


def test_the_host_refuses_a_join_of_another_version_in_words():
    ring = Ring(2)
    host = Host(ring.links[0], Match(1, 2), ["human"] * 2, [0, LOCAL], 1)
    ring.links[1].node = 1
    events = []
    for _ in range(50):
        ring.links[1].tell(0, lockstep.JOIN, bytes((lockstep.PROTOCOL, 0, 7)))
        host.update(ring.now)
        events += host.take_events()
        ring.step()
    assert ("refused", "handheld 2: another version of the game") in events
    assert not host.seated()


def test_a_second_host_on_the_ring_refuses_both():
    ring = Ring(2)
    one = Host(ring.links[0], Match(1, 2), ["human"] * 2, [0, LOCAL], 1)
    two = Host(ring.links[1], Match(1, 2), ["human"] * 2, [0, LOCAL], 2)
    for _ in range(100):
        one.update(ring.now)
        two.update(ring.now)
        ring.step()
    assert one.phase_name == two.phase_name == "refused"
    assert one.reason == "another handheld is already hosting"


@pytest.mark.parametrize("count", [2, 3, 4])
def test_the_host_counts_who_is_on_the_ring(count):
    table = Table(count, count - 1)
    for _ in range(50):
        table.step(play=False)
    assert table.host.ring == count
    assert [guest.link.node for guest in table.guests] == list(range(1, count))


def test_a_full_game_refuses_another_guest():
    table = Table(2, 2)   # two guests for one linked seat
    for guest in table.guests:
        guest.join()
    for _ in range(200):
        table.step(play=False)
    phases = sorted(g.phase_name for g in table.guests)
    assert phases == ["lobby", "refused"]
    assert [g.reason for g in table.guests if g.phase_name == "refused"] == ["the game is full"]


def test_a_guest_cannot_move_for_another_seat_nor_play_an_illegal_move():
    table = Table(2, 1, host_seats=(0,))
    table.seat_everyone()
    for _ in range(50):
        table.step(play=False)
    guest = table.guests[0]
    seat = table.host.seat_to_move()
    if table.host.nodes[seat] == 0:
        assert guest.play(table.match.game.legal_moves()[0]) == "it is not your turn"
    else:
        illegal = [c for c in range(64) if not table.match.game.is_legal(c)][0]
        assert guest.play(illegal) == "that move is not legal"


def test_hostile_frames_to_the_host_never_change_its_board():
    table = Table(2, 1, seed=3)
    table.seat_everyone()
    for _ in range(100):
        table.step()
    rng = random.Random(9)
    before = (position_check(table.match), list(table.match.game.moves))
    link = table.host.link
    for _ in range(5000):
        kind = rng.randrange(1, 32)
        payload = bytes(rng.getrandbits(8) for _ in range(rng.randrange(40)))
        source = rng.randrange(2, 4)  # nodes that hold no seat
        link.feed(frame(kind, source, rng.choice([0, 15]), rng.randrange(256), rng.randrange(256),
                        payload), table.ring.now)
        link.feed(bytes(rng.getrandbits(8) for _ in range(rng.randrange(30))), table.ring.now)
        table.host.update(table.ring.now)
    assert (position_check(table.match), list(table.match.game.moves)) == before


def test_the_state_round_trips_through_its_bytes():
    match = Match(3, 4, seed=1)
    rng = random.Random(1)
    while not match.game.over:
        match.game.play(rng.choice(match.game.legal_moves()))
    first_round = match.game.moves
    match.next_round()
    match.game.play(match.game.legal_moves()[0])
    data = state_bytes(77, (0, 1, 2, 3), match, ("human", "hard", "human", "easy"),
                       [first_round], Match(3, 4, seed=1).game.first, 30, True)
    session, nodes, copy, kinds, history, first, time_limit, hints = read_state(data)
    assert (session, nodes, kinds, history, time_limit, hints) == \
        (77, (0, 1, 2, 3), ("human", "hard", "human", "easy"), [first_round], 30, True)
    assert copy.game.board == match.game.board and copy.round == 2
    assert copy.points == match.points
    with pytest.raises(ValueError):
        read_state(data[:-1])


# A linked game of three handhelds over a noisy ring, printing what each ends on: the same text
# under CPython and a real MicroPython interpreter, and the heap a link costs there.
LINKED_GAME = r"""
import sys
sys.path.append("tests")
from link_wire import Ring
from rolit_core import Match
from rolit_core.lockstep import Guest, Host, LOCAL, PLAYING
from rolit_core.rng import Random

faults = {"drop": 0.05, "dup": 0.05, "flip": 0.05, "extra": 0.02, "delay": 0.2}
ring = Ring(3, 7, faults)
match = Match(1, 3, seed=7)
host = Host(ring.links[0], match, ["human"] * 3, [0, LOCAL, LOCAL], 99)
guests = [Guest(ring.links[1]), Guest(ring.links[2])]
for guest in guests:
    guest.join()
rng = Random(3)
started = False
for step in range(30000):
    for session in [host] + guests:
        session.update(ring.now)
        session.take_events()
    if not started and host.seated():
        host.start()
        started = True
    if host.phase == PLAYING and not match.game.over:
        seat = host.seat_to_move()
        if host.nodes[seat] == 0:
            host.play(rng.choice(match.game.legal_moves()))
        else:
            for guest in guests:
                if guest.seat == seat and guest.match is not None and not guest.match.game.over:
                    guest.play(rng.choice(guest.match.game.legal_moves()))
    ring.step(10)
    if match.game.over and all(g.match is not None and g.match.game.moves == match.game.moves
                               for g in guests):
        break
for session in [host] + guests:
    print(session.match.game.board.to_text().replace("\n", "/"), session.match.game.scores())
print("resends", sum(link.resends for link in ring.links) > 0)
"""


def test_a_linked_game_is_the_same_under_micropython():
    from micropython import run_micropython
    import subprocess
    import sys
    import os

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    here = subprocess.run([sys.executable, "-c", LINKED_GAME], cwd=root, capture_output=True,
                          text=True, check=True).stdout
    there = run_micropython(LINKED_GAME, files=("tests/link_wire.py",))
    lines = here.splitlines()
    assert len(set(lines[:3])) == 1 and lines[3] == "resends True"
    assert there == here


def test_a_guest_heard_a_move_behind_with_its_acknowledgement_is_not_sent_the_state():
    # On a UART a guest's beat from before a move came and its acknowledgement of that move can
    # be read in one go: the host hears the guest behind with nothing on its way. That is no
    # desync (a whole state for it stalls both handhelds); a guest still behind at its next
    # beat missed the move, and is sent the state.
    to_guest, to_host = Link(), Link()
    match = Match(1, 2, 8, seed=3)
    host = Host(to_guest, match, ["human", "human"], [0, LOCAL], 0x4242)
    guest = Guest(to_host)
    guest.join()
    now = 0

    def step(carry=True):
        host.update(now)
        guest.update(now)
        if carry:
            to_host.feed(to_guest.output(), now)
            to_guest.feed(to_host.output(), now)

    while guest.phase != lockstep.PLAYING:
        step()
        if host.seated() and host.phase == lockstep.LOBBY:
            host.start()
        now += 10
        assert now < 5000
    if host.seat_to_move() != 0:
        assert guest.play(match.game.legal_moves()[0]) is None
    while host.seat_to_move() != 0 or guest.match.game.board.moves != match.game.board.moves:
        step()
        now += 10
        assert now < 10000
    for _ in range(60):  # everything acknowledged, no beat due
        step()
        now += 10
    assert host.play(match.game.legal_moves()[0]) is None
    host.update(now)
    move = to_guest.output()
    now += BEAT_MS
    guest.update(now)
    beat = to_host.output()       # a beat from before the move: one ply behind
    to_host.feed(move, now)
    guest.update(now)
    ack = to_host.output()        # the move played there, and acknowledged
    assert guest.match.game.board.moves == match.game.board.moves
    sent = []
    host._send_state = sent.append
    to_guest.feed(beat + ack, now)
    host.update(now)
    assert sent == []
    now += BEAT_MS
    to_guest.feed(beat, now)      # the same behind beat again: that guest missed a move
    host.update(now)
    assert sent == [1]


def _to_move(node, seed, limit):
    # Four seats on a ring of four, play going on until the seat of ``node`` is to move, every
    # board caught up and every move acknowledged.
    table = Table(4, 3, seed=seed)
    table.seat_everyone()
    for _ in range(limit):
        table.step(play=False)
        settled = table.caught_up() and not any(
            table.host.link.pending(other) for other in (1, 2, 3))
        if settled and table.host.nodes[table.host.seat_to_move()] == node:
            return table
        if settled:
            table._play()
    raise AssertionError("node %d's seat never came to move" % node)


def _node_one_to_move(seed=5):
    # ... node 1, the first guest after the host: the table and that guest.
    table = _to_move(1, seed, 200)
    return table, table.guests[0]


def test_a_guests_move_is_on_every_other_guest_before_the_host_sends_it_on():
    # The mover's PLAYED goes round the ring with its TRY: the guests after it play it as it
    # passes, without waiting for the host's MOVE (with the host's TX cut, none can come).
    table, mover = _node_one_to_move()
    sent = []
    table.host._send_state = sent.append
    cell = mover.match.game.legal_moves()[0]
    table.ring.cut(0)
    assert mover.play(cell) is None
    for _ in range(30):
        table.step(play=False)
    assert table.match.game.moves[-1] == cell
    for guest in table.guests[1:]:
        assert guest.match.game.moves == table.match.game.moves
        assert position_check(guest.match) == position_check(table.match)
    assert mover.match.game.moves != table.match.game.moves  # its MOVE is behind the cut
    table.ring.cut(0, False)
    for _ in range(100):
        table.step(play=False)
    assert table.caught_up() and sent == []


def _forged_played(table, source, cell):
    match = table.match
    ply = len(match.game.board.moves)
    return frame(lockstep.PLAYED, source, 15, payload=bytes((match.round, ply >> 8, ply & 0xFF,
                                                               cell)))


def test_a_played_move_the_host_never_confirms_is_undone_by_a_resync():
    table, mover = _node_one_to_move(seed=6)
    before = list(table.match.game.moves)
    cell = mover.match.game.legal_moves()[0]
    # As if node 1 sent it, on the wire to node 2: the host never gets a TRY for it.
    table.ring.wires[1].write(_forged_played(table, 1, cell), table.ring.now)
    for _ in range(10):
        table.step(play=False)
    assert [guest.match.game.moves[-1:] for guest in table.guests[1:]] == [[cell], [cell]]
    for _ in range(250):
        table.step(play=False)
    assert table.match.game.moves == before
    assert table.caught_up()
    assert mover.play(cell) is None  # and the real move goes on as ever
    for _ in range(50):
        table.step(play=False)
    assert table.match.game.moves == before + [cell] and table.caught_up()


def test_a_played_move_the_host_answers_with_another_is_put_right_by_that_move_alone():
    # A guest that played a PLAYED move early checks the host's MOVE for that ply: another
    # move there is a desync, found at once, without waiting for the beats to disagree.
    table, mover = _node_one_to_move(seed=6)
    forged, real = mover.match.game.legal_moves()[:2]
    for session in table.sessions:  # no beats from here on: the MOVE is all there is
        session._beat_at = table.ring.now + 100000
    table.ring.wires[1].write(_forged_played(table, 1, forged), table.ring.now)
    for _ in range(10):
        table.step(play=False)
    assert [guest.match.game.moves[-1] for guest in table.guests[1:]] == [forged, forged]
    assert mover.play(real) is None
    for _ in range(60):
        table.step(play=False)
    assert table.match.game.moves[-1] == real
    assert table.caught_up()


def test_guests_ahead_by_a_played_move_wait_for_the_host_to_read_its_try():
    # With the wire into the host cut, the mover's TRY waits while its PLAYED is on the
    # guests after it, and the host's hellos say it is a ply behind them: no desync, just a
    # move on its way. Wired again, the TRY arrives and no one is sent the state.
    table, mover = _node_one_to_move(seed=8)
    sent = []
    table.host._send_state = sent.append
    cell = mover.match.game.legal_moves()[0]
    table.ring.cut(3)
    assert mover.play(cell) is None
    for _ in range(60):  # 600 ms: hellos come, the TRY does not
        table.step(play=False)
    assert table.match.game.moves[-1:] != [cell]
    assert [guest.match.game.moves[-1] for guest in table.guests[1:]] == [cell, cell]
    table.ring.cut(3, False)
    for _ in range(60):
        table.step(play=False)
    assert table.match.game.moves[-1] == cell and table.caught_up()
    assert sent == []


def test_the_host_gives_a_guest_a_move_ahead_one_beat_before_it_sends_the_state():
    table, mover = _node_one_to_move(seed=8)
    sent = []
    host = table.host
    host._send_state = sent.append
    ahead = Match(1, 4, 8, seed=8)
    for cell in table.match.game.moves + [table.match.game.legal_moves()[0]]:
        ahead.game.play(cell)
    ply = len(ahead.game.board.moves)
    check = position_check(ahead)
    beat = bytes((1, ply >> 8, ply & 0xFF, check >> 8, check & 0xFF))
    now = table.ring.now
    host.link.feed(frame(lockstep.BEAT, 3, 0, payload=beat, ack=host.link._ack_for(3)), now)
    host.update(now)
    assert sent == []
    host.link.feed(frame(lockstep.BEAT, 3, 0, payload=beat, ack=host.link._ack_for(3)),
                   now + BEAT_MS)
    host.update(now + BEAT_MS)
    assert sent == [3]


def _host_to_move(seed=9):
    return _to_move(0, seed, 300)


def test_the_hosts_move_reaches_a_guest_whose_stream_waits_for_an_acknowledgement():
    # Reliable messages go one at a time to each guest: with an earlier one to node 3 not
    # acknowledged (its acknowledgements cannot come back), the MOVE in that stream waits,
    # and the MOVE broadcast once to everyone does not.
    table = _host_to_move()
    host = table.host
    host.link.send(3, lockstep.RESYNC)  # a message a guest ignores, never acknowledged here
    table.ring.cut(3)                   # node 3 to the host: no acknowledgement comes back
    for _ in range(5):
        table.step(play=False)
    cell = table.match.game.legal_moves()[0]
    assert host.play(cell) is None
    for _ in range(10):  # 100 ms, less than a resend
        table.step(play=False)
    assert table.guests[2].match.game.moves == table.match.game.moves
    assert host.link.pending(3) == 2  # the stream's MOVE is still waiting


def test_a_broadcast_move_for_another_ply_is_left_to_the_reliable_stream():
    # A broadcast MOVE may pass a reliable one still on its way: one for a later ply is no
    # desync, the stream brings the move before it.
    table = _host_to_move(seed=10)
    guest = table.guests[0]
    asked = []
    guest._resync = lambda: asked.append(True)
    match = guest.match
    ply = len(match.game.board.moves) + 1
    link = guest.link
    link.feed(frame(lockstep.MOVE, 0, 15, payload=bytes((match.round, ply >> 8, ply & 0xFF,
                                                         match.game.legal_moves()[0], 0, 0)),
                    hops=4 - 0), table.ring.now)
    guest.update(table.ring.now)
    assert asked == [] and len(match.game.board.moves) == ply - 1
    link.feed(frame(lockstep.MOVE, 0, 1, seq=200, payload=bytes((match.round, ply >> 8,
                                                                 ply & 0xFF, 0, 0, 0))),
              table.ring.now)
    for _ in range(3):  # the same out of order in the reliable stream: a desync
        link.feed(frame(lockstep.MOVE, 0, 1, seq=200, payload=bytes((match.round, ply >> 8,
                                                                     ply & 0xFF, 0, 0, 0))),
                  table.ring.now)
        guest.update(table.ring.now)
    assert asked


def test_a_played_move_from_a_handheld_whose_seat_is_not_to_move_is_ignored():
    table, mover = _node_one_to_move(seed=7)
    before = list(table.match.game.moves)
    cell = mover.match.game.legal_moves()[0]
    table.ring.wires[2].write(_forged_played(table, 2, cell), table.ring.now)
    for _ in range(10):
        table.step(play=False)
    assert [guest.match.game.moves for guest in table.guests] == [before] * 3


def test_the_host_makes_the_state_once_for_every_guest_when_play_begins(monkeypatch):
    # Once for three guests, not three times, in the frame that begins the game.
    table = Table(4, 3, seed=5)
    made = []
    # The globals of the Host in play (a linked app game forgets and reloads the module).
    names = Host._send_states.__globals__
    real = names["state_bytes"]

    def counted(*args):
        made.append(args[0])
        return real(*args)

    monkeypatch.setitem(names, "state_bytes", counted)
    table.seat_everyone()
    assert made == [table.host.session]
    for _ in range(100):
        table.step(play=False)
    assert made == [table.host.session]  # no guest asked again: each took the one state
    assert all(guest.match is not None for guest in table.guests)
