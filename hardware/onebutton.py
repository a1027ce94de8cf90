"""One-button play: ``OneButton``, the driver, and ``Steer``, which turns "next" into a move of
the cursor to the next legal cell.

``OneButton`` sends ``NEXT`` on a short press. ``Steer.translate(app, events)`` rewrites
each ``(NEXT, pressed)`` in place: during a human's turn the press moves the cursor to the next
legal cell in reading order (wrapping round, with ``app.move_cursor``) and leaves no event;
anywhere else (menus, pause, scores) it is a tap of DOWN, which goes to the next page or item.
The long press is the game's own SELECT and needs no help.

It uses only the app's public face: ``app.mode``, ``app.phase``, ``app.game``, ``app.cursor``
and ``app.move_cursor``.
"""

from rolit_core.vocab import ticks_diff

from .inputs import _keypad

NEXT = 6  # a key number the game does not use


class Steer:
    """Rewrites ``NEXT`` events for an ``App``; outside a human's turn they become taps of
    ``down`` (``up``, ``left`` and ``right`` are the app's other arrow keys)."""

    def __init__(self, up, down, left, right):
        self.up = up
        self.down = down
        self.left = left
        self.right = right

    def target(self, app):
        """The legal cell after the cursor in reading order, or None when not choosing a cell."""
        game = app.game
        if app.mode != "play" or app.phase != "input" or game is None:
            return None
        moves = game.legal_moves()
        if not moves:
            return None
        cursor = app.cursor
        for cell in moves:
            if cell > cursor:
                return cell
        return moves[0]

    def translate(self, app, events):
        """Replace the ``NEXT`` presses in ``events`` (a list, changed in place); returns it."""
        at = 0
        while at < len(events):
            key, pressed = events[at]
            if key != NEXT:
                at += 1
                continue
            del events[at]
            if not pressed:
                continue
            cell = self.target(app)
            if cell is None or not app.move_cursor(cell):
                events.insert(at, (self.down, True))
                events.insert(at + 1, (self.down, False))
                at += 2
        return events


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
