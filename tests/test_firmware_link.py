"""The link protocol on the real CircuitPython firmware: two emulated Picos, their UART0s crossed
(TX to RX) as the cable does, play a match with rolit_core.lockstep over hardware.uartlink.

Each chip runs the unmodified rolit_core and hardware.uartlink under a small code.py that plays
seeded random moves for its own seat and prints every move it shows, then its final board and its
lowest free heap. The host wires the chips byte by byte at 115200 baud of emulated time (each byte
into a 32-byte RX FIFO only when there is room). Skips without a UF2 (``firmware_gate``).
"""

import os
import re

import pytest

from firmware_gate import require_emulator
from rolit_core import Match
from sim.emulate import Emulator

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BAUD = 115200
PROBLEMS = ("Traceback", "MemoryError", "safe mode")

CODE = r"""
import gc
import board
import supervisor
from hardware.uartlink import UartLink
from rolit_core import Match
from rolit_core.link import Link
from rolit_core.lockstep import Guest, Host, LOCAL, PLAYING
from rolit_core.rng import Random

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
            print("LINK move", event[1])
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
                    and (now - ended_at) & 0x1FFFFFFF > 300:
                session.next_round()
                ended_at = None
            if match.over and ended_at is None:
                ended_at = now
        elif session.seat_to_move() == my_seat:
            moves = game.legal_moves()
            session.play(moves[rng.below(len(moves))])
    if match is not None and match.over and ended_at is not None \
            and (now - ended_at) & 0x1FFFFFFF > 1500:
        break
    if (now - last_gc) & 0x1FFFFFFF > 200:
        gc.collect()
        lowest = min(lowest, gc.mem_free())
        last_gc = now
print("LINK board", match.game.board.to_text().replace(chr(10), "/"), match.game.scores())
print("LINK resends", link.resends, "bad", link.bad_frames)
print("LINK lowest free", lowest)
print("LINK done")
"""


def drive(role, seed, size=4, rounds=2):
    files = {"code.py": (CODE % {"role": role, "seed": seed, "baud": BAUD, "size": size,
                                 "rounds": rounds}).encode()}
    for package in ("rolit_core",):
        folder = os.path.join(ROOT, package)
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                with open(os.path.join(folder, name), "rb") as handle:
                    files[package + "/" + name] = handle.read()
    for name in ("__init__.py", "uartlink.py"):
        with open(os.path.join(ROOT, "hardware", name), "rb") as handle:
            files["hardware/" + name] = handle.read()
    return files


def play_linked(chips, limit_ms, damage=None):
    """Run the chips side by side in 5 ms slices, each one's UART0 output wired to the next
    one's RX at BAUD; ``damage(ms, index, data)`` may change or drop (return b"") the bytes of a
    slice on the wire out of chip ``index``."""
    elapsed = 0
    while elapsed < limit_ms:
        for chip in chips:
            chip.run(5)
        elapsed += 5
        for index, chip in enumerate(chips):
            data = bytes(chip.uart_out[0])
            chip.uart_out[0].clear()
            if data and damage:
                data = damage(elapsed, index, data)
            if data:
                chips[(index + 1) % len(chips)].uart_send(0, data, baud=BAUD)
        if all("LINK done" in chip.console for chip in chips):
            return elapsed
    raise AssertionError("no end after %d ms: %s" % (
        limit_ms, [chip.console[-600:] for chip in chips]))


class Noise:
    """A noisy cable that is pulled for a while: in one chunk of bytes in ten a bit flips, in
    one in twenty a byte is lost, and nothing gets through for ``cut_ms`` (emulated) once
    ``watch``'s console shows ``after`` moves."""

    def __init__(self, seed, watch, after=6, cut_ms=3000):
        import random

        self.rng = random.Random(seed)
        self.watch = watch
        self.after = after
        self.cut_ms = cut_ms
        self.cut_at = None
        self.flips = self.drops = 0

    def __call__(self, ms, index, data):
        if self.cut_at is None and self.watch.console.count("LINK move") >= self.after:
            self.cut_at = ms
        if self.cut_at is not None and ms - self.cut_at < self.cut_ms:
            return b""
        data = bytearray(data)
        if self.rng.random() < 0.1:
            data[self.rng.randrange(len(data))] ^= 1 << self.rng.randrange(8)
            self.flips += 1
        if self.rng.random() < 0.05:
            del data[self.rng.randrange(len(data))]
            self.drops += 1
        return bytes(data)


def lines(chip, word):
    return [line.split(" ", 2)[2] for line in chip.lines() if line.startswith("LINK " + word)]


@pytest.fixture(scope="module")
def firmware():
    require_emulator()


def test_two_linked_chips_play_a_match_to_the_same_end_through_noise_and_a_pulled_cable(
        firmware):
    with Emulator(files=drive("host", 3)) as host, Emulator(files=drive("guest", 5)) as guest:
        noise = Noise(11, host)
        play_linked([host, guest], 300000, noise)
        for chip in (host, guest):
            assert not [word for word in PROBLEMS if word in chip.console], chip.console[-2000:]
        assert noise.flips and noise.drops
        assert lines(host, "board") == lines(guest, "board")
        assert lines(host, "move") == lines(guest, "move")
        # Both saw the cable go and come back, and paused meanwhile.
        for chip in (host, guest):
            phases = lines(chip, "phase")
            assert "lost" in phases and phases[-1] != "lost", phases
        # The moves shown are a legal match, the one a local replay of them ends on.
        moves = [int(cell) for cell in lines(host, "move")]
        local = Match(2, 2, 4, seed=3)
        for cell in moves:
            if local.game.over:
                local.next_round()
            local.game.play(cell)
        assert local.over
        text, scores = re.match(r"(\S+) (\(.*\))", lines(host, "board")[0]).groups()
        assert text == local.game.board.to_text().replace("\n", "/")
        assert scores == str(local.game.scores())
        for chip in (host, guest):
            resends = lines(chip, "resends")[0]
            lowest = int(lines(chip, "lowest")[0].split()[-1])
            print("linked chip:", resends, "lowest free heap", lowest)
            assert lowest > 64000
