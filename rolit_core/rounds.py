"""Between moves: the pause menu (resume, undo, restart, quit), the round end, the rounds table,
the match end and the attract mode.

``Rounds`` is a mixin of :class:`rolit_core.app.App` (like :class:`rolit_core.play.Play`): its
methods work on the app's state.
"""

from . import screens
from .events import (BACK, CUE_ILLEGAL, CUE_TICK, CUE_UNDO, CUE_WIN, DOWN, LEFT, MATCH_END, MENU,
                     PAUSE, PLAY, RIGHT, ROUND_END, SELECT, TABLE, UP)
from .game import Game, Match
from .screens import FINAL_MS, POUR_MS

ATTRACT_END_MS = 5000   # the attract mode shows the scores this long


class Rounds:
    """Pause, round-end, match and attract behaviour of ``App`` (a mixin)."""

    # -- pause ----------------------------------------------------------------------------

    def _open_pause(self):
        self._finish_animation()
        if self._mode != PLAY:
            return
        self._preview = False
        self._pause_item = 0
        self._set_mode(PAUSE)
        self.cues.append(CUE_TICK)
        self._save()  # the time left of the move, should the power go during the pause

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
                self._resume(False)
                self._save()
            elif item == 2:
                self._restart_round()
            else:
                self._quit()

    def _resume(self, keep_clock=True):
        self._set_mode(PLAY)
        self._sync()
        # The same turn goes on with the time it had left: a pause does not restart it.
        self._keep_clock = keep_clock
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
        match = Match(m.rounds, m.players, m.size, m.teams, m.tie, self._first_choice,
                      self._rng.bits())
        self._begin_match(match, self.kinds, self.time_limit, self.hints)
        self._save()

    # -- round end and match --------------------------------------------------------------

    def _enter_round_end(self):
        game = self._game
        self._scores = game.scores()
        self._winners = game.winners()
        self._pour_done = False
        self._set_mode(ROUND_END)

    def _tick_round_end(self, dt=0):
        if not self._pour_done:
            if self._t >= screens.pour_ms(self._scores):
                self._pour_done = True
                self._t = screens.pour_ms(self._scores)
                if self._winners:
                    self.cues.append(CUE_WIN)
            elif self._t >= FINAL_MS:  # a tick every four balls poured
                poured = self._t - FINAL_MS
                if poured // (POUR_MS * 4) != (poured - dt) // (POUR_MS * 4):
                    self.cues.append(CUE_TICK)
        elif self._attract and self._t >= screens.pour_ms(self._scores) + ATTRACT_END_MS:
            self._start_attract()

    def _round_end_press(self, key):
        if key == SELECT:
            if not self._pour_done:
                self._t = screens.pour_ms(self._scores)
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
