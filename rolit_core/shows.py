"""The screens that show something and wait: the title, the error pattern and the self-test.
Each is a :class:`rolit_core.screen.Screen` of the app's session.

Each is seen seldom and briefly, so the app loads this module for one showing
(``App.show_once``) and its code is freed once another screen is shown.
"""

from . import font
from .events import BACK, CUE_TICK, SELECT
from .screen import ERROR_MS, SELFTEST_EXIT_MS, TITLE_MS, Screen

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

SELFTEST_SWEEP_MS = 30   # per pixel of the walk through the matrix
SELFTEST_COLOUR_MS = 600  # per full-matrix colour
SELFTEST_LEVEL = 48      # the self-test's fixed low level (the brightness setting is ignored)
SELFTEST_KEYS_AT = 64 * SELFTEST_SWEEP_MS + 4 * SELFTEST_COLOUR_MS  # then the key test
_ST_COLOURS = ((SELFTEST_LEVEL, 0, 0), (0, SELFTEST_LEVEL, 0), (0, 0, SELFTEST_LEVEL),
               (SELFTEST_LEVEL, SELFTEST_LEVEL, SELFTEST_LEVEL))
_ST_OUTLINE = (4, 4, 4)
# Self-test regions per key (UP, DOWN, LEFT, RIGHT, SELECT, BACK): (x0, y0, x1, y1), end
# exclusive
_ST_REGIONS = (
    ((2, 0, 6, 2),),                                            # UP: top middle
    ((2, 6, 6, 8),),                                            # DOWN: bottom middle
    ((0, 2, 2, 6),),                                            # LEFT: left middle
    ((6, 2, 8, 6),),                                            # RIGHT: right middle
    ((3, 3, 5, 5),),                                            # SELECT: centre
    ((0, 0, 2, 2), (6, 0, 8, 2), (0, 6, 2, 8), (6, 6, 8, 8)),   # BACK: corners
)
_ST_KEY_COLOURS = ((48, 0, 0), (0, 48, 0), (0, 0, 48), (48, 36, 0), (48, 48, 48), (36, 0, 48))


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
        if self.t < SELFTEST_KEYS_AT:
            if key == SELECT:
                self.t = SELFTEST_KEYS_AT
        else:
            self.app.cues.append(CUE_TICK)  # the buzzer answers every key

    def draw(self, frame):
        draw_selftest(frame, self.t, self.app.keys_down)


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


def draw_selftest(frame, t, down):
    """A white pixel walks the matrix in frame order, then the whole matrix shows red, green,
    blue and white; then each key held (``down[key]``) lights its own region."""
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
        colour = _ST_KEY_COLOURS[key] if down[key] else _ST_OUTLINE
        for x0, y0, x1, y1 in _ST_REGIONS[key]:
            for y in range(y0, y1):
                for x in range(x0, x1):
                    frame[y * 8 + x] = colour


def draw_error(frame, shades, t):
    """A blinking red cross: saved data was refused."""
    if t % 500 < 300:
        font.draw_picture(frame, ERROR, 0, shades)
