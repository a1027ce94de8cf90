"""The simulator window (pygame-ce): the handheld's 8x8 panel, round glowing LEDs on a dark board.

The matrix area shows exactly the LEDs of the simulated panel (``sim.device.Device``); scores, the
move list and a short key help sit beside it. Key down and up become ``(key, True/False)`` events
as the device's buttons do (so holding works the same: the App repeats held directions and opens
the pause menu on a held BACK), a mouse click moves the cursor to the cell and selects, and a game
controller works when connected.

:class:`Renderer` draws on any surface (also without a display, for ``--screenshot``);
:class:`Window` owns the OS window and the input.
"""

import os
import sys
import tempfile
import time

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from rolit_core.app import BACK, DOWN, LEFT, RIGHT, SELECT, UP  # noqa: E402
from rolit_core.palette import NORMAL  # noqa: E402

from . import howto as howto_pages  # noqa: E402
from .clicks import Clicks  # noqa: E402
from .device import HEIGHT, WIDTH, describe  # noqa: E402
from .userfiles import write_new  # noqa: E402

_describe = describe  # Window's own ``describe`` argument hides the name

BACKGROUND = (16, 17, 21)
CASE = (40, 42, 50)
CASE_EDGE = (62, 65, 76)
PANEL = (5, 6, 8)
GRID = (20, 21, 26)
UNLIT = (24, 24, 28)  # an LED that is off, under room light; a lit LED adds its light to it
LABEL = (130, 134, 148)
TEXT = (205, 208, 218)
DIM_TEXT = (125, 129, 142)
NOTICE = (255, 170, 60)    # why a move was refused, a failed save
# The seats' dots beside their names: the LEDs' own colours (blue a little lighter, to read on
# the dark side panel).
SEAT_RGB = {1: NORMAL[1], 2: NORMAL[2], 3: NORMAL[3], 4: (40, 100, 255)}
SUPERSAMPLE = 4  # text is drawn this much larger and scaled down: even letter spacing
INVISIBLE_DRIVERS = ("offscreen", "dummy")  # SDL video drivers that show nothing

# Physical keys -> game keys: arrows/WASD (and the keypad), Enter/Space, Esc/Backspace.
KEYMAP = {
    pygame.K_UP: UP, pygame.K_w: UP, pygame.K_KP8: UP,
    pygame.K_DOWN: DOWN, pygame.K_s: DOWN, pygame.K_KP2: DOWN,
    pygame.K_LEFT: LEFT, pygame.K_a: LEFT, pygame.K_KP4: LEFT,
    pygame.K_RIGHT: RIGHT, pygame.K_d: RIGHT, pygame.K_KP6: RIGHT,
    pygame.K_RETURN: SELECT, pygame.K_SPACE: SELECT, pygame.K_KP_ENTER: SELECT,
    pygame.K_ESCAPE: BACK, pygame.K_BACKSPACE: BACK,
}
HELP = (
    ("Arrows / WASD", "move"),
    ("Enter / Space", "select (hold: preview)"),
    ("Esc / Backspace", "back (hold: pause)"),
    ("Mouse", "click a cell to play it"),
    ("L  F11  Ctrl+Q", "labels, full screen, quit"),
    ("Rules", "docs/rules.md"),
)
COLUMNS = "abcdefgh"
NOTICE_MS = 3000  # how long a click's notice stays
HOWTO_FILE = "howto-seen"  # beside the save: the first game's how-to was shown
HOWTO_WORDS = b"Rolit Handheld: the how-to-play was shown; delete this file to see it again.\n"
HOWTO_NEXT = (pygame.K_RETURN, pygame.K_SPACE, pygame.K_KP_ENTER, pygame.K_RIGHT, pygame.K_d)
HOWTO_BACK = (pygame.K_LEFT, pygame.K_a)
HOWTO_SKIP = (pygame.K_ESCAPE, pygame.K_BACKSPACE)


