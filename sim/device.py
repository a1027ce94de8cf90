"""The device path on a PC: the App's frames go through the real matrix driver into a simulated
strip and panel, exactly as on the handheld; plus file storage and the clock-free stepping the
window, the terminal and the headless runner share."""

import os

from hardware.matrix import Matrix
from rolit_core.events import PAUSE_ITEMS

from .strip import Panel, SimStrip

WIDTH = HEIGHT = 8


SAVE_MAGIC = b"RH"  # how every save of this program begins (rolit_core.save)


def open_temporary(path):
    """A new, empty file at ``path`` for writing (a file descriptor). Whatever was there before
    (left by an interrupted write) is removed first, a link as a link: never written through."""
    if os.path.lexists(path):
        os.remove(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | \
        getattr(os, "O_BINARY", 0)
    return os.open(path, flags, 0o644)


class StorageError(Exception):
    """A ``--storage`` file that must not or cannot be used; the message says why."""


class FileStorage:
    """``load()`` / ``save(data)`` on a file, like the device's non-volatile memory.

    ``save`` writes a temporary file, flushes it to the disk and renames it over the old one,
    so a failed or interrupted write never destroys the last good save. ``failure`` holds why
    the last save failed (None after a good one), for the screen to show.
    """

    def __init__(self, path):
        self.path = path
        self.failure = None

    def check(self):
        """Raise ``StorageError`` unless ``path`` is usable: not a folder, not some other
        program's file (that is never touched), and writable (tried, then tidied up)."""
        path = self.path
        if not path:
            raise StorageError("needs a file name (or none)")
        if os.path.isdir(path):
            raise StorageError("%s is a folder, not a file" % path)
        if os.path.exists(path) and not os.path.isfile(path):
            raise StorageError("%s is not a regular file (a device, a pipe...)" % path)
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise StorageError("folder %s does not exist" % folder)
        try:
            with open(path, "rb") as file:
                head = file.read(len(SAVE_MAGIC))
        except FileNotFoundError:
            head = None
        except OSError as error:
            raise StorageError("cannot read %s: %s" % (path, error.strerror or error))
        if head and head != SAVE_MAGIC[:len(head)]:
            raise StorageError("%s is not a Rolit Handheld save: left untouched (give another "
                               "file, or none)" % path)
        try:
            os.close(open_temporary(os.path.realpath(path) + ".tmp"))
            os.remove(os.path.realpath(path) + ".tmp")
        except OSError as error:
            raise StorageError("cannot write next to %s: %s" % (path, error.strerror or error))

    def load(self):
        try:
            with open(self.path, "rb") as file:
                return file.read() or None  # an empty file holds no save
        except FileNotFoundError:
            return None

    def save(self, data):
        target = os.path.realpath(self.path)  # through a link to its file: the link stays
        temporary = target + ".tmp"
        try:
            with os.fdopen(open_temporary(temporary), "wb") as file:
                file.write(bytes(data))
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, target)
        except OSError as error:
            self.failure = "not saved: %s" % (error.strerror or error)
            try:
                os.remove(temporary)
            except OSError:
                pass
            raise  # the App counts it as a failed save too
        self.failure = None


class Device:
    """An App shown on a simulated panel through ``hardware.matrix.Matrix``.

    ``driver`` holds the Matrix settings (``layout``, ``rotation``, ``mirror``, ``gamma``,
    ``brightness``, ``max_current_ma``) and ``pixel_order``, the order the driver sends;
    ``panel`` describes the physical panel (``layout``, ``rotation``, ``mirror``,
    ``chip_order``) and defaults to the driver's wiring, i.e. a correctly configured device.
    """

    def __init__(self, app, driver=None, panel=None):
        driver = dict(driver or {})
        pixel_order = driver.pop("pixel_order", "GRB")
        wiring = {"layout": driver.get("layout", "rows"), "rotation": driver.get("rotation", 0),
                  "mirror": driver.get("mirror", False), "chip_order": "GRB"}
        wiring.update(panel or {})
        self.app = app
        self.strip = SimStrip(WIDTH * HEIGHT, pixel_order=pixel_order)
        self.matrix = Matrix(self.strip, WIDTH, HEIGHT, **driver)
        self.panel = Panel(self.strip, WIDTH, HEIGHT, **wiring)
        self.frame = None  # the App's last frame, as a tuple
        self.colours = [(0, 0, 0)] * (WIDTH * HEIGHT)  # screen colour of each LED
        self.updates = 0
        self.speaker = None  # a sim.sound.Speaker for the App's cues, if sound is on

    def update(self, now_ms, events=()):
        """Run the App for one frame; True when the panel changed (the picture needs drawing)."""
        frame = tuple(self.app.update(now_ms, list(events)))
        self.updates += 1
        if self.speaker is not None:
            self.speaker.play(self.app.cues, now_ms)
        if frame == self.frame:
            return False
        self.show(frame)
        return True

    def show(self, frame):
        """Put ``frame`` on the panel through the matrix driver."""
        self.frame = tuple(frame)
        self.matrix.show(self.frame)
        self.colours = self.panel.display_colours()


NAMES = ("", "Red", "Yellow", "Green", "Blue")


