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

from .inputs import Buttons
from .matrix import Matrix
from .storage import open_storage

# hardware.config, buzzer, joystick and onebutton are imported where they are needed: a device
# without a buzzer, a joystick or one-button play never loads their code, and config's start-up
# code can be collected once the handheld is built (see code.py).

_MASK = (1 << 29) - 1

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
    ``steer`` (for one-button mode, or None), ``buzzer`` (or None), ``storage``, ``errors``.
    The CircuitPython modules are imported here, on first use, so a PC can import this file.
    """

    def __init__(self, settings, keys):
        self.settings = settings
        self.keys = keys
        self.errors = list(settings.errors)
        self.matrix = None
        self.inputs = []
        self.steer = None
        self.buzzer = None
        self._events = []
        self._shown = [None] * 64
        try:
            import board
        except Exception as error:  # not a board: nothing but storage
            self.errors.append("no board module (%s): no matrix, no controls" % (error,))
            board = None
        if board is not None:
            self._make_matrix(board)
            self._make_inputs(board)
            self._make_buzzer(board)
        self.storage, message = open_storage(settings.storage, settings.save_file,
                                             settings.nvm_offset)
        if message:
            self.errors.append(message)

    # -- building -----------------------------------------------------------------------

    def _pin(self, board, attr, what):
        """The board pin named by setting ``attr``; a bad name falls back to the preset's."""
        from . import config

        name = getattr(self.settings, attr)
        pin = config.pin(board, name, what, self.errors)
        if pin is None and name:
            default = config.PRESETS[self.settings.preset][config.PIN_ATTRS.index(attr)]
            if default and default != name:
                pin = config.pin(board, default, what, self.errors)
                if pin is not None:
                    self.errors.append("%s: using the %s pin %s instead"
                                       % (what, self.settings.preset, default))
        return pin

    def _make_matrix(self, board):
        settings = self.settings
        pin = self._pin(board, "matrix_pin", "matrix")
        if pin is None:
            self.errors.append("matrix: no data pin, playing without the LEDs")
            return
        try:
            import neopixel
            count = settings.matrix_width * settings.matrix_height
            strip = neopixel.NeoPixel(pin, count, bpp=len(settings.pixel_order),
                                      pixel_order=settings.pixel_order, auto_write=False)
            self.matrix = Matrix.from_settings(strip, settings)
        except Exception as error:
            self.errors.append("matrix: %s (is lib/neopixel.py there?)" % (error,))

    def _make_inputs(self, board):
        settings = self.settings
        up, down, left, right, select, back = self.keys
        to_ground = settings.buttons_to_ground
        kind = settings.input
        if kind == "joystick":
            x = self._pin(board, "joy_x", "joystick x")
            y = self._pin(board, "joy_y", "joystick y")
            if x is None or y is None:
                self.errors.append("joystick: no analog pins, using the buttons")
                kind = "buttons"
            else:
                try:
                    from .joystick import Joystick

                    stick = Joystick(x, y, (up, down, left, right), settings.joy_dead_zone,
                                     settings.joy_invert_x, settings.joy_invert_y,
                                     settings.joy_swap)
                    if stick.warning:
                        self.errors.append(stick.warning)
                    self.inputs.append(stick)
                except Exception as error:
                    self.errors.append("joystick: %s; using the buttons" % (error,))
                    kind = "buttons"
            if kind == "joystick":
                self._add_buttons(board, ((select, "joy_press", "joystick press"),
                                          (select, "pin_select", "select button"),
                                          (back, "pin_back", "back button")), to_ground)
                return
        if kind == "onebutton":
            pin = self._pin(board, "pin_select", "the button")
            if pin is not None:
                try:
                    from .onebutton import NEXT, OneButton, Steer

                    self.inputs.append(OneButton(pin, NEXT, select, settings.long_press_ms,
                                                 back, settings.long_press_ms * 4, to_ground))
                    self.steer = Steer(up, down, left, right)
                    return
                except Exception as error:
                    self.errors.append("one button: %s; using the buttons" % (error,))
            else:
                self.errors.append("one button: no pin, using the buttons")
        self._add_buttons(board, ((up, "pin_up", "up button"), (down, "pin_down", "down button"),
                                  (left, "pin_left", "left button"),
                                  (right, "pin_right", "right button"),
                                  (select, "pin_select", "select button"),
                                  (back, "pin_back", "back button")), to_ground)

    def _add_buttons(self, board, wanted, to_ground):
        pairs = []
        used = []
        for key, attr, what in wanted:
            pin = self._pin(board, attr, what)
            if pin is None:
                continue
            if pin in used:
                self.errors.append("%s: its pin is already used, left out" % what)
                continue
            used.append(pin)
            pairs.append((key, pin))
        if not pairs:
            self.errors.append("no buttons configured: the game cannot be played")
            return
        try:
            self.inputs.append(Buttons(pairs, to_ground))
        except Exception as error:
            self.errors.append("buttons: %s" % (error,))

    def _make_buzzer(self, board):
        settings = self.settings
        if not settings.volume or not settings.buzzer_pin:
            return
        pin = self._pin(board, "buzzer_pin", "buzzer")
        if pin is None:
            return
        try:
            from .buzzer import Buzzer

            self.buzzer = Buzzer(pin, settings.volume)
        except Exception as error:
            self.errors.append("buzzer: %s" % (error,))

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
            if frame[i] != shown[i]:
                shown[i] = frame[i]
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
