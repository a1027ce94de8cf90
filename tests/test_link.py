"""The link's frames and reliable messages (rolit_core.link), over wires that lose and damage
bytes."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from link_wire import Ring
from rolit_core.link import (ACK_KIND, END, EVERYONE, MAX_FRAME, MAX_PAYLOAD, MAX_QUEUE, Link,
                             cobs_decode, cobs_encode, frame)

NOISY = {"drop": 0.1, "dup": 0.1, "flip": 0.1, "extra": 0.05, "delay": 0.2}


def test_a_frame_arrives_whole():
    receiver = Link(node=1)
    receiver.feed(frame(7, 0, 1, payload=b"hello"), 5)
    (message,) = receiver.receive()
    assert (message.source, message.kind, message.payload, message.broadcast) == \
        (0, 7, b"hello", False)
    assert receiver.heard(0) == 5


def test_frames_split_anywhere_and_run_together_are_read():
    data = frame(3, 0, EVERYONE, payload=b"ab") + frame(4, 2, 1, payload=bytes(range(50)))
    for cut in range(len(data) + 1):
        receiver = Link(node=1)
        receiver.feed(data[:cut], 0)
        receiver.feed(data[cut:], 0)
        assert [(m.kind, m.payload) for m in receiver.receive()] == \
            [(3, b"ab"), (4, bytes(range(50)))]


def test_every_one_bit_error_is_dropped_and_the_frames_after_it_read():
    good = frame(9, 0, 1, payload=b"\x00\x00 move")
    after = frame(10, 0, 1, payload=b"next") + frame(11, 0, 1)
    for bit in range(len(good) * 8):
        damaged = bytearray(good)
        damaged[bit // 8] ^= 1 << (bit % 8)
        receiver = Link(node=1)
        receiver.feed(bytes(damaged) + after, 0)
        kinds = [m.kind for m in receiver.receive()]
        assert 9 not in kinds and kinds[-1:] == [11], bit
        if bit // 8 < len(good) - 1:
            assert kinds == [10, 11], bit  # only a damaged END joins two frames into one


def test_a_frame_longer_than_the_largest_is_dropped_and_the_next_read():
    receiver = Link(node=1)
    receiver.feed(bytes([1] * 5000), 0)
    assert receiver._rx_len <= MAX_FRAME  # a flood without END counts no further
    receiver.feed(bytes((END,)) + frame(2, 0, 1), 0)
    assert [m.kind for m in receiver.receive()] == [2]
    assert receiver.bad_frames == 1
    # The largest frame there is still fits.
    largest = frame(5, 0, 1, payload=bytes(range(1, MAX_PAYLOAD + 1)))
    assert len(largest) == MAX_FRAME
    receiver = Link(node=1)
    receiver.feed(largest, 0)
    assert [m.kind for m in receiver.receive()] == [5]


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=600))
def test_cobs_round_trips_and_holds_no_zero(body):
    encoded = cobs_encode(body)
    assert encoded[-1] == END and END not in encoded[:-1]
    assert cobs_decode(encoded, len(encoded) - 1) == body


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=20))
def test_any_bytes_are_safe(chunks):
    receiver = Link(node=2)
    for chunk in chunks:
        receiver.feed(chunk, 0)
    receiver.receive()
    receiver.poll(0)
    assert receiver.waiting_output() <= 2048


def test_random_bytes_never_deliver_a_message_to_a_quiet_node():
    rng = random.Random(4)
    receiver = Link(node=3)
    for _ in range(3000):
        receiver.feed(bytes(rng.getrandbits(8) for _ in range(rng.randrange(64))), 0)
    # A 16-bit CRC lets about one in 65,536 random frames through; there are far fewer here.
    assert len(receiver.receive()) <= 1


def test_fields_out_of_range_are_refused():
    with pytest.raises(ValueError):
        frame(32, 0, 1)
    with pytest.raises(ValueError):
        frame(1, 4, 1)
    with pytest.raises(ValueError):
        frame(1, 0, 1, payload=bytes(MAX_PAYLOAD + 1))
    with pytest.raises(ValueError):
        Link().send(1, 1)  # no number yet
    with pytest.raises(ValueError):
        Link(node=0).send(0, 1)


def test_a_broadcast_goes_round_the_ring_once_and_says_how_far_it_came():
    ring = Ring(4)
    ring.links[0].node = 0
    ring.links[0].broadcast(5, b"x")
    for _ in range(20):
        ring.step()
    distances = [[m.distance for m in link.receive()] for link in ring.links]
    assert distances == [[4], [1], [2], [3]]  # back at its sender: the ring's size
    for _ in range(20):
        ring.step()
    assert [link.frames_in for link in ring.links] == [1, 1, 1, 1]  # and no further


def _numbered_ring(count, seed, faults=None):
    ring = Ring(count, seed, faults)
    for number in range(count):
        ring.links[number].node = number
    return ring


@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_reliable_messages_arrive_once_and_in_order_over_a_noisy_ring(count, seed):
    ring = _numbered_ring(count, seed, NOISY)
    rng = random.Random(seed)
    sent = {}
    for _ in range(60):
        source = rng.randrange(count)
        target = rng.choice([n for n in range(count) if n != source])
        body = bytes(rng.getrandbits(8) for _ in range(rng.randrange(MAX_PAYLOAD)))
        if ring.links[source].send(target, 1 + rng.randrange(30), body):
            sent.setdefault((source, target), []).append(body)
    got = {}
    for _ in range(3000):
        for link in ring.links:
            link.poll(ring.now)
            for message in link.receive():
                got.setdefault((message.source, link.node), []).append(message.payload)
        ring.step()
        if all(link.pending(n) == 0 for link in ring.links for n in range(count)
               if n != link.node):
            break
    assert got == sent
    assert sum(link.resends for link in ring.links) > 0  # the noise did cost resends


def test_a_full_queue_refuses_more():
    link = Link(node=0)
    for _ in range(MAX_QUEUE):
        assert link.send(1, 1, b"m")
    assert not link.send(1, 1, b"m")
    assert link.pending(1) == MAX_QUEUE


def test_a_peer_that_restarts_its_numbering_is_heard_again():
    ring = _numbered_ring(2, 1)
    a, b = ring.links
    for body in (b"1", b"2", b"3"):
        a.send(1, 1, body)
    received = []
    for _ in range(200):
        for link in ring.links:
            link.poll(ring.now)
        received += [m.payload for m in b.receive()]
        ring.step()
    assert received == [b"1", b"2", b"3"]
    # a loses power: a new Link numbers from 1 again, which b last saw long ago.
    ring.links[0] = a = Link(node=0)
    a.send(1, 1, b"after")
    for _ in range(200):
        for link in ring.links:
            link.poll(ring.now)
        received += [m.payload for m in b.receive()]
        ring.step()
    assert received[-1] == b"after" and received.count(b"after") == 1


def test_acknowledgements_alone_carry_no_payload():
    link = Link(node=1)
    link.feed(frame(ACK_KIND, 0, 1, payload=b"x"), 0)  # malformed: an ack with a payload
    assert link.bad_frames == 1 and link.receive() == []
