"""The setup menu: the settings it remembers and the kinds of its pages (the pages and how they
change the settings are :mod:`rolit_core.menu_screen`'s, drawn by :mod:`rolit_core.menu_draw`).

Pages go round with UP/DOWN; LEFT/RIGHT change the value shown (SELECT changes it forward, so a
single button can set everything); SELECT on the play page starts, on the self-test page tests;
BACK returns to the play page. Each page is a picture: an icon on rows 0-2 and the value, drawn
with a 3x5 digit font or a small picture, on rows 3-7 (some pages use the whole matrix).
"""

from .vocab import HUMAN, LINKED, seating
from .vocab import SAVED_KINDS as KINDS
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
P_LINKED = 13  # a linked game: host it (a seat is "link") or join one; only with a link
PAGE_NAMES = ("play", "players", "seat", "size", "teams", "rounds", "time", "tie", "first",
              "hints", "brightness", "palette", "self-test", "linked")


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


def hosts(settings):
    """True when these settings make a linked game's host: a seat in play is ``"link"``."""
    if settings.players < 2:
        return False
    for seat in range(settings.players):
        if settings.seats[seat] == LINKED:
            return True
    return False
