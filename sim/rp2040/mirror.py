"""The device's game replayed on CPython, frame for frame, to check what the real firmware shows.

The deployed ``code.py`` runs on the emulated Pico unchanged, except that a small harness
(:data:`HARNESS`, installed as ``code.py`` with the real one beside it as ``rolit_main.py``)
prints every ``App.update`` call on the console before making it: ``@U <now_ms> <key><+|->...``
(and ``@N <nodes>`` first when code.py has changed ``app.think_nodes``, the computer's slice;
``@C <k>`` after it when the frame's clock ended that slice at the k-th time the search asked,
so that the mirror's search stops at the same node).
:class:`Mirror` feeds those calls to a ``rolit_core.app.App`` on CPython built the way code.py
builds the device's (the same settings.toml, seed and saved bytes from the chip's nvm) and sends
its frames through the same driver code (``hardware.matrix.Matrix`` into a real
``adafruit_pixelbuf`` strip). ``expected`` is then the byte stream the LEDs must receive, and the
mirror's ``app`` says what the device is doing (mode, whose turn, the cursor), so a test can
decide which buttons to press.
"""

import os
import tempfile

HARNESS = '''"""sim.emulate's harness: the deployed code.py (as rolit_main.py), every App.update logged."""
import rolit_main
from rolit_core.app import App

_update = App.update
_nodes = [20]


_asked = [0, False]


def _logged(self, now_ms, events=()):
    if self.think_nodes != _nodes[0]:
        _nodes[0] = self.think_nodes
        print("@N %d" % self.think_nodes)
    line = "@U %d" % now_ms
    for key, pressed in events:
        line += " %d%s" % (key, "+" if pressed else "-")
    print(line)
    stop = self.think_stop
    if stop is not None:
        _asked[0] = 0
        _asked[1] = False

        def counted():
            _asked[0] += 1
            _asked[1] = stop()
            return _asked[1]

        self.think_stop = counted
    try:
        return _update(self, now_ms, events)
    finally:
        if stop is not None:
            self.think_stop = stop
            if _asked[1]:
                print("@C %d" % _asked[0])


App.update = _logged
rolit_main.main()
'''


def with_harness(files):
    """The deployed ``files`` with the logging harness as code.py (the real one as
    rolit_main.py, which it imports and runs)."""
    files = dict(files)
    files["rolit_main.py"] = files.pop("code.py")
    files["code.py"] = HARNESS.encode()
    return files


def parse_update(line):
    """``(now_ms, events)`` from a harness line ``@U 1234 4+ 4-``, or None."""
    if not line.startswith("@U "):
        return None
    parts = line.split()
    try:
        now = int(parts[1])
        events = [(int(part[:-1]), part[-1] == "+") for part in parts[2:]]
    except (ValueError, IndexError):
        return None
    return now, events


def console_tail(text, lines=25):
    """The last ``lines`` lines of console ``text`` without the harness's ``@`` lines: what
    the device itself printed, for a failure's message."""
    kept = [line for line in text.splitlines() if "@U " not in line and "@C " not in line
            and "@N " not in line]
    return "\n".join(kept[-lines:])


def load_settings(toml):
    """``hardware.config.load()`` on the text of a settings.toml, as the device reads it."""
    from hardware import config

    folder = tempfile.mkdtemp(prefix="rolit-settings-")
    path = os.path.join(folder, "settings.toml")
    try:
        with open(path, "wb") as handle:
            handle.write(toml)
        table = config.read_toml(path)
        # While the file is there: load() reads it again for keys that are not settings.
        return config.load(getenv=table.get, path=path)
    finally:
        os.remove(path)
        os.rmdir(folder)


def is_first_light(data):
    """True if ``data`` (a frame's bytes on the strip) is ``hardware.firstlight``'s."""
    from hardware.firstlight import CENTRE, LEVEL

    bpp = len(data) // 64
    light = bytearray(len(data))
    for index in CENTRE:
        for channel in range(3):
            light[index * bpp + channel] = LEVEL
    return bytes(data) == bytes(light)


class _Chip:
    """A stand-in for the ``microcontroller`` module: only ``nvm``."""

    def __init__(self, nvm):
        self.nvm = nvm


class Mirror:
    """``rolit_core.app.App`` on CPython as the device builds it, with its LED bytes.

    ``settings_toml``: the drive's settings.toml (bytes); ``nvm``: the chip's nvm at power-on
    (bytes, see ``Emulator.nvm()``). ``expected`` lists the bytes of every frame the device
    must send, in order (the device sends a frame only when it differs from the last one).
    """

    def __init__(self, settings_toml, nvm):
        from hardware.matrix import Matrix
        from hardware.storage import open_storage
        from rolit_core.app import App
        from sim.strip import SimStrip

        settings = load_settings(settings_toml)
        self.settings = settings
        self.storage, self.storage_message = open_storage(
            settings.storage, settings.save_file, settings.nvm_offset,
            microcontroller=_Chip(bytearray(nvm)))
        self.app = App(storage=self.storage, seed=None if settings.seed < 0 else settings.seed)
        self.strip = SimStrip(settings.matrix_width * settings.matrix_height,
                              pixel_order=settings.pixel_order)
        self.matrix = Matrix.from_settings(self.strip, settings)
        self.expected = []
        self.updates = 0
        self.key_events = 0  # key events the device's App has been given
        self.now = None
        self._shown = None

    def update(self, now_ms, events, stop_at=0):
        """One ``App.update`` as the device made it (``stop_at``: its thinking stopped when the
        search asked for the ``stop_at``-th time, 0: not by the clock)."""
        self.now = now_ms
        self.updates += 1
        self.key_events += len(events)
        if stop_at:
            asked = [0]

            def stop():
                asked[0] += 1
                return asked[0] >= stop_at

            self.app.think_stop = stop
        try:
            frame = tuple(self.app.update(now_ms, list(events)))
        finally:
            self.app.think_stop = None
        if frame != self._shown:
            self._shown = frame
            self.matrix.show(frame)
            self.expected.append(bytes(self.strip.data))
        return frame


