"""The device path on a PC: the App's frames go through the real matrix driver into a simulated
strip and panel, exactly as on the handheld; plus file storage and the clock-free stepping the
window, the terminal and the headless runner share."""

import os

from hardware.matrix import Matrix
from rolit_core.events import PAUSE_ITEMS

from .strip import Panel, SimStrip
from .userfiles import UserFileError, output_path, read_input, write_atomically

WIDTH = HEIGHT = 8


# A file holds the record the handheld writes too (hardware.saverecord): its header and at most
# 65535 bytes of save. The simulator's files from before it wrote the record hold the save alone.
MAX_SAVE_BYTES = 0xFFFF + 9


def is_save(data):
    """Whether ``data`` is a save file of this program (perhaps damaged): a record as the
    handheld writes it (``RL``, a format it reads, and a length field that matches the size:
    hardware.saverecord), or a bare save as the simulator wrote before (``RH``, a version it
    reads, and a length field that matches the size: rolit_core.save's layout)."""
    from hardware.saverecord import MAGIC as RECORD
    from hardware.saverecord import _header
    if data[0:2] == RECORD:
        found = _header(data)
        return found is not None and found[0] + found[2] == len(data)
    from rolit_core.save import MAGIC, VERSIONS
    return (len(data) >= 7 and data[0:2] == MAGIC and data[2] in VERSIONS and
            (data[3] << 8 | data[4]) + 7 == len(data))


class StorageError(Exception):
    """A ``--storage`` file that must not or cannot be used; the message says why. ``foreign``:
    the file is some other program's (or a person's), which is never touched."""

    foreign = False


class FileStorage:
    """``load()`` / ``save(data)`` on a file, like the device's non-volatile memory.

    The file holds one record as the handheld's ``FileStorage`` writes it (``hardware.filestore``,
    docs/app.md#save-format), so a save moves between the simulator and a board either way. A
    file the simulator wrote before it used the record (the save alone, ``RH`` ...) loads, and
    the next save writes the record.

    ``save`` writes a new temporary file (a unique name: never one left there, never through a
    link), flushes it to the disk and renames it over the old one, so a failed or interrupted
    write never destroys the last good save. ``failure`` holds why
    the last save failed (None after a good one), for the screen to show; ``error`` why the
    file's save could not be loaded (for the App's error screen).
    """

    def __init__(self, path):
        self.path = path
        self.failure = None
        self.error = None
        self._seq = 0  # the loaded record's sequence number; the next save writes the next

    def check(self):
        """Raise ``StorageError`` unless ``path`` is usable: not a folder, a device or a pipe,
        not some other program's file (that is never touched), and writable (tried, then
        tidied up). A file is this program's save if its header (``RL`` or, written before the
        record, ``RH``; a known format and the length) matches its size; one whose checksum
        then fails is a damaged save, which the App reports on its error screen and
        replaces."""
        path = self.path
        if not path:
            raise StorageError("needs a file name (or none)")
        try:
            exists = output_path("", path)
            data = read_input("", path, MAX_SAVE_BYTES, "a Rolit Handheld save", text=False) \
                if exists else b""
        except UserFileError as error:
            raise StorageError(str(error))
        if data and not is_save(data):
            error = StorageError("%s is not a Rolit Handheld save: left untouched" % path)
            error.foreign = True
            raise error

    def load(self):
        from hardware.filestore import parse
        from hardware.saverecord import MAGIC as RECORD
        self.error = None
        try:
            with open(self.path, "rb") as file:
                # an empty file holds no save; one too long for a save is not read in full
                data = file.read(MAX_SAVE_BYTES + 1) or None
        except FileNotFoundError:
            return None
        if data is None or data[0:2] != RECORD:
            return data  # a bare save (the App checks it) or nothing
        saved, seq, problem = parse(data)
        self._seq = seq
        if saved is None:
            self.error = problem
        return saved

    def save(self, data):
        from hardware.saverecord import frame
        seq = (self._seq + 1) & 0xFFFF
        record = frame(bytes(data), seq)
        self._check_ours()

        def write(path):
            with open(path, "wb") as file:
                file.write(record)
        try:
            write_atomically(self.path, write)
        except OSError as error:
            self.failure = "not saved: %s" % (error.strerror or error)
            raise  # the App counts it as a failed save too
        self._seq = seq
        self.failure = None

    def _check_ours(self):
        # Only a file this program wrote (or none) is replaced: one put there since check(),
        # or by a caller that never checked, is left as it is.
        try:
            with open(self.path, "rb") as file:
                data = file.read(MAX_SAVE_BYTES + 1)
        except FileNotFoundError:
            return
        except OSError as error:
            self.failure = "not saved: %s" % (error.strerror or error)
            raise
        if data and not is_save(data):
            self.failure = "not saved: %s is not a Rolit Handheld save: left untouched" % (
                self.path,)
            raise OSError(self.failure)


