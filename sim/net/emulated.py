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

    def __init__(self, chip, baud=BAUD, uart=0, owns=False):
        self.chip = chip
        self.baud = baud
        self.uart = uart
        self.owns = owns  # close() powers the chip off (python -m sim --join emulator)
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
        """Let go; with ``owns``, power the chip off too."""
        self.state = "closed"
        if self.owns:
            self.chip.close()


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


def start_chip(preset="pico"):
    """``python -m sim --join emulator``'s chip: a new Pico's flash with the deployed game and
    the link's two lines in settings.toml, powered on; wrapped in a :class:`ChipCable` that
    powers it off on close. ``NetError`` in one line when the emulator cannot run here."""
    from ..emulate import Emulator, EmulatorError, missing_reason, prepare_chip
    from ..emulink import LINK_SETTINGS
    from .wire import NetError

    reason = missing_reason()
    if reason is not None:
        raise NetError("cannot start the emulated Pico: " + reason)
    try:
        image, toml, keys = prepare_chip(None, None, {}, preset, dict(LINK_SETTINGS))
        chip = Emulator(flash=image, keys=keys)
        chip.start()
    except (ValueError, EmulatorError) as error:
        raise NetError("cannot start the emulated Pico: %s" % str(error).strip().split("\n")[0])
    cable = ChipCable(chip, owns=True)
    cable.toml = toml
    return cable


class SimBesideChip:
    """The simulator and the chip of ``python -m sim --join emulator`` behind one window or
    terminal, as ``sim.emulink.LinkedDevice`` shows linked chips: both boards side by side, Tab
    or 1-2 choose where the keys go. ``update(now_ms, events)`` runs the chip as much emulated
    time as passed on the wall clock (at most the EmulatedDevice's slice) in SLICE_MS steps,
    one frame of the simulator on the chip's clock after each (:class:`SimAndChip`)."""

    def __init__(self, sim_device, chip_device, describe):
        self.sim = sim_device
        self.chip_device = chip_device
        self.pair = SimAndChip(sim_device, chip_device.pico)
        self.describe = describe   # the simulator's side panel (sim.cli's information)
        self.selected = 0
        self.app = None
        self._sim_events = []

    @property
    def colours(self):
        return self.sim.colours if self.selected == 0 else self.chip_device.colours

    def choose(self, key, events=()):
        if self.selected == 0:
            self._sim_events.extend(events)
            self._sim_events.extend((number, False) for number in range(6))  # nothing held
        else:
            self.chip_device.queue(events)
            self.chip_device.release_all()
        if isinstance(key, tuple):
            key = key[1] - 1
        if isinstance(key, int):
            if 0 <= key < 2:
                self.selected = key
        else:
            self.selected = 1 - self.selected
        return self.selected

    def update(self, now_ms, events=()):
        sim_events = self._sim_events
        self._sim_events = []
        if self.selected == 0:
            sim_events.extend(events)
            events = ()
        ms = self.chip_device.before_run(now_ms, events)
        changed = False
        for _ in range(max(1, ms // self.pair.slice_ms)):
            changed = self.pair.step(sim_events) or changed
            sim_events = ()
        return self.chip_device.after_run(now_ms) or changed

    def panels(self):
        info = self.describe(self.sim.app) or {}
        sim_lines = [line for line in info.get("status", ()) if line]
        sim_lines.append("on the chip's clock: %.1f s emulated" % (self.pair.now / 1000))
        chip_info = self.chip_device.info()["status"]
        cable = self.sim.cable
        chip_lines = list(chip_info[:2]) + ["link: %d bytes out, %d in" % (
            cable.bytes_in, cable.bytes_out)] + list(chip_info[2:])
        return [(self.sim.colours, "Simulator", sim_lines, self.selected == 0),
                (self.chip_device.colours, "Pico (emulated)", chip_lines, self.selected == 1)]

    def wiring(self):
        return "the simulator's link <-> the Pico's UART0 (GP12 TX, GP13 RX), %d baud" % (
            self.sim.cable.baud)


def run(args, mode, device, describe):
    """The window or terminal of ``python -m sim --join emulator``: the simulator (its App
    and Device as sim.cli built them, ``device.cable`` from :func:`start_chip`) beside the
    chip, until the window closes."""
    from ..emulate import EmulatedDevice
    from ..emulink import _window, render_linked
    from ..rp2040.mirror import load_settings

    cable = device.cable
    chip_device = EmulatedDevice(cable.chip, load_settings(cable.toml), console_lines=3)
    both = SimBesideChip(device, chip_device, describe)
    if mode == "window":
        win = _window(both, args.fps or 30, 2,
                      title="Rolit Handheld: the simulator and an emulated Pico, linked")
        try:
            win.run()
        finally:
            win.close()
        return
    from .. import terminal

    terminal.run(both, lambda app: None, fps=args.fps or 30,
                 screen=lambda columns, rows, colour: render_linked(
                     both.panels(), both.wiring(), columns, rows, colour),
                 on_board=both.choose)