class Keys:
    """Game-key state from several physical sources (two keys, a mouse, a pad for one game key).

    ``press(source, key)`` and ``release(source)`` add ``(key, True/False)`` to ``events`` only
    when the game key really goes down or up. Holding needs nothing more: the App repeats held
    directions and opens the pause menu on a held BACK itself, as on the device.
    """

    def __init__(self):
        self.sources = {}  # source -> game key
        self.events = []

    def held(self, key):
        return key in self.sources.values()

    def press(self, source, key):
        if source in self.sources:
            return
        if not self.held(key):
            self.events.append((key, True))
        self.sources[source] = key

    def release(self, source):
        key = self.sources.pop(source, None)
        if key is not None and not self.held(key):
            self.events.append((key, False))

    def release_all(self):
        for source in list(self.sources):
            self.release(source)

    def take(self):
        """The events since the last call."""
        events = self.events
        self.events = []
        return events


class Pointer:
    """A left click on the panel. In play, on a cell of the board: the cursor moves there and
    SELECT goes down; SELECT comes up when the button does, so a long click previews like a held
    SELECT. Elsewhere
    (menus, round end) a click is SELECT. A click while a move is still shown is kept and played
    when the App takes input again, or refused in words (``sim.clicks``: ``clicks.notice``).
    """

    SOURCE = "mouse"

    def __init__(self, keys):
        self.keys = keys
        self.clicks = Clicks()

    def click(self, app, led):
        if self.clicks.click(app, led) in ("play", "select"):
            self.keys.press(self.SOURCE, SELECT)

    def due(self, app):
        """The events of a kept click that can be played now (``Clicks.due``)."""
        return self.clicks.due(app)

    def unclick(self):
        self.keys.release(self.SOURCE)