class Device:
    """An App shown on a simulated panel through ``hardware.matrix.Matrix``.

    ``driver`` holds the Matrix settings (``layout``, ``rotation``, ``mirror``, ``gamma``,
    ``brightness``, ``max_current_ma``) and ``pixel_order``, the order the driver sends;
    ``panel`` describes the physical panel (``layout``, ``rotation``, ``mirror``,
    ``chip_order``) and defaults to the driver's wiring, i.e. a correctly configured device,
    with WS2812B chips (GRB), or RGBW chips in the driver's order for a GRBW or RGBW driver.
    """

    def __init__(self, app, driver=None, panel=None):
        driver = dict(driver or {})
        pixel_order = driver.pop("pixel_order", "GRB")
        # A driver told to send four bytes (GRBW, RGBW) has an RGBW strip (SK6812): the panel's
        # chips are those, unless ``panel`` says otherwise; else WS2812B chips (GRB).
        chips = pixel_order if len(pixel_order) == 4 else "GRB"
        wiring = {"layout": driver.get("layout", "rows"), "rotation": driver.get("rotation", 0),
                  "mirror": driver.get("mirror", False), "chip_order": chips}
        wiring.update(panel or {})
        self.app = app
        self.strip = SimStrip(WIDTH * HEIGHT, pixel_order=pixel_order)
        self.matrix = Matrix(self.strip, WIDTH, HEIGHT, **driver)
        self.panel = Panel(self.strip, WIDTH, HEIGHT, **wiring)
        self.frame = None  # the App's last frame, as a tuple
        self.colours = [(0, 0, 0)] * (WIDTH * HEIGHT)  # screen colour of each LED
        self.updates = 0
        self.speaker = None  # a sim.sound.Speaker for the App's cues, if sound is on
        # The link's transport (sim.net.NetHost or NetJoin): pumped before each frame, as
        # code.py pumps the handheld's cable, so the frame sees the bytes that came, and again
        # after a frame that has something to send.
        self.cable = None

    def update(self, now_ms, events=()):
        """Run the App for one frame; True when the panel changed (the picture needs drawing)."""
        link = getattr(self.app, "link", None)
        if self.cable is not None and link is not None:
            self.cable.pump(link, now_ms)
        frame = tuple(self.app.update(now_ms, list(events)))
        if self.cable is not None and link is not None and link.waiting_output():
            self.cable.pump(link, now_ms)  # what the frame said goes now, as code.py's does
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
    if name == "linked":
        return "join a linked game (select)"
    return None


MODE_TITLES = {"title": "Starting", "menu": "Menu",
               "attract": "Demo: press any key", "selftest": "Self-test",
               "error": "Saved data was damaged: starting fresh",
               "lobby": "Linked game: hosting", "join": "Linked game: joining"}
PAUSE_WORDS = {"resume": "Resume", "undo": "Undo", "restart": "Restart round",
               "quit": "Quit to menu"}


def describe(app, seat_names=None):
    """The information shown beside the panel: seats with points, whose turn, the move list.
    In a linked game the first status line is the link's (``app.link_status``).

    Keys: ``title``; ``status`` (lines); ``seats`` (colours, label, points, to move);
    ``moves``; ``size`` (board labels, while the panel shows the board); ``cursor`` (LED x,
    y and whether the cell is legal, while a person chooses a move); ``thinking`` (a computer
    is choosing); ``notice`` (why a
    move was refused, or a failed save); ``prompt`` (the keys that lead on from here);
    ``menu`` (the pause menu: item names and the one chosen).
    """
    info = _describe(app, seat_names)
    link = getattr(app, "link_status", None)
    if link:
        info["status"] = ("Link: " + link,) + tuple(info.get("status", ()))
    return info


def _describe(app, seat_names):
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
