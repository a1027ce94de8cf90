"""The attract mode: left alone in the menu, the handheld plays itself, four easy computers on
8x8, silent, unsaved and twice as fast, round after round; any key returns to the menu.

The app loads this module when the attract mode begins (``App.begin_attract``) and lets it go
when it ends, so that its code is not kept during a game."""

from .game import Game
from .screen import Screen

ATTRACT_END_MS = 5000   # the scores stay this long before the next game
ATTRACT_SPEED = 2       # the animations run this much faster


class AttractScreen(Screen):
    """Runs the app's board screen and round end for its own games (``inner`` is the one
    shown)."""

    name = "attract"

    def __init__(self, app):
        self.app = app
        self.inner = None

    def begin(self):
        """A new game of four easy computers (the session's seats and options are theirs)."""
        app = self.app
        app.kinds = ("easy", "easy", "easy", "easy")
        app.match = None
        game = Game(4, 8, None, False, "shared", app.rng.bits())
        app.time_limit = 0
        app.hints = False
        app.make_ais()
        play = app.play
        play.host = self
        play.speed = ATTRACT_SPEED
        play.saving = False
        if app.screen is not self:
            app.show(self)
        play.begin(game, False)

    def show(self, screen):
        self.inner = screen
        self.app.let_go(screen)  # the round end's code goes while the next game is played
        screen.t = 0
        screen.enter()

    def leave(self):
        app = self.app
        app.attract = None  # with the screen, its code goes
        app.kinds = ()
        app.show(app.menu_screen)
        app.idle = 0

    def pass_time(self, dt):
        self.inner.pass_time(dt)

    def advance(self, dt):
        app = self.app
        inner = self.inner
        if inner is app.play:
            inner.tick(dt)
        else:
            inner.advance(dt)
            end = app.round_end
            if inner is end and end.pour_done and end.t >= end.pour_ms() + ATTRACT_END_MS:
                self.begin()

    def press(self, key):
        self.leave()

    def draw(self, frame):
        self.inner.draw(frame)
