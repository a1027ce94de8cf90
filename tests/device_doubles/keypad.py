"""Double of CircuitPython's ``keypad``: ``Keys``, ``Event`` and ``EventQueue``.

Key changes come from ``SCRIPT`` (``(elapsed_ms, pin_name, pressed)``, in time order; delivered
when ``supervisor.elapsed`` reaches them) or from ``Keys.press(number, pressed)`` in unit tests.
"""

import supervisor

SCRIPT = []
ALL = []  # every Keys made, for inspection


class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = timestamp

    @property
    def released(self):
        return not self.pressed


class EventQueue:
    def __init__(self, max_events=64):
        self._queue = []
        self.max_events = max_events
        self.overflowed = False
        self.feed = None

    def _put(self, number, pressed):
        if len(self._queue) >= self.max_events:
            self.overflowed = True
            return
        self._queue.append((number, pressed))

    def get_into(self, event):
        if self.feed is not None:
            self.feed()
        if not self._queue:
            return False
        event.key_number, event.pressed = self._queue.pop(0)
        event.timestamp = supervisor.elapsed
        return True

    def get(self):
        event = Event()
        return event if self.get_into(event) else None

    def clear(self):
        self._queue = []
        self.overflowed = False

    def __len__(self):
        return len(self._queue)

    def __bool__(self):
        return bool(self._queue)


class Keys:
    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64):
        self.pins = tuple(pins)
        self.names = [pin.name for pin in self.pins]
        self.value_when_pressed = value_when_pressed
        self.pull = pull
        self.key_count = len(self.pins)
        self.events = EventQueue(max_events)
        self.events.feed = self._feed
        self.deinited = False
        ALL.append(self)

    def press(self, number, pressed=True):
        self.events._put(number, pressed)

    def _feed(self):
        # Hand the scripted changes that are due to the scanners that own their pins.
        while SCRIPT and SCRIPT[0][0] <= supervisor.elapsed:
            at, name, pressed = SCRIPT.pop(0)
            for keys in ALL:
                if name in keys.names:
                    keys.events._put(keys.names.index(name), pressed)

    def reset(self):
        self.events.clear()

    def deinit(self):
        self.deinited = True
        if self in ALL:
            ALL.remove(self)