class FrameMismatch(AssertionError):
    """The device sent LED bytes that the CPython App with the same inputs did not."""


KEY_NUMBERS = {"up": 0, "down": 1, "left": 2, "right": 3, "select": 4, "back": 5}


class Lockstep:
    """An :class:`sim.emulate.Emulator` running the harness, with a :class:`Mirror` fed from its
    console and every LED frame checked against the mirror's as it arrives.

    Call :meth:`power_on` after ``emulator.start()`` and after every ``power_cycle()``.
    """

    def __init__(self, emulator, settings_toml):
        self.pico = emulator
        self.settings_toml = settings_toml
        self.mirror = None
        self.checked = 0      # frames of this boot compared so far
        self.total_checked = 0
        self._line_at = 0
        self._frames_at = 0
        self._pending = None  # the last update seen, made once the next line says how it ended

    def power_on(self):
        """A new mirror from the nvm the chip powers on with."""
        self.mirror = Mirror(self.settings_toml, self.pico.nvm())
        self._pending = None
        self._line_at = len(self.pico.console)
        self._frames_at = len(self.pico.frames)
        self.checked = 0
        return self.mirror

    @property
    def app(self):
        return self.mirror.app

    @property
    def frames(self):
        """This boot's frames from the device, from the App's first (the first light that
        code.py shows before it loads the game is no App frame)."""
        frames = self.pico.frames[self._frames_at:]
        if frames and is_first_light(frames[0].data):
            frames = frames[1:]
        return frames

    def run(self, ms):
        """Run the device ``ms`` emulated ms, keep the mirror in step, check the frames."""
        self.pico.run(ms)
        self.sync()

    def run_until(self, condition, timeout_ms, step_ms=50):
        """Run until ``condition(app)`` holds for the mirror's app; False after ``timeout_ms``."""
        start = self.pico.ms
        while not condition(self.app):
            if self.pico.ms - start > timeout_ms:
                return False
            self.run(step_ms)
        return True

    def sync(self):
        text = self.pico.console
        end = text.rfind("\n")
        if end >= self._line_at:
            for line in text[self._line_at:end].split("\n"):
                at = line.find("@U ")
                parsed = parse_update(line[at:].strip()) if at >= 0 else None
                if parsed is not None:
                    self._flush()
                    self._pending = parsed
                elif "@C " in line and self._pending is not None:
                    # the frame's clock ended that update's thinking
                    self.mirror.update(*self._pending,
                                       stop_at=int(line[line.find("@C ") + 3:].split()[0]))
                    self._pending = None
                elif "@N " in line:
                    self._flush()
                    # code.py sized the computer's slice of thinking from its frame times
                    self.mirror.app.think_nodes = int(line[line.find("@N ") + 3:].split()[0])
            self._line_at = end + 1
        self.check()

    def _flush(self):
        if self._pending is not None:
            self.mirror.update(*self._pending)
            self._pending = None

    def check(self):
        frames = self.frames
        expected = self.mirror.expected
        upto = min(len(frames), len(expected))
        for index in range(self.checked, upto):
            if frames[index].data != expected[index]:
                raise FrameMismatch(self.describe(index, frames[index].data, expected[index]))
        self.total_checked += upto - self.checked
        self.checked = upto

    def describe(self, index, got, wanted):
        leds = [i // 3 for i in range(0, len(got), 3) if got[i:i + 3] != wanted[i:i + 3]]
        return ("frame %d of this boot (device time %.1f ms, app mode %s) differs at strip LEDs "
                "%s: device %s, CPython %s; the device's console ends:\n%s"
                % (index, self.frames[index].ms, self.app.mode, leds[:8],
                   got[3 * leds[0]:3 * leds[0] + 3].hex(),
                   wanted[3 * leds[0]:3 * leds[0] + 3].hex(), console_tail(self.pico.console)))

    def tap(self, key, hold_ms=60, gap_ms=40, timeout_ms=3000):
        """Press a button for ``hold_ms``, release it, and run until the device's App has had
        both events, then ``gap_ms`` more (emulated)."""
        seen = self.mirror.key_events
        self.pico.press(key)
        self.run(hold_ms)
        self.pico.release(key)
        if not self.run_until(lambda app: self.mirror.key_events >= seen + 2, timeout_ms, 20):
            raise AssertionError("the device did not report the %s press and release within "
                                 "%d ms" % (key, timeout_ms))
        self.run(gap_ms)

    def move_cursor(self, target, limit=20):
        """Tap the arrows until the board cursor is on ``target``; False if it never gets there."""
        for _ in range(limit):
            cursor = self.app.cursor
            if cursor == target:
                return True
            size = self.app.game.size
            row, col = divmod(cursor, size)
            want_row, want_col = divmod(target, size)
            if row != want_row:
                self.tap("down" if (want_row - row) % size <= size // 2 else "up")
            else:
                self.tap("right" if (want_col - col) % size <= size // 2 else "left")
        return self.app.cursor == target
