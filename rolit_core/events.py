"""Keys in; sound cues and screen names out: the words the app and its drivers share (all
re-exported by :mod:`rolit_core.app`)."""

# Keys (the drivers translate buttons, a joystick or one button to these)
UP = 0
DOWN = 1
LEFT = 2
RIGHT = 3
SELECT = 4
BACK = 5
KEY_NAMES = ("up", "down", "left", "right", "select", "back")

# Sound cues, listed in ``app.cues`` after each update
CUE_PLACE = "place"        # a ball is put down
CUE_CAPTURE = "capture"    # a step of captured balls turns
CUE_ILLEGAL = "illegal"    # a refused move or an unavailable menu action
CUE_WIN = "win"            # round or match winners are shown
CUE_TICK = "tick"          # menu move, countdown second, score counting, self-test key
CUE_TIMEOUT = "timeout"    # the time limit ran out: a random move is played
CUE_UNDO = "undo"          # moves taken back
CUE_START = "start"        # a game or round begins
CUE_ERROR = "error"        # saved data was corrupt and has been replaced

# Modes: ``app.mode`` is one of MODE_NAMES, the name of the screen shown
TITLE = 0
MENU = 1
ATTRACT = 2
PLAY = 3
PAUSE = 4
ROUND_END = 5
TABLE = 6
MATCH_END = 7
SELFTEST = 8
ERROR = 9
LOBBY = 10  # a linked game's host, waiting for its linked seats
JOIN = 11   # a handheld joining a linked game
MODE_NAMES = ("title", "menu", "attract", "play", "pause", "round_end", "table", "match_end",
              "selftest", "error", "lobby", "join")
PAUSE_ITEMS = ("resume", "undo", "restart", "quit")
