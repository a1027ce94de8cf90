"""Two or more emulated Picos linked by their UARTs, as the cable links handhelds: the drive each
one boots (the unmodified rolit_core and hardware.uartlink under a small ``code.py`` that plays
seeded moves for its own seat), and the wire between them, paced at the baud rate in emulated
time. Used by tests/test_firmware_link.py and bench/link.py.

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
from rolit_core.lockstep import Guest, Host, LOCAL, PLAYING
from rolit_core.rng import Random
from rolit_core.vocab import ticks_diff

ROLE = "%(role)s"
gc.collect()
print("LINK free after imports", gc.mem_free())
cable = UartLink(board.GP12, board.GP13, baudrate=%(baud)d)
link = Link()
rng = Random(%(seed)d)
if ROLE == "host":
    match = Match(%(rounds)d, 2, %(size)d, seed=%(seed)d)
    session = Host(link, match, ["human", "human"], [0, LOCAL], 4242)
    my_seat = 0
else:
    session = Guest(link)
    session.join()
    my_seat = 1
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
        elif session.seat_to_move() == my_seat:
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


def linked_drive(role, seed, size=4, rounds=2):
    """The CIRCUITPY files of one chip: ``role`` "host" (seat 0, red) or "guest" (seat 1)."""
    files = {"code.py": (CODE % {"role": role, "seed": seed, "baud": BAUD, "size": size,
                                 "rounds": rounds}).encode()}
    folder = os.path.join(ROOT, "rolit_core")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            with open(os.path.join(folder, name), "rb") as handle:
                files["rolit_core/" + name] = handle.read()
    for name in ("__init__.py", "uartlink.py"):
        with open(os.path.join(ROOT, "hardware", name), "rb") as handle:
            files["hardware/" + name] = handle.read()
    return files


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


def play_linked(chips, limit_ms, damage=None):
    """Run the chips side by side in SLICE_MS slices, each one's UART0 output wired to the next
    one's RX at BAUD; ``damage(ms, index, data)`` may change or drop (return b"") the bytes of a
    slice on the wire out of chip ``index``. Returns, per chip, the run's ms at which each of
    its ``LINK phase`` lines appeared: [(ms, phase), ...]."""
    elapsed = 0
    seen = [0] * len(chips)
    phases = [[] for _ in chips]
    while elapsed < limit_ms:
        for chip in chips:
            chip.run(SLICE_MS)
        elapsed += SLICE_MS
        for index, chip in enumerate(chips):
            data = bytes(chip.uart_out[0])
            chip.uart_out[0].clear()
            if data and damage:
                data = damage(elapsed, index, data)
            if data:
                chips[(index + 1) % len(chips)].uart_send(0, data, baud=BAUD)
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
