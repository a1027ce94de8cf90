"""The screens that show something and wait: the title, the error pattern and the self-test.
Each is a :class:`rolit_core.screen.Screen` of the app's session."""

from . import screens
from .events import BACK, CUE_TICK, SELECT
from .screen import Screen

TITLE_MS = 2400
ERROR_MS = 3000
SELFTEST_EXIT_MS = 1500  # BACK held this long leaves the self-test


class TitleScreen(Screen):
    """The start balls and rings; any key (or ``TITLE_MS``) goes to the menu."""

    name = "title"

    def advance(self, dt):
        if self.t >= TITLE_MS:
            self.app.show(self.app.menu_screen)
        else:
            step = self.t // 200
            if step != (self.t - dt) // 200 and 2 <= step <= 5:
                self.app.cues.append(CUE_TICK)

    def press(self, key):
        self.app.show(self.app.menu_screen)

    def draw(self, frame):
        screens.draw_title(frame, self.app.shades, self.t)


class ErrorScreen(Screen):
    """Saved data was refused: a blinking cross for ``ERROR_MS`` (or until a key), then on."""

    name = "error"

    def advance(self, dt):
        if self.t >= ERROR_MS:
            self.app.show(self.app.title)

    def press(self, key):
        self.app.show(self.app.menu_screen)

    def draw(self, frame):
        screens.draw_error(frame, self.app.shades, self.t)


class SelfTestScreen(Screen):
    """The matrix sweep and colours, then each key held lights its region; BACK held for
    ``SELFTEST_EXIT_MS`` leaves."""

    name = "selftest"

    def advance(self, dt):
        app = self.app
        if app.keys_down[BACK] and app.held_ms[BACK] >= SELFTEST_EXIT_MS:
            app.keys_down[BACK] = False  # its release is not a key press in the menu
            app.show(app.menu_screen)

    def press(self, key):
        if self.t < screens.SELFTEST_KEYS_AT:
            if key == SELECT:
                self.t = screens.SELFTEST_KEYS_AT
        else:
            self.app.cues.append(CUE_TICK)  # the buzzer answers every key

    def draw(self, frame):
        screens.draw_selftest(frame, self.t, self.app.keys_down)
