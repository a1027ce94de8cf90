"""Two to four emulated Picos linked by their UARTs, as the cable links handhelds: the wire between
them (:class:`Ring`: two chips crossed, TX to RX, three or four in a ring, each TX to the next
one's RX), paced at the baud rate in emulated time, and the drives the tests boot on them (the
unmodified rolit_core and hardware.uartlink under a small ``code.py`` that plays seeded moves for
its own seat; :func:`ring_drive`, a message passed round the ring). Used by
tests/test_firmware_link.py, bench/link.py and ``python -m sim.emulate --link N``.

Each chip prints ``LINK`` lines: ``move CELL MS`` for each move it shows (MS: its own ticks),
``try MS`` when a guest sends its move, ``phase NAME`` on each change of phase, then its board,
its counters and its lowest free heap after a collection, and ``done``.
"""

import os
import random

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BAUD = 115200
SLICE_MS = 5

CODE = r"""
import gc
import board
import supervisor
from hardware.uartlink import UartLink
from rolit_core import Match
from rolit_core.link import Link
from rolit_core.lockstep_base import LOCAL, PLAYING
from rolit_core.rng import Random
from rolit_core.vocab import ticks_diff

ROLE = "%(role)s"
gc.collect()
print("LINK free after imports", gc.mem_free())
cable = UartLink(board.GP12, board.GP13, baudrate=%(baud)d)
link = Link()
rng = Random(%(seed)d)
PLAYERS = %(players)d
if ROLE == "host":
    from rolit_core.lockstep_host import Host
    match = Match(%(rounds)d, PLAYERS, %(size)d, seed=%(seed)d)
    session = Host(link, match, ["human"] * PLAYERS, [0] + [LOCAL] * (PLAYERS - 1), 4242)
else:
    from rolit_core.lockstep_guest import Guest
    session = Guest(link)
    session.join()
lowest = gc.mem_free()
started = False
ended_at = None
last_gc = supervisor.ticks_ms()
while True:
    now = supervisor.ticks_ms()
    cable.pump(link, now)
    session.update(now)
    for event in session.take_events():
        if event[0] == "move":
            print("LINK move", event[1], now)
        elif event[0] in ("phase", "round", "no", "refused"):
            print("LINK", event[0], event[1])
    if ROLE == "host" and not started and session.seated():
        session.start()
        started = True
    match = session.match
    if session.phase == PLAYING and match is not None:
        game = match.game
        if game.over:
            if ROLE == "host" and not match.over and ended_at is None:
                ended_at = now
            if ROLE == "host" and not match.over and ended_at is not None \
                    and ticks_diff(now, ended_at) > 300:
                session.next_round()
                ended_at = None
            if match.over and ended_at is None:
                ended_at = now
        elif session.seat_to_move() == (0 if ROLE == "host" else session.seat):
            moves = game.legal_moves()
            if session.play(moves[rng.below(len(moves))]) is None and ROLE == "guest":
                print("LINK try", now)
    if match is not None and match.over and ended_at is not None \
            and ticks_diff(now, ended_at) > 1500:
        break
    if ticks_diff(now, last_gc) > 200:
        gc.collect()
        lowest = min(lowest, gc.mem_free())
        last_gc = now
print("LINK board", match.game.board.to_text().replace(chr(10), "/"), match.game.scores())
print("LINK resends", link.resends, "bad", link.bad_frames, "out", cable.bytes_out)
print("LINK lowest free", lowest)
print("LINK done")
"""


def linked_drive(role, seed, size=4, rounds=2, players=2):
    """The CIRCUITPY files of one chip: ``role`` "host" (seat 0, red; a match of ``players``
    human seats, one for each chip) or "guest" (the seat the host gives it: seat 1 for the
    chip after the host on a ring of two, the next free seat in the order the guests join)."""
    files = {"code.py": (CODE % {"role": role, "seed": seed, "baud": BAUD, "size": size,
                                 "rounds": rounds, "players": players}).encode()}
    folder = os.path.join(ROOT, "rolit_core")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            with open(os.path.join(folder, name), "rb") as handle:
                files["rolit_core/" + name] = handle.read()
    for name in ("__init__.py", "uartlink.py"):
        with open(os.path.join(ROOT, "hardware", name), "rb") as handle:
            files["hardware/" + name] = handle.read()
    return files


RING_CODE = r"""
import time
import board
import busio

INDEX = %(index)d
COUNT = %(count)d
uart = busio.UART(board.GP12, board.GP13, baudrate=%(baud)d, timeout=0)
print("RING ready", INDEX, "of", COUNT)
pending = b""
sent_ns = {}
seq = 0
done = False
while not done:
    now = time.monotonic_ns()
    # The first chip starts a message round the ring, again every half second until one comes
    # back: a message sent before the next chip's UART was set up is lost.
    if INDEX == 0 and not sent_ns.get("done") and (
            not seq or now - sent_ns[seq] > 500000000):
        seq += 1
        sent_ns[seq] = now
        uart.write(("RING %%d 0\n" %% seq).encode())
    data = uart.read(64)
    if data:
        pending += data
    end = pending.find(b"\n")
    while end >= 0:
        text = pending[:end].decode()
        pending = pending[end + 1:]
        end = pending.find(b"\n")
        words = text.split()
        if words == ["DONE"]:
            print("RING done")
            if INDEX:
                uart.write(b"DONE\n")
            done = True
        elif words[:1] == ["RING"] and INDEX == 0:
            if words[2:] == [str(i) for i in range(COUNT)] and not sent_ns.get("done"):
                print("RING back", " ".join(words[2:]), "after",
                      (now - sent_ns[int(words[1])]) // 1000000, "ms")
                sent_ns["done"] = now
                uart.write(b"DONE\n")
        elif words[:1] == ["RING"]:
            print("RING pass", " ".join(words[2:]))
            uart.write((text + " %%d\n" %% INDEX).encode())
time.sleep(0.2)  # the last bytes leave the UART before code.py ends and it is shut down
"""


