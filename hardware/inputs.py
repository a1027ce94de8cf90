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

Buttons go through the built-in ``keypad`` module, which debounces them in the background; under
Blinka (a Raspberry Pi, a PC) ``hardware.pinkeys`` reads the pins through ``digitalio`` at each
poll instead. Held keys listed in ``Repeat(..., keys)`` auto-repeat: another ``(key, True)``
after ``delay_ms``, then one every ``every_ms``, until released.

``Joystick`` (``hardware.joystick``) and ``OneButton`` (``hardware.onebutton``) live in their own
modules, so a device with buttons never loads their code.
"""

import sys

from rolit_core.vocab import TICKS_MASK, ticks_diff  # noqa: F401 (ticks_diff: drivers' too)


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
            self._due = (now_ms + self.delay_ms) & TICKS_MASK

    def release(self, key):
        if key == self.held:
            self.held = None

    def poll(self, now_ms, events):
        """Append a repeated press if one is due (at most one per poll: a slow frame never
        floods the game with moves)."""
        if self.held is not None and ticks_diff(now_ms, self._due) >= 0:
            events.append((self.held, True))
            self._due = (now_ms + self.every_ms) & TICKS_MASK
        return events


def _keypad(module):
    """``module``, else CircuitPython's ``keypad``, else ``hardware.pinkeys`` (the pins polled
    through ``digitalio``): where there is no ``keypad``, or where ``board`` is Blinka's, whose
    ``keypad`` scans in a thread that its ``deinit()`` waits for in vain."""
    if module is not None:
        return module
    board = sys.modules.get("board")
    if board is None or not getattr(board, "__blinka__", False):
        try:
            import keypad

            return keypad
        except ImportError:
            pass
    from . import pinkeys

    return pinkeys


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