class Renderer:
    """Draws the panel (and the side information) onto a surface of any size."""

    def __init__(self, labels=True):
        self.labels = labels
        self.size = None
        self._glows = {}
        self._fonts = {}
        self._static = None
        self._static_labels = None
        self._side_key = None
        self._side_surface = None
        self._mini = None  # the how-to's small panels

    # -- geometry --------------------------------------------------------------------------

    def layout(self, size):
        if size == self.size:
            return
        self.size = size
        width, height = size
        margin = max(4, min(width, height) // 30)
        wide = width >= height * 1.3
        tall = height >= width * 1.45
        if wide:
            board = min(height - 2 * margin, int((width - 3 * margin) * 0.64))
        elif tall:
            board = min(width - 2 * margin, int((height - 3 * margin) * 0.66))
        else:
            board = min(width, height) - 2 * margin
        board = max(board, 16)
        bx = margin if wide else (width - board) // 2
        by = (height - board) // 2 if wide else margin
        self.board = pygame.Rect(bx, by, board, board)
        self.border = max(3, board * 7 // 100)
        inner = board - 2 * self.border
        self.cell = inner / WIDTH
        self.inner = pygame.Rect(bx + self.border, by + self.border, inner, inner)
        self.radius = max(1, int(self.cell * 0.34))
        self.glow_radius = max(2, int(self.cell * 0.95))
        if wide:
            left = bx + board + margin
            self.side = pygame.Rect(left, margin, width - left - margin, height - 2 * margin)
        elif tall:
            top = by + board + margin
            self.side = pygame.Rect(margin, top, width - 2 * margin, height - top - margin)
        else:
            self.side = None
        self._glows = {}
        self._glow = _glow_sprite(self.glow_radius)
        self._fonts = {}
        self._static = None
        self._side_key = None

    def centre(self, x, y):
        """The pixel at the centre of LED (x, y)."""
        inner = self.inner
        return (inner.x + int((x + 0.5) * self.cell), inner.y + int((y + 0.5) * self.cell))

    def led_at(self, point):
        """The (x, y) of the LED cell under ``point`` (surface pixels), or None."""
        if self.size is None or not self.inner.collidepoint(point):
            return None
        x = int((point[0] - self.inner.x) / self.cell)
        y = int((point[1] - self.inner.y) / self.cell)
        if 0 <= x < WIDTH and 0 <= y < HEIGHT:
            return x, y
        return None

    def font(self, pixels):
        """The font for text ``pixels`` high, loaded at ``SUPERSAMPLE`` times that size."""
        pixels = max(8, int(pixels))
        font = self._fonts.get(pixels)
        if font is None:
            font = pygame.font.Font(None, pixels * SUPERSAMPLE)
            self._fonts[pixels] = font
        return font

    def text(self, pixels, words, colour):
        """``words`` rendered ``pixels`` high. Drawn large and scaled down smoothly, because the
        font rendered at small sizes snaps each letter to whole pixels ("Rol it", "st art")."""
        big = self.font(pixels).render(words, True, colour)
        width, height = big.get_size()
        return pygame.transform.smoothscale(
            big, (max(1, round(width / SUPERSAMPLE)), max(1, round(height / SUPERSAMPLE))))

    def line_height(self, pixels):
        return round(self.font(pixels).get_linesize() / SUPERSAMPLE)

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, surface, colours, info=None):
        """Draw the LEDs (``colours``: 64 screen colours, row by row) and ``info`` beside them."""
        self.layout(surface.get_size())
        labels = info.get("size") if self.labels and info is not None else None
        if self._static is None or self._static_labels != labels:
            self._static = self._draw_static(labels)
            self._static_labels = labels
        surface.blit(self._static, (0, 0))
        glow_at = self.glow_radius
        lit = []
        for index in range(WIDTH * HEIGHT):
            colour = colours[index]
            if colour[0] or colour[1] or colour[2]:
                lit.append(index)
                cx, cy = self.centre(index % WIDTH, index // WIDTH)
                surface.blit(self._tinted(colour), (cx - glow_at, cy - glow_at),
                             special_flags=pygame.BLEND_RGB_ADD)
        # The glows spill onto neighbouring LEDs: draw every core on top, so each LED's centre
        # shows exactly its own light (an unlit core is already in the static picture, but a
        # neighbour's glow may lie over it).
        radius = self.radius
        for index in range(WIDTH * HEIGHT):
            r, g, b = colours[index]
            core = (min(255, UNLIT[0] + r), min(255, UNLIT[1] + g), min(255, UNLIT[2] + b))
            if lit and (r or g or b or self._near(index, lit)):
                pygame.draw.aacircle(surface, core, self.centre(index % WIDTH, index // WIDTH),
                                     radius)
        if self.side is not None and info is not None:
            key = repr(info)
            if key != self._side_key:
                self._side_surface = self._draw_side_surface(info)
                self._side_key = key
            surface.blit(self._side_surface, self.side)

    def draw_howto(self, surface, page, at, count):
        """A page of the how-to (``sim.howto``): its title, the pictures before and after the
        move as small panels, the words, and the keys."""
        width, height = surface.get_size()
        surface.fill(BACKGROUND)
        unit = max(10, min(width // 40, height // 26))
        margin = unit * 2
        y = margin
        title = self.text(unit * 1.6, "%s   (%d of %d)" % (page["title"], at + 1, count), TEXT)
        surface.blit(title, (margin, y))
        y += title.get_height() + unit
        pictures = [page["before"]] + ([page["after"]] if page["after"] is not None else [])
        side = min((width - 2 * margin - 3 * unit) // 2, height * 45 // 100)
        x = (width - len(pictures) * side - (len(pictures) - 1) * 3 * unit) // 2
        if self._mini is None:
            self._mini = [Renderer(), Renderer()]
        for i, colours in enumerate(pictures):
            area = pygame.Rect(x, y, side, side)
            self._mini[i].draw(surface.subsurface(area), colours, {"size": 8})
            if i:
                arrow = self.text(unit * 2, "->", DIM_TEXT)
                surface.blit(arrow, arrow.get_rect(center=(x - unit * 3 // 2, y + side // 2)))
            x += side + 3 * unit
        y += side + unit
        lines = self._wrap(unit * 1.15, page["text"], width - 2 * margin)
        closing = page.get("closing")
        for line in lines + (self._wrap(unit * 1.15, closing, width - 2 * margin) if closing
                             else []):
            text = self.text(unit * 1.15, line, TEXT)
            surface.blit(text, (margin, y))
            y += text.get_height() + unit // 4
        last = at == count - 1
        keys = ("Enter: play with hints   Esc: play without   Left: back" if last else
                "Enter or Right: next   Left: back   Esc: skip (shown once)")
        text = self.text(unit, keys, DIM_TEXT)
        surface.blit(text, (margin, height - margin // 2 - text.get_height()))

    @staticmethod
    def _near(index, lit):
        x, y = index % WIDTH, index // WIDTH
        for other in lit:
            if abs(other % WIDTH - x) <= 1 and abs(other // WIDTH - y) <= 1:
                return True
        return False

    def _draw_static(self, labels):
        """Background, case, panel, grid, unlit LEDs and labels: drawn once per size."""
        surface = pygame.Surface(self.size)
        surface.fill(BACKGROUND)
        board = self.board
        corner = self.border
        pygame.draw.rect(surface, CASE, board, border_radius=corner)
        pygame.draw.rect(surface, CASE_EDGE, board, width=max(1, corner // 6),
                         border_radius=corner)
        pygame.draw.rect(surface, PANEL, self.inner)
        cell = self.cell
        line = max(1, int(cell * 0.03))
        for i in range(1, WIDTH):
            x = self.inner.x + int(i * cell)
            pygame.draw.line(surface, GRID, (x, self.inner.top), (x, self.inner.bottom - 1), line)
            y = self.inner.y + int(i * cell)
            pygame.draw.line(surface, GRID, (self.inner.left, y), (self.inner.right - 1, y), line)
        for index in range(WIDTH * HEIGHT):
            pygame.draw.aacircle(surface, UNLIT, self.centre(index % WIDTH, index // WIDTH),
                                 self.radius)
        if labels:
            self._draw_labels(surface, labels)
        return surface

    def _draw_side_surface(self, info):
        side = pygame.Surface(self.side.size)
        side.fill(BACKGROUND)
        self._draw_side(side, info, pygame.Rect((0, 0), self.side.size))
        return side

    def _tinted(self, colour):
        glow = self._glows.get(colour)
        if glow is None:
            if len(self._glows) > 600:
                self._glows = {}
            glow = self._glow.copy()
            glow.fill(colour, special_flags=pygame.BLEND_RGB_MULT)
            self._glows[colour] = glow
        return glow

    def _draw_labels(self, surface, size):
        """a-h over the columns and 1-8 beside the rows of the board in play (a small board sits
        centred on the panel, so its labels do too)."""
        pixels = self.border * 0.75
        offset = (WIDTH - size) // 2
        half = self.border // 2
        for i in range(size):
            cx, cy = self.centre(offset + i, offset + i)
            text = self.text(pixels, COLUMNS[i], LABEL)
            surface.blit(text, text.get_rect(center=(cx, self.board.top + half)))
            surface.blit(text, text.get_rect(center=(cx, self.board.bottom - half)))
            text = self.text(pixels, str(i + 1), LABEL)
            surface.blit(text, text.get_rect(center=(self.board.left + half, cy)))
            surface.blit(text, text.get_rect(center=(self.board.right - half, cy)))

    def _wrap(self, pixels, words, width):
        """``words`` split into lines that fit ``width`` pixels."""
        lines = []
        line = ""
        for word in words.split(" "):
            trial = word if not line else line + " " + word
            if line and self.font(pixels).size(trial)[0] / SUPERSAMPLE > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
        return lines

    def _draw_side(self, surface, info, side):
        unit = max(9, min(side.width // 18, self.board.height // 24))
        big, normal, small = unit * 1.6, unit * 1.15, unit
        gap = max(2, unit // 4)
        y = side.top
        title = self.text(big, info.get("title", "Rolit"), TEXT)
        surface.blit(title, (side.left, y))
        y += title.get_height() + unit // 2
        for status in info.get("status", ()):
            # Long lines (an emulated chip's console) wrap rather than run off the window.
            for line in self._wrap(normal, status, side.width):
                text = self.text(normal, line, DIM_TEXT)
                surface.blit(text, (side.left, y))
                y += text.get_height() + gap
        notice = info.get("notice")
        if notice:
            for line in self._wrap(normal, notice, side.width):
                text = self.text(normal, line, NOTICE)
                surface.blit(text, (side.left, y))
                y += text.get_height() + gap
        menu = info.get("menu")
        if menu:
            items, chosen = menu
            y += gap
            texts = [self.text(normal, item, TEXT if i == chosen else DIM_TEXT)
                     for i, item in enumerate(items)]
            width = min(side.width, unit * 5 // 2 + max([t.get_width() for t in texts]))
            height = self.line_height(normal)
            for i, text in enumerate(texts):
                if i == chosen:
                    row = pygame.Rect(side.left, y - 2, width, height + 4)
                    pygame.draw.rect(surface, CASE, row, border_radius=max(2, unit // 3))
                    self._marker(surface, side.left + unit // 3, y + height // 2, unit, TEXT)
                surface.blit(text, (side.left + unit * 3 // 2, y))
                y += height + gap
        y += gap
        y = self._draw_seats(surface, info, side, y, unit, normal)
        prompt = info.get("prompt")
        if prompt:
            y += gap
            for line in self._wrap(normal, prompt, side.width):
                text = self.text(normal, line, TEXT)
                surface.blit(text, (side.left, y))
                y += text.get_height() + gap
        line = self.line_height(small) + 2
        help_top = side.bottom - len(HELP) * line
        moves = info.get("moves", ())
        if moves:
            y += unit // 2
            rows = max(0, (help_top - unit - y) // line)
            per_row = 3 if side.width > unit * 20 else 2
            shown = moves[-rows * per_row:] if rows else []
            first = len(moves) - len(shown)
            column = side.width // per_row
            for i in range(0, len(shown), per_row):
                for j in range(per_row):
                    if i + j < len(shown):
                        text = self.text(small, "%d. %s" % (first + i + j + 1, shown[i + j]),
                                         DIM_TEXT)
                        surface.blit(text, (side.left + j * column, y))
                y += line
        if help_top > y:
            y = help_top
            for keys, meaning in HELP:
                surface.blit(self.text(small, keys, TEXT), (side.left, y))
                surface.blit(self.text(small, meaning, DIM_TEXT),
                             (side.left + min(side.width // 2, unit * 9), y))
                y += line

    def _draw_seats(self, surface, info, side, y, unit, pixels):
        """One row per seat: its colours, name and points. The side to move sits on a band of
        its own colour with a marker before it and "to move" (or "thinking") after it."""
        height = self.line_height(pixels)
        dot = max(3, unit // 2)
        for colours, label, points, to_move in info.get("seats", ()):
            rgb = SEAT_RGB[colours[0]]
            x = side.left + unit * 3 // 2
            text = self.text(pixels, "%s  %d" % (label, points), TEXT if to_move else DIM_TEXT)
            at = x + len(colours) * (2 * dot + 3) + unit // 3
            if to_move:
                tag = self.text(pixels, "thinking" if info.get("thinking") else "to move", TEXT)
                right = min(side.right, at + text.get_width() + unit + tag.get_width() + unit)
                band = pygame.Rect(side.left, y - 3, right - side.left, height + 6)
                tint = tuple([BACKGROUND[c] + (rgb[c] - BACKGROUND[c]) * 22 // 100
                              for c in range(3)])
                pygame.draw.rect(surface, tint, band, border_radius=max(2, unit // 3))
                pygame.draw.rect(surface, rgb, band, width=max(1, unit // 8),
                                 border_radius=max(2, unit // 3))
                self._marker(surface, side.left + unit // 3, y + height // 2, unit, TEXT)
                surface.blit(tag, (at + text.get_width() + unit, y))
            for colour in colours:
                pygame.draw.aacircle(surface, SEAT_RGB[colour], (x + dot, y + height // 2), dot)
                x += 2 * dot + 3
            surface.blit(text, (at, y))
            y += height + unit // 2
        return y

    @staticmethod
    def _marker(surface, x, y, unit, colour):
        """A small triangle pointing right, centred on height ``y``."""
        half = max(3, unit * 2 // 5)
        pygame.draw.polygon(surface, colour, ((x, y - half), (x + half, y), (x, y + half)))


def _glow_sprite(radius):
    """A grey radial glow, brightest in the middle, to tint and add under a lit LED."""
    size = 2 * radius + 1
    sprite = pygame.Surface((size, size))
    sprite.fill((0, 0, 0))
    for r in range(radius, 0, -1):
        fall = 1 - r / radius
        level = int(150 * fall * fall)
        pygame.draw.circle(sprite, (level, level, level), (radius, radius), r)
    return sprite


class WindowUnavailable(Exception):
    """No window can be shown; the message says why, in one line."""


def open_display(environ=None):
    """Start SDL's video and return the name of its driver. Raises ``WindowUnavailable`` when
    the window would not really show: SDL failed, or, when the display named by ``DISPLAY`` /
    ``WAYLAND_DISPLAY`` cannot be reached (a stale one over SSH or in tmux), it quietly picked
    an invisible driver ("offscreen"). A driver asked for in ``SDL_VIDEODRIVER`` is accepted
    as it is (tests use "dummy")."""
    environ = os.environ if environ is None else environ
    if os.name == "nt":
        os.environ.setdefault("SDL_WINDOWS_DPI_AWARENESS", "permonitorv2")
    if not pygame.display.get_init():
        try:
            with _quiet_stderr():  # SDL's own complaints while it tries each driver
                pygame.display.init()
        except pygame.error as error:
            raise WindowUnavailable("SDL has no video: %s" % error)
    driver = pygame.display.get_driver()
    asked = [name.strip() for name in environ.get("SDL_VIDEODRIVER", "").split(",")]
    if driver in INVISIBLE_DRIVERS and driver not in asked:
        pygame.display.quit()
        names = ["%s=%s" % (key, environ[key]) for key in ("DISPLAY", "WAYLAND_DISPLAY")
                 if environ.get(key)]
        raise WindowUnavailable("%s cannot be reached; SDL chose %r, which shows nothing"
                                % (" or ".join(names) or "the display", driver))
    return driver


class _quiet_stderr:
    """Send file descriptor 2 to a scratch file for a while (C libraries write there)."""

    def __enter__(self):
        self.saved = None
        try:
            sys.stderr.flush()
            self.scratch = tempfile.TemporaryFile()
            self.saved = os.dup(2)
            os.dup2(self.scratch.fileno(), 2)
        except (OSError, ValueError, AttributeError):
            self.saved = None
        return self

    def __exit__(self, *exc):
        if self.saved is not None:
            os.dup2(self.saved, 2)
            os.close(self.saved)
            self.scratch.close()
        return False


class Window:
    """The OS window: ``step(now_ms)`` runs one frame, ``run()`` until it is closed.

    ``describe(app)`` gives the side panel's information (default: ``sim.device.describe``).
    ``howto``: a file (beside the save) that says the first game's how-to was shown; while it
    does not exist the window opens on the how-to, and creates it once the how-to is closed.
    Raises ``WindowUnavailable`` when no real window can open (see ``open_display``).
    """

    def __init__(self, device, size=None, labels=True, fullscreen=False, seat_names=None,
                 fps=60, title="Rolit Handheld", describe=None, howto=None):
        open_display()
        pygame.font.init()
        self.device = device
        self.renderer = Renderer(labels)
        self.seat_names = seat_names
        self.describe = describe or (lambda app: _describe(app, self.seat_names))
        self.fps = fps
        if size is None:
            size = _default_size()
        self.window = pygame.Window(title, size, resizable=True, allow_high_dpi=True)
        self.window.minimum_size = (160, 120)
        self.fullscreen = False
        if fullscreen:
            self.toggle_fullscreen()
        self.keys = Keys()
        self.pointer = Pointer(self.keys)
        self.pads = {}
        try:
            pygame.joystick.init()
        except pygame.error:
            pass
        self.running = True
        self.dirty = True
        self.frames = 0  # pictures drawn
        self.notice = None  # a click's notice on show
        self._notice_until = 0
        self.howto_path = howto
        self.howto = None  # the how-to page on show, or None
        if howto is not None and not os.path.lexists(howto):
            self.howto = 0
            self._howto_pages = howto_pages.pages()
        self._pad_state = {}

    @property
    def surface(self):
        return self.window.get_surface()

    def _scale(self, pos):
        """Window coordinates (points) -> surface pixels (HiDPI)."""
        sw, sh = self.surface.get_size()
        ww, wh = self.window.size
        return (pos[0] * sw // max(1, ww), pos[1] * sh // max(1, wh))

    def handle(self, event, now_ms):
        """Turn one pygame event into key state changes (or window actions)."""
        kind = event.type
        keys = self.keys
        if kind == pygame.QUIT or kind == pygame.WINDOWCLOSE:
            self.running = False
        elif kind == pygame.KEYDOWN:
            if event.key == pygame.K_q and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
                self.running = False
            elif event.key == pygame.K_F11:
                self.toggle_fullscreen()
            elif self.howto is not None:
                self._howto_key(event.key, now_ms)
            elif event.key == pygame.K_l:
                self.renderer.labels = not self.renderer.labels
                self.dirty = True
            elif event.key in KEYMAP:
                keys.press(("key", event.key), KEYMAP[event.key])
        elif kind == pygame.KEYUP:
            keys.release(("key", event.key))
        elif kind == pygame.MOUSEBUTTONDOWN and self.howto is not None:
            if event.button == 1:
                self._howto_key(pygame.K_RETURN, now_ms)
        elif kind == pygame.MOUSEBUTTONDOWN:
            if event.button == 1:
                self._click(self._scale(event.pos))
            elif event.button == 3:
                keys.press("mouse-back", BACK)
        elif kind == pygame.MOUSEBUTTONUP:
            if event.button == 1:
                self.pointer.unclick()
            elif event.button == 3:
                keys.release("mouse-back")
        elif kind in (pygame.WINDOWFOCUSLOST, pygame.WINDOWMINIMIZED):
            keys.release_all()  # a key let go outside the window must not stay held
        elif kind in (pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED, pygame.WINDOWEXPOSED,
                      pygame.WINDOWRESTORED, pygame.WINDOWSHOWN, pygame.VIDEOEXPOSE):
            self.dirty = True
        elif kind == pygame.JOYDEVICEADDED:
            try:
                pad = pygame.joystick.Joystick(event.device_index)
                self.pads[pad.get_instance_id()] = pad
            except pygame.error:
                pass
        elif kind == pygame.JOYDEVICEREMOVED:
            self.pads.pop(event.instance_id, None)
            for source in list(keys.sources):
                if isinstance(source, tuple) and source[0] == "pad" and \
                        source[1] == event.instance_id:
                    keys.release(source)
        elif kind == pygame.JOYHATMOTION:
            x, y = event.value
            self._pad_directions(event.instance_id, "hat%d" % event.hat, x, -y)
        elif kind == pygame.JOYAXISMOTION and event.axis in (0, 1):
            state = self._pad_state.setdefault((event.instance_id, "axes"), [0, 0])
            value = event.value
            old = state[event.axis]
            # Hysteresis: press past 0.5, release inside 0.3.
            if value > 0.5 or (old > 0 and value > 0.3):
                state[event.axis] = 1
            elif value < -0.5 or (old < 0 and value < -0.3):
                state[event.axis] = -1
            else:
                state[event.axis] = 0
            self._pad_directions(event.instance_id, "axes", state[0], state[1])
        elif kind == pygame.JOYBUTTONDOWN:
            key = {0: SELECT, 1: BACK}.get(event.button)
            if key is not None:
                keys.press(("pad", event.instance_id, "button", event.button), key)
        elif kind == pygame.JOYBUTTONUP:
            keys.release(("pad", event.instance_id, "button", event.button))

    def _howto_key(self, key, now_ms):
        if key in HOWTO_NEXT:
            if self.howto + 1 < len(self._howto_pages):
                self.howto += 1
            else:
                self._close_howto(True, now_ms)
        elif key in HOWTO_BACK:
            self.howto = max(0, self.howto - 1)
        elif key in HOWTO_SKIP:
            self._close_howto(False, now_ms)
        self.dirty = True

    def _close_howto(self, hints, now_ms):
        """Close the how-to, remember that it was shown, and turn hints on if asked."""
        self.howto = None
        app = getattr(self.device, "app", None)
        if hints and app is not None:
            howto_pages.hints_on(app)
        failure = remember(self.howto_path)
        if failure:
            self.pointer.clicks.notice = "Could not remember that the how-to was shown (%s): " \
                "it opens again next time" % failure
        elif hints:
            self.pointer.clicks.notice = "Hints are on: the dim dots show where you may play"
        self._show_notice(now_ms)

    def _pad_directions(self, pad, part, x, y):
        for key, on in ((LEFT, x < 0), (RIGHT, x > 0), (UP, y < 0), (DOWN, y > 0)):
            source = ("pad", pad, part, key)
            if on:
                self.keys.press(source, key)
            else:
                self.keys.release(source)

    def _click(self, point):
        led = self.renderer.led_at(point)
        if led is not None:
            self.pointer.click(self.device.app, led)

    def toggle_fullscreen(self):
        if self.fullscreen:
            self.window.set_windowed()
        else:
            self.window.set_fullscreen(True)  # desktop resolution, no mode change
        self.fullscreen = not self.fullscreen
        self.dirty = True

    def step(self, now_ms):
        """Handle input, run the App for one frame and draw if anything changed."""
        for event in pygame.event.get():
            self.handle(event, now_ms)
        events = self.keys.take()
        app = getattr(self.device, "app", None)
        if self.howto is not None:
            events = []  # the game waits behind the how-to
        elif app is not None:
            events = self.pointer.due(app) + events
        self._show_notice(now_ms)
        changed = self.device.update(now_ms, events)
        if changed or self.dirty:
            self.draw()
        return self.running

    def _show_notice(self, now_ms):
        """A click's notice (``sim.clicks``) stays on the side panel for NOTICE_MS."""
        clicks = self.pointer.clicks
        if clicks.notice is not None:
            self.notice = clicks.notice
            clicks.notice = None
            self._notice_until = now_ms + NOTICE_MS
            self.dirty = True
        elif self.notice is not None and now_ms >= self._notice_until:
            self.notice = None
            self.dirty = True

    def draw(self):
        if self.howto is not None:
            self.renderer.draw_howto(self.surface, self._howto_pages[self.howto], self.howto,
                                     len(self._howto_pages))
            self.window.flip()
            self.dirty = False
            self.frames += 1
            return
        info = self.describe(self.device.app)
        if self.notice is not None and info is not None:
            info = dict(info, notice=self.notice)
        self.renderer.draw(self.surface, self.device.colours, info)
        self.window.flip()
        self.dirty = False
        self.frames += 1

    def run(self, on_frame=None, seconds=None):
        """Run until the window is closed (or for ``seconds``), one frame every 1/``fps`` s.

        Frames are due on a fixed schedule and the loop sleeps until the next one is due, so a
        slow frame (a redraw) is made up by a shorter sleep instead of lowering the rate.
        """
        period = 1.0 / self.fps
        start = time.monotonic()
        due = start
        while self.step(int((time.monotonic() - start) * 1000)):
            if on_frame is not None:
                on_frame()
            now = time.monotonic()
            if seconds is not None and now - start >= seconds:
                break
            due += period
            if due < now - 2 * period:
                due = now  # far behind (a stall, a suspended laptop): don't race to catch up
            elif due > now:
                time.sleep(due - now)

    def close(self):
        self.window.destroy()
        pygame.display.quit()


def remember(path):
    """Create ``path`` (the how-to was shown) whole or not at all, never over a file that is
    there or appears meanwhile (:func:`sim.userfiles.write_new`). Returns "" or why it failed."""
    def write(temporary):
        with open(temporary, "wb") as handle:
            handle.write(HOWTO_WORDS)

    try:
        write_new(path, write)
    except OSError as error:
        return error.strerror or str(error)
    return ""


def _default_size():
    """About two thirds of the screen height, with room for the side panel."""
    try:
        width, height = pygame.display.get_desktop_sizes()[0]
    except (pygame.error, IndexError):
        width, height = 1024, 768
    side = max(240, min(height, width) * 2 // 3)
    return (min(width - 40, side * 3 // 2), side)


def screenshot(colours, info, path, size=(960, 640)):
    """Save a PNG of the panel (and side information) without opening a window."""
    pygame.font.init()
    surface = pygame.Surface(size)
    Renderer().draw(surface, colours, info)
    pygame.image.save(surface, path)
