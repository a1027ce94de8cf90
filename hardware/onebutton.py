"""One-button play: turn "next" into the direction keys that move the cursor to the next legal cell.

``inputs.OneButton`` sends ``NEXT`` on a short press. ``Steer.translate(app, events)`` rewrites
each ``(NEXT, pressed)`` in place: during a human's turn it becomes the arrow taps that carry
the cursor from its cell to the next legal cell in reading order (wrapping round), the short way
round since the game's cursor wraps at the edges too; anywhere else (menus, pause, scores) it is a tap of DOWN,
which goes to the next page or item. The long press is the game's own SELECT and needs no help.

It reads only the app's public state: ``app.mode``, ``app.phase``, ``app.game`` and
``app.cursor``. (The app has no "move the cursor to this cell" call, so the cursor is moved with
the same keys a player would press.)
"""

NEXT = 6  # a key number the game does not use


class Steer:
    """Rewrites ``NEXT`` events for an ``App`` with the arrow keys ``up``, ``down``, ``left``,
    ``right``."""

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
            taps = self.taps(app)
            for key in taps:
                events.insert(at, (key, True))
                events.insert(at + 1, (key, False))
                at += 2
        return events

    def taps(self, app):
        """The keys to tap for one short press."""
        cell = self.target(app)
        if cell is None:
            return (self.down,)
        size = app.game.size
        row, col = divmod(app.cursor, size)
        to_row, to_col = divmod(cell, size)
        taps = []
        for steps, forward, back in (((to_row - row) % size, self.down, self.up),
                                     ((to_col - col) % size, self.right, self.left)):
            if steps <= size // 2:
                taps.extend([forward] * steps)
            else:
                taps.extend([back] * (size - steps))
        return taps