def ring_drive(index, count):
    """The CIRCUITPY files of chip ``index`` of ``count`` in a ring: chip 0 sends a message
    that each chip passes on with its number added (``RING pass 0 1``), until it comes back
    to chip 0 (``RING back 0 1 2 after MS ms``); then a ``DONE`` goes round and each chip
    prints ``RING done`` and ends."""
    return {"code.py": (RING_CODE % {"index": index, "count": count, "baud": BAUD}).encode()}


class Noise:
    """A noisy cable that is pulled for a while: in one chunk of bytes in ten a bit flips, in
    one in twenty a byte is lost, and nothing gets through for ``cut_ms`` (emulated) once
    ``watch``'s console shows ``after`` moves. ``cut_at``/``cut_until``: when, in the run's ms."""

    def __init__(self, seed, watch, after=6, cut_ms=3000, flip=0.1, drop=0.05):
        self.rng = random.Random(seed)
        self.watch = watch
        self.after = after
        self.cut_ms = cut_ms
        self.flip = flip
        self.drop = drop
        self.cut_at = None
        self.cut_until = None
        self.flips = self.drops = 0

    def __call__(self, ms, index, data):
        if self.cut_at is None and self.cut_ms and \
                self.watch.console.count("LINK move") >= self.after:
            self.cut_at = ms
            self.cut_until = ms + self.cut_ms
        if self.cut_at is not None and ms < self.cut_until:
            return b""
        data = bytearray(data)
        if self.rng.random() < self.flip:
            data[self.rng.randrange(len(data))] ^= 1 << self.rng.randrange(8)
            self.flips += 1
        if data and self.rng.random() < self.drop:
            del data[self.rng.randrange(len(data))]
            self.drops += 1
        return bytes(data)


class Ring:
    """The cable between ``chips`` (Emulators): each one's UART0 TX to the next one's UART0 RX,
    the last one's to the first's, so two chips are crossed (TX to RX both ways) and three or
    four form a ring. ``carry(ms)`` moves what each chip sent since the last call onto the
    next one's RX pin, where the host brings the bytes in at ``baud`` (one each ten bit times of
    emulated time, each when the 32-byte FIFO has room), as a real wire would.
    ``damage(ms, index, data)`` may change or drop (return b"") the bytes on the wire out of
    chip ``index``. ``sent[i]`` counts the bytes chip i put on its wire, ``received[i]`` those
    that reached its RX pin (after any damage)."""

    def __init__(self, chips, baud=BAUD, damage=None):
        if not 2 <= len(chips) <= 4:
            raise ValueError("a link has 2-4 handhelds, not %d" % len(chips))
        self.chips = list(chips)
        self.baud = baud
        self.damage = damage
        self.sent = [0] * len(chips)
        self.received = [0] * len(chips)

    def next(self, index):
        """The chip whose RX pin chip ``index``'s TX pin is wired to."""
        return (index + 1) % len(self.chips)

    def carry(self, ms):
        for index, chip in enumerate(self.chips):
            data = bytes(chip.uart_out[0])
            if not data:
                continue
            chip.uart_out[0].clear()
            self.sent[index] += len(data)
            if self.damage:
                data = self.damage(ms, index, data)
            if data:
                target = self.next(index)
                self.chips[target].uart_send(0, data, baud=self.baud)
                self.received[target] += len(data)


def play_linked(chips, limit_ms, damage=None):
    """Run the chips side by side in SLICE_MS slices, wired by a :class:`Ring` at BAUD;
    ``damage`` as the Ring's. Returns, per chip, the run's ms at which each of its
    ``LINK phase`` lines appeared: [(ms, phase), ...]."""
    elapsed = 0
    seen = [0] * len(chips)
    phases = [[] for _ in chips]
    from sim.emulate import run_together

    ring = Ring(chips, BAUD, damage)
    while elapsed < limit_ms:
        run_together(chips, SLICE_MS)
        elapsed += SLICE_MS
        ring.carry(elapsed)
        for index, chip in enumerate(chips):
            # Whole lines only: a line the slice cut in two is read with the next slice.
            end = chip.console.rfind("\n") + 1
            if end > seen[index]:
                for line in chip.console[seen[index]:end].split("\n"):
                    if line.startswith("LINK phase "):
                        phases[index].append((elapsed, line[11:].split()[0]))
                seen[index] = end
        if all("LINK done" in chip.console for chip in chips):
            return phases
    raise AssertionError("no end after %d ms: %s" % (
        limit_ms, [chip.console[-600:] for chip in chips]))


def lines(chip, word):
    """What follows ``LINK word`` on each such line of ``chip``'s console."""
    found = []
    for line in chip.lines():
        if line.startswith("LINK " + word + " ") or line == "LINK " + word:
            found.append(line[len("LINK " + word) + 1:])
    return found
