"""Buttons, an analog joystick and a single button, all turned into ``(key, pressed)`` events.

Every input has ``poll(now_ms, events)``: it appends the events since the last poll to the list
``events`` and returns it. ``now_ms`` is a millisecond clock that may wrap at 2**29
(``supervisor.ticks_ms()``); all time arithmetic here is wrap-safe. The keys are whatever the caller
names them (``rolit_core.app.UP``...), so the drivers know nothing about the game.

>>> import board
>>> from hardware.inputs import Buttons, Repeat
>>> buttons = Buttons(((UP, board.GP2), (SELECT, board.GP6)), repeat=Repeat(400, 150, (UP,)))
>>> buttons.poll(now_ms, [])
[(UP, True)]

Buttons go through the built-in ``keypad`` module, which debounces them in the background. Held
keys listed in ``Repeat(..., keys)`` auto-repeat: another ``(key, True)`` after ``delay_ms``, then
one every ``every_ms``, until released.
"""

_PERIOD = 1 << 29
_HALF = 1 << 28


def ticks_diff(later, earlier):
    """``later - earlier`` in ms on a clock that wraps at 2**29 (like ``adafruit_ticks``)."""
    return ((later - earlier + _HALF) & (_PERIOD - 1)) - _HALF


class Repeat:
    """Auto-repeat for held keys: the most recently pressed of ``keys`` repeats while held."""

    def __init__(self, delay_ms=400, every_ms=150, keys=()):
        self.delay_ms = delay_ms
        self.every_ms = every_ms
        self.keys = keys
        self.held = None
        self._due = 0

    def press(self, key, now_ms):
        if key in self.keys:
            self.held = key
            self._due = (now_ms + self.delay_ms) & (_PERIOD - 1)

    def release(self, key):
        if key == self.held:
            self.held = None

    def poll(self, now_ms, events):
        """Append a repeated press if one is due (at most one per poll: a slow frame never
        floods the game with moves)."""
        if self.held is not None and ticks_diff(now_ms, self._due) >= 0:
            events.append((self.held, True))
            self._due = (now_ms + self.every_ms) & (_PERIOD - 1)
        return events


def _keypad(module):
    if module is None:
        import keypad as module
    return module


class Buttons:
    """Push buttons through ``keypad.Keys``: ``pairs`` is a sequence of ``(key, pin)``.

    ``to_ground`` (the default) means each button connects its pin to GND and the internal
    pull-up is used; ``False`` means buttons to 3.3 V with pull-downs (avoid on RP2350).
    """

    def __init__(self, pairs, to_ground=True, repeat=None, keypad=None):
        keypad = _keypad(keypad)
        self.keys = tuple([key for key, _ in pairs])
        self._scanner = keypad.Keys(tuple([pin for _, pin in pairs]),
                                    value_when_pressed=not to_ground, pull=True)
        self._event = keypad.Event()
        self.repeat = repeat
        self.down = []  # keys held now

    def poll(self, now_ms, events):
        scanner_events = self._scanner.events
        if scanner_events.overflowed:
            # Events were lost: forget what is held rather than leave a key stuck down.
            scanner_events.clear()  # also resets overflowed
            self._release_all(events)
        event = self._event
        while scanner_events.get_into(event):
            if not 0 <= event.key_number < len(self.keys):
                continue
            key = self.keys[event.key_number]
            if event.pressed:
                if key not in self.down:
                    self.down.append(key)
                events.append((key, True))
                if self.repeat is not None:
                    self.repeat.press(key, now_ms)
            else:
                if key in self.down:
                    self.down.remove(key)
                events.append((key, False))
                if self.repeat is not None:
                    self.repeat.release(key)
        if self.repeat is not None:
            self.repeat.poll(now_ms, events)
        return events

    def _release_all(self, events):
        for key in self.down:
            events.append((key, False))
            if self.repeat is not None:
                self.repeat.release(key)
        self.down = []

    def deinit(self):
        self._scanner.deinit()


