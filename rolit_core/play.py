"""The board screen of the app: cursor, preview, computer turns, the move animation, hints and
the time-limit countdown.

``Play`` is a mixin of :class:`rolit_core.app.App`: its methods work on the app's state (the
game, the seats, the frame), and the app calls them while it is in its play mode. Kept apart so
that each module stays small enough to compile on a board.
"""

from . import palette
from .events import (BACK, CUE_CAPTURE, CUE_ILLEGAL, CUE_PLACE, CUE_TICK, CUE_TIMEOUT, DOWN,
                     LEFT, PLAY, RIGHT, SELECT, UP)

# Play phases
INPUT = 0    # a human chooses a cell
THINK = 1    # a computer player thinks
ANIMATE = 2  # a move is shown
PHASE_NAMES = ("input", "think", "animate")

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
ATTRACT_SPEED = 2       # the attract mode's animations run this much faster


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


class Play:
    """Play-mode behaviour of ``App`` (a mixin; see the module docstring)."""

    _illegal = None  # why the last SELECT was refused (set on the instance when one is)

    @property
    def illegal_reason(self):
        """Why the last move attempt was refused, in words (the rules' ``IllegalMove`` text,
        e.g. "b2 does not touch a ball"); None once the cursor moves or a move is played."""
        return self._illegal

    @property
    def thinker(self):
        """The computer player thinking for the side to move (its ``nodes`` and ``thinking``
        tell how far it got), or None while a human chooses or a move is shown."""
        if self._mode != PLAY or self._phase != THINK:
            return None
        return self._ai

    def _sync(self):
        board = self._game.board
        shown = self._shown
        for cell in range(len(board)):
            shown[cell] = board[cell]

    def _begin_turn(self):
        game = self._game
        keep = self._keep_clock
        self._keep_clock = False
        self._preview = False
        self._flash = 0
        self._illegal = None
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
            # A paused or restored turn goes on with the time it had left.
            if not keep or not 0 < self._clock <= self.time_limit * 1000:
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
            self._illegal = None
        elif key == SELECT:
            if self._legal[self._cursor]:
                self._preview = True
                self._set_preview()
            else:
                self._flash = FLASH_MS
                self.cues.append(CUE_ILLEGAL)
                self._illegal = self._refusal(self._cursor)
        elif key == BACK:
            self._preview = False

    def _refusal(self, cell):
        # The rules' own words: play the cell on a copy (only on a refused press, so rare).
        game = self._game
        try:
            game.board.copy().play(cell, game.turn)
        except ValueError as error:  # IllegalMove is a ValueError
            return str(error)
        return None

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
                else:
                    if self._clock <= HURRY_MS and (before - 1) // 1000 != (self._clock - 1) // 1000:
                        self.cues.append(CUE_TICK)
                    if (before - 1) // CLOCK_SAVE_MS != (self._clock - 1) // CLOCK_SAVE_MS \
                            and not self._attract:
                        self._save()  # so that a power cut cannot give the move its time back
        elif phase == THINK:
            # The move is played in a later update than the one that found it: a frame that
            # searched does not also save the game and start the animation.
            if self._ai_cell is None:
                self._ai_cell = self._think()
            elif self._pt >= THINK_MIN_MS:
                self._commit(self._ai_cell, 1)
        else:
            self._animate()

    def _think(self):
        ai = self._ai
        cell = None
        if ai is not None:
            nodes = self.think_nodes
            if nodes <= 0:
                return None  # this update only shows the thinking (the device collects)
            if self.kinds[self._game.seat_of(self._game.turn)] == "expert":
                nodes *= EXPERT_FACTOR  # desktop only: its big budget in reasonable time
            try:
                cell = ai.step(nodes, self.think_stop)
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
        self._illegal = None
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
            elif (self._t % BLINK_MS < BLINK_ON_MS if not self.time_limit or self._clock > HURRY_MS
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
        if clock <= HURRY_MS and clock % 500 >= 250:
            lit = 0  # the last seconds blink
        frame = self.frame
        black = self.shades.get(0)
        dim = self.shades.get(colour, 50)
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
