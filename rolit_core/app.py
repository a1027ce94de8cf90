"""The handheld game flow: title, setup menu, play, round end, match, pause, self-test.

No I/O: ``App.update(now_ms, events)`` takes the key events since the last call and a millisecond
clock (it may wrap at 2**29, like CircuitPython's ticks) and returns the frame to show, 64
``(r, g, b)`` tuples row by row from the top-left as the player sees the matrix. It never sleeps:
computer players think a slice of nodes per call. The device, the simulator and the tests all
drive this same object.

>>> app = App(seed=1)
>>> app.start(seats=("human", "human"))
>>> frame = app.update(0, [(SELECT, True)])
>>> len(frame)
64

The frame list is reused by the next ``update``: copy it (``tuple(frame)``) to keep it.
The board screen's behaviour is in :mod:`rolit_core.play`, the other screens' pictures in
:mod:`rolit_core.screens`, the menu in :mod:`rolit_core.menu`, the save format in
:mod:`rolit_core.save`.
"""

import gc

# The computer players first: the biggest module compiles best while the heap is still empty
# (imported later, from inside start(), a board needs 40 KB more heap: docs/memory.md).
try:
    from . import ai  # noqa: F401
except ImportError:  # a build without computer players plays random moves for them
    pass
from . import menu, palette, save, screens
# Keys, cues and mode names are this module's API too (drivers import them from here).
from .events import (ATTRACT, BACK, CUE_CAPTURE, CUE_ERROR, CUE_ILLEGAL, CUE_PLACE,  # noqa: F401
                     CUE_START, CUE_TICK, CUE_TIMEOUT, CUE_UNDO, CUE_WIN, DOWN, ERROR, KEY_NAMES,
                     LEFT, MATCH_END, MENU, MODE_NAMES, PAUSE, PAUSE_ITEMS, PLAY, RIGHT,
                     ROUND_END, SELECT, SELFTEST, TABLE, TITLE, UP)
from .game import Game, Match
from .play import INPUT, PHASE_NAMES, Play, computer
from .play import BLINK_MS, FLIP_MS, PLACE_MS, RING  # noqa: F401 (timings, for tests and docs)
from .rng import Random, fresh_seed
from .rounds import Rounds
from .saving import SAVE_ERROR_MS, Saving
from .screens import POUR_MS, WIN_FLASH_MS  # noqa: F401
from .vocab import DEVICE_LEVELS, LEVELS, TICKS_MASK

MAX_STEP_MS = 1000      # longer gaps between updates count as this
TITLE_MS = 2400
IDLE_MS = 60000         # menu idle time before the attract mode
SETTINGS_SAVE_MS = 2000  # changed settings are saved when the menu rests this long
HOLD_MS = 600           # BACK held this long opens the pause menu
REPEAT_DELAY_MS = 400   # a held direction repeats after this...
REPEAT_MS = 150         # ...every this
ERROR_MS = 3000
SAVE_ERROR_BLINK_MS = 100
SAVE_ERROR_CELLS = (0, 7, 56, 63)  # the four corners blink red, fast
SELFTEST_EXIT_MS = 1500  # BACK held this long leaves the self-test

_BLACK = (0, 0, 0)
# MicroPython and CircuitPython (not CPython) collect when the app and a game begin: compiling
# the modules leaves much garbage, and long-lived objects placed among it fragment a board's
# small heap (a game against hard needed 167 KB of heap without, 138 KB with: docs/memory.md).
_TIDY = hasattr(gc, "mem_free")


