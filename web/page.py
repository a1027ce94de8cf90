"""The browser page's Python side: one ``App`` and what the page script asks of it.

Runs under the MicroPython WebAssembly interpreter in the page (and under CPython in the tests).
The bridge to JavaScript converts only numbers, strings, booleans and None, so the frame goes
out as hex text and the side panel as JSON, each only when it changed; keys come in as text:
two characters per event, the key's digit and ``d`` (down) or ``u`` (up), and ``@xy`` for a tap
on LED column x, row y (the cursor moves there and SELECT goes down, like a click in the
simulator window).

>>> store = {}
>>> start(lambda: store.get("save"), lambda text: store.update(save=text), seed=1)
>>> step(0, "", 100) & CHANGED_FRAME
1
>>> len(frame())
384
"""

import binascii
import json

from rolit_core.app import App, BACK, DOWN, LEFT, RIGHT, SELECT, UP
from rolit_core.vocab import LEVELS
from sim import howto as _howto
from sim.clicks import Clicks

try:
    from rolit_core.play import EXPERT_FACTOR
except ImportError:  # an older core: expert thought 30 times the slice
    EXPERT_FACTOR = 30

# Bits of step()'s result; the search nodes a computer used this step are the bits above them.
CHANGED_FRAME = 1
CHANGED_INFO = 2
THINKING = 8
NODE_SHIFT = 4

_KEYS = (UP, DOWN, LEFT, RIGHT, SELECT, BACK)


class PageStorage:
    """The App's ``storage`` on two functions of the page: ``read() -> str or None`` and
    ``write(text) -> ""`` or why it failed, which keep text in ``localStorage``. The save
    format's bytes are stored as hex, so the stored value is exactly the device's save, spelt
    out. (Failures come back as text: an exception does not cross the bridge from JavaScript.)"""

    def __init__(self, read, write):
        self._read = read
        self._write = write

    def load(self):
        text = self._read()
        if text is None:
            return None
        if not isinstance(text, str):
            raise ValueError("the stored value is not text")
        try:
            return binascii.unhexlify(text)
        except (ValueError, TypeError):
            raise ValueError("the stored value is not hexadecimal")

    def save(self, data):
        problem = self._write(binascii.hexlify(bytes(data)).decode())
        if problem:
            raise OSError(problem)


