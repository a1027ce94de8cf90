"""The board screen: cursor, preview, computer turns, the move animation, hints and the
time-limit countdown.

``PlayScreen`` plays one round of the app's session (its seats, time limit, hints, computer
players, random generator) and hands over to the round end when the game is over. The attract
mode runs the same screen for its computer-only games, faster and unsaved.
"""

from . import palette
from .events import (BACK, CUE_CAPTURE, CUE_ILLEGAL, CUE_PLACE, CUE_START, CUE_TICK,
                     CUE_TIMEOUT, DOWN, LEFT, RIGHT, SELECT, UP)
from .screen import Screen
from .vocab import HUMAN

# Play phases
INPUT = 0    # a human chooses a cell
THINK = 1    # a computer player thinks
ANIMATE = 2  # a move is shown
# 3: a linked game waits for another handheld (rolit_core.linked.WAIT)
PHASE_NAMES = ("input", "think", "animate", "wait")

EXPERT_FACTOR = 30      # "expert" (desktop only) thinks this many times think_nodes a frame
BLINK_MS = 500          # cursor period...
BLINK_ON_MS = 300       # ...of which it shows
FLASH_MS = 300          # illegal SELECT flash
THINK_MIN_MS = 400      # a computer turn shows "thinking" at least this long
SHOW_MS = 300           # a computer's cell blinks this long before its ball lands
TIMEOUT_SHOW_MS = 900   # a random move after a timeout sparkles this long
PLACE_MS = 300          # new ball alone, before the first captured balls turn
FLIP_MS = 180           # between steps of turning balls
SETTLE_MS = 250         # after the last step
HURRY_MS = 5000         # the last seconds of a time limit: ticks and a fast cursor
CLOCK_SAVE_MS = 10000   # a running countdown is saved this often (and when paused)
HOLD_MS = 600           # BACK held this long opens the pause menu

# How a move came: its lead-in before the ball lands
BY_HUMAN = 0
BY_COMPUTER = 1
BY_TIMEOUT = 2


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


RING = _ring()  # the 28 border pixels clockwise from the top-left: countdown and "thinking"


