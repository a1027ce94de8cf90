"""What every screen of the app is: ``Screen``, the contract the app drives.

The app keeps the session (settings, match, storage, cues, held keys) and shows one screen at
a time. Each update it passes the time to the screen (``pass_time``), then lets it act on it
(``advance``), hands it each key press and release, and has it ``draw`` the frame.
"""

# How long the title and the error pattern show, how long BACK is held to leave the self-test,
# the round end's times and the menu's: here, so that the app names them without loading those
# screens' code.
TITLE_MS = 2400
ERROR_MS = 3000
SELFTEST_EXIT_MS = 1500
FINAL_MS = 2000         # the round's final board stays this long before the bars
POUR_MS = 40            # per ball counted into the round-end bars
WIN_FLASH_MS = 250      # winners' bars and the newest won round blink this fast
IDLE_MS = 60000         # menu idle time before the attract mode
SETTINGS_SAVE_MS = 2000  # changed settings are saved when the menu rests this long


class Screen:
    """One screen: its own state, and ``t``, the milliseconds since it was shown.

    ``name`` is what ``App.mode`` says; ``page`` what ``App.page`` says (None here);
    ``shows_game``: ``App.game`` is the game of the board screen while this one is shown.
    """

    name = ""
    page = None
    shows_game = False
    t = 0

    def __init__(self, app):
        self.app = app  # the session: settings, match, cues, held keys, the other screens

    def enter(self):
        """Called each time the screen is shown (``t`` is 0 by then)."""

    def hide(self):
        """Called when another screen is shown in its place."""

    def pass_time(self, dt):
        self.t += dt
        if self.t > 0x3FFFFFF:
            self.t = 0x3FFFFF  # keep ints small after days in one screen

    def advance(self, dt):
        """Act on ``dt`` ms more (``t`` already counts them)."""

    def press(self, key):
        """A key went down (or repeats while held)."""

    def release(self, key):
        """A key came up."""

    def draw(self, frame):
        """Paint into ``frame`` (64 colours, already black)."""