class App(Play, Rounds, Saving):
    """The game as a state machine: ``update(now_ms, events) -> frame``.

    ``storage``: an object with ``load() -> bytes or None`` and ``save(data)``, or ``None``.
    ``seed``: makes everything random (who starts, computer players, timeouts) repeatable.
    ``levels``: the computer levels the menu offers (default: the device levels, no expert).
    ``think_nodes``: search nodes a computer player may use per update (the device changes it
    between updates; 0 lets an update pass without thinking). ``think_stop``: ``None``, or a
    function the device sets that says, asked between search nodes, that this update's time
    for thinking is up (the answer does not depend on it, only when it comes).
    """

    def __init__(self, storage=None, seed=None, levels=DEVICE_LEVELS, think_nodes=20):
        for level in levels:
            if level not in LEVELS:
                raise ValueError("unknown level %r" % (level,))
        if type(think_nodes) is not int or think_nodes < 1:
            raise ValueError("think_nodes is a whole number of at least 1, not %r"
                             % (think_nodes,))
        if _TIDY:
            gc.collect()
        self.storage = storage
        self.seed = seed
        self.levels = tuple(levels)
        self.think_nodes = think_nodes
        self.think_stop = None
        self._rng = Random(fresh_seed() if seed is None else seed)
        self.settings = menu.Settings()
        self.shades = palette.Shades()
        self.frame = [_BLACK] * 64
        self.cues = []
        self.error = None          # why the saved data was refused or a save failed
        self.saves = 0             # how many times the state was saved
        self.save_failures = 0     # how many saves failed (each one shows the save-error pattern)
        self._save_flash = 0       # ms left of the save-error pattern
        self.match = None
        self.kinds = ()            # per seat: "human" or a level
        self.time_limit = 0        # seconds per move of the game in play (0: off)
        self.hints = False
        self._game = None
        self._ais = {}
        self._attract = False
        self._mode = TITLE
        self._t = 0                # ms in the current mode
        self._idle = 0
        self._last = None
        self._down = [False] * 6
        self._down_ms = [0] * 6
        self._repeat_ms = [0] * 6
        self._back_fired = False
        self._page = 0
        self._pages = menu.pages(self.settings)
        self._pause_item = 0
        # play
        self._phase = INPUT
        self._pt = 0
        self._cursor = 0
        self._shown = bytearray(64)
        self._legal = bytearray(64)
        self._legal_list = []
        self._preview = False
        self._preview_cells = bytearray(64)
        self._flash = 0
        self._clock = 0
        self._keep_clock = False   # the next turn continues a restored or paused countdown
        self._ai = None
        self._ai_cell = None
        self._first = 0
        self._first_choice = None
        self._history = []
        self._lines = []
        self._move_cell = 0
        self._move_colour = 0
        self._move_kind = 0        # 0 human, 1 computer, 2 timeout
        self._steps_done = -1
        self._lead = 0
        # round end
        self._scores = ()
        self._winners = ()
        self._pour_done = False
        self._match_colours = []
        self._reported = 0         # cues the last update reported; later ones wait for the next
        self._dirty = False
        self._boot()
        self._apply_look()

    # -- public state ---------------------------------------------------------------------

    @property
    def mode(self):
        """The current screen: "title", "menu", "attract", "play", "pause", "round_end",
        "table", "match_end", "selftest" or "error"."""
        if self._attract:
            return "attract"
        return MODE_NAMES[self._mode]

    @property
    def game(self):
        """The ``Game`` being played (also during pause and the round end screens), else None."""
        if self._attract or self._mode in (TITLE, MENU, ATTRACT, SELFTEST, ERROR):
            return None
        return self._game

    @property
    def brightness(self):
        """The menu's brightness, 1-5; frame values are scaled by ``palette.BRIGHTNESS``."""
        return self.settings.brightness

    @brightness.setter
    def brightness(self, level):
        if type(level) is not int or not 1 <= level <= 5:
            raise ValueError("brightness is 1-5, not %r" % (level,))
        self.settings.brightness = level
        self._apply_look()

    @property
    def cursor(self):
        """The cursor's cell on the board being played."""
        return self._cursor

    @property
    def page(self):
        """In the menu: the page shown, as (name, seat), e.g. ("seat", 1) or ("rounds", 0);
        in the pause menu: ("resume" | "undo" | "restart" | "quit", 0); else None."""
        if self._mode == MENU:
            page = self._pages[self._page]
            return (menu.PAGE_NAMES[page >> 3], page & 7)
        if self._mode == PAUSE:
            return (PAUSE_ITEMS[self._pause_item], 0)
        return None

    @property
    def phase(self):
        """In play: "input" (a human chooses), "think" (a computer thinks) or "animate"."""
        return PHASE_NAMES[self._phase]

    # -- starting games -------------------------------------------------------------------

    def start(self, seats=("human", "hard"), size=8, teams=False, rounds=1, tie="shared",
              time_limit=0, first=None, hints=None, record=None):
        """Begin a match as if chosen in the menu. ``seats``: "human" or a level per seat (one
        seat is solo: one person plays red and green). ``record``: text from ``Game.record()``
        to continue (its header gives size, players, teams, tie and first). Raises ValueError on
        bad arguments (or a match too big for the storage) and leaves the app as it was."""
        if isinstance(seats, str):
            raise ValueError("seats is a list of 'human' or levels, not %r" % (seats,))
        try:
            seats = tuple(seats)
        except TypeError:
            raise ValueError("seats is a list of 'human' or levels, not %r" % (seats,))
        if record is not None:
            game = Game.from_record(record)
            size, teams, tie, first = game.size, game.teams, game.tie, game.first
            if len(seats) != game.players:
                seats = ("human",) * game.players
        players = len(seats)
        for kind in seats:
            if kind != "human" and kind not in LEVELS:
                raise ValueError("a seat is 'human' or a level %r, not %r" % (LEVELS, kind))
        if type(size) is not int or size not in (8, 6, 4):
            raise ValueError("size must be 8, 6 or 4, not %r" % (size,))
        if type(rounds) is not int or not 1 <= rounds <= 99:
            raise ValueError("rounds must be 1-99, not %r" % (rounds,))
        if type(time_limit) is not int or not 0 <= time_limit <= 3600:
            raise ValueError("time_limit is seconds 0-3600, not %r" % (time_limit,))
        capacity = getattr(self.storage, "capacity", None)
        if type(capacity) is int and save.largest(rounds, size) > capacity:
            raise ValueError("a %d-round match on %dx%d can need %d bytes; the storage holds %d"
                             % (rounds, size, size, save.largest(rounds, size), capacity))
        if _TIDY:
            gc.collect()
        rng = self._rng
        state = (rng._z, rng._w)  # a refused start must not move the random sequence either
        try:
            match = Match(rounds, players, size, teams, tie, first, rng.bits())
            if record is not None:
                for cell in game.moves:
                    match.game.play(cell)
        except (TypeError, ValueError) as error:
            rng._z, rng._w = state
            raise ValueError(str(error))
        # Everything is checked: from here on nothing raises.
        kinds = seats if players > 1 else ("human", "human")
        self._begin_match(match, kinds, time_limit, self.settings.hints if hints is None else
                          bool(hints))
        self._first_choice = None if record is not None else match.game.first if first \
            is not None else None  # for "play again"
        self._save()

    def load_record(self, text, seats=None):
        """Continue the game of a record made by ``Game.record()``; ``seats`` as in ``start``
        (default: every seat human)."""
        self.start(seats=seats or (), record=text)

    def _begin_match(self, match, kinds, time_limit, hints):
        self.match = match
        self._game = match.game
        self._first = match.game.first  # who began round 1: the save needs it
        self._history = []              # the moves of the finished rounds
        self.kinds = tuple(kinds)
        self.time_limit = time_limit
        self.hints = hints
        self._attract = False
        self._make_ais()
        self._enter_round()

    def _make_ais(self):
        self._ais = {}
        for kind in self.kinds:
            if kind != "human" and kind not in self._ais:
                self._ais[kind] = computer(kind, self._rng.bits())

    def _enter_round(self):
        self._game = self.match.game if self.match is not None else self._game
        size = self._game.size
        self._cursor = (size // 2 - 1) * size + size // 2 - 1
        self._sync()
        self._set_mode(PLAY)
        self.cues.append(CUE_START)
        self._begin_turn()

    def _start_from_settings(self):
        s = self.settings
        seats = s.seats[:s.players] if s.players > 1 else ["human"]
        self.start(seats=seats, size=s.size, teams=s.teams, rounds=s.rounds, tie=s.tie,
                   time_limit=s.time_limit, first=s.first, hints=s.hints)

    # -- the frame loop -------------------------------------------------------------------

    def update(self, now_ms, events=()):
        """Advance to ``now_ms``, handle ``events`` ((key, pressed) pairs) and return the frame."""
        if self._reported:
            # Cues raised between updates (loading the save, start()) are reported by this one.
            del self.cues[:self._reported]
        try:
            now = int(now_ms)
        except (TypeError, ValueError, OverflowError):
            now = self._last if self._last is not None else 0
        if self._last is None:
            dt = 0
        else:
            dt = (now - self._last) & TICKS_MASK
            if dt > TICKS_MASK >> 1:
                dt = 0  # the clock went back: no time passes
            elif dt > MAX_STEP_MS:
                dt = MAX_STEP_MS
        self._last = now & TICKS_MASK
        self._advance(dt)
        if events:
            try:
                for event in events:
                    self._event(event)
            except TypeError:
                pass  # not a list of pairs: ignored
        self._draw()
        if self._attract and self.cues:
            self.cues = []  # the attract mode plays silently
        self._reported = len(self.cues)
        return self.frame

    def _event(self, event):
        try:
            key, pressed = event
        except (TypeError, ValueError):
            return
        if not isinstance(key, int) or isinstance(key, bool) or not 0 <= key < 6:
            return
        pressed = bool(pressed)
        if pressed:
            self._idle = 0
            if self._down[key]:  # pressed again without a release: take the release as lost
                self._down[key] = False
                self._release(key)
            self._down[key] = True
            self._down_ms[key] = 0
            self._repeat_ms[key] = 0
            if key == BACK:
                self._back_fired = False
            self._press(key)
        else:
            if not self._down[key]:
                return
            self._down[key] = False
            self._release(key)

    def _advance(self, dt):
        if self._save_flash:
            self._save_flash = self._save_flash - dt if self._save_flash > dt else 0
        self._t += dt
        if self._t > 0x3FFFFFF:
            self._t = 0x3FFFFF  # keep ints small after days in one screen
        if self._idle < IDLE_MS * 2:
            self._idle += dt
        for key in range(6):
            if self._down[key]:
                held = self._down_ms[key] + dt
                self._down_ms[key] = held
                if key <= RIGHT and held >= REPEAT_DELAY_MS:
                    self._repeat_ms[key] += dt
                    while self._repeat_ms[key] >= REPEAT_MS and self._down[key]:
                        self._repeat_ms[key] -= REPEAT_MS
                        self._press(key)
        mode = self._mode
        if mode == PLAY:
            if self._down[BACK] and not self._back_fired and not self._attract:
                if self._down_ms[BACK] >= HOLD_MS:
                    self._back_fired = True
                    self._open_pause()
                    return
            self._tick_play(dt)
        elif mode == TITLE:
            if self._t >= TITLE_MS:
                self._set_mode(MENU)
            else:
                step = self._t // 200
                if step != (self._t - dt) // 200 and 2 <= step <= 5:
                    self.cues.append(CUE_TICK)
        elif mode == MENU:
            if self._dirty and self._idle >= SETTINGS_SAVE_MS:
                self._save()
            if self._idle >= IDLE_MS:
                self._start_attract()
        elif mode == ROUND_END:
            self._tick_round_end(dt)
        elif mode == ERROR:
            if self._t >= ERROR_MS:
                self._set_mode(TITLE)
        elif mode == SELFTEST:
            if self._down[BACK] and self._down_ms[BACK] >= SELFTEST_EXIT_MS:
                self._down[BACK] = False
                self._set_mode(MENU)

    def _set_mode(self, mode):
        self._mode = mode
        self._t = 0
        if mode == MENU:
            self._attract = False
            self._pages = menu.pages(self.settings)
            if self._page >= len(self._pages):
                self._page = 0

    # -- keys -----------------------------------------------------------------------------

    def _press(self, key):
        mode = self._mode
        if mode == PLAY:
            if self._attract:
                self._leave_attract()
            else:
                self._play_press(key)
        elif mode == MENU:
            self._menu_press(key)
        elif mode == TITLE or mode == ERROR:
            self._set_mode(MENU)
        elif mode == PAUSE:
            self._pause_press(key)
        elif mode == ROUND_END:
            if self._attract:
                self._leave_attract()
            else:
                self._round_end_press(key)
        elif mode == TABLE:
            if key == SELECT:
                self._next_round()
            elif key == BACK:
                self._quit()
        elif mode == MATCH_END:
            if key == SELECT:
                self._again()
            elif key == BACK:
                self._quit()
        elif mode == SELFTEST:
            if self._t < screens.SELFTEST_KEYS_AT:
                if key == SELECT:
                    self._t = screens.SELFTEST_KEYS_AT
            else:
                self.cues.append(CUE_TICK)  # the buzzer answers every key

    def _release(self, key):
        if self._mode == PLAY and key == SELECT and self._preview:
            self._preview = False
            if self._phase == INPUT and self._legal[self._cursor]:
                self._commit(self._cursor, 0)

    # -- menu -----------------------------------------------------------------------------

    def _menu_press(self, key):
        pages = self._pages
        page = pages[self._page]
        kind = page >> 3
        if key == UP or key == DOWN:
            self._page = (self._page + (1 if key == DOWN else -1)) % len(pages)
            self._t = 0
            self.cues.append(CUE_TICK)
        elif key == LEFT or key == RIGHT or (key == SELECT and kind not in (menu.P_PLAY,
                                                                            menu.P_SELFTEST)):
            if menu.change(self.settings, page, -1 if key == LEFT else 1, self.levels):
                self.cues.append(CUE_TICK)
                self._apply_look()
                self._pages = menu.pages(self.settings)
                # stay on the same page even if pages appeared or vanished before it
                self._page = 0
                for i in range(len(self._pages)):
                    if self._pages[i] == page:
                        self._page = i
                self._dirty = True  # saved once the menu rests (flash wears with each write)
            else:
                self.cues.append(CUE_ILLEGAL)
        elif key == SELECT:
            if kind == menu.P_PLAY:
                try:
                    self._start_from_settings()
                except ValueError as error:  # settings the rules or the storage refuse
                    self.error = str(error)
                    self.cues.append(CUE_ILLEGAL)
            else:
                self._set_mode(SELFTEST)
                if self._dirty:
                    self._save()
        elif key == BACK:
            if self._page:
                self._page = 0
                self.cues.append(CUE_TICK)
            else:
                self._set_mode(TITLE)

    def _apply_look(self):
        s = self.settings
        self.shades.configure(palette.PALETTES[1 if s.colour_blind else 0],
                              palette.BRIGHTNESS[s.brightness])

    # -- drawing --------------------------------------------------------------------------

    def _draw(self):
        frame = self.frame
        shades = self.shades
        black = shades.get(0)
        for i in range(64):
            frame[i] = black
        mode = self._mode
        t = self._t
        if mode == PLAY:
            self._draw_play()
        elif mode == MENU:
            menu.draw(frame, shades, self.settings, self._pages[self._page], t)
        elif mode == TITLE:
            screens.draw_title(frame, shades, t)
        elif mode == PAUSE:
            screens.draw_pause(frame, shades, self._pause_item, self._undo_count() > 0)
        elif mode == ROUND_END:
            screens.draw_bars(frame, shades, self._game, self._scores, self._winners, t)
        elif mode == TABLE:
            screens.draw_table(frame, shades, self.match, self._winners, t)
        elif mode == MATCH_END:
            screens.draw_match_end(frame, shades, self._match_colours, t)
        elif mode == SELFTEST:
            screens.draw_selftest(frame, t, self._down)
        elif mode == ERROR:
            screens.draw_error(frame, shades, t)
        if self._save_flash and self._save_flash // SAVE_ERROR_BLINK_MS % 2:
            red = shades.get(palette.RED)
            for cell in SAVE_ERROR_CELLS:
                frame[cell] = red
