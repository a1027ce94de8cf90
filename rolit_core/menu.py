"""The setup menu: the settings it remembers and its pages, drawn for an 8x8 matrix.

Pages go round with UP/DOWN; LEFT/RIGHT change the value shown (SELECT changes it forward, so a
single button can set everything); SELECT on the play page starts, on the self-test page tests;
BACK returns to the play page. Each page is a picture: an icon on rows 0-2 and the value, drawn
with a 3x5 digit font or a small picture, on rows 3-7 (some pages use the whole matrix).
"""

from . import font
from .palette import BLUE, GREEN, ORANGE, RED, WHITE, YELLOW, BRIGHTNESS
from .vocab import HUMAN, KINDS, LEVELS, seating
from .vocab import TIE_RULES as TIES
from .vocab import TIME_LIMITS as TIMES

# Page kinds
P_PLAY = 0
P_PLAYERS = 1
P_SEAT = 2
P_SIZE = 3
P_TEAMS = 4
P_ROUNDS = 5
P_TIME = 6
P_TIE = 7
P_FIRST = 8
P_HINTS = 9
P_BRIGHT = 10
P_PALETTE = 11
P_SELFTEST = 12
PAGE_NAMES = ("play", "players", "seat", "size", "teams", "rounds", "time", "tie", "first",
              "hints", "brightness", "palette", "self-test")


class Settings:
    """What the menu remembers (saved with the game).

    ``players`` 1-4 (1 = solo: one person plays red and green), ``seats`` four of ``"human"``,
    ``"easy"``, ``"medium"``, ``"hard"``, ``"expert"`` (the first ``players`` are used),
    ``size`` 8/6/4, ``teams`` (two colours each, 2 players), ``rounds`` 1-7, ``time_limit``
    0/30/60 seconds per move, ``tie`` ``"shared"``/``"none"``, ``first`` ``None`` (random) or a
    colour 1-4, ``hints`` bool, ``brightness`` 1-5, ``colour_blind`` bool.
    """

    def __init__(self):
        self.players = 2
        self.seats = [HUMAN, "easy", "easy", "easy"]
        self.size = 8
        self.teams = False
        self.rounds = 1
        self.time_limit = 0
        self.tie = "shared"
        self.first = None
        self.hints = False
        self.brightness = 3
        self.colour_blind = False

    def seat_colours(self):
        """The colours each seat plays with these settings."""
        return seating(self.players, self.teams and self.players == 2)

    def in_play(self):
        """The colours in play, ascending."""
        colours = []
        for seat in self.seat_colours():
            colours.extend(seat)
        colours.sort()
        return colours

    def fix(self):
        """Bring combinations the rules forbid back into range."""
        if self.players > 2 and self.size == 4:
            self.size = 6
        if self.players != 2:
            self.teams = False
        if self.first is not None and self.first not in self.in_play():
            self.first = None

    def to_bytes(self):
        kinds = bytearray(4)
        for seat in range(4):
            kinds[seat] = KINDS.index(self.seats[seat])
        data = bytearray((self.players,))
        data.extend(kinds)
        data.extend((self.size, 1 if self.teams else 0, self.rounds,
                     TIMES.index(self.time_limit), TIES.index(self.tie), self.first or 0,
                     1 if self.hints else 0, self.brightness, 1 if self.colour_blind else 0))
        return bytes(data)

    def from_bytes(self, data):
        """Set from ``to_bytes`` output; raises ``ValueError`` (changing nothing) if invalid."""
        from .load import settings_from_bytes  # read only when a save is loaded

        settings_from_bytes(self, data)


def pages(settings):
    """The menu's pages for these settings, as ints ``kind << 3 | seat``."""
    result = [P_PLAY << 3, P_PLAYERS << 3]
    if settings.players > 1:
        for seat in range(settings.players):
            result.append(P_SEAT << 3 | seat)
    result.append(P_SIZE << 3)
    if settings.players == 2:
        result.append(P_TEAMS << 3)
    for kind in (P_ROUNDS, P_TIME, P_TIE, P_FIRST, P_HINTS, P_BRIGHT, P_PALETTE, P_SELFTEST):
        result.append(kind << 3)
    return result


def _step(values, value, delta):
    i = 0
    for j in range(len(values)):
        if values[j] == value:
            i = j
    return values[(i + delta) % len(values)]


def change(settings, page, delta, levels):
    """Change the setting shown on ``page`` by one step (``delta`` +1 or -1). ``levels`` are the
    computer levels offered. Returns True if something changed."""
    kind = page >> 3
    if kind == P_PLAYERS:
        settings.players = (settings.players - 1 + delta) % 4 + 1
    elif kind == P_SEAT:
        seat = page & 7
        choices = ["human"]
        choices.extend(levels)
        settings.seats[seat] = _step(choices, settings.seats[seat], delta)
    elif kind == P_SIZE:
        sizes = (8, 6, 4) if settings.players <= 2 else (8, 6)
        settings.size = _step(sizes, settings.size, delta)
    elif kind == P_TEAMS:
        settings.teams = not settings.teams
    elif kind == P_ROUNDS:
        settings.rounds = (settings.rounds - 1 + delta) % 7 + 1
    elif kind == P_TIME:
        settings.time_limit = _step(TIMES, settings.time_limit, delta)
    elif kind == P_TIE:
        settings.tie = _step(TIES, settings.tie, delta)
    elif kind == P_FIRST:
        choices = [None]
        choices.extend(settings.in_play())
        settings.first = _step(choices, settings.first, delta)
    elif kind == P_HINTS:
        settings.hints = not settings.hints
    elif kind == P_BRIGHT:
        settings.brightness = (settings.brightness - 1 + delta) % 5 + 1
    elif kind == P_PALETTE:
        settings.colour_blind = not settings.colour_blind
    else:
        return False
    settings.fix()
    return True


