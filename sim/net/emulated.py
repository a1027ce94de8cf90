"""The simulator and an emulated Pico in one linked game: the chip runs the real firmware with
the deployed game (``sim.emulate``), and its link's UART0 is the simulator's cable.

>>> cable = ChipCable(chip)           # chip: a started sim.emulate.Emulator
>>> pair = SimAndChip(device, chip)   # device: the simulator's sim.device.Device, its App linked
>>> pair.run(100)                     # 100 ms of the chip's time, the simulator in step

Why one clock: the protocol's timeouts (a beat every 250 ms, "link lost" after 1.5 s silence)
count in each node's own milliseconds. The emulated chip runs many times slower than a real
one here, so a simulator on the wall clock would hear it go silent between its beats and call
the link lost. So the simulator runs on the chip's emulated clock: each slice of emulated time
on the chip, then one frame of the simulator at the chip's ``ms``. Both then see the other as a
handheld at full speed would (the simulator's animations go at the chip's pace).

The bytes go as on the cable of ``sim.rp2040.linked.Ring``: what the chip wrote on UART0's TX
is fed to the simulator's link, and the link's output enters the chip's RX pin paced at the
baud rate, each byte when its 32-byte FIFO has room.
"""

from ..rp2040.linked import BAUD, SLICE_MS


class ChipCable:
    """The simulator's link on ``chip``'s UART0 (the link's pins of settings.toml's
    ``ROLIT_LINK_TX``/``ROLIT_LINK_RX``: GP12/GP13 on the emulated Pico), as
    ``UartLink.pump``: ``pump(link, now)`` every frame."""

    def __init__(self, chip, baud=BAUD, uart=0):
        self.chip = chip
        self.baud = baud
        self.uart = uart
        self.state = "linked"
        self.bytes_in = 0
        self.bytes_out = 0

    def pump(self, link, now):
        came = self.chip.uart_out[self.uart]
        if came:
            data = bytes(came)
            came.clear()
            self.bytes_in += len(data)
            link.feed(data, now)
        data = link.output()
        if data:
            self.bytes_out += len(data)
            self.chip.uart_send(self.uart, data, baud=self.baud)

    def close(self):
        """The chip is its owner's to power off."""
        self.state = "closed"


class SimAndChip:
    """A simulator (``device``: a ``sim.device.Device`` whose cable is a :class:`ChipCable`
    on ``chip``) and the chip, run in step on the chip's clock."""

    def __init__(self, device, chip, slice_ms=SLICE_MS, on_frame=None):
        self.device = device
        self.chip = chip
        self.slice_ms = slice_ms
        self.on_frame = on_frame  # called after each of the simulator's frames
        if device.cable is None:
            device.cable = ChipCable(chip)

    @property
    def now(self):
        """The chip's emulated ms, which is the simulator's clock."""
        return int(self.chip.ms)

    def step(self, events=()):
        """One slice on the chip, then one frame of the simulator (given ``events``)."""
        self.chip.run(self.slice_ms)
        changed = self.device.update(self.now, events)
        if self.on_frame is not None:
            self.on_frame()
        return changed

    def run(self, ms):
        for _ in range(max(1, int(ms) // self.slice_ms)):
            self.step()

    def until(self, test, limit_ms, step_ms=100):
        spent = 0
        while spent < limit_ms:
            if test():
                return True
            self.run(step_ms)
            spent += step_ms
        return test()

    def tap_sim(self, key):
        """A key of the simulator pressed and let go, a frame each."""
        self.step([(key, True)])
        self.step([(key, False)])

    def tap_chip(self, key, hold=60, after=120):
        """A button of the chip held ``hold`` ms of its time, then ``after`` ms to see it."""
        self.chip.press(key)
        self.run(hold)
        self.chip.release(key)
        self.run(after)