class PlayScreen(Screen):
    """A round on the board. ``host`` is what shows the next screen (the app, or the attract
    mode); ``speed`` makes the animations run faster; ``saving`` saves the game after moves."""

    name = "play"
    shows_game = True

    def __init__(self, app):
        self.app = app
        self.host = app
        self.speed = 1
        self.saving = True
        self.game = None
        self.phase = INPUT
        self.pt = 0                # ms in the phase
        self.cursor = 0
        self.shown = bytearray(64)  # the board as shown: behind the game during an animation
        self.legal = bytearray(64)
        self.legal_list = []
        self.preview = False
        self.preview_cells = bytearray(64)
        self.flash = 0
        self.clock = 0             # ms left of the human's move under a time limit
        self.keep_clock = False    # the next turn continues a restored or paused countdown
        self.ai = None
        self.ai_cell = None
        self.lines = []
        self.move_cell = 0
        self.move_colour = 0
        self.move_kind = BY_HUMAN
        self.steps_done = -1
        self.lead = 0
        self.illegal = None        # why the last SELECT was refused

    # -- rounds and turns -------------------------------------------------------------------

    def begin(self, game, announce=True):
        """Show ``game`` from its position; ``announce``: a new round (the cursor to the
        centre, the start cue)."""
        self.game = game
        if announce:
            size = game.size
            self.cursor = (size // 2 - 1) * size + size // 2 - 1
        for player in self.app.ais.values():
            if player is not None:
                player.ready(game)  # in this frame, not in the first one that thinks
        self.sync()
        self.host.show(self)
        if announce:
            self.app.cues.append(CUE_START)
        self.begin_turn()

    def sync(self):
        board = self.game.board
        shown = self.shown
        for cell in range(len(board)):
            shown[cell] = board[cell]

    def begin_turn(self):
        game = self.game
        keep = self.keep_clock
        self.keep_clock = False
        self.preview = False
        self.flash = 0
        self.illegal = None
        self.pt = 0
        self.ai = None
        self.ai_cell = None
        legal = self.legal
        for cell in range(64):
            legal[cell] = 0
        if game.over:
            self.legal_list = []
            self.host.show(self.app.round_end)
            return
        self.legal_list = game.legal_moves()
        for cell in self.legal_list:
            legal[cell] = 1
        app = self.app
        kind = app.kinds[game.seat_of(game.turn)]
        if kind == HUMAN:
            self.phase = INPUT
            # A paused or restored turn goes on with the time it had left.
            if not keep or not 0 < self.clock <= app.time_limit * 1000:
                self.clock = app.time_limit * 1000
            self.cursor = self.nearest_legal(self.cursor)
        else:
            self.phase = THINK
            self.ai = app.ais.get(kind)
            if self.ai is not None:
                try:
                    self.ai.start(game)
                except Exception:  # a broken player must not stop the game
                    self.ai = None

    def nearest_legal(self, cell):
        """``cell`` if it is legal, else the nearest legal cell (the first one on a tie)."""
        if self.legal[cell] or not self.legal_list:
            return cell
        size = self.game.size
        row, col = divmod(cell, size)
        best = cell
        best_distance = 99
        for other in self.legal_list:
            r, c = divmod(other, size)
            dr = r - row if r > row else row - r
            dc = c - col if c > col else col - c
            distance = dr if dr > dc else dc
            if distance < best_distance:
                best = other
                best_distance = distance
        return best

    def finish_animation(self):
        if self.phase == ANIMATE:
            self.lines = []
            self.sync()
            self.begin_turn()

    # -- keys -------------------------------------------------------------------------------

    def press(self, key):
        if self.phase != INPUT:
            return
        size = self.game.size
        row, col = divmod(self.cursor, size)
        if key <= RIGHT:
            if key == UP:
                row = (row - 1) % size
            elif key == DOWN:
                row = (row + 1) % size
            elif key == LEFT:
                col = (col - 1) % size
            else:
                col = (col + 1) % size
            self.move_to(row * size + col)
        elif key == SELECT:
            if self.legal[self.cursor]:
                self.preview = True
                self.set_preview()
            else:
                self.flash = FLASH_MS
                self.app.cues.append(CUE_ILLEGAL)
                self.illegal = self.refusal(self.cursor)
        elif key == BACK:
            self.preview = False

    def move_to(self, cell):
        """The cursor to ``cell``: moving away cancels a preview and an illegal flash."""
        self.cursor = cell
        self.preview = False
        self.flash = 0
        self.illegal = None

    def release(self, key):
        if key == SELECT and self.preview:
            self.preview = False
            if self.phase == INPUT and self.legal[self.cursor]:
                self.commit(self.cursor, BY_HUMAN)

    def refusal(self, cell):
        # The rules' own words: play the cell on a copy (only on a refused press, so rare).
        game = self.game
        try:
            game.board.copy().play(cell, game.turn)
        except ValueError as error:  # IllegalMove is a ValueError
            return str(error)
        return None

    def set_preview(self):
        cells = self.preview_cells
        for cell in range(64):
            cells[cell] = 0
        for line in self.game.board.flip_lines(self.cursor, self.game.turn):
            for cell in line:
                cells[cell] = 1

    # -- time -------------------------------------------------------------------------------

    def advance(self, dt):
        app = self.app
        down = app.keys_down
        if down[BACK] and not app.back_fired and app.held_ms[BACK] >= HOLD_MS:
            app.back_fired = True
            app.pause.open(self)
            return
        self.tick(dt)

    def tick(self, dt):
        """The round goes on by ``dt`` ms (without the pause menu's BACK hold)."""
        dt *= self.speed
        if self.pt < 0x3FFFFFF:  # a small int, even after days on one turn
            self.pt += dt
        if self.flash:
            self.flash = self.flash - dt if self.flash > dt else 0
        phase = self.phase
        if phase == INPUT:
            app = self.app
            if app.time_limit:
                before = self.clock
                self.clock -= dt
                if self.clock <= 0:
                    self.clock = 0
                    app.cues.append(CUE_TIMEOUT)
                    self.commit(app.rng.choice(self.legal_list), BY_TIMEOUT)
                else:
                    if self.clock <= HURRY_MS and (before - 1) // 1000 != (self.clock - 1) // 1000:
                        app.cues.append(CUE_TICK)
                    if (before - 1) // CLOCK_SAVE_MS != (self.clock - 1) // CLOCK_SAVE_MS \
                            and self.saving:
                        app.save()  # so that a power cut cannot give the move its time back
        elif phase == THINK:
            # The move is played in a later update than the one that found it: a frame that
            # searched does not also save the game and start the animation.
            if self.ai_cell is None:
                self.ai_cell = self.think()
            elif self.pt >= THINK_MIN_MS:
                self.commit(self.ai_cell, BY_COMPUTER)
        else:
            self.animate()

    def think(self):
        app = self.app
        ai = self.ai
        cell = None
        if ai is not None:
            nodes = app.think_nodes
            if nodes <= 0:
                return None  # this update only shows the thinking (the device collects)
            if app.kinds[self.game.seat_of(self.game.turn)] == "expert":
                nodes *= EXPERT_FACTOR  # desktop only: its big budget in reasonable time
            try:
                cell = ai.step(nodes, app.think_stop)
            except Exception:
                ai = self.ai = None
        if ai is None:
            cell = app.rng.choice(self.legal_list)
        if cell is not None and (not isinstance(cell, int) or not 0 <= cell < 64
                                 or not self.legal[cell]):
            cell = app.rng.choice(self.legal_list)
        return cell

    def commit(self, cell, how):
        """Play ``cell``, chosen ``how`` (a linked game's board screen sends it first)."""
        self.show_move(cell, how)

    def show_move(self, cell, how):
        game = self.game
        colour = game.turn
        self.lines = game.board.flip_lines(cell, colour)
        self.sync()
        game.play(cell)
        self.move_cell = cell
        self.move_colour = colour
        self.move_kind = how
        self.phase = ANIMATE
        self.pt = 0
        self.steps_done = -1
        self.preview = False
        self.illegal = None
        self.lead = (0, SHOW_MS, TIMEOUT_SHOW_MS)[how]
        if how == BY_HUMAN:
            self.cursor = cell
        if self.saving:
            self.save_move()
        self.animate()

    def save_move(self):
        """Save the game once a move is shown (the linked board screen saves a frame later)."""
        self.app.save()

    def animate(self):
        # Step 0 puts the new ball down; step k turns the k-th ball of every captured line.
        longest = 0
        for line in self.lines:
            if len(line) > longest:
                longest = len(line)
        pt = self.pt - self.lead
        cues = self.app.cues
        while True:
            step = self.steps_done + 1
            if step > longest:
                break
            due = 0 if step == 0 else PLACE_MS + (step - 1) * FLIP_MS
            if pt < due:
                break
            self.steps_done = step
            colour = self.move_colour
            if step == 0:
                self.shown[self.move_cell] = colour
                cues.append(CUE_PLACE)
            else:
                for line in self.lines:
                    if len(line) >= step:
                        self.shown[line[step - 1]] = colour
                cues.append(CUE_CAPTURE)
        end = PLACE_MS + (longest - 1) * FLIP_MS + SETTLE_MS if longest else PLACE_MS
        if pt >= end:
            self.lines = []
            self.sync()
            self.begin_turn()

    # -- drawing ----------------------------------------------------------------------------

    def draw_board(self, frame, thinking_colour, level):
        shades = self.app.shades
        size = self.game.size
        off = (8 - size) // 2
        shown = self.shown
        for row in range(size):
            base = (row + off) * 8 + off
            cell0 = row * size
            for col in range(size):
                colour = shown[cell0 + col]
                if colour:
                    frame[base + col] = shades.get(colour, level if colour == thinking_colour
                                                   else 255)
        return off

    def draw(self, frame):
        app = self.app
        game = self.game
        shades = app.shades
        phase = self.phase
        pt = self.pt
        thinking = 0
        level = 255
        if phase == THINK:
            # the mover's balls breathe while the computer thinks
            thinking = game.turn
            wave = pt % 800
            level = 255 - (wave if wave < 400 else 800 - wave) * 175 // 400
        off = self.draw_board(frame, thinking, level)
        size = game.size
        turn = game.turn
        if phase == INPUT:
            if app.hints:
                hint = shades.get(palette.WHITE, 60)
                for cell in self.legal_list:
                    if cell != self.cursor:
                        frame[(cell // size + off) * 8 + cell % size + off] = hint
            if app.time_limit:
                self.draw_countdown(frame, turn)
            cursor = self.cursor
            at = (cursor // size + off) * 8 + cursor % size + off
            if self.flash:
                if (FLASH_MS - self.flash) // 100 % 2 == 0:
                    frame[at] = shades.get(palette.WHITE)
            elif self.preview:
                frame[at] = shades.get(turn)
                if self.t // 200 % 2 == 0:
                    cells = self.preview_cells
                    colour = shades.get(turn)
                    for cell in range(size * size):
                        if cells[cell]:
                            frame[(cell // size + off) * 8 + cell % size + off] = colour
            elif (self.t % BLINK_MS < BLINK_ON_MS if not app.time_limit or self.clock > HURRY_MS
                  else self.t % 200 < 100):  # the last seconds: a hurried blink
                if self.legal[cursor]:
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
        elif phase == ANIMATE and self.steps_done < 0:
            # before the ball lands: a computer's cell blinks in its colour, a timeout's
            # random cell sparkles white and the mover's colour
            cell = self.move_cell
            at = (cell // size + off) * 8 + cell % size + off
            if self.move_kind == BY_TIMEOUT:
                frame[at] = shades.get(palette.WHITE if pt // 75 % 2 else self.move_colour)
                self.draw_countdown(frame, self.move_colour)
            elif pt // 100 % 2 == 0:
                frame[at] = shades.get(self.move_colour)

    def draw_countdown(self, frame, colour):
        limit = self.app.time_limit * 1000
        if not limit:
            return
        clock = self.clock
        lit = (clock * 28 + limit - 1) // limit
        if clock <= HURRY_MS and clock % 500 >= 250:
            lit = 0  # the last seconds blink
        shades = self.app.shades
        black = shades.get(0)
        dim = shades.get(colour, 50)
        for i in range(lit):
            at = RING[i]
            if frame[at] is black:
                frame[at] = dim


def computer(level, seed):
    """A computer player of ``level`` from rolit_core.ai, or None if that module is absent (the
    app then plays random legal moves for computer seats)."""
    try:
        from . import ai
    except ImportError:
        return None
    return ai.player(level, seed)
