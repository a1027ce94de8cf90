"""The words every part of the game shares, defined once: colours, seat kinds and levels, tie
rules, who sits where, and the wrap of the device's millisecond clock.

The save format numbers seat kinds and tie rules by their place in :data:`SAVED_KINDS` and
:data:`TIE_RULES`: those orders never change.
"""

EMPTY = 0
RED = 1
YELLOW = 2
GREEN = 3
BLUE = 4
COLOURS = (RED, YELLOW, GREEN, BLUE)  # also the clockwise seat order
LETTERS = ".RYGB"                      # by colour, in records and position text
NAMES = ("empty", "red", "yellow", "green", "blue")
SIZES = (8, 6, 4)                      # the boards' sides
COLUMNS = "abcdefgh"                   # cell names: column letter, then row number

MAX_RECORD_CHARS = 65536  # a game record longer than this is refused (a full 8x8 one is ~700)

HUMAN = "human"
LEVELS = ("easy", "medium", "hard", "expert")  # the computer players, weakest first
DEVICE_LEVELS = ("easy", "medium", "hard")     # what a board offers (expert needs a desktop)
KINDS = (HUMAN,) + LEVELS                      # what a seat of a game on one handheld is
LINKED = "link"                                # a seat played on another, linked handheld
SAVED_KINDS = KINDS + (LINKED,)                # a seat's kind, by its number in a save
TIE_RULES = ("shared", "none")                 # tied leaders all win, or nobody does
TIME_LIMITS = (0, 30, 60)                      # seconds per move the menu offers (0: none)

# supervisor.ticks_ms() wraps at 2**29 ms; every difference of its times goes through ticks_diff.
TICKS_PERIOD = 1 << 29
TICKS_MASK = TICKS_PERIOD - 1
_TICKS_HALF = TICKS_PERIOD >> 1


def ticks_diff(later, earlier):
    """``later - earlier`` in ms on a clock that wraps at 2**29 (like ``adafruit_ticks``)."""
    return ((later - earlier + _TICKS_HALF) & TICKS_MASK) - _TICKS_HALF


def seating(players, teams=False):
    """The colours each seat plays, one tuple per seat, in clockwise order.

    One player is the solo variant: one person plays red and green in turn, so two seats.
    """
    if teams:
        if players != 2:
            raise ValueError("the two-colours-each variant is for 2 players, not %r" % (players,))
        return ((RED, GREEN), (YELLOW, BLUE))
    if players == 1 or players == 2:
        return ((RED,), (GREEN,))
    if players == 3:
        return ((RED,), (YELLOW,), (GREEN,))
    if players == 4:
        return ((RED,), (YELLOW,), (GREEN,), (BLUE,))
    raise ValueError("players must be 1, 2, 3 or 4, not %r" % (players,))
