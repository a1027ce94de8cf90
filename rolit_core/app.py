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

``App`` holds the session (settings, the match, its seats and computer players, the storage,
cues, held keys) and shows one screen (:class:`rolit_core.screen.Screen`) at a time: the title
and error (:mod:`rolit_core.shows`), the self-test (:mod:`rolit_core.selftest`), the menu
(:mod:`rolit_core.menu_screen`), the board (:mod:`rolit_core.play`), pause, round end, rounds
table and match end (:mod:`rolit_core.rounds`) and the attract mode (:mod:`rolit_core.attract`).
The save format is :mod:`rolit_core.save`'s.
"""

import gc
import sys

# The computer players first: on a board compiling from source, the biggest module compiles
# best while the heap is still empty (docs/memory.md). Compiled (.mpy), nothing is compiled on
# the board: they load when a game first needs them (play.computer), after the title. Either
# way only sys.modules holds them, so that a linked game with no computer seat on this
# handheld can forget them (App.linked_code).
_COMPILED = globals().get("__file__", "").endswith(".mpy")
if not _COMPILED:
    try:
        from . import ai
        del ai
    except ImportError:  # a build without computer players plays random moves for them
        pass
from . import menu, palette, save
# Keys, cues and mode names are this module's API too (drivers import them from here).
from .events import (ATTRACT, BACK, CUE_CAPTURE, CUE_ERROR, CUE_ILLEGAL, CUE_PLACE,  # noqa: F401
                     CUE_START, CUE_TICK, CUE_TIMEOUT, CUE_UNDO, CUE_WIN, DOWN, ERROR, KEY_NAMES,
                     LEFT, MATCH_END, MENU, MODE_NAMES, PAUSE, PAUSE_ITEMS, PLAY, RIGHT,
                     ROUND_END, SELECT, SELFTEST, TABLE, TITLE, UP)
from .game import Game, Match
from .lifetime import forget, load, use_once
from .play import INPUT, PHASE_NAMES, THINK, PlayScreen, computer
from .play import BLINK_MS, FLIP_MS, HOLD_MS, PLACE_MS, RING  # noqa: F401 (for tests and docs)
from .rng import Random, fresh_seed
from .screen import ERROR_MS, POUR_MS, SELFTEST_EXIT_MS, TITLE_MS, WIN_FLASH_MS  # noqa: F401
from .screen import IDLE_MS, SETTINGS_SAVE_MS, Screen  # noqa: F401
from .vocab import DEVICE_LEVELS, HUMAN, LEVELS, LINKED, TICKS_MASK

MAX_STEP_MS = 1000      # longer gaps between updates count as this
REPEAT_DELAY_MS = 400   # a held direction repeats after this...
REPEAT_MS = 150         # ...every this
SAVE_ERROR_MS = 3000    # a failed save shows the save-error pattern this long
SAVE_ERROR_BLINK_MS = 100
SAVE_ERROR_CELLS = (0, 7, 56, 63)  # the four corners blink red, fast

_BLACK = (0, 0, 0)
# MicroPython and CircuitPython (not CPython) collect when the app and a game begin: compiling
# the modules leaves much garbage, and long-lived objects placed among it fragment a board's
# small heap (docs/memory.md).
_TIDY = hasattr(gc, "mem_free")
# A board that compiles its modules from source cannot compile the computer players again in
# the heap a linked game leaves (its code was compiled into the room they left: MemoryError):
# there the program restarts when such a game ends (App.wants_restart).
_RESTART_FOR_AI = _TIDY and not _COMPILED


class App:
    """The game as a state machine: ``update(now_ms, events) -> frame``.

    ``storage``: an object with ``load() -> bytes or None`` and ``save(data)``, or ``None``.
    ``seed``: makes everything random (who starts, computer players, timeouts) repeatable.
    ``levels``: the computer levels the menu offers (default: the device levels, no expert).
    ``think_nodes``: search nodes a computer player may use per update (the device changes it
    between updates; 0 lets an update pass without thinking). ``think_stop``: ``None``, or a
    function the device sets that says, asked between search nodes, that this update's time
    for thinking is up (the answer does not depend on it, only when it comes). ``link``: a
    :class:`rolit_core.link.Link` whose bytes the driver carries to the other handhelds (a
    UART, a socket), or None; with one the menu offers linked games (:mod:`rolit_core.linked`).
    """

    def __init__(self, storage=None, seed=None, levels=DEVICE_LEVELS, think_nodes=20,
                 link=None):
        for level in levels:
            if level not in LEVELS:
                raise ValueError("unknown level %r" % (level,))
        if type(think_nodes) is not int or think_nodes < 1:
            raise ValueError("think_nodes is a whole number of at least 1, not %r"
                             % (think_nodes,))
        if _TIDY:
            gc.collect()
        self.storage = storage
        self.link = link
        # The linked game being played (rolit_core.linked.LinkedGame), if any: its code is
        # loaded when one begins (linked_code) and forgotten when it ends (LinkedGame.leave).
        self.linked = None
        # True once the program should start again in a fresh interpreter (the driver does it,
        # with everything saved): a linked game that forgot the computer players has ended on
        # a board that compiles from source (linked_code).
        self.wants_restart = False
        self._restart_after_link = False
        self.seed = seed
        self.levels = tuple(levels)
        self.think_nodes = think_nodes
        self.think_stop = None
        self.rng = Random(fresh_seed() if seed is None else seed)
        self.settings = menu.Settings()
        self.shades = palette.Shades()
        self.frame = [_BLACK] * 64
        self.cues = []
        self.error = None          # why the saved data was refused or a save failed
        self.saves = 0             # how many times the state was saved
        self.save_failures = 0     # how many saves failed (each one shows the save-error pattern)
        self.dirty = False         # settings changed since the last save
        # the match in progress and its options
        self.match = None
        self.kinds = ()            # per seat: "human" or a level
        self.time_limit = 0        # seconds per move of the game in play (0: off)
        self.hints = False
        self.ais = {}              # a computer player per level in play
        self.first = 0            # who began round 1: the save needs it
        self.history = []         # the moves of the finished rounds
        self.first_choice = None  # the colour chosen to start ("play again" keeps it)
        # keys and time
        self.keys_down = [False] * 6
        self.held_ms = [0] * 6
        self._repeat_ms = [0] * 6
        self.back_fired = False    # the held BACK has opened the pause menu
        self.idle = 0              # ms since the last key press
        self._last = None
        self._save_flash = 0       # ms left of the save-error pattern
        self._reported = 0         # cues the last update reported; later ones wait for the next
        # the screens (title, self-test, error, attract and the menu only while shown:
        # show_once, begin_attract, menu_screen; pause, round end, rounds table and match end
        # while one of them is: between)
        self._menu = None
        self._menu_index = 0       # the menu page shown last: the next visit opens on it
        self.play = PlayScreen(self)
        self._between = None
        self.attract = None
        self.screen = Screen(self)  # none yet
        self.show_once("TitleScreen")
        if storage is not None:
            try:
                data = storage.load()
            except Exception as error:  # a store that cannot load is reported like bad data
                data = error
            if data is not None or getattr(storage, "error", None):
                # Resuming the saved game, or reporting why there is none, is needed once (the
                # decoders and the corrupt-data path are rolit_core.load's); an empty store
                # needs neither, and a first boot is 20 ms sooner without them.
                with use_once("rolit_core.load") as reading:
                    reading.resume(self, data)
                del reading
        self.apply_look()

    # -- public state ---------------------------------------------------------------------

    @property
    def mode(self):
        """The current screen: "title", "menu", "attract", "play", "pause", "round_end",
        "table", "match_end", "selftest" or "error"."""
        return self.screen.name

    @property
    def game(self):
        """The ``Game`` being played (also during pause and the round end screens), else None."""
        if self.screen.shows_game:
            return self.play.game
        return None

    @property
    def brightness(self):
        """The menu's brightness, 1-5; frame values are scaled by ``palette.BRIGHTNESS``."""
        return self.settings.brightness

    @brightness.setter
    def brightness(self, level):
        if type(level) is not int or not 1 <= level <= 5:
            raise ValueError("brightness is 1-5, not %r" % (level,))
        self.settings.brightness = level
        self.apply_look()

    @property
    def cursor(self):
        """The cursor's cell on the board being played."""
        return self.play.cursor

    @property
    def page(self):
        """In the menu: the page shown, as (name, seat), e.g. ("seat", 1) or ("rounds", 0);
        in the pause menu: ("resume" | "undo" | "restart" | "quit", 0); else None."""
        return self.screen.page

    @property
    def phase(self):
        """In play: "input" (a human chooses), "think" (a computer thinks) or "animate"."""
        return PHASE_NAMES[self.play.phase]

    @property
    def illegal_reason(self):
        """Why the last move attempt was refused, in words (the rules' ``IllegalMove`` text,
        e.g. "b2 does not touch a ball"); None once the cursor moves or a move is played."""
        return self.play.illegal

    @property
    def thinker(self):
        """The computer player thinking for the side to move (its ``nodes`` and ``thinking``
        tell how far it got), or None while a human chooses or a move is shown."""
        screen = self.screen
        if screen is self.attract:
            screen = screen.inner
        if screen is not self.play or self.play.phase != THINK:
            return None
        return self.play.ai

    @property
    def link_status(self):
        """The linked game in words ("hosting: waiting for 1 linked handheld", "link lost",
        "the game is full"...), or None when no linked game is being played."""
        return None if self.linked is None else self.linked.status()

    def seat_choices(self):
        """What a seat can be besides "human": the levels, and "link" with a link."""
        if self.link is None:
            return self.levels
        return self.levels + (LINKED,)

    def begin_linked(self):
        """From the menu: host a linked game (a seat in play is "link") or join one."""
        if self.link is None:
            self.cues.append(CUE_ILLEGAL)
            return
        settings = self.settings
        if menu.hosts(settings):
            self.linked_code(save.HOST, settings.seats[:settings.players])
        else:
            self.linked_code(save.GUEST)
        with use_once("rolit_core.lobby") as lobby:
            lobby.begin(self)
        del lobby

    def linked_code(self, role, kinds=()):
        """:mod:`rolit_core.linked`, loaded for the linked game that begins (how it begins is
        :mod:`rolit_core.lobby`'s, loaded with the lobby), with the protocol's shared part and
        the side of it that ``role`` (``save.HOST`` or ``save.GUEST``) plays: a host holds no
        guest's code and a guest no host's. It lives while that game does (``LinkedGame.leave``
        forgets it all), so a local game holds none of it.

        A guest, or a host whose seat ``kinds`` name no computer level, has no computer player
        to run: :mod:`rolit_core.ai` is forgotten for the game (the next game that needs it
        loads it again; on a board that compiles from source, in a fresh interpreter: when the
        linked game ends, ``wants_restart``)."""
        computers = False
        if role == save.HOST:
            for kind in kinds:
                if kind != HUMAN and kind != LINKED:
                    computers = True
        if not computers:
            self.ais = {}
            if "rolit_core.ai" in sys.modules:
                forget("rolit_core.ai")
                self._restart_after_link = _RESTART_FOR_AI
        # On a board compiling from source it needs a tidy heap: what the menu left is
        # collected first (a MemoryError here would be a crash of the frame).
        if _TIDY:
            gc.collect()
        load("rolit_core.lockstep_host" if role == save.HOST else "rolit_core.lockstep_guest")
        if _TIDY:
            gc.collect()
        return load("rolit_core.linked")

    def linked_over(self):
        """The linked game has ended here (``LinkedGame.leave``): on a board that compiles from
        source and forgot the computer players for it, the program is to restart."""
        if self._restart_after_link:
            self.wants_restart = True

    def move_cursor(self, cell):
        """While a human chooses a cell: put the cursor on ``cell`` of the board being played,
        as the arrow keys would (a preview or a refused cell's flash ends); True. Anywhere
        else, or for a cell off the board, nothing changes; False."""
        play = self.play
        if self.screen is not play or play.phase != INPUT:
            return False
        if type(cell) is not int or not 0 <= cell < play.game.size * play.game.size:
            return False
        if cell != play.cursor:
            play.move_to(cell)
        return True

    # -- the session ----------------------------------------------------------------------

    def show(self, screen):
        """Make ``screen`` the current one (its time starts at 0)."""
        if self.screen is not screen:
            self.screen.hide()
        self.screen = screen
        self.let_go(screen)
        screen.t = 0
        screen.enter()

    def let_go(self, screen):
        """Free the screens loaded while shown (the four between moves, the menu) unless
        ``screen``, now shown, is one of them: their code goes with them. The attract mode,
        which shows its board and round end itself, calls it for each."""
        between = self._between
        if between is not None and not between.holds(screen):
            self._between = None  # with the four screens, their code goes
        shown = self._menu
        if shown is not None and shown is not screen:
            self._menu_index = shown.index
            self._menu = None  # and with the menu screen, its code

    @property
    def menu_screen(self):
        """The setup menu (:class:`rolit_core.menu_screen.MenuScreen`): its module is loaded
        for each visit and freed once another screen is shown; each visit opens on the page
        the last one showed."""
        screen = self._menu
        if screen is None:
            with use_once("rolit_core.menu_screen") as menu_screen:
                screen = self._menu = menu_screen.MenuScreen(self)
            del menu_screen
            screen.index = self._menu_index
        return screen

    def between(self):
        """The pause, round end, rounds table and match end screens
        (:class:`rolit_core.rounds.BetweenMoves`): their module is loaded when one of them is
        first needed and freed once another screen is shown (a board keeps none of their code
        while a round is played)."""
        between = self._between
        if between is None:
            with use_once("rolit_core.rounds") as rounds:
                between = self._between = rounds.BetweenMoves(self)
            del rounds
        return between

    @property
    def pause(self):
        """The pause menu (:meth:`between`)."""
        return self.between().pause

    @property
    def round_end(self):
        """The round end (:meth:`between`)."""
        return self.between().round_end

    @property
    def table(self):
        """The rounds table (:meth:`between`)."""
        return self.between().table

    @property
    def match_end(self):
        """The match end (:meth:`between`)."""
        return self.between().match_end

    def show_once(self, name):
        """Show a new ``name`` screen: "TitleScreen" or "ErrorScreen" of :mod:`rolit_core.shows`,
        or "SelfTestScreen" of :mod:`rolit_core.selftest`. Its module is loaded for this showing,
        and its code is freed once another screen is shown (a board keeps no code of screens
        seen seldom)."""
        path = "rolit_core.selftest" if name == "SelfTestScreen" else "rolit_core.shows"
        with use_once(path) as module:
            screen = getattr(module, name)(self)
        del module
        self.show(screen)

    def begin_attract(self):
        """From the menu: the attract mode (:mod:`rolit_core.attract`, loaded while it runs)."""
        with use_once("rolit_core.attract") as attract:
            self.attract = attract.AttractScreen(self)
        del attract
        self.attract.begin()

    def start(self, seats=("human", "hard"), size=8, teams=False, rounds=1, tie="shared",
              time_limit=0, first=None, hints=None, record=None):
        """Begin a match as if chosen in the menu. ``seats``: "human" or a level per seat (one
        seat is solo: one person plays red and green). ``record``: text from ``Game.record()``
        to continue (its header gives size, players, teams, tie and first). Raises ValueError on
        bad arguments (or a match too big for the storage) and leaves the app as it was."""
        # The checking and setting up is needed once a match (rolit_core.starting).
        with use_once("rolit_core.starting") as starting:
            starting.start(self, seats, size, teams, rounds, tie, time_limit, first, hints,
                           record)
        del starting

    def load_record(self, text, seats=None):
        """Continue the game of a record made by ``Game.record()``; ``seats`` as in ``start``
        (default: every seat human)."""
        self.start(seats=seats or (), record=text)

    def begin_match(self, match, kinds, time_limit, hints, first=None, history=(),
                    fresh=True):
        """Play ``match`` on the board screen from its position, with its seat ``kinds``,
        ``time_limit``, ``hints``, round 1's ``first`` colour (default: its game's) and the
        moves of its finished rounds (``history``); ``fresh``: a new round is announced. The one
        setup of a match: a local start, a resumed save, a linked game's host and guests."""
        self.match = match
        self.first = match.game.first if first is None else first
        self.history = list(history)
        self.kinds = tuple(kinds)
        self.time_limit = time_limit
        self.hints = hints
        play = self.play
        play.host = self
        play.speed = 1
        play.saving = True
        self.make_ais()
        play.begin(match.game, fresh)

    def make_ais(self):
        self.ais = {}
        for kind in self.kinds:
            if kind != HUMAN and kind != LINKED and kind not in self.ais:
                self.ais[kind] = computer(kind, self.rng.bits())

    def enter_round(self):
        self.play.begin(self.match.game)

    def restart_round(self):
        if self.linked is not None:  # the other players could not take their moves back
            self.cues.append(CUE_ILLEGAL)
            return
        game = self.play.game
        self.match.game = Game(game.players, game.size, game.first, game.teams, game.tie)
        self.enter_round()
        self.save()

    def next_round(self):
        """After the rounds table: the next round, or the match end once the match is over."""
        match = self.match
        if match.over:
            self.show(self.match_end)
            self.cues.append(CUE_WIN)
            return
        if self.linked is not None:
            self.linked.next_round()
            return
        self.history.append(match.game.moves)
        match.next_round()
        self.enter_round()
        self.save()

    def again(self):
        """The same match once more (the colour chosen to start, or a new toss)."""
        if self.linked is not None:
            self.linked.again()
            return
        m = self.match
        match = Match(m.rounds, m.players, m.size, m.teams, m.tie, self.first_choice,
                      self.rng.bits())
        self.begin_match(match, self.kinds, self.time_limit, self.hints)
        self.save()

    def quit(self):
        """The match is over: back to the menu (a linked game's host ends it everywhere)."""
        if self.linked is not None:
            self.linked.quit()
        self.match = None
        self.show(self.menu_screen)
        self.save()

    def apply_look(self):
        s = self.settings
        self.shades.configure(palette.PALETTES[1 if s.colour_blind else 0],
                              palette.BRIGHTNESS[s.brightness])

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
        if self.linked is not None:
            self.linked.update(self._last)
        self._advance(dt)
        if events:
            try:
                for event in events:
                    self._event(event)
            except TypeError:
                pass  # not a list of pairs: ignored
        self._draw()
        if self.screen is self.attract and self.cues:
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
        down = self.keys_down
        if pressed:
            self.idle = 0
            if down[key]:  # pressed again without a release: take the release as lost
                down[key] = False
                self.screen.release(key)
            down[key] = True
            self.held_ms[key] = 0
            self._repeat_ms[key] = 0
            if key == BACK:
                self.back_fired = False
            self.screen.press(key)
        else:
            if not down[key]:
                return
            down[key] = False
            self.screen.release(key)

    def _advance(self, dt):
        if self._save_flash:
            self._save_flash = self._save_flash - dt if self._save_flash > dt else 0
        self.screen.pass_time(dt)
        if self.idle < IDLE_MS * 2:
            self.idle += dt
        down = self.keys_down
        for key in range(6):
            if down[key]:
                held = self.held_ms[key] + dt
                self.held_ms[key] = held
                if key <= RIGHT and held >= REPEAT_DELAY_MS:
                    self._repeat_ms[key] += dt
                    while self._repeat_ms[key] >= REPEAT_MS and down[key]:
                        self._repeat_ms[key] -= REPEAT_MS
                        self.screen.press(key)
        self.screen.advance(dt)

    def _draw(self):
        frame = self.frame
        shades = self.shades
        black = shades.get(0)
        for i in range(64):
            frame[i] = black
        self.screen.draw(frame)
        if self.linked is not None:
            self.linked.draw_over(frame)
        if self._save_flash and self._save_flash // SAVE_ERROR_BLINK_MS % 2:
            red = shades.get(palette.RED)
            for cell in SAVE_ERROR_CELLS:
                frame[cell] = red

    # -- saving ---------------------------------------------------------------------------

    def state_bytes(self):
        """The bytes ``save`` would write now (settings and any match in progress)."""
        if self.screen is self.attract:
            return save.encode(self.settings)
        clock = 0
        play = self.play
        if self.match is not None and self.time_limit and play.phase == INPUT:
            clock = play.clock  # a human's countdown in progress survives a power cut
        link = None
        if self.linked is not None and self.match is not None:
            link = self.linked.save_link()
        return save.encode(self.settings, self.match, self.kinds, self.time_limit, self.hints,
                           self.first, self.history, self.first_choice, clock, link)

    def save(self):
        """Write the state; a failure (``save`` raising or returning False) sets ``error``,
        counts in ``save_failures``, cues an error and shows the save-error pattern."""
        self.dirty = False
        storage = self.storage
        if storage is None:
            return True
        try:
            if storage.save(self.state_bytes()) is not False:
                self.saves += 1
                return True
            problem = getattr(storage, "error", None) or "the storage refused it"
        except Exception as error:
            problem = str(error) or error.__class__.__name__
        message = "storage failed to save: %s" % (problem,)
        if self.screen.name == "error" and self.error:
            message = "%s; %s" % (self.error, message)  # keep why the saved data was refused
        self.error = message
        self.save_failures += 1
        self._save_flash = SAVE_ERROR_MS
        self.cues.append(CUE_ERROR)
        return False
