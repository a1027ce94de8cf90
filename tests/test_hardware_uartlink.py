"""The cable driver (hardware.uartlink): bytes between a Link and busio.UART, paced."""

import pytest

from hardware.uartlink import MAX_WRITE, UartLink
from rolit_core.link import Link


class FakeUart:
    """busio.UART's calls the driver uses; ``peer`` receives what is written."""

    def __init__(self, tx, rx, baudrate, timeout, receiver_buffer_size):
        self.args = (tx, rx, baudrate, timeout, receiver_buffer_size)
        self.incoming = bytearray()
        self.peer = None
        self.writes = []
        self.closed = False

    @property
    def in_waiting(self):
        return len(self.incoming)

    def readinto(self, buffer):
        count = min(len(buffer), len(self.incoming))
        buffer[0:count] = self.incoming[:count]
        del self.incoming[:count]
        return count

    def write(self, data):
        self.writes.append(bytes(data))
        if self.peer is not None:
            self.peer.incoming.extend(data)
        return len(data)

    def deinit(self):
        self.closed = True


class FakeBusio:
    UART = FakeUart


def _cable():
    one = UartLink("TX", "RX", 115200, busio=FakeBusio)
    two = UartLink("TX", "RX", 115200, busio=FakeBusio)
    one._uart.peer = two._uart
    two._uart.peer = one._uart
    return one, two


def test_the_uart_is_opened_without_waiting_and_with_room_for_two_frames_of_bytes():
    cable = UartLink("GP12", "GP13", 57600, busio=FakeBusio)
    assert cable._uart.args == ("GP12", "GP13", 57600, 0, 1024)
    cable.deinit()
    assert cable._uart.closed


def test_a_message_crosses_the_cable_both_ways():
    one, two = _cable()
    host, guest = Link(node=0), Link(node=1)
    host.send(1, 5, b"move")
    guest.send(0, 6, b"try")
    got = {0: [], 1: []}
    for now in range(0, 400, 20):
        for cable, link in ((one, host), (two, guest)):
            link.poll(now)
            cable.pump(link, now)
            got[link.node] += [(m.kind, m.payload) for m in link.receive()]
    assert got == {0: [(6, b"try")], 1: [(5, b"move")]}
    assert host.pending(1) == guest.pending(0) == 0  # both acknowledged


def test_writes_never_exceed_what_the_baud_rate_carries():
    one, _ = _cable()
    host = Link(node=0)
    for _ in range(20):
        host.send(1, 4, bytes(150))
        host.poll(0)
        host._peers[1].in_flight = False  # force fresh frames out, for the test
    one.pump(host, 0)                      # first pump: 20 ms of room
    one.pump(host, 10)                     # 10 ms: 115 bytes
    one.pump(host, 1000)                   # a long gap: MAX_WRITE at the most
    sizes = [len(w) for w in one._uart.writes]
    assert sizes == [230, 115, MAX_WRITE]


@pytest.mark.parametrize("baud", [0, 300, 2000000, "115200", 115200.0])
def test_a_baud_rate_out_of_range_is_refused(baud):
    with pytest.raises(ValueError):
        UartLink("TX", "RX", baud, busio=FakeBusio)