class Joystick:
    """A two-axis analog thumbstick as four direction keys (``keys`` = up, down, left, right).

    At start the resting position of each axis is measured (``samples`` readings averaged): that is
    the centre. A direction is pressed when the stick leaves the centre by more than
    ``dead_zone`` percent of the travel on that side, and released when it comes back within two
    thirds of that (hysteresis: no chatter at the edge). Only the axis pushed further counts, so
    there are no diagonals. ``invert_x``/``invert_y`` flip an axis, ``swap`` exchanges them (a stick
    mounted sideways). Held directions auto-repeat through ``repeat``.
    """

    def __init__(self, x_pin, y_pin, keys, dead_zone=30, invert_x=False, invert_y=False,
                 swap=False, repeat=None, samples=16, analogio=None):
        if analogio is None:
            import analogio
        if swap:
            x_pin, y_pin = y_pin, x_pin
        self._x = analogio.AnalogIn(x_pin)
        self._y = analogio.AnalogIn(y_pin)
        self.up, self.down, self.left, self.right = keys
        if not 5 <= dead_zone <= 90:
            raise ValueError("dead_zone must be 5-90 percent, not %r" % (dead_zone,))
        self.dead_zone = dead_zone
        self.invert_x = invert_x
        self.invert_y = invert_y
        self.repeat = repeat
        self.held = None
        self.warning = None
        self.calibrate(samples)

    def calibrate(self, samples=16):
        """Measure the resting position. A stick that reads far off the middle (held while
        starting, or not connected) is noted in ``warning`` and the middle is used instead."""
        sx = 0
        sy = 0
        for _ in range(samples):
            sx += self._x.value
            sy += self._y.value
        self.centre_x = sx // samples
        self.centre_y = sy // samples
        self.warning = None
        for axis in ("x", "y"):
            centre = self.centre_x if axis == "x" else self.centre_y
            if not 16384 <= centre <= 49152:
                self.warning = ("joystick %s axis rests at %d, far from the middle (32768): "
                                "not connected, or touched while starting?" % (axis, centre))
                if axis == "x":
                    self.centre_x = 32768
                else:
                    self.centre_y = 32768

    @staticmethod
    def _deflection(value, centre):
        """How far ``value`` is from ``centre``, in percent of the travel on that side (-100..100)."""
        if value >= centre:
            span = 65535 - centre
            return (value - centre) * 100 // span if span > 0 else 0
        return -((centre - value) * 100 // centre) if centre > 0 else 0

    def direction(self):
        """The direction key the stick points at now (with hysteresis), or None."""
        dx = self._deflection(self._x.value, self.centre_x)
        dy = self._deflection(self._y.value, self.centre_y)
        if self.invert_x:
            dx = -dx
        if self.invert_y:
            dy = -dy
        ax = dx if dx >= 0 else -dx
        ay = dy if dy >= 0 else -dy
        zone = self.dead_zone
        if self.held is not None:
            # Stay in the held direction until the stick comes back well inside the zone.
            stay = zone * 2 // 3
            if self.held == self.right and dx > stay and ax >= ay:
                return self.held
            if self.held == self.left and -dx > stay and ax >= ay:
                return self.held
            if self.held == self.down and dy > stay and ay >= ax:
                return self.held
            if self.held == self.up and -dy > stay and ay >= ax:
                return self.held
        if ax <= zone and ay <= zone:
            return None
        if ax >= ay:
            return self.right if dx > 0 else self.left
        return self.down if dy > 0 else self.up

    def poll(self, now_ms, events):
        now = self.direction()
        if now != self.held:
            if self.held is not None:
                events.append((self.held, False))
                if self.repeat is not None:
                    self.repeat.release(self.held)
            if now is not None:
                events.append((now, True))
                if self.repeat is not None:
                    self.repeat.press(now, now_ms)
            self.held = now
        elif self.repeat is not None:
            self.repeat.poll(now_ms, events)
        return events

    def deinit(self):
        self._x.deinit()
        self._y.deinit()


class OneButton:
    """The whole game on one button.

    * a short press (released before ``long_ms``) sends ``short_key`` (press and release);
    * a press held for ``long_ms`` sends ``long_key`` pressed, and its release when the button
      is let go: with the game's SELECT that shows the captures while held and places on release;
    * held on for ``hold_ms`` as well, it also sends ``hold_key`` pressed (released with the
      button): with BACK, the game cancels the placing and opens its pause menu.

    ``code.py`` turns the short key into "go to the next legal cell" (see ``hardware.onebutton``).
    """

    def __init__(self, pin, short_key, long_key, long_ms=600, hold_key=None, hold_ms=2000,
                 to_ground=True, keypad=None):
        keypad = _keypad(keypad)
        self._scanner = keypad.Keys((pin,), value_when_pressed=not to_ground, pull=True)
        self._event = keypad.Event()
        self.short_key = short_key
        self.long_key = long_key
        self.long_ms = long_ms
        self.hold_key = hold_key
        self.hold_ms = hold_ms
        self._pressed_at = None
        self._sent = 0  # 0 nothing yet, 1 long key down, 2 hold key down too

    def poll(self, now_ms, events):
        scanner_events = self._scanner.events
        if scanner_events.overflowed:
            scanner_events.clear()  # also resets overflowed
            self._release(events)
        event = self._event
        while scanner_events.get_into(event):
            if event.pressed:
                self._pressed_at = now_ms
                self._sent = 0
            elif self._pressed_at is not None:
                if self._sent == 0:
                    events.append((self.short_key, True))
                    events.append((self.short_key, False))
                self._release(events)
        if self._pressed_at is not None:
            held = ticks_diff(now_ms, self._pressed_at)
            if self._sent == 0 and held >= self.long_ms:
                self._sent = 1
                events.append((self.long_key, True))
            if self._sent == 1 and self.hold_key is not None and held >= self.hold_ms:
                self._sent = 2
                events.append((self.hold_key, True))
        return events

    def _release(self, events):
        if self._sent >= 1:
            events.append((self.long_key, False))
        if self._sent == 2:
            events.append((self.hold_key, False))
        self._pressed_at = None
        self._sent = 0

    def deinit(self):
        self._scanner.deinit()
