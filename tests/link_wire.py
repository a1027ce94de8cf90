"""An in-memory ring of links for the tests: wires that drop, duplicate, reorder, delay and
corrupt bytes, a clock, and players that choose moves from a seed."""

from rolit_core.link import Link
from rolit_core.rng import Random


class Wire:
    """One direction of a cable: bytes written at a time arrive later, maybe damaged.

    ``faults``: dict of probabilities per chunk written — ``drop``, ``dup``, ``flip`` (one bit of
    one byte), ``extra`` (a random byte inserted), ``delay`` (extra ms, up to ``max_delay``,
    which also reorders chunks). ``cut``: while True nothing gets through."""

    def __init__(self, rng, faults=None, max_delay=40, bytes_per_ms=11):
        self.rng = rng
        self.faults = faults or {}
        self.max_delay = max_delay
        self.bytes_per_ms = bytes_per_ms
        self.cut = False
        self._flying = []  # (arrival ms, order, bytes)
        self._order = 0
        self._free_at = 0
        self.sent = 0

    def _chance(self, name):
        p = self.faults.get(name, 0)
        return p and self.rng.below(1000000) < int(p * 1000000)

    def write(self, data, now):
        if not data:
            return
        self.sent += len(data)
        if self.cut or self._chance("drop"):
            return
        data = bytearray(data)
        if self._chance("flip"):
            at = self.rng.below(len(data))
            data[at] ^= 1 << self.rng.below(8)
        if self._chance("extra"):
            at = self.rng.below(len(data) + 1)
            data = data[:at] + bytes((self.rng.below(256),)) + data[at:]
        # The baud rate: a chunk takes its bytes' time on the wire after the one before it.
        start = max(now, self._free_at)
        self._free_at = start + (len(data) + self.bytes_per_ms - 1) // self.bytes_per_ms
        arrival = self._free_at
        if self._chance("delay"):
            arrival += self.rng.below(self.max_delay + 1)
        copies = 2 if self._chance("dup") else 1
        for _ in range(copies):
            self._order += 1
            self._flying.append((arrival, self._order, bytes(data)))

    def read(self, now):
        ready = [item for item in self._flying if item[0] <= now]
        if not ready:
            return b""
        self._flying = [item for item in self._flying if item[0] > now]
        ready.sort()
        if self.cut:
            return b""
        return b"".join([item[2] for item in ready])


class Ring:
    """``count`` nodes, node i's TX wired to node (i + 1) % count's RX."""

    def __init__(self, count, seed=0, faults=None, links=None):
        self.rng = Random(seed)
        self.links = links or [Link() for _ in range(count)]
        self.wires = [Wire(self.rng, faults) for _ in range(count)]
        self.now = 0

    def step(self, ms=10):
        """Move the clock on and carry every wire's bytes."""
        self.now += ms
        count = len(self.links)
        for index in range(count):
            link = self.links[index]
            data = self.wires[(index - 1) % count].read(self.now)
            if data:
                link.feed(data, self.now)
        for index in range(count):
            self.wires[index].write(self.links[index].output(), self.now)

    def cut(self, index, value=True):
        self.wires[index].cut = value