def _fill(frame, shades, index, level, x0, y0, x1, y1):
    colour = shades.get(index, level)
    for y in range(y0, y1):
        for x in range(x0, x1):
            frame[y * 8 + x] = colour


def draw(frame, shades, settings, page, t):
    """Draw ``page`` into ``frame`` (already cleared); ``t`` is ms since the page was shown."""
    kind = page >> 3
    white = shades.get(WHITE)
    if kind == P_PLAY:
        font.draw_picture(frame, font.PLAY, 0, shades)
        # the seats' colours down the right edge, a computer seat dimmer
        colours = settings.seat_colours()
        row = 0
        for seat in range(len(colours)):
            human = settings.players == 1 or settings.seats[seat] == "human"
            for colour in colours[seat]:
                frame[row * 8 + 7] = shades.get(colour, 255 if human else 90)
                row += 2
    elif kind == P_PLAYERS:
        colours = settings.seat_colours()
        for seat in range(len(colours)):
            for colour in colours[seat]:
                frame[(colour - 1) * 2] = shades.get(colour)
        font.draw_number(frame, settings.players, 3, white)
    elif kind == P_SEAT:
        seat = page & 7
        colours = settings.seat_colours()[seat]
        for x in range(8):
            frame[x] = shades.get(colours[x * len(colours) // 8])
            frame[8 + x] = frame[x]
        level = settings.seats[seat]
        if level == "human":
            font.draw_picture(frame, font.HUMAN, 3, shades)
        else:
            # signal-strength bars: one per level
            bars = 1 + LEVELS.index(level)
            for bar in range(bars):
                _fill(frame, shades, ORANGE, 255, 1 + bar * 2, 7 - bar - 1, 2 + bar * 2, 8)
    elif kind == P_SIZE:
        size = settings.size
        lo = (8 - size) // 2
        hi = lo + size - 1
        dim = shades.get(WHITE, 60)
        for i in range(lo, hi + 1):
            frame[lo * 8 + i] = dim
            frame[hi * 8 + i] = dim
            frame[i * 8 + lo] = dim
            frame[i * 8 + hi] = dim
        frame[27] = shades.get(RED)
        frame[28] = shades.get(YELLOW)
        frame[35] = shades.get(BLUE)
        frame[36] = shades.get(GREEN)
    elif kind == P_TEAMS:
        font.draw_picture(frame, font.ICON_TEAMS, 0, shades)
        font.draw_picture(frame, font.ON if settings.teams else font.OFF, 3, shades)
    elif kind == P_ROUNDS:
        font.draw_picture(frame, font.ICON_ROUNDS, 0, shades)
        font.draw_number(frame, settings.rounds, 3, white)
    elif kind == P_TIME:
        font.draw_picture(frame, font.ICON_TIME, 0, shades)
        if settings.time_limit:
            font.draw_number(frame, settings.time_limit, 3, white)
        else:
            font.draw_picture(frame, font.OFF, 3, shades)
    elif kind == P_TIE:
        font.draw_picture(frame, font.ICON_TIE, 0, shades)
        # two equal bars: both lit (a shared win) or both dark with only outlines (no winner)
        level = 255 if settings.tie == "shared" else 40
        _fill(frame, shades, RED, level, 1, 4, 3, 8)
        _fill(frame, shades, GREEN, level, 5, 4, 7, 8)
    elif kind == P_FIRST:
        font.draw_picture(frame, font.ICON_FIRST, 0, shades)
        if settings.first is None:
            font.draw_picture(frame, font.RANDOM, 3, shades)
        else:
            _fill(frame, shades, settings.first, 255, 3, 4, 6, 7)
    elif kind == P_HINTS:
        font.draw_picture(frame, font.ICON_HINTS, 0, shades)
        font.draw_picture(frame, font.ON if settings.hints else font.OFF, 3, shades)
    elif kind == P_BRIGHT:
        font.draw_picture(frame, font.ICON_BRIGHT, 0, shades)
        font.draw_number(frame, settings.brightness, 3, white)
    elif kind == P_PALETTE:
        for x in range(8):
            frame[x] = shades.get(1 + x // 2)
        font.draw_picture(frame, font.ON if settings.colour_blind else font.OFF, 3, shades)
    elif kind == P_SELFTEST:
        font.draw_picture(frame, font.SELF_TEST, 0, shades)


def brightness_factor(settings):
    return BRIGHTNESS[settings.brightness]
