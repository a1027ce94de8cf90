"""Buttons, an analog joystick and a single button, all turned into ``(key, pressed)`` events.

Every input has ``poll(now_ms, events)``: it appends the events since the last poll to the list
``events`` and returns it. ``now_ms`` is a millisecond clock that may wrap at 2**29
(``supervisor.ticks_ms()``); all time arithmetic here is wrap-safe. The keys are whatever the caller
names them (``rolit_core.app.UP``...), so the drivers know nothing about the game.

>>> import board
>>> from hardware.inputs import Buttons
>>> buttons = Buttons(((UP, board.GP2), (SELECT, board.GP6)))
>>> buttons.poll(now_ms, [])
[(UP, True)]

Buttons go through the built-in ``keypad`` module, which debounces them in the background; under
Blinka (a Raspberry Pi, a PC) ``hardware.pinkeys`` reads the pins through ``digitalio`` at each
poll instead. A held key is one press and, later, one release: the game repeats held arrows
itself (``rolit_core.app.REPEAT_DELAY_MS``, ``REPEAT_MS``), the same for every input.

``Joystick`` (``hardware.joystick``) and ``OneButton`` (``hardware.onebutton``) live in their own
modules, so a device with buttons never loads their code.
"""

import sys

from rolit_core.vocab import ticks_diff  # noqa: F401 (the drivers' clock arithmetic)


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

    def __init__(self, pairs, to_ground=True, keypad=None):
        keypad = _keypad(keypad)
        self.keys = tuple([key for key, _ in pairs])
        self._scanner = keypad.Keys(tuple([pin for _, pin in pairs]),
                                    value_when_pressed=not to_ground, pull=True)
        self._event = keypad.Event()
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
            else:
                if key in self.down:
                    self.down.remove(key)
                events.append((key, False))
        return events

    def _release_all(self, events):
        for key in self.down:
            events.append((key, False))
        self.down = []

    def deinit(self):
        self._scanner.deinit()

