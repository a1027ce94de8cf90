"""The whole handheld built from settings: matrix, controls, buzzer, storage and a clock.

>>> from hardware import config
>>> from hardware.handheld import Handheld, ticks_ms
>>> from rolit_core.app import App, UP, DOWN, LEFT, RIGHT, SELECT, BACK
>>> handheld = Handheld(config.load(), (UP, DOWN, LEFT, RIGHT, SELECT, BACK))
>>> for message in handheld.errors:
...     print(message)
>>> app = App(storage=handheld.storage)
>>> now = ticks_ms()
>>> handheld.show(app.update(now, handheld.poll(now)))

Nothing here raises for a wrong setting or a missing part: each problem becomes a message in
``errors`` and the part falls back (a pin to the preset's, a joystick to buttons, nvm to a file)
or is left out. The game then runs with what there is.
"""


# The parts are built by hardware.parts, which imports hardware.config, buzzer, joystick and
# onebutton where they are needed: a device without a buzzer, a joystick or one-button play never
# loads their code, and code.py builds the handheld inside its start-up block
# (hardware.startup), at whose end parts and config are forgotten.

from rolit_core.vocab import TICKS_MASK as _MASK

try:
    from supervisor import ticks_ms
except ImportError:
    import time

    if hasattr(time, "ticks_ms"):
        def ticks_ms():
            """Milliseconds, wrapping at 2**29 (MicroPython)."""
            return time.ticks_ms() & _MASK
    else:
        def ticks_ms():
            """Milliseconds, wrapping at 2**29 (CPython with Blinka)."""
            return (time.monotonic_ns() // 1000000) & _MASK

# Cues by importance: when one frame has several, the first of these is heard.
CUE_ORDER = ("error", "win", "timeout", "illegal", "capture", "place", "undo", "start", "tick")

# Error patterns: the border colour says what kind of problem; dots below count them.
SETTINGS_ERROR = (255, 160, 0)  # yellow: a setting was wrong, a default is used
CRASH_ERROR = (255, 0, 0)       # red: the game stopped and restarts


def error_frame(colour, count=1):
    """A frame with a ``colour`` border and ``count`` (1-12) white dots inside: the number of
    problems (see the serial console for the words)."""
    frame = [(0, 0, 0)] * 64
    for i in range(8):
        frame[i] = colour
        frame[56 + i] = colour
        frame[8 * i] = colour
        frame[8 * i + 7] = colour
    count = 1 if count < 1 else (12 if count > 12 else count)
    for dot in range(count):
        frame[(2 + 2 * (dot // 6)) * 8 + 1 + dot % 6] = (200, 200, 200)
    return frame


class Handheld:
    """The parts of the device. ``keys`` are the game's (up, down, left, right, select, back).

    Attributes: ``matrix`` (or None), ``inputs`` (objects with ``poll(now_ms, events)``),
    ``steer`` (for one-button mode, or None), ``buzzer`` (or None), ``cable`` (the link to the
    other handhelds, a :class:`hardware.uartlink.UartLink`: ``cable.pump(link, now_ms)`` every
    frame; None without a link), ``storage``, ``errors``.
    The CircuitPython modules are imported on first use (by ``hardware.parts``), so a PC can
    import this file.
    """

    def __init__(self, settings, keys):
        self.settings = settings
        self.keys = keys
        self.errors = list(settings.errors)
        self.matrix = None
        self.inputs = []
        self.steer = None
        self.buzzer = None
        self.cable = None  # the link's UART (hardware.uartlink), when settings.toml asks for one
        self._events = []
        self._shown = [None] * 64
        try:
            import board
        except Exception as error:  # not a board: nothing but storage
            self.errors.append("no board module (%s): no matrix, no controls" % (error,))
            board = None
        if board is not None:
            from .parts import build

            build(self, board)
        from .parts import open_storage

        self.storage, message = open_storage(settings.storage, settings.save_file,
                                             settings.nvm_offset)
        if message:
            self.errors.append(message)

    # -- every frame --------------------------------------------------------------------

    def poll(self, now_ms, app=None):
        """The key events since the last call (a list reused by the next call). ``app`` is
        needed in one-button mode."""
        events = self._events
        del events[:]
        for source in self.inputs:
            source.poll(now_ms, events)
        if self.steer is not None and app is not None:
            self.steer.translate(app, events)
        return events

    def show(self, frame):
        """Show ``frame`` on the matrix if it differs from the one shown; True if it was sent."""
        shown = self._shown
        same = True
        for i in range(64):
            colour = frame[i]
            # The app hands out the same cached tuples frame after frame: identity first.
            if colour is not shown[i] and colour != shown[i]:
                shown[i] = colour
                same = False
        if same or self.matrix is None:
            return False
        self.matrix.show(frame)
        return True

    def show_error(self, colour, count=1):
        """Put an error pattern on the matrix (ignores a matrix that fails too)."""
        if self.matrix is None:
            return
        try:
            frame = error_frame(colour, count)
            self.matrix.show(frame)
            for i in range(64):
                self._shown[i] = frame[i]
        except Exception:
            pass

    def sound(self, cues, now_ms):
        """Start the sound of the most important new cue; keep the current one going."""
        buzzer = self.buzzer
        if buzzer is None:
            return
        best = None
        for cue in cues:
            if cue in CUE_ORDER and (best is None or CUE_ORDER.index(cue) < CUE_ORDER.index(best)):
                best = cue
        if best is not None:
            buzzer.play(best, now_ms)
        buzzer.update(now_ms)
