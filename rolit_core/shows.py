"""The screens that show something and wait: the title and the error pattern. Each is a
:class:`rolit_core.screen.Screen` of the app's session.

Each is seen seldom and briefly, so the app loads this module for one showing
(``App.show_once``) and its code is freed once another screen is shown. The self-test is
:mod:`rolit_core.selftest`'s.
"""

from . import font
from .events import CUE_TICK
from .screen import ERROR_MS, TITLE_MS, Screen

# Only the screens loaded while shown use it (rolit_core.lifetime.use_once forgets it with this
# module, so that a game keeps none of it).
USED_ONCE = ("rolit_core.font",)

ERROR = ("R......R"
         ".R....R."
         "..R..R.."
         "...RR..."
         "...RR..."
         "..R..R.."
         ".R....R."
         "R......R")


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
        draw_title(frame, self.app.shades, self.t)


class ErrorScreen(Screen):
    """Saved data was refused: a blinking cross for ``ERROR_MS`` (or until a key), then on."""

    name = "error"

    def advance(self, dt):
        if self.t >= ERROR_MS:
            self.app.show_once("TitleScreen")

    def press(self, key):
        self.app.show(self.app.menu_screen)

    def draw(self, frame):
        draw_error(frame, self.app.shades, self.t)


def draw_title(frame, shades, t):
    """The four start balls appear one by one, then rings of colour ripple outward."""
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
                    d = dx if dx > 0 else -dx
                    e = dy if dy > 0 else -dy
                    if (d if d > e else e) // 2 == radius:
                        frame[y * 8 + x] = colour


def draw_error(frame, shades, t):
    """A blinking red cross: saved data was refused."""
    if t % 500 < 300:
        font.draw_picture(frame, ERROR, 0, shades)