class Page:
    """An App with the bookkeeping the page needs: what changed since the last step, taps on
    LEDs, and (for the tests) a journal of every update to replay on CPython."""

    def __init__(self, read, write, seed, journal=False, linked=False):
        self.first_save = self._stored(read)  # before the App replaces a damaged one
        self.storage = PageStorage(read, write)
        link = None
        if linked:  # served by a hosting simulator, and joining its game (docs/web.md)
            from rolit_core.link import Link
            link = Link()
        self.app = App(storage=self.storage, seed=seed, levels=LEVELS, link=link)
        self.seed = seed
        self.linked = bool(linked)
        self.journal = [] if journal else None
        self.clicks = Clicks()
        self.notices = 0  # how many notices the clicks gave: the page shows each new one
        self._notice = None
        self._rgb = bytearray(192)
        self._shown = None
        self._mark = None
        self._info = None

    @staticmethod
    def _stored(read):
        try:
            return read()
        except Exception:
            return None

    # -- the frame loop -------------------------------------------------------------------

    def step(self, now, keys, nodes):
        """Run one ``App.update`` with the events in ``keys`` and a computer budget of ``nodes``
        search nodes; return the CHANGED_* and THINKING bits and the nodes the computer used."""
        if self.journal is not None:
            self.journal.append(("step", now, keys, nodes))
        app = self.app
        events = self.clicks.due(app)
        if keys:
            events = events + self._events(keys)
        thinking = app.game is not None and app.mode in ("play", "attract") and \
            app.phase == "think"
        player = self._player() if thinking else None
        searching = player is not None and player.thinking
        before = player.nodes if searching else 0
        if thinking:
            budget = max(1, int(nodes))
            if self._expert_to_move():
                app.think_nodes = max(1, budget // EXPERT_FACTOR)
            else:
                app.think_nodes = budget
        frame = app.update(now, events)
        result = 0
        if thinking:
            result = THINKING
            if player is not None:
                after = player.nodes  # 0 again if it started over on a changed position
                used = (after - before if after >= before else after) if searching else 0
            else:  # a core that keeps its players elsewhere: unknown, so the slice stays
                used = 0
            result |= used << NODE_SHIFT
        rgb = self._rgb
        at = 0
        for r, g, b in frame:
            rgb[at] = r
            rgb[at + 1] = g
            rgb[at + 2] = b
            at += 3
        if rgb != self._shown:
            self._shown = bytes(rgb)
            result |= CHANGED_FRAME
        mark = self._marker()
        if events or mark != self._mark:
            self._mark = mark
            text = json.dumps(self.describe())
            if text != self._info:
                self._info = text
                result |= CHANGED_INFO
        return result

    # -- the link: the WebSocket's bytes in and out, as hex text ----------------------------

    def link_in(self, data, now):
        """Bytes that came over the WebSocket (hex text) for the App's link, at ``now`` ms.
        Anything at all is safe: the link keeps only whole, checked frames."""
        if self.journal is not None:
            self.journal.append(("link", data, now))
        link = self.app.link
        if link is None or not data:
            return
        try:
            raw = binascii.unhexlify(data)
        except (ValueError, TypeError):
            return  # not hex: the page's own fault, and nothing a frame could be made of
        link.feed(raw, now)

    def link_out(self):
        """What the link has to send (hex text, "" for nothing); taken, so the page sends it
        or drops it (no WebSocket open: as a pulled cable)."""
        link = self.app.link
        if link is None:
            return ""
        data = link.output()
        return binascii.hexlify(data).decode() if data else ""

    def join(self):
        """Join the linked game of the page's server (the page's "Join" button): the menu's
        linked page, as SELECT there would. Returns "" or why not."""
        if self.journal is not None:
            self.journal.append(("join",))
        app = self.app
        if app.link is None:
            return "this page has no link"
        if app.linked is not None:
            return ""  # a linked game goes on (a reload resumed it from the save)
        seats = app.settings.seats
        for seat in range(4):
            if seats[seat] == "link":
                seats[seat] = "human"  # the page joins; it never hosts
        app.begin_linked()
        self._mark = None
        return "" if app.linked is not None else (app.error or "the game could not be joined")

    def _player(self):
        """The computer player thinking for the side to move (``App.thinker``: its ``nodes`` and
        ``thinking`` say how far its search got), or None."""
        player = getattr(self.app, "thinker", None)
        if player is None or not hasattr(player, "nodes") or not hasattr(player, "thinking"):
            return None
        return player

    def _expert_to_move(self):
        app = self.app
        game = app.game
        try:
            return app.kinds[game.seat_of(game.turn)] == "expert"
        except (AttributeError, IndexError, TypeError, ValueError):
            return False

    def _events(self, keys):
        events = []
        at = 0
        while at + 1 < len(keys):
            code = keys[at]
            if code == "@" and at + 2 < len(keys):
                self._tap(ord(keys[at + 1]) - 48, ord(keys[at + 2]) - 48, events)
                at += 3
                continue
            key = ord(code) - 48
            if 0 <= key < len(_KEYS):
                events.append((_KEYS[key], keys[at + 1] == "d"))
            at += 2
        return events

    def _tap(self, x, y, events):
        """A tap on LED (x, y): in play, the cursor moves to that cell and SELECT goes down;
        elsewhere it is SELECT. Off the board it is nothing; while a move is shown it is kept
        for later, or refused in words (``sim.clicks``)."""
        if not (0 <= x < 8 and 0 <= y < 8):
            return
        app = self.app
        if self.clicks.click(app, (x, y)) in ("play", "select"):
            events.append((SELECT, True))

    def _marker(self):
        """What the side panel shows depends on: a cheap tuple that changes with it."""
        app = self.app
        game = app.game
        return (app.mode, app.phase if game is not None else None, app.page,
                len(game.board.moves) if game is not None else -1,
                id(game), app.error, app.saves, getattr(app, "illegal_reason", None),
                app.mode != "round_end" or app.round_end.pour_done,
                self._counted_notice(), app.link_status)

    def _counted_notice(self):
        notice = self.clicks.notice
        if notice is not None:
            self.clicks.notice = None
            self.notices += 1
            self._notice = notice
        return self.notices

    # -- what the side panel shows --------------------------------------------------------

    def describe(self):
        """The side panel's facts as plain data (the page words them)."""
        app = self.app
        s = app.settings
        info = {
            "mode": app.mode,
            "page": list(app.page) if app.page is not None else None,
            "error": app.error,
            "saves": app.saves,
            "reason": getattr(app, "illegal_reason", None),
            "notice": self._notice,
            # the round end's bars have risen
            "pour_done": app.mode != "round_end" or app.round_end.pour_done,
            "match_over": app.match is not None and app.match.over,
            "notices": self.notices,
            "link": app.link_status,   # the linked game in words, or None
            "linked": self.linked,
            "settings": {
                "players": s.players, "seats": list(s.seats), "size": s.size, "teams": s.teams,
                "rounds": s.rounds, "time_limit": s.time_limit, "tie": s.tie, "first": s.first,
                "hints": s.hints, "brightness": s.brightness, "colour_blind": s.colour_blind,
                "seat_colours": [list(c) for c in s.seat_colours()],
            },
            "game": None,
        }
        game = app.game
        if game is not None:
            board = game.board
            info["game"] = {
                "size": game.size,
                "seat_colours": [list(c) for c in game.seat_colours],
                "kinds": list(app.kinds),
                "scores": list(game.scores()),
                "turn": game.turn,
                "over": game.over,
                "winners": list(game.winners()) if game.over else [],
                "moves": [[colour, board.cell_name(cell)] for cell, colour in board.moves],
                "phase": app.phase,
                "round": app.match.round if app.match is not None else 1,
                "rounds": app.match.rounds if app.match is not None else 1,
            }
        return info


    # -- games from the page's tools ------------------------------------------------------

    def begin(self, seats, size=8):
        """Start a new game with ``seats`` ("human,hard", any case); returns "" or why it was
        refused."""
        if self.journal is not None:
            self.journal.append(("begin", seats, size))
        text = str(size).strip()
        if text not in ("8", "6", "4"):
            return "the board size is 8, 6 or 4, not %r" % (text,)
        try:
            self.app.start(seats=_seats(seats), size=int(text))
        except (ValueError, TypeError) as problem:
            return str(problem) or "those players cannot start a game"
        return ""

    def load_record(self, text, seats=""):
        """Continue the game of a record; ``seats`` as in ``begin`` (default: the seats in play if
        their number matches, else everyone human). Returns "" or why the record was refused; a
        refused record leaves the game as it was."""
        if self.journal is not None:
            self.journal.append(("load", text, seats))
        app = self.app
        chosen = _seats(seats) if seats else None
        if chosen is None and app.game is not None:
            chosen = list(app.kinds)
        try:
            app.load_record(text, seats=chosen)
        except (ValueError, TypeError) as problem:
            return str(problem) or "not a game record"
        return ""

    def set_hints(self):
        """Hints on (``sim.howto.hints_on``)."""
        if self.journal is not None:
            self.journal.append(("hints",))
        _howto.hints_on(self.app)
        self._mark = None  # the side panel's facts changed: sent with the next step

    def replay(self, entries):
        """Do again what a journal (``Page.journal`` of another page) did."""
        for entry in entries:
            if entry[0] == "step":
                self.step(entry[1], entry[2], entry[3])
            elif entry[0] == "begin":
                self.begin(entry[1], entry[2])
            elif entry[0] == "load":
                self.load_record(entry[1], entry[2])
            elif entry[0] == "hints":
                self.set_hints()
            elif entry[0] == "link":
                self.link_in(entry[1], entry[2])
                self.link_out()
            elif entry[0] == "join":
                self.join()


def _seats(text):
    """"Human, HARD" -> ["human", "hard"]: as the simulator's --players reads seats."""
    return [part.strip().lower() for part in text.split(",") if part.strip()]


# The page script's entry points (one page, one App).
_page = None


def start(read, write, seed, journal=False, linked=False):
    """Make the page's App: ``read``/``write`` keep the save text, ``seed`` makes it repeatable;
    ``linked``: with a link (the page joins its server's game), resuming a linked game saved."""
    global _page
    _page = Page(read, write, seed, journal, linked)


def link_in(data, now):
    _page.link_in(data, now)


def link_out():
    return _page.link_out()


def join():
    return _page.join()


def step(now, keys, nodes):
    """One frame: see ``Page.step``."""
    return _page.step(now, keys, nodes)


def frame():
    """The last frame as 384 hex digits: r, g, b of each LED, row by row from the top-left."""
    return binascii.hexlify(_page._shown).decode()


def info():
    """The side panel's facts as JSON."""
    return _page._info


def record():
    """The record of the game on the board (``Game.record()``), or "" when none is."""
    game = _page.app.game
    return game.record() if game is not None else ""


def begin(seats, size=8):
    return _page.begin(seats, size)


def load_record(text, seats=""):
    return _page.load_record(text, seats)


def howto():
    """The first game's how-to pages (``sim.howto``) as JSON, each LED picture as 384 hex
    digits like ``frame()``."""
    shown = []
    for page in _howto.pages():
        item = dict(page)
        for key in ("before", "after"):
            if page[key] is not None:
                item[key] = binascii.hexlify(bytes([v for rgb in page[key] for v in rgb])).decode()
        shown.append(item)
    return json.dumps(shown)


def hints_on():
    """Turn hints on for the game in play and in the menu's settings (the how-to's offer)."""
    _page.set_hints()


def journal():
    """What the page did so far as JSON (when it was started with a journal), to replay on
    CPython: the seed, the stored save the App started from, and the steps and games begun."""
    page = _page
    return json.dumps({"seed": page.seed, "stored": page.first_save, "linked": page.linked,
                       "entries": [list(entry) for entry in page.journal or ()]})