def menu_page(app):
    """The menu page on show and its value, in words (for the side panel), or None."""
    page = app.page
    if page is None or app.mode != "menu":
        return None
    name, seat = page
    s = app.settings
    if name == "play":
        return "start the game (select)"
    if name == "players":
        return "players %d%s" % (s.players, " (solo)" if s.players == 1 else "")
    if name == "seat":
        return "%s is %s" % (NAMES[s.seat_colours()[seat][0]], s.seats[seat])
    if name == "size":
        return "board %dx%d" % (s.size, s.size)
    if name == "teams":
        return "two colours each: %s" % ("yes" if s.teams else "no")
    if name == "rounds":
        return "rounds %d" % s.rounds
    if name == "time":
        return "time per move: %s" % ("%d s" % s.time_limit if s.time_limit else "off")
    if name == "tie":
        return "tie rule: %s" % s.tie
    if name == "first":
        return "first: %s" % (NAMES[s.first] if s.first else "random")
    if name == "hints":
        return "hints %s" % ("on" if s.hints else "off")
    if name == "brightness":
        return "brightness %d of 5" % s.brightness
    if name == "palette":
        return "palette: %s" % ("colour-blind" if s.colour_blind else "normal")
    if name == "self-test":
        return "self-test (select)"
    return None


MODE_TITLES = {"title": "Starting", "menu": "Menu",
               "attract": "Demo: press any key", "selftest": "Self-test",
               "error": "Saved data was damaged: starting fresh"}
PAUSE_WORDS = {"resume": "Resume", "undo": "Undo", "restart": "Restart round",
               "quit": "Quit to menu"}


def describe(app, seat_names=None):
    """The information shown beside the panel: seats with points, whose turn, the move list.

    Keys: ``title``; ``status`` (lines); ``seats`` (colours, label, points, to move);
    ``moves``; ``size`` (board labels, while the panel shows the board); ``cursor`` (LED x,
    y and whether the cell is legal, while a person chooses a move); ``thinking`` (a computer
    is choosing); ``notice`` (why a
    move was refused, or a failed save); ``prompt`` (the keys that lead on from here);
    ``menu`` (the pause menu: item names and the one chosen).
    """
    game = getattr(app, "game", None)
    info = {"title": "Rolit"}
    mode = getattr(app, "mode", "")
    failure = getattr(getattr(app, "storage", None), "failure", None)
    if failure:
        info["notice"] = "Settings and game " + failure
    if game is None:
        info["status"] = (MODE_TITLES.get(mode, "Menu"),)
        if mode == "menu":
            page = menu_page(app)
            if page:
                info["status"] = ("Menu: " + page, "up/down: page, left/right: change")
        return info
    if mode in ("play", ""):
        info["size"] = game.size  # labels only while the panel shows the board
        if getattr(app, "phase", None) == "input" and not game.over:
            cell = getattr(app, "cursor", None)
            if isinstance(cell, int) and 0 <= cell < game.size * game.size:
                offset = (WIDTH - game.size) // 2
                info["cursor"] = (cell % game.size + offset, cell // game.size + offset,
                                  game.is_legal(cell))
        elif getattr(app, "phase", None) == "think" and not game.over:
            info["thinking"] = True
    scores = game.scores()
    seats = []
    kinds = getattr(app, "kinds", ())
    for seat in range(len(game.seat_colours)):
        colours = game.seat_colours[seat]
        label = "+".join([NAMES[c] for c in colours])
        if seat_names and seat < len(seat_names):
            label += " (%s)" % seat_names[seat]
        elif seat < len(kinds):
            label += " (%s)" % kinds[seat]
        seats.append((colours, label, scores[seat], not game.over and game.turn in colours))
    info["seats"] = seats
    letters = " RYGB"
    info["moves"] = ["%s %s" % (letters[colour], game.board.cell_name(cell))
                     for cell, colour in game.board.moves]
    if game.over:
        winners = game.winners()
        if not winners:
            status = "Round over: a tie for no one"
        elif len(winners) == 1:
            status = "Round over: %s wins" % seats[winners[0]][1]
        else:
            status = "Round over: shared win"
        info["status"] = (status,)
    else:
        info["status"] = ("Board %dx%d, move %d" % (game.size, game.size,
                                                     len(game.board.moves) + 1),)
        reason = getattr(app, "illegal_reason", None)
        if reason and mode == "play":
            info["notice"] = "Not allowed: " + reason
    match = getattr(app, "match", None)
    prompt = _prompt(app, mode, match)
    if prompt:
        info["prompt"] = prompt
    if mode == "pause":
        page = getattr(app, "page", None)
        chosen = page[0] if page else None
        info["menu"] = ([PAUSE_WORDS[name] for name in PAUSE_ITEMS],
                        PAUSE_ITEMS.index(chosen) if chosen in PAUSE_ITEMS else 0)
        info["status"] = ("Paused",) + info["status"]
    if match is not None and match.rounds > 1:
        info["status"] = info["status"] + ("Round %d of %d" % (match.round, match.rounds),)
    return info


def _prompt(app, mode, match):
    """What Enter and Esc do on the screens between moves, in words."""
    if mode == "pause":
        return "up/down: choose   Enter: confirm   Esc: resume"
    if mode == "round_end":
        if not getattr(getattr(app, "round_end", None), "pour_done", True):
            return "Enter: show the score"
        if match is not None and match.rounds > 1:
            return "Enter: next (rounds won)   Esc: menu"
        return "Enter: play again   Esc: menu"
    if mode == "table":
        if match is not None and match.over:
            return "Enter: the match winner   Esc: menu"
        return "Enter: next round   Esc: menu"
    if mode == "match_end":
        return "Enter: play again   Esc: menu"
    return None
