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
"""

from . import font, menu, palette, save
from .board import COLOURS, EMPTY, LETTERS
from .game import Game, Match, parse_record, seating
from .rng import Random, fresh_seed

# Keys (the drivers translate buttons or a joystick to these)
UP = 0
DOWN = 1
LEFT = 2
RIGHT = 3
SELECT = 4
BACK = 5
KEY_NAMES = ("up", "down", "left", "right", "select", "back")

# Sound cues, reported in ``app.cues`` after each update
CUE_PLACE = "place"        # a ball is put down
CUE_CAPTURE = "capture"    # a step of captured balls turns
CUE_ILLEGAL = "illegal"    # a refused move or an unavailable menu action
CUE_WIN = "win"            # round or match winners are shown
CUE_TICK = "tick"          # menu move, countdown second, score counting
CUE_TIMEOUT = "timeout"    # the time limit ran out: a random move is played
CUE_UNDO = "undo"          # moves taken back
CUE_START = "start"        # a game or round begins
CUE_ERROR = "error"        # saved data was corrupt and has been replaced

# Modes (``app.mode`` gives the name; the attract mode is PLAY with computers only, shown as
# "attract")
TITLE = 0
MENU = 1
ATTRACT = 2
PLAY = 3
PAUSE = 4
ROUND_END = 5
TABLE = 6
MATCH_END = 7
SELFTEST = 8
ERROR = 9
MODE_NAMES = ("title", "menu", "attract", "play", "pause", "round_end", "table", "match_end",
              "selftest", "error")

PAUSE_ITEMS = ("resume", "undo", "restart", "quit")

# Play phases
INPUT = 0    # a human chooses a cell
THINK = 1    # a computer player thinks
ANIMATE = 2  # a move is shown

LEVELS = ("easy", "medium", "hard", "expert")
EXPERT_FACTOR = 30      # "expert" (desktop only) thinks this many times think_nodes a frame
DEVICE_LEVELS = ("easy", "medium", "hard")

WRAP_MASK = (1 << 29) - 1
MAX_STEP_MS = 1000      # longer gaps between updates count as this
TITLE_MS = 2400
IDLE_MS = 60000         # menu idle time before the attract mode
SETTINGS_SAVE_MS = 2000  # changed settings are saved when the menu rests this long
HOLD_MS = 600           # BACK held this long opens the pause menu
REPEAT_DELAY_MS = 400   # a held direction repeats after this...
REPEAT_MS = 150         # ...every this
BLINK_MS = 500          # cursor period
BLINK_ON_MS = 300
FLASH_MS = 300          # illegal SELECT flash
THINK_MIN_MS = 400      # a computer turn shows "thinking" at least this long
SHOW_MS = 300           # a computer's cell blinks this long before its ball lands
TIMEOUT_SHOW_MS = 900   # a random move after a timeout sparkles this long
PLACE_MS = 300          # new ball alone, before the first captured balls turn
FLIP_MS = 180           # between steps of turning balls
SETTLE_MS = 250         # after the last step
POUR_MS = 40            # per ball counted into the round-end bars
WIN_FLASH_MS = 250
ERROR_MS = 3000
SELFTEST_SWEEP_MS = 30
SELFTEST_COLOUR_MS = 600
SELFTEST_EXIT_MS = 1500
ATTRACT_SPEED = 2       # the attract mode's animations run this much faster
ATTRACT_END_MS = 5000

SELFTEST_LEVEL = 48
_ST_COLOURS = ((SELFTEST_LEVEL, 0, 0), (0, SELFTEST_LEVEL, 0), (0, 0, SELFTEST_LEVEL),
               (SELFTEST_LEVEL, SELFTEST_LEVEL, SELFTEST_LEVEL))
_ST_OUTLINE = (4, 4, 4)
# Self-test regions per key: (x0, y0, x1, y1) rectangles, end exclusive
_ST_REGIONS = (
    ((2, 0, 6, 2),),                                                  # UP: top middle
    ((2, 6, 6, 8),),                                                  # DOWN: bottom middle
    ((0, 2, 2, 6),),                                                  # LEFT: left middle
    ((6, 2, 8, 6),),                                                  # RIGHT: right middle
    ((3, 3, 5, 5),),                                                  # SELECT: centre
    ((0, 0, 2, 2), (6, 0, 8, 2), (0, 6, 2, 8), (6, 6, 8, 8)),         # BACK: corners
)
_ST_KEY_COLOURS = ((48, 0, 0), (0, 48, 0), (0, 0, 48), (48, 36, 0), (48, 48, 48), (36, 0, 48))


def _ring():
    cells = []
    for x in range(8):
        cells.append(x)
    for y in range(1, 8):
        cells.append(y * 8 + 7)
    for x in range(6, -1, -1):
        cells.append(56 + x)
    for y in range(6, 0, -1):
        cells.append(y * 8)
    return tuple(cells)


RING = _ring()  # the 28 border pixels clockwise from the top-left: the countdown
BAR_COLUMNS = (None, None, ((1, 2), (5, 6)), ((0, 1), (3, 4), (6, 7)),
               ((0, 1), (2, 3), (4, 5), (6, 7)))
_BLACK = (0, 0, 0)


class App:
    """The game as a state machine: ``update(now_ms, events) -> frame``.

    ``storage``: an object with ``load() -> bytes or None`` and ``save(data)``, or ``None``.
    ``seed``: makes everything random (who starts, computer players, timeouts) repeatable.
    ``levels``: the computer levels the menu offers (default: the device levels, no expert).
    ``think_nodes``: search nodes a computer player may use per update.
    """

    def __init__(self, storage=None, seed=None, levels=DEVICE_LEVELS, think_nodes=20):
        for level in levels:
            if level not in LEVELS:
                raise ValueError("unknown level %r" % (level,))
        self.storage = storage
        self.seed = seed
        self.levels = tuple(levels)
        self.think_nodes = think_nodes
        self._rng = Random(fresh_seed() if seed is None else seed)
        self.settings = menu.Settings()
        self.shades = palette.Shades()
        self.frame = [_BLACK] * 64
        self.cues = []
        self.error = None          # why the saved data was refused, if it was
        self.saves = 0             # how many times the state was saved
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
        self._ai = None
        self._ai_cell = None
        self._first = 0
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
        self._fresh = True
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
        if not isinstance(level, int) or not 1 <= level <= 5:
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
        return ("input", "think", "animate")[self._phase]

    # -- starting games -------------------------------------------------------------------

    def start(self, seats=("human", "hard"), size=8, teams=False, rounds=1, tie="shared",
              time_limit=0, first=None, hints=None, record=None):
        """Begin a match as if chosen in the menu. ``seats``: "human" or a level per seat (one
        seat is solo: one person plays red and green). ``record``: text from ``Game.record()``
        to continue (its header gives size, players, teams, tie and first). Raises ValueError on
        bad arguments and leaves the app as it was."""
        seats = tuple(seats)
        if record is not None:
            game = Game.from_record(record)
            size, teams, tie, first = game.size, game.teams, game.tie, game.first
            if len(seats) != game.players:
                seats = ("human",) * game.players
        players = len(seats)
        for kind in seats:
            if kind != "human" and kind not in LEVELS:
                raise ValueError("a seat is 'human' or a level %r, not %r" % (LEVELS, kind))
        if not isinstance(rounds, int) or not 1 <= rounds <= 99:
            raise ValueError("rounds must be 1-99, not %r" % (rounds,))
        if not isinstance(time_limit, int) or not 0 <= time_limit <= 3600:
            raise ValueError("time_limit is seconds 0-3600, not %r" % (time_limit,))
        seed = self._rng.bits()
        match = Match(rounds, players, size, teams, tie, first, seed)
        if record is not None:
            for cell in game.moves:
                match.game.play(cell)
        kinds = seats if players > 1 else ("human", "human")
        self._begin_match(match, kinds, time_limit, self.settings.hints if hints is None else
                          bool(hints))
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
                self._ais[kind] = _computer(kind, self._rng.bits())

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
        if self._fresh:
            self._fresh = False  # cues from loading the save are reported by the first update
        elif self.cues:
            self.cues = []
        try:
            now = int(now_ms)
        except (TypeError, ValueError, OverflowError):
            now = self._last if self._last is not None else 0
        if self._last is None:
            dt = 0
        else:
            dt = (now - self._last) & WRAP_MASK
            if dt > WRAP_MASK >> 1:
                dt = 0  # the clock went back: no time passes
            elif dt > MAX_STEP_MS:
                dt = MAX_STEP_MS
        self._last = now & WRAP_MASK
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
            if self._down[key]:
                return  # a repeated press without release: ignore
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
            if self._t < self._selftest_keys_at():
                if key == SELECT:
                    self._t = self._selftest_keys_at()
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
                except ValueError:  # settings the rules refuse (Settings.fix prevents them)
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

    # -- play -----------------------------------------------------------------------------

    def _sync(self):
        board = self._game.board
        shown = self._shown
        for cell in range(len(board)):
            shown[cell] = board[cell]

    def _begin_turn(self):
        game = self._game
        self._preview = False
        self._flash = 0
        self._pt = 0
        self._ai = None
        self._ai_cell = None
        legal = self._legal
        for cell in range(64):
            legal[cell] = 0
        if game.over:
            self._legal_list = []
            self._enter_round_end()
            return
        self._legal_list = game.legal_moves()
        for cell in self._legal_list:
            legal[cell] = 1
        kind = self.kinds[game.seat_of(game.turn)]
        if kind == "human":
            self._phase = INPUT
            self._clock = self.time_limit * 1000
            self._cursor = self._nearest_legal(self._cursor)
        else:
            self._phase = THINK
            self._ai = self._ais.get(kind)
            if self._ai is not None:
                try:
                    self._ai.start(game)
                except Exception:  # a broken player must not stop the game
                    self._ai = None

    def _nearest_legal(self, cell):
        """``cell`` if it is legal, else the nearest legal cell (the first one on a tie)."""
        if self._legal[cell] or not self._legal_list:
            return cell
        size = self._game.size
        row, col = divmod(cell, size)
        best = cell
        best_distance = 99
        for other in self._legal_list:
            r, c = divmod(other, size)
            dr = r - row if r > row else row - r
            dc = c - col if c > col else col - c
            distance = dr if dr > dc else dc
            if distance < best_distance:
                best = other
                best_distance = distance
        return best

    def _play_press(self, key):
        if self._phase != INPUT:
            return
        size = self._game.size
        row, col = divmod(self._cursor, size)
        if key <= RIGHT:
            if key == UP:
                row = (row - 1) % size
            elif key == DOWN:
                row = (row + 1) % size
            elif key == LEFT:
                col = (col - 1) % size
            else:
                col = (col + 1) % size
            self._cursor = row * size + col
            self._preview = False  # moving away cancels a preview
            self._flash = 0
        elif key == SELECT:
            if self._legal[self._cursor]:
                self._preview = True
                self._set_preview()
            else:
                self._flash = FLASH_MS
                self.cues.append(CUE_ILLEGAL)
        elif key == BACK:
            self._preview = False

    def _set_preview(self):
        cells = self._preview_cells
        for cell in range(64):
            cells[cell] = 0
        for line in self._game.board.flip_lines(self._cursor, self._game.turn):
            for cell in line:
                cells[cell] = 1

    def _tick_play(self, dt):
        if self._attract:
            dt *= ATTRACT_SPEED
        if self._pt < 0x3FFFFFF:  # a small int, even after days on one turn
            self._pt += dt
        if self._flash:
            self._flash = self._flash - dt if self._flash > dt else 0
        phase = self._phase
        if phase == INPUT:
            if self.time_limit:
                before = self._clock
                self._clock -= dt
                if self._clock <= 0:
                    self._clock = 0
                    self.cues.append(CUE_TIMEOUT)
                    self._commit(self._rng.choice(self._legal_list), 2)
                elif self._clock <= 5000 and (before - 1) // 1000 != (self._clock - 1) // 1000:
                    self.cues.append(CUE_TICK)
        elif phase == THINK:
            if self._ai_cell is None:
                self._ai_cell = self._think()
            if self._ai_cell is not None and self._pt >= THINK_MIN_MS:
                self._commit(self._ai_cell, 1)
        else:
            self._animate()

    def _think(self):
        ai = self._ai
        cell = None
        if ai is not None:
            nodes = self.think_nodes
            if self.kinds[self._game.seat_of(self._game.turn)] == "expert":
                nodes *= EXPERT_FACTOR  # desktop only: its big budget in reasonable time
            try:
                cell = ai.step(nodes)
            except Exception:
                ai = self._ai = None
        if ai is None:
            cell = self._rng.choice(self._legal_list)
        if cell is not None and (not isinstance(cell, int) or not 0 <= cell < 64
                                 or not self._legal[cell]):
            cell = self._rng.choice(self._legal_list)
        return cell

    def _commit(self, cell, how):
        game = self._game
        colour = game.turn
        self._lines = game.board.flip_lines(cell, colour)
        self._sync()
        game.play(cell)
        self._move_cell = cell
        self._move_colour = colour
        self._move_kind = how
        self._phase = ANIMATE
        self._pt = 0
        self._steps_done = -1
        self._preview = False
        self._lead = (0, SHOW_MS, TIMEOUT_SHOW_MS)[how]
        if how == 0:
            self._cursor = cell
        if not self._attract:
            self._save()
        self._animate()

    def _animate(self):
        # Step 0 puts the new ball down; step k turns the k-th ball of every captured line.
        longest = 0
        for line in self._lines:
            if len(line) > longest:
                longest = len(line)
        pt = self._pt - self._lead
        while True:
            step = self._steps_done + 1
            if step > longest:
                break
            due = 0 if step == 0 else PLACE_MS + (step - 1) * FLIP_MS
            if pt < due:
                break
            self._steps_done = step
            colour = self._move_colour
            if step == 0:
                self._shown[self._move_cell] = colour
                self.cues.append(CUE_PLACE)
            else:
                for line in self._lines:
                    if len(line) >= step:
                        self._shown[line[step - 1]] = colour
                self.cues.append(CUE_CAPTURE)
        end = PLACE_MS + (longest - 1) * FLIP_MS + SETTLE_MS if longest else PLACE_MS
        if pt >= end:
            self._lines = []
            self._sync()
            self._begin_turn()

    def _finish_animation(self):
        if self._phase == ANIMATE:
            self._lines = []
            self._sync()
            self._begin_turn()

    # -- pause ----------------------------------------------------------------------------

    def _open_pause(self):
        self._finish_animation()
        if self._mode != PLAY:
            return
        self._preview = False
        self._pause_item = 0
        self._set_mode(PAUSE)
        self.cues.append(CUE_TICK)

    def _can_undo(self):
        return self._undo_count() > 0

    def _undo_count(self):
        """How many moves the pause menu's undo takes back (0: nothing to undo)."""
        game = self._game
        moves = game.board.moves
        if "human" not in self.kinds:
            return 0
        only_humans = True
        for kind in self.kinds:
            if kind != "human":
                only_humans = False
        if only_humans:
            return 1 if moves else 0
        # back to the human's previous turn: undo up to and including the last human move
        for i in range(len(moves) - 1, -1, -1):
            if self.kinds[game.seat_of(moves[i][1])] == "human":
                return len(moves) - i
        return 0

    def _pause_press(self, key):
        if key == UP or key == LEFT:
            self._pause_item = (self._pause_item - 1) % 4
            self.cues.append(CUE_TICK)
        elif key == DOWN or key == RIGHT:
            self._pause_item = (self._pause_item + 1) % 4
            self.cues.append(CUE_TICK)
        elif key == BACK:
            self._resume()
        elif key == SELECT:
            item = self._pause_item
            if item == 0:
                self._resume()
            elif item == 1:
                count = self._undo_count()
                if not count:
                    self.cues.append(CUE_ILLEGAL)
                    return
                for _ in range(count):
                    self._game.undo()
                self.cues.append(CUE_UNDO)
                self._save()
                self._resume()
            elif item == 2:
                self._restart_round()
            else:
                self._quit()

    def _resume(self):
        self._set_mode(PLAY)
        self._sync()
        self._begin_turn()

    def _restart_round(self):
        game = self._game
        fresh = Game(game.players, game.size, game.first, game.teams, game.tie)
        self.match.game = fresh
        self._enter_round()
        self._save()

    def _quit(self):
        self.match = None
        self._game = None
        self._set_mode(MENU)
        self._save()

    def _again(self):
        m = self.match
        first = self.settings.first if self.settings.first in m.game.colours else None
        match = Match(m.rounds, m.players, m.size, m.teams, m.tie, first, self._rng.bits())
        self._begin_match(match, self.kinds, self.time_limit, self.hints)
        self._save()

    # -- round end and match --------------------------------------------------------------

    def _enter_round_end(self):
        game = self._game
        self._scores = game.scores()
        self._winners = game.winners()
        self._pour_done = False
        self._set_mode(ROUND_END)

    def _pour_ms(self):
        best = 0
        for score in self._scores:
            if score > best:
                best = score
        return best * POUR_MS

    def _tick_round_end(self, dt=0):
        if not self._pour_done:
            if self._t >= self._pour_ms():
                self._pour_done = True
                self._t = self._pour_ms()
                if self._winners:
                    self.cues.append(CUE_WIN)
            elif self._t // (POUR_MS * 4) != (self._t - dt) // (POUR_MS * 4):
                self.cues.append(CUE_TICK)
        elif self._attract and self._t >= self._pour_ms() + ATTRACT_END_MS:
            self._start_attract()

    def _round_end_press(self, key):
        if key == SELECT:
            if not self._pour_done:
                self._t = self._pour_ms()
                self._tick_round_end()
            elif self.match.rounds > 1:
                self._set_mode(TABLE)
                self.cues.append(CUE_TICK)
            else:
                self._again()
        elif key == BACK:
            if self._pour_done:
                self._quit()

    def _next_round(self):
        match = self.match
        if match.over:
            colours = []
            for seat in match.winners():
                colours.append(match.seat_colours[seat][0])
            self._match_colours = colours
            self._set_mode(MATCH_END)
            self.cues.append(CUE_WIN)
            return
        self._history.append(match.game.moves)
        match.next_round()
        self._enter_round()
        self._save()

    # -- attract --------------------------------------------------------------------------

    def _start_attract(self):
        self.kinds = ("easy", "easy", "easy", "easy")
        self.match = None
        self._game = Game(4, 8, None, False, "shared", self._rng.bits())
        self._attract = True
        self.time_limit = 0
        self.hints = False
        self._make_ais()
        self._sync()
        self._set_mode(PLAY)
        self._begin_turn()

    def _leave_attract(self):
        self._attract = False
        self._game = None
        self.kinds = ()
        self._set_mode(MENU)
        self._idle = 0

    # -- self-test ------------------------------------------------------------------------

    def _selftest_keys_at(self):
        return 64 * SELFTEST_SWEEP_MS + 4 * SELFTEST_COLOUR_MS

    # -- saving ---------------------------------------------------------------------------

    def _boot(self):
        storage = self.storage
        if storage is None:
            return
        try:
            data = storage.load()
        except Exception as error:  # a broken store is reported like corrupt data
            self._corrupt("storage failed to load: %s" % (error,))
            return
        if data is None:
            return
        try:
            payload = save.unpack(data)
            self.settings.from_bytes(payload[:save.SETTINGS_SIZE])
            rest = payload[save.SETTINGS_SIZE:]
            if len(rest) < 1 or rest[0] > 1 or (rest[0] == 0 and len(rest) != 1):
                raise save.SaveError("bad game flag")
            if rest[0] == 1:
                self._restore(save.decode_match(rest[1:]))
        except Exception as error:
            self._corrupt(str(error) or error.__class__.__name__)

    def _restore(self, session):
        players, kinds, size, teams, tie, rounds, time_limit, hints, first, rounds_moves = session
        seat_count = len(seating(players, teams))
        kinds = tuple([menu.KINDS[k] for k in kinds[:seat_count]])
        match = Match(rounds, players, size, teams, menu.TIES[tie], first, 0)
        for index in range(len(rounds_moves)):
            if index:
                match.next_round()
            for cell in rounds_moves[index]:
                match.game.play(cell)
            if index < len(rounds_moves) - 1 and not match.game.over:
                raise save.SaveError("an earlier round is not finished")
        self._begin_match(match, kinds, time_limit, hints)
        self._history = rounds_moves[:-1]
        self.cues = []

    def _corrupt(self, message):
        self.error = message
        self.settings = menu.Settings()
        self.match = None
        self._game = None
        self._set_mode(ERROR)
        self.cues.append(CUE_ERROR)
        self._save()

    def state_bytes(self):
        """The bytes ``save`` would write now (settings and any match in progress)."""
        payload = bytearray(self.settings.to_bytes())
        match = self.match
        if match is None or self._attract:
            payload.append(0)
        else:
            payload.append(1)
            kinds = [menu.KINDS.index(k) for k in self.kinds]
            rounds_moves = list(self._history)
            rounds_moves.append(match.game.moves)
            payload.extend(save.encode_match((match.players, kinds, match.size, match.teams,
                                              1 if match.tie == "none" else 0, match.rounds,
                                              self.time_limit, self.hints, self._first,
                                              rounds_moves)))
        return save.pack(payload)

    def _save(self):
        self._dirty = False
        if self.storage is None:
            return
        try:
            data = self.state_bytes()
            self.storage.save(data)
            self.saves += 1
        except Exception as error:
            self.error = "storage failed to save: %s" % (error,)

    # -- drawing --------------------------------------------------------------------------

    def _draw(self):
        frame = self.frame
        black = self.shades.get(0)
        for i in range(64):
            frame[i] = black
        mode = self._mode
        if mode == PLAY:
            self._draw_play()
        elif mode == MENU:
            menu.draw(frame, self.shades, self.settings, self._pages[self._page], self._t)
        elif mode == TITLE:
            self._draw_title()
        elif mode == PAUSE:
            self._draw_pause()
        elif mode == ROUND_END:
            self._draw_bars()
        elif mode == TABLE:
            self._draw_table()
        elif mode == MATCH_END:
            self._draw_match_end()
        elif mode == SELFTEST:
            self._draw_selftest()
        elif mode == ERROR:
            self._draw_error()

    def _draw_board(self, thinking_colour, level):
        frame = self.frame
        shades = self.shades
        size = self._game.size
        off = (8 - size) // 2
        shown = self._shown
        for row in range(size):
            base = (row + off) * 8 + off
            cell0 = row * size
            for col in range(size):
                colour = shown[cell0 + col]
                if colour:
                    frame[base + col] = shades.get(colour, level if colour == thinking_colour
                                                   else 255)
        return off

    def _draw_play(self):
        game = self._game
        shades = self.shades
        frame = self.frame
        phase = self._phase
        pt = self._pt
        thinking = 0
        level = 255
        if phase == THINK:
            # the mover's balls breathe while the computer thinks
            thinking = game.turn
            wave = pt % 800
            level = 255 - (wave if wave < 400 else 800 - wave) * 175 // 400
        off = self._draw_board(thinking, level)
        size = game.size
        turn = game.turn
        if phase == INPUT:
            if self.hints:
                hint = shades.get(palette.WHITE, 60)
                for cell in self._legal_list:
                    if cell != self._cursor:
                        frame[(cell // size + off) * 8 + cell % size + off] = hint
            if self.time_limit:
                self._draw_countdown(turn)
            cursor = self._cursor
            at = (cursor // size + off) * 8 + cursor % size + off
            if self._flash:
                if (FLASH_MS - self._flash) // 100 % 2 == 0:
                    frame[at] = shades.get(palette.WHITE)
            elif self._preview:
                frame[at] = shades.get(turn)
                if self._t // 200 % 2 == 0:
                    cells = self._preview_cells
                    colour = shades.get(turn)
                    for cell in range(size * size):
                        if cells[cell]:
                            frame[(cell // size + off) * 8 + cell % size + off] = colour
            elif (self._t % BLINK_MS < BLINK_ON_MS if not self.time_limit or self._clock > 5000
                  else self._t % 200 < 100):  # the last seconds: a hurried blink
                if self._legal[cursor]:
                    frame[at] = shades.get(turn)
                else:
                    frame[at] = shades.get(palette.WHITE, 110)
        elif phase == THINK:
            # and a comet runs round the border's free pixels, in case no ball shows that colour
            black = shades.get(0)
            head = pt // 60 % 28
            for i in range(3):
                at = RING[(head - i) % 28]
                if frame[at] is black:
                    frame[at] = shades.get(turn, 255 - 90 * i)
        elif phase == ANIMATE and self._steps_done < 0:
            # before the ball lands: a computer's cell blinks in its colour, a timeout's
            # random cell sparkles white and the mover's colour
            cell = self._move_cell
            at = (cell // size + off) * 8 + cell % size + off
            if self._move_kind == 2:
                frame[at] = shades.get(palette.WHITE if pt // 75 % 2 else self._move_colour)
                self._draw_countdown(self._move_colour)
            elif pt // 100 % 2 == 0:
                frame[at] = shades.get(self._move_colour)

    def _draw_countdown(self, colour):
        limit = self.time_limit * 1000
        if not limit:
            return
        clock = self._clock
        lit = (clock * 28 + limit - 1) // limit
        if clock <= 5000 and clock % 500 >= 250:
            lit = 0  # the last seconds blink
        frame = self.frame
        black = self.shades.get(0)
        dim = self.shades.get(colour, 50)
        for i in range(lit):
            at = RING[i]
            if frame[at] is black:
                frame[at] = dim

    def _draw_title(self):
        t = self._t
        frame = self.frame
        shades = self.shades
        appear = ((27, 1), (28, 2), (36, 3), (35, 4))
        for i in range(4):
            if t >= 400 + 200 * i:
                frame[appear[i][0]] = shades.get(appear[i][1])
        if t >= 1300:
            wave = (t - 1300) // 150
            radius = wave % 4
            colour = shades.get(1 + wave % 4, 110)
            if radius:
                for y in range(8):
                    for x in range(8):
                        dx = 2 * x - 7
                        dy = 2 * y - 7
                        d = (dx if dx > 0 else -dx)
                        e = (dy if dy > 0 else -dy)
                        if (d if d > e else e) // 2 == radius:
                            frame[y * 8 + x] = colour

    def _draw_pause(self):
        frame = self.frame
        shades = self.shades
        item = self._pause_item
        font.draw_picture(frame, font.PAUSE_ICONS[item], 0, shades)
        if item == 1 and not self._can_undo():
            dim = shades.get(palette.YELLOW, 50)
            for i in range(48):
                if frame[i] is not shades.get(0):
                    frame[i] = dim
        for i in range(4):
            frame[56 + 1 + 2 * i] = shades.get(palette.WHITE, 255 if i == item else 50)

    def _draw_bars(self):
        frame = self.frame
        shades = self.shades
        game = self._game
        seats = game.seat_colours
        columns = BAR_COLUMNS[len(seats)]
        scores = self._scores
        best = 1
        for score in scores:
            if score > best:
                best = score
        counted_all = self._t // POUR_MS
        flash_off = self._pour_done and (self._t - self._pour_ms()) // WIN_FLASH_MS % 2 == 1
        for seat in range(len(seats)):
            if flash_off and seat in self._winners:
                continue
            colours = seats[seat]
            counted = scores[seat] if counted_all > scores[seat] else counted_all
            units = counted * 8 * 256 // best   # bar height in 1/256 pixels
            first_count = game.board.count(colours[0])
            for p in range(8):
                fill = units - p * 256
                if fill <= 0:
                    break
                level = 255 if fill >= 256 else (fill if fill > 40 else 40)
                colour = colours[0]
                if len(colours) > 1 and p * best // 8 >= first_count:
                    colour = colours[1]
                value = shades.get(colour, level)
                for x in columns[seat]:
                    frame[(7 - p) * 8 + x] = value

    def _draw_table(self):
        frame = self.frame
        shades = self.shades
        match = self.match
        seats = match.seat_colours
        columns = BAR_COLUMNS[len(seats)]
        won = match.rounds_won
        for seat in range(len(seats)):
            for p in range(won[seat] if won[seat] < 7 else 7):
                value = shades.get(seats[seat][0])
                newest = p == won[seat] - 1 and seat in self._winners
                if newest and self._t // WIN_FLASH_MS % 2:
                    continue
                for x in columns[seat]:
                    frame[(7 - p) * 8 + x] = value
        for r in range(match.rounds if match.rounds < 8 else 8):
            frame[r] = shades.get(palette.WHITE, 255 if r < match.round else 40)

    def _draw_match_end(self):
        frame = self.frame
        shades = self.shades
        colours = self._match_colours
        if not colours:
            return
        shift = self._t // 200
        for y in range(8):
            for x in range(8):
                ring = x if x < y else y
                if 7 - x < ring:
                    ring = 7 - x
                if 7 - y < ring:
                    ring = 7 - y
                if (ring + shift) % 2 == 0:
                    frame[y * 8 + x] = shades.get(colours[(ring + shift) // 2 % len(colours)])

    def _draw_selftest(self):
        frame = self.frame
        t = self._t
        sweep = 64 * SELFTEST_SWEEP_MS
        if t < sweep:
            frame[t // SELFTEST_SWEEP_MS] = _ST_COLOURS[3]
            return
        t -= sweep
        if t < 4 * SELFTEST_COLOUR_MS:
            colour = _ST_COLOURS[t // SELFTEST_COLOUR_MS]
            for i in range(64):
                frame[i] = colour
            return
        for key in range(6):
            colour = _ST_KEY_COLOURS[key] if self._down[key] else _ST_OUTLINE
            for x0, y0, x1, y1 in _ST_REGIONS[key]:
                for y in range(y0, y1):
                    for x in range(x0, x1):
                        frame[y * 8 + x] = colour

    def _draw_error(self):
        if self._t % 500 < 300:
            font.draw_picture(self.frame, font.ERROR, 0, self.shades)


def _computer(level, seed):
    """A computer player of ``level`` from rolit_core.ai, or None if that module is absent (the
    app then plays random legal moves for computer seats)."""
    try:
        from . import ai
    except ImportError:
        return None
    return ai.player(level, seed)
