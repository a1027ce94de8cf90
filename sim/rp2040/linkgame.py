"""A linked game on emulated Picos, played as its players would: the deployed game (the
unmodified code.py; settings.toml's LINK_SETTINGS open the link's UART on GP12/GP13), the cable of
:class:`sim.rp2040.linked.Ring`, and key presses on each chip's button pins. Used by
tests/test_firmware_linkgame.py and ``python -m bench link --game``.

The host's player makes every other seat a linked one and sets the board size with the keys;
the others join from the menu's last page; then every player presses SELECT in turn until the
round ends on every chip (only the handheld whose seat is to move takes it: the cursor always
starts on a legal cell). On the way each move's latency is measured: from SELECT released on
the mover's chip to its ball lit on each other chip's matrix (the board's lit cells counted in
the frames the chips send to their LEDs).
"""

import re

from sim.emulate import run_together
from sim.rp2040.linked import BAUD, SLICE_MS, Ring

MOVE = re.compile(r"^\s+\d+\. ([RYGB]) ([a-h]\d)\b")
# settings.toml's two lines that switch the link on (the UART0 pins of the pico preset)
LINK_SETTINGS = {"ROLIT_LINK_TX": "GP12", "ROLIT_LINK_RX": "GP13"}
BOOT_MS = 20000
SIZES = (8, 6, 4)


class LinkedGame:
    """``chips``: started Emulators of the deployed game, chip 0 the host."""

    def __init__(self, chips, damage=None):
        self.chips = list(chips)
        self.ring = Ring(self.chips, BAUD, damage)
        self.ms = 0
        self.latencies = []  # ms from SELECT released on the mover to its ball on another chip

    def run(self, ms):
        for _ in range(max(1, ms // SLICE_MS)):
            run_together(self.chips, SLICE_MS)
            self.ms += SLICE_MS
            self.ring.carry(self.ms)

    def until(self, test, limit_ms, step=100):
        spent = 0
        while spent < limit_ms:
            if test():
                return True
            self.run(step)
            spent += step
        return test()

    def tap(self, index, key, hold=60, after=120):
        chip = self.chips[index]
        chip.press(key)
        self.run(hold)
        chip.release(key)
        self.run(after)

    def boot(self):
        """Power on every chip and open each one's menu."""
        if not self.until(lambda: all("controls:" in chip.console for chip in self.chips),
                          BOOT_MS, 500):
            raise AssertionError("no banner: %r" % ([c.console[-400:] for c in self.chips],))
        self.run(500)
        for index in range(len(self.chips)):
            self.tap(index, "select")  # the title answers a key with the menu
        self.run(300)

    def set_up(self, size=4):
        """The host's menu: players, every other seat linked, the board; start. The others
        join. Returns when every chip has begun the game (its log's "game 1:" line)."""
        count = len(self.chips)
        keys = ["down"]                            # the players page (2 by default)
        keys.extend(["right"] * (count - 2))
        keys.append("down")                        # seat 1: the host's own, human
        for _ in range(1, count):                  # seats 2..n: easy -> human -> link
            keys.extend(["down", "left", "left"])
        keys.append("down")                        # the board: 8 -> 6 -> 4
        keys.extend(["right"] * SIZES.index(size))
        keys.extend(["back", "select"])            # the play page, and host
        for key in keys:
            self.tap(0, key)
        for index in range(1, count):
            self.tap(index, "up")                  # the menu's last page: linked game
            self.tap(index, "select")              # the one press that joins
        if not self.until(lambda: all("game 1:" in chip.console for chip in self.chips),
                          15000 + 5000 * count):
            raise AssertionError("no game began: %r" % ([c.console[-800:] for c in self.chips],))

    def play_round(self, taps=80, size=4):
        """Every player presses SELECT in turn until every chip's log says the round is over."""
        for _ in range(taps):
            if all("round over" in chip.console for chip in self.chips):
                break
            for index in range(len(self.chips)):
                self._tap_and_watch(index, size)
        self.run(1000)

    def _tap_and_watch(self, index, size):
        # Only a tap that made a move (the host's log has one more) gives latencies: the other
        # chips show no cursor until that move's ball is down, so the first cell that lights
        # on them is its ball.
        chip = self.chips[index]
        others = [c for c in self.chips if c is not chip]
        before = [balls(c, size) for c in others]
        played = len(self.moves(0))
        chip.press("select")
        self.run(60)
        chip.release("select")
        released = self.ms
        waiting = list(range(len(others)))
        seen = []
        spent = 0
        while waiting and spent < 400:
            self.run(SLICE_MS)
            spent += SLICE_MS
            for k in list(waiting):
                if balls(others[k], size) > before[k]:
                    seen.append(self.ms - released)
                    waiting.remove(k)
        self.run(max(SLICE_MS, 400 - spent))
        if len(self.moves(0)) > played and not waiting:
            self.latencies.extend(seen)

    def moves(self, index):
        return [MOVE.match(line).groups() for line in self.chips[index].lines()
                if MOVE.match(line)]

    def heaps(self):
        """Each chip's "heap:" lines (the lowest free after a collection, per game)."""
        return [[line for line in chip.lines() if line.startswith("heap:")]
                for chip in self.chips]

    def frames(self):
        """Each chip's "frames:" lines (its longest whole frame, per game)."""
        return [[line for line in chip.lines() if line.startswith("frames:")]
                for chip in self.chips]


def balls(chip, size):
    """How many of the board's cells the chip's matrix shows lit now."""
    frames = [frame for frame in chip.frames[-4:] if frame.pin == 0]
    if not frames:
        return 0
    colours = frames[-1].rgb()
    off = (8 - size) // 2
    lit = 0
    for row in range(off, off + size):
        for col in range(off, off + size):
            if colours[row * 8 + col] != (0, 0, 0):
                lit += 1
    return lit
