"""Between moves: the pause menu (resume, undo, restart, quit), the round end, the rounds
table and the match end. Each is a :class:`rolit_core.screen.Screen` of the app's session.

They are seen between moves only, so the app loads this module (with its pictures) when one of
them is first needed and lets all four go together once another screen is shown
(``App.between``): a board keeps none of their code while a round is played.
"""

from . import screens
from .events import (BACK, CUE_ILLEGAL, CUE_TICK, CUE_UNDO, CUE_WIN, DOWN, LEFT, PAUSE_ITEMS,
                     RIGHT, SELECT, UP)
from .screen import FINAL_MS, POUR_MS, Screen
from .vocab import HUMAN

# Only these screens use them (rolit_core.lifetime.use_once forgets them with this module).
USED_ONCE = ("rolit_core.screens", "rolit_core.font")


class BetweenMoves:
    """The four screens of this module for one app, made together: the rounds table reads the
    round end's winners, and the pause menu returns to the board screen it paused."""

    def __init__(self, app):
        self.pause = PauseScreen(app)
        self.round_end = RoundEndScreen(app)
        self.table = TableScreen(app)
        self.match_end = MatchEndScreen(app)

    def holds(self, screen):
        """True if ``screen`` is one of the four."""
        return (screen is self.pause or screen is self.round_end or screen is self.table
                or screen is self.match_end)


class PauseScreen(Screen):
    """The pause menu over the board screen ``play``: ``item`` is the one shown."""

    name = "pause"
    shows_game = True

    def __init__(self, app):
        self.app = app
        self.play = None
        self.item = 0

    @property
    def page(self):
        return (PAUSE_ITEMS[self.item], 0)

    def open(self, play):
        """Pause ``play`` (a move being shown is finished first; if that ends the round, the
        round end comes instead)."""
        app = self.app
        play.finish_animation()
        if app.screen is not play:
            return
        self.play = play
        play.preview = False
        self.item = 0
        app.show(self)
        app.cues.append(CUE_TICK)
        app.save()  # the time left of the move, should the power go during the pause

    def undo_count(self):
        """How many moves undo takes back (0: nothing to undo)."""
        kinds = self.app.kinds
        game = self.play.game
        moves = game.board.moves
        if HUMAN not in kinds or self.app.linked is not None:  # no undo in a linked game
            return 0
        only_humans = True
        for kind in kinds:
            if kind != HUMAN:
                only_humans = False
        if only_humans:
            return 1 if moves else 0
        # back to the human's previous turn: undo up to and including the last human move
        for i in range(len(moves) - 1, -1, -1):
            if kinds[game.seat_of(moves[i][1])] == HUMAN:
                return len(moves) - i
        return 0

    def press(self, key):
        app = self.app
        if key == UP or key == LEFT:
            self.item = (self.item - 1) % 4
            app.cues.append(CUE_TICK)
        elif key == DOWN or key == RIGHT:
            self.item = (self.item + 1) % 4
            app.cues.append(CUE_TICK)
        elif key == BACK:
            self.resume()
        elif key == SELECT:
            item = self.item
            if item == 0:
                self.resume()
            elif item == 1:
                count = self.undo_count()
                if not count:
                    app.cues.append(CUE_ILLEGAL)
                    return
                for _ in range(count):
                    self.play.game.undo()
                app.cues.append(CUE_UNDO)
                self.resume(False)
                app.save()
            elif item == 2:
                app.restart_round()
            else:
                app.quit()

    def resume(self, keep_clock=True):
        play = self.play
        self.app.show(play)
        play.sync()
        # The same turn goes on with the time it had left: a pause does not restart it.
        play.keep_clock = keep_clock
        play.begin_turn()

    def draw(self, frame):
        screens.draw_pause(frame, self.app.shades, self.item, self.undo_count() > 0)


class RoundEndScreen(Screen):
    """The round's final board, then its scores poured into bars; the winners blink."""

    name = "round_end"
    shows_game = True

    def __init__(self, app):
        self.app = app
        self.game = None
        self.scores = ()
        self.winners = ()
        self.pour_done = False

    def pour_ms(self):
        """When the bars are full (ms after the screen was shown)."""
        return screens.pour_ms(self.scores)

    def enter(self):
        game = self.game = self.app.play.game
        self.scores = game.scores()
        self.winners = game.winners()
        self.pour_done = False

    def advance(self, dt):
        if not self.pour_done:
            if self.t >= self.pour_ms():
                self.pour_done = True
                self.t = self.pour_ms()
                if self.winners:
                    self.app.cues.append(CUE_WIN)
            elif self.t >= FINAL_MS:  # a tick every four balls poured
                poured = self.t - FINAL_MS
                if poured // (POUR_MS * 4) != (poured - dt) // (POUR_MS * 4):
                    self.app.cues.append(CUE_TICK)

    def press(self, key):
        app = self.app
        if key == SELECT:
            if not self.pour_done:
                self.t = self.pour_ms()
                self.advance(0)
            elif app.match.rounds > 1:
                app.show(app.table)
                app.cues.append(CUE_TICK)
            else:
                app.again()
        elif key == BACK:
            if self.pour_done:
                app.quit()

    def draw(self, frame):
        screens.draw_bars(frame, self.app.shades, self.game, self.scores, self.winners, self.t)


class TableScreen(Screen):
    """Rounds won per seat; SELECT plays the next round (or shows the match end)."""

    name = "table"
    shows_game = True

    def press(self, key):
        if key == SELECT:
            self.app.next_round()
        elif key == BACK:
            self.app.quit()

    def draw(self, frame):
        app = self.app
        screens.draw_table(frame, app.shades, app.match, app.round_end.winners, self.t)


class MatchEndScreen(Screen):
    """Rings in the match winners' colours; SELECT plays again, BACK quits."""

    name = "match_end"
    shows_game = True

    def __init__(self, app):
        self.app = app
        self.colours = []

    def enter(self):
        match = self.app.match
        colours = []
        for seat in match.winners():
            colours.append(match.seat_colours[seat][0])
        self.colours = colours

    def press(self, key):
        if key == SELECT:
            self.app.again()
        elif key == BACK:
            self.app.quit()

    def draw(self, frame):
        screens.draw_match_end(frame, self.app.shades, self.colours, self.t)
