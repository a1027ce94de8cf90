"""The part of CircuitPython's ``keypad`` that ``hardware.inputs`` uses, over ``digitalio``, for
where there is no native ``keypad``: a PC or a Raspberry Pi under Adafruit Blinka.

Blinka's own ``keypad`` scans in a Python thread that never ends (its ``Keys.deinit()`` waits
for it for ever). Here nothing runs in the background: the pins are read when ``events`` is
read, at most every ``interval`` seconds, so a program that reads ``events`` once a frame (as
``Buttons.poll`` does) sees every press that lasts longer than a frame, debounced the way
``keypad`` debounces, by comparing one scan with the one before.

>>> import board
>>> from hardware import pinkeys
>>> keys = pinkeys.Keys((board.D5, board.D6), value_when_pressed=False)
>>> event = pinkeys.Event()
>>> while keys.events.get_into(event):
...     print(event.key_number, event.pressed)
"""

import time

import digitalio


class Event:
    """A key that was pressed (``pressed``) or released (``released``)."""

    def __init__(self, key_number=0, pressed=True):
        self.key_number = key_number
        self.pressed = pressed

    @property
    def released(self):
        return not self.pressed


class EventQueue:
    """Key changes in the order they were seen, at most ``max_events``; ``overflowed`` is set
    when one had to be dropped (cleared by ``clear()``)."""

    def __init__(self, max_events):
        self._changes = []
        self.max_events = max_events
        self.overflowed = False

    def _put(self, key_number, pressed):
        if len(self._changes) >= self.max_events:
            self.overflowed = True
        else:
            self._changes.append((key_number, pressed))

    def get_into(self, event):
        """Move the oldest change into ``event`` and return True; False if there is none."""
        if not self._changes:
            return False
        event.key_number, event.pressed = self._changes.pop(0)
        return True

    def get(self):
        event = Event()
        return event if self.get_into(event) else None

    def clear(self):
        self._changes = []
        self.overflowed = False

    def __len__(self):
        return len(self._changes)

    def __bool__(self):
        return bool(self._changes)


class Keys:
    """Independent keys, one on each of ``pins``; a key counts as pressed when its pin reads
    ``value_when_pressed``. ``pull`` turns on the pin's pull-up (keys to ground) or pull-down.
    Keys already held when this is made are reported as pressed by the first scan."""

    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64):
        self._pins = []
        try:
            for pin in pins:
                line = digitalio.DigitalInOut(pin)
                self._pins.append(line)
                if pull:
                    line.switch_to_input(
                        pull=digitalio.Pull.DOWN if value_when_pressed else digitalio.Pull.UP)
        except Exception:
            self.deinit()  # the pins taken so far are free again for whatever comes next
            raise
        self._value_when_pressed = bool(value_when_pressed)
        self._interval_ns = int(interval * 1000000000)
        self._scanned_ns = None
        self._down = [False] * len(self._pins)
        self._events = EventQueue(max_events)

    @property
    def key_count(self):
        return len(self._pins)

    @property
    def events(self):
        """The ``EventQueue``, after a scan if ``interval`` has passed since the last one."""
        now = time.monotonic_ns()
        if self._scanned_ns is None or now - self._scanned_ns >= self._interval_ns:
            self._scanned_ns = now
            self._scan()
        return self._events

    def _scan(self):
        down = self._down
        for number in range(len(self._pins)):
            pressed = self._pins[number].value == self._value_when_pressed
            if pressed != down[number]:
                down[number] = pressed
                self._events._put(number, pressed)

    def reset(self):
        """Forget what is held: keys held now are reported as pressed again by the next scan."""
        for number in range(len(self._down)):
            self._down[number] = False

    def deinit(self):
        """Release the pins (returns at once: there is no scanning thread to stop)."""
        for line in self._pins:
            line.deinit()
        self._pins = []
        self._down = []
