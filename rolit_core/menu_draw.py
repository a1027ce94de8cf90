"""The setup menu's pages drawn for an 8x8 matrix: each page is a picture, an icon on rows 0-2
and the value, drawn with a 3x5 digit font or a small picture, on rows 3-7 (some pages use the
whole matrix).

Only the menu draws them: the menu screen loads this module while it is shown
(:class:`rolit_core.menu_screen.MenuScreen`), so that a board keeps none of it during a game.
"""

from . import font
from .menu import (P_BRIGHT, P_FIRST, P_HINTS, P_LINKED, P_PALETTE, P_PLAY, P_PLAYERS, P_ROUNDS,
                   P_SEAT, P_SELFTEST, P_SIZE, P_TEAMS, P_TIE, P_TIME, hosts)
from .palette import BLUE, GREEN, ORANGE, RED, WHITE, YELLOW
from .vocab import LEVELS, LINKED

# Only the screens loaded while shown use it (rolit_core.lifetime.use_once forgets it with this
# module, so that a game keeps none of it).
USED_ONCE = ("rolit_core.font",)

# 8x8 pictures (rolit_core.font's letters)
PLAY = ("..G....."
        "..GG...."
        "..GGG..."
        "..GGGG.."
        "..GGGG.."
        "..GGG..."
        "..GG...."
        "..G.....")
SELF_TEST = ("rrrr.ggg"
             "rrrr.ggg"
             "rrrr.ggg"
             "........"
             "bbbb.www"
             "bbbb.www"
             "bbbb.www"
             "bbbb.www")
# 8x3 page icons of the setup menu (rows 0-2)
ICON_ROUNDS = ("........"
               "W.W.W..."
               "........")
ICON_TIME = ("..WWW..."
             "...W...."
             "..WWW...")
ICON_TIE = ("O......O"
            "O.O..O.O"
            "O.O..O.O")
ICON_FIRST = ("W.W....."
              ".W......"
              "W.W.....")
ICON_HINTS = ("w.w.w.w."
              ".w.w.w.w"
              "w.w.w.w.")
ICON_BRIGHT = ("W.W.W..."
               ".WWW...."
               "W.W.W...")
ICON_TEAMS = ("RG....YB"
              "GR....BY"
              "........")
ICON_LINKED = ("WW....WW"
               "WWwwwwWW"
               "WW....WW")
# 5-row value pictures (8 wide); "yes" and "no" at full level, in their own colours, so they read
# on the LEDs and apart from each other without colour vision
ON = (".......V"
      "......V."
      ".V...V.."
      "..V.V..."
      "...V....")
OFF = ("..X...X."
       "...X.X.."
       "....X..."
       "...X.X.."
       "..X...X.")
HUMAN = ("...WW..."
         "...WW..."
         "..WWWW.."
         "...WW..."
         "..W..W..")
# a seat played on another handheld: two handhelds and the cable between them
LINK = ("........"
        "WWW..WWW"
        "WWWwwWWW"
        "WWW..WWW"
        "........")
# join a linked game: an arrow into the handheld
JOIN = ("...WW..."
        "...WW..."
        ".WWWWWW."
        "..WWWW.."
        "...WW...")
RANDOM = ("...WW..."
          "..W..W.."
          ".....W.."
          "....W..."
          "....W...")


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
        font.draw_picture(frame, PLAY, 0, shades)
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
            font.draw_picture(frame, HUMAN, 3, shades)
        elif level == LINKED:
            font.draw_picture(frame, LINK, 3, shades)
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
        font.draw_picture(frame, ICON_TEAMS, 0, shades)
        font.draw_picture(frame, ON if settings.teams else OFF, 3, shades)
    elif kind == P_ROUNDS:
        font.draw_picture(frame, ICON_ROUNDS, 0, shades)
        font.draw_number(frame, settings.rounds, 3, white)
    elif kind == P_TIME:
        font.draw_picture(frame, ICON_TIME, 0, shades)
        if settings.time_limit:
            font.draw_number(frame, settings.time_limit, 3, white)
        else:
            font.draw_picture(frame, OFF, 3, shades)
    elif kind == P_TIE:
        font.draw_picture(frame, ICON_TIE, 0, shades)
        # two equal bars: both lit (a shared win) or both dark with only outlines (no winner)
        level = 255 if settings.tie == "shared" else 40
        _fill(frame, shades, RED, level, 1, 4, 3, 8)
        _fill(frame, shades, GREEN, level, 5, 4, 7, 8)
    elif kind == P_FIRST:
        font.draw_picture(frame, ICON_FIRST, 0, shades)
        if settings.first is None:
            font.draw_picture(frame, RANDOM, 3, shades)
        else:
            _fill(frame, shades, settings.first, 255, 3, 4, 6, 7)
    elif kind == P_HINTS:
        font.draw_picture(frame, ICON_HINTS, 0, shades)
        font.draw_picture(frame, ON if settings.hints else OFF, 3, shades)
    elif kind == P_BRIGHT:
        font.draw_picture(frame, ICON_BRIGHT, 0, shades)
        font.draw_number(frame, settings.brightness, 3, white)
    elif kind == P_PALETTE:
        for x in range(8):
            frame[x] = shades.get(1 + x // 2)
        font.draw_picture(frame, ON if settings.colour_blind else OFF, 3, shades)
    elif kind == P_LINKED:
        font.draw_picture(frame, ICON_LINKED, 0, shades)
        if hosts(settings):
            # host: each seat's colour, the linked seats blinking
            colours = settings.seat_colours()
            width = 8 // len(colours)
            for seat in range(len(colours)):
                if settings.seats[seat] != LINKED or t // 400 % 2 == 0:
                    _fill(frame, shades, colours[seat][0], 255, seat * width,
                          4, seat * width + width, 8)
        elif t // 600 % 2 == 0:
            font.draw_picture(frame, JOIN, 3, shades)
    elif kind == P_SELFTEST:
        font.draw_picture(frame, SELF_TEST, 0, shades)
