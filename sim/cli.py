"""``python -m sim``: the handheld game in a window, a terminal, or headless.

Run ``python -m sim --help`` for the options; docs/simulator.md explains them. Every argument
and path is checked before anything runs, and each problem is one line on stderr (exit status
2 for a bad argument, 1 for a file that cannot be used). Ctrl-C quits from any mode, with the
terminal restored, and exit status 130.
"""

import argparse
import os
import sys

from rolit_core.vocab import KINDS as SEATS
from rolit_core.vocab import LEVELS

from .device import open_temporary

INTERRUPTED = 130        # the exit status of a program stopped by Ctrl-C (128 + SIGINT)
MAX_RECORD_BYTES = 1 << 20  # a whole match's record is a few KB
IMAGE_TYPES = (".png", ".bmp", ".tga", ".jpg", ".jpeg")
APP_FOLDER = "rolit-handheld"


def parse_players(text):
    """``"human,hard"`` -> ``("human", "hard")``; 1-4 seats, each human or a computer level."""
    seats = tuple([part.strip().lower() for part in text.split(",") if part.strip()])
    if not 1 <= len(seats) <= 4:
        raise argparse.ArgumentTypeError("--players needs 1 to 4 seats, like human,hard")
    for seat in seats:
        if seat not in SEATS:
            raise argparse.ArgumentTypeError("unknown seat %r: use %s" % (seat, ", ".join(SEATS)))
    return seats


def _number(low, high, unit=""):
    """An argparse type: an integer from ``low`` to ``high``."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%r is not a whole number" % text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError("%d is out of range: %d-%d%s"
                                             % (value, low, high, unit))
        return value
    parse.__name__ = "number"
    return parse


def parse_window_size(text):
    """``"1200x800"`` -> ``(1200, 800)``."""
    width, sep, height = text.lower().partition("x")
    try:
        size = (int(width), int(height))
    except ValueError:
        size = None
    if not sep or size is None:
        raise argparse.ArgumentTypeError("%r is not WIDTHxHEIGHT, like 1200x800" % text)
    if not (160 <= size[0] <= 16384 and 120 <= size[1] <= 16384):
        raise argparse.ArgumentTypeError("%s is out of range: 160x120 to 16384x16384" % text)
    return size


class _Parser(argparse.ArgumentParser):
    """Argument errors in one line (argparse's default adds the whole usage before it)."""

    def error(self, message):
        self.exit(2, "%s: error: %s (--help lists the options)\n" % (self.prog, message))


def parser():
    p = _Parser(
        prog="python -m sim",
        description="Rolit Handheld on a PC: the device's game and matrix driver in a window, "
                    "a terminal, or headless.")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--window", action="store_true",
                      help="open the window (the default when a display is available)")
    mode.add_argument("--terminal", action="store_true",
                      help="play in this terminal (true-colour cells; works over SSH)")
    mode.add_argument("--headless", action="store_true",
                      help="play a whole game with computer --players only, no display, fast")
    game = p.add_argument_group("game (any of these starts a game straight away, skipping the menu)")
    game.add_argument("--players", type=parse_players, metavar="SEATS",
                      help="seats in turn order: human or easy/medium/hard/expert, comma "
                           "separated (e.g. human,hard or hard,hard,medium,easy)")
    game.add_argument("--size", type=int, choices=(8, 6, 4), help="board size (default 8)")
    game.add_argument("--teams", action="store_true", help="two colours each (2 players)")
    game.add_argument("--rounds", type=_number(1, 99), metavar="N",
                      help="rounds in the match, 1-99 (default 1)")
    game.add_argument("--tie", choices=("shared", "none"), help="round tie rule (default shared)")
    game.add_argument("--time-limit", type=int, choices=(0, 30, 60), metavar="S",
                      help="seconds per move: 0 (off), 30 or 60")
    game.add_argument("--first", choices=("red", "yellow", "green", "blue"),
                      help="colour that starts (default: tossed)")
    p.add_argument("--seed", type=int, help="seed for the toss and the computer players")
    p.add_argument("--record", metavar="FILE",
                   help="write the game record to FILE (after every move and at the end)")
    p.add_argument("--replay", metavar="FILE",
                   help="start from a game record (Game.record() format) and play on from there")
    p.add_argument("--screenshot", metavar="FILE",
                   help="save a picture of the board at the end (.png, .bmp, .tga or .jpg)")
    p.add_argument("--storage", metavar="FILE",
                   help="keep settings and the saved game in FILE between runs, like the device "
                        "(default: %s; 'none': keep nothing)" % default_storage_path())
    drv = p.add_argument_group("matrix driver (as in the device's settings.toml)")
    drv.add_argument("--settings", metavar="FILE",
                     help="read the driver settings from a device settings.toml")
    drv.add_argument("--layout", choices=("rows", "serpentine"))
    drv.add_argument("--rotation", type=int, choices=(0, 90, 180, 270))
    drv.add_argument("--mirror", action="store_true", default=None)
    drv.add_argument("--pixel-order", choices=("GRB", "RGB", "BRG", "RBG", "GBR", "BGR"))
    drv.add_argument("--gamma", type=_number(10, 40), metavar="TENTHS",
                     help="22 = 2.2 (default), 10 = none; 10-40")
    drv.add_argument("--brightness", type=_number(0, 100, " percent"), metavar="PERCENT",
                     help="driver brightness (default 100 here; the device's default is 30)")
    drv.add_argument("--max-ma", type=_number(1, 20000, " mA"), metavar="MA",
                     help="current budget (default 500)")
    pan = p.add_argument_group("simulated panel (defaults to matching the driver)")
    pan.add_argument("--panel-layout", choices=("rows", "serpentine"))
    pan.add_argument("--panel-rotation", type=int, choices=(0, 90, 180, 270))
    pan.add_argument("--panel-mirror", action="store_true", default=None)
    pan.add_argument("--panel-order", choices=("GRB", "RGB", "BRG", "RBG", "GBR", "BGR"),
                     help="colour order of the panel's chips (default GRB, as WS2812B)")
    view = p.add_argument_group("display")
    view.add_argument("--fps", type=_number(1, 240), default=60,
                      help="frames per second, 1-240 (default 60)")
    view.add_argument("--no-labels", action="store_true", help="hide the a-h / 1-8 labels")
    view.add_argument("--fullscreen", action="store_true")
    view.add_argument("--window-size", type=parse_window_size, metavar="WxH",
                      help="initial window size, e.g. 1200x800")
    view.add_argument("--colours", choices=("auto", "24bit", "256"), default="auto",
                      help="terminal colours (default: 24-bit unless the terminal lacks it)")
    view.add_argument("--sound", type=_number(1, 100), nargs="?", const=50, metavar="VOLUME",
                      help="play the buzzer's cues on the speaker (volume 1-100, default 50)")
    return p


def default_storage_path(environ=None, platform=None):
    """Where the window and terminal keep settings and the saved game unless ``--storage`` says
    otherwise: the platform's folder for user data.

    Linux and BSD: ``$XDG_DATA_HOME/rolit-handheld/rolit.sav`` (``~/.local/share/...``);
    macOS: ``~/Library/Application Support/rolit-handheld/rolit.sav``;
    Windows: ``%APPDATA%\\rolit-handheld\\rolit.sav``.
    """
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    home = environ.get("HOME") or os.path.expanduser("~")
    if platform.startswith("win"):
        base = environ.get("APPDATA") or os.path.join(home, "AppData", "Roaming")
    elif platform == "darwin":
        base = os.path.join(home, "Library", "Application Support")
    else:
        base = environ.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    return os.path.join(base, APP_FOLDER, "rolit.sav")


def driver_settings(args):
    """The Matrix keyword arguments (plus ``pixel_order``) and the panel settings."""
    driver = {"brightness": 100}
    if args.settings == "":
        raise SystemExit("python -m sim: --settings needs a file name")
    if args.settings:
        from hardware import config
        if not os.path.exists(args.settings):
            raise SystemExit("no such settings file: %s" % args.settings)
        if os.path.isdir(args.settings):
            raise SystemExit("--settings %s is a folder, not a settings.toml" % args.settings)
        try:
            settings = config.load(getenv=lambda key: None, path=args.settings)
        except (OSError, ValueError) as error:  # unreadable, or text that is not UTF-8
            raise SystemExit("cannot read the settings in %s: %s" % (args.settings, error))
        for message in settings.errors:
            print("settings: " + message, file=sys.stderr)
        driver = {"layout": settings.matrix_layout, "rotation": settings.matrix_rotation,
                  "mirror": settings.matrix_mirror, "gamma": settings.matrix_gamma,
                  "brightness": settings.brightness, "max_current_ma": settings.max_current_ma,
                  "pixel_order": settings.pixel_order}
    for name, key in (("layout", "layout"), ("rotation", "rotation"), ("mirror", "mirror"),
                      ("gamma", "gamma"), ("brightness", "brightness"),
                      ("max_ma", "max_current_ma"), ("pixel_order", "pixel_order")):
        value = getattr(args, name)
        if value is not None:
            driver[key] = value
    panel = {}
    for name, key in (("panel_layout", "layout"), ("panel_rotation", "rotation"),
                      ("panel_mirror", "mirror"), ("panel_order", "chip_order")):
        value = getattr(args, name)
        if value is not None:
            panel[key] = value
    return driver, panel


def start_options(args):
    """The ``App.start`` keyword arguments, or None to begin in the menu."""
    names = ("players", "size", "teams", "rounds", "tie", "time_limit", "first")
    if not any([getattr(args, name) not in (None, False) for name in names]):
        return None
    options = {"seats": args.players or ("human", "hard")}
    if args.size is not None:
        options["size"] = args.size
    if args.teams:
        options["teams"] = True
    if args.rounds is not None:
        options["rounds"] = args.rounds
    if args.tie is not None:
        options["tie"] = args.tie
    if args.time_limit is not None:
        options["time_limit"] = args.time_limit
    if args.first is not None:
        options["first"] = args.first
    return options


def display_available(environ=None):
    """Whether a window can open: on Linux and BSD that needs X11 or Wayland (or an explicit
    SDL video driver, such as ``dummy`` in tests). A display that is named but cannot be
    reached is found out when the window opens (``sim.window.open_display``)."""
    environ = os.environ if environ is None else environ
    if environ.get("SDL_VIDEODRIVER"):
        return True
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))
    return True


class Recorder:
    """Writes the record of the game in play to a file whenever a move was made. In a match of
    several rounds, each finished round stays in ``FILE.roundN``. A failed write is kept in
    ``failure`` (shown on screen) and tried again at the next move; it never stops the game."""

    def __init__(self, path):
        self.path = path
        self.game = None
        self.plies = -1
        self.rounds = 0
        self.failure = None

    def update(self, app):
        game = getattr(app, "game", None)
        if game is None:
            return
        if game is not self.game:
            if self.game is not None and self.plies > 0:
                self.rounds += 1
                self._write(self.path + ".round%d" % self.rounds, self.game)
            self.game = game
            self.plies = -1
        plies = len(game.board.moves)
        if plies != self.plies:
            self.plies = plies
            self._write(self.path, game)

    def _write(self, path, game):
        path = os.path.realpath(path)  # through a link to its file: the link stays
        temporary = path + ".tmp"
        try:
            with os.fdopen(open_temporary(temporary), "w") as file:
                file.write(game.record())
            os.replace(temporary, path)
        except OSError as error:
            self.failure = "record not written to %s: %s" % (path, error.strerror or error)
            return
        self.failure = None


def position_frame(game):
    """The game's position as a frame: the board's colours, centred, the rest dark."""
    from rolit_core.palette import NORMAL
    frame = [(0, 0, 0)] * 64
    offset = (8 - game.size) // 2
    for cell in range(game.size * game.size):
        y, x = divmod(cell, game.size)
        frame[(y + offset) * 8 + x + offset] = NORMAL[game.board[cell]]
    return frame


def finished(app):
    """True once the whole game (or match) is over."""
    match = getattr(app, "match", None)
    if match is not None:
        return match.over
    game = getattr(app, "game", None)
    return game is not None and game.over


# -- checks before anything runs -------------------------------------------------------------

def _fail(message):
    raise SystemExit("python -m sim: " + message)


def check_output(option, path, image=False):
    """A file the run will write: its folder must exist and take files; it must not be a
    folder. Nothing is written to ``path`` itself."""
    if not path:
        _fail("%s needs a file name" % option)
    if os.path.isdir(path):
        _fail("%s %s is a folder, not a file" % (option, path))
    if os.path.exists(path) and not os.path.isfile(path):
        # a device, a pipe...: the file would be replaced by a new one (or block the run)
        _fail("%s %s is not a regular file" % (option, path))
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        _fail("%s %s: folder %s does not exist" % (option, path, folder))
    if image and os.path.splitext(path)[1].lower() not in IMAGE_TYPES:
        _fail("%s %s: the name must end in %s" % (option, path, ", ".join(IMAGE_TYPES)))
    import tempfile
    try:
        handle, probe = tempfile.mkstemp(dir=folder, prefix=".rolit-probe-")
        os.close(handle)
        os.remove(probe)
    except OSError as error:
        _fail("%s %s: cannot write in %s (%s)" % (option, path, folder, error.strerror or error))
    if os.path.exists(path) and not os.access(path, os.W_OK):
        _fail("%s %s: the file is read-only" % (option, path))


def read_record(path):
    """The text of a game record file, or a one-line SystemExit saying why it is unusable."""
    if not path:
        _fail("--replay needs a file name")
    if os.path.isdir(path):
        _fail("--replay %s is a folder, not a game record" % path)
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        _fail("cannot read %s: %s" % (path, error.strerror or error))
    if len(data) > MAX_RECORD_BYTES:
        _fail("%s is over %d KB: not a game record" % (path, MAX_RECORD_BYTES >> 10))
    try:
        return data.decode("utf-8-sig")  # a byte-order mark from a Windows editor is fine
    except UnicodeDecodeError as error:
        _fail("%s is not UTF-8 text (byte 0x%02x at offset %d): not a game record"
              % (path, data[error.start], error.start))


def record_players(text, path):
    """How many players the record's game has; a bad record fails with the rules' message."""
    from rolit_core import Game
    try:
        return Game.from_record(text).players
    except ValueError as error:
        _fail("%s: %s" % (path, error))


def check_seats(args, players_in_record):
    """Refuse seat combinations that would silently put a person in a seat, or that
    ``--headless`` can never finish, before anything runs."""
    seats = args.players
    if players_in_record is not None and seats is not None and \
            len(seats) != players_in_record:
        _fail("%s is a %d-player game: give --players %d seats, not %d"
              % (args.replay, players_in_record, players_in_record, len(seats)))
    if seats is not None and len(seats) == 1 and seats[0] != "human":
        _fail("--players %s: one seat is solo play, where a person plays two colours; "
              "give 2-4 seats for a computer" % seats[0])
    if not args.headless:
        return
    if players_in_record is not None:
        if seats is None:
            _fail("--headless --replay needs --players with the record's %d computer seats, "
                  "like %s" % (players_in_record, ",".join(["hard"] * players_in_record)))
    elif start_options(args) is None:
        _fail("--headless needs a game: give --players (all computers) or --replay")
    if seats is None:
        _fail("--headless plays computers only: give --players like hard,medium")
    if len(seats) == 1:
        _fail("--headless needs 2-4 computer seats (one seat is a person's solo game)")
    if "human" in seats:
        _fail("--headless plays computers only: --players like hard,medium")


def open_storage(args, mode):
    """The FileStorage to use, checked (None: keep nothing). The default file in the user data
    folder is only for the window and the terminal; when it cannot be used the game runs
    without it and says so. A ``--storage FILE`` that cannot be used stops the run."""
    from .device import FileStorage, StorageError
    path = args.storage
    if path is not None and path.lower() == "none":
        return None
    if path is None:
        if mode == "headless":
            return None  # a batch run must not replace the saved game
        path = default_storage_path()
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            storage = FileStorage(path)
            storage.check()
        except (OSError, StorageError) as error:
            print("Settings will not be kept: %s" % error, file=sys.stderr)
            return None
        return storage
    storage = FileStorage(path)
    try:
        storage.check()
    except StorageError as error:
        _fail("--storage " + str(error))
    return storage


# -- running ---------------------------------------------------------------------------------

def build(args, storage=None, text=None):
    """The App (started or loaded as asked) and the Device that shows it."""
    from rolit_core.app import App
    from .device import Device, FileStorage

    driver, panel = driver_settings(args)
    try:
        device = Device(None, driver, panel)  # checked before the App touches the storage
    except ValueError as error:
        raise SystemExit("matrix settings: %s" % error)
    if storage is None and args.storage and args.storage.lower() != "none":
        storage = FileStorage(args.storage)
    app = App(storage=storage, seed=args.seed, levels=LEVELS)  # the desktop offers expert too
    device.app = app
    options = start_options(args)
    if args.replay:
        if text is None:
            text = read_record(args.replay)
        try:
            app.load_record(text, seats=args.players)
        except ValueError as error:
            raise SystemExit("%s: %s" % (args.replay, error))
    elif options is not None:
        try:
            app.start(**options)
        except ValueError as error:
            raise SystemExit("cannot start that game: %s" % error)
    return app, device


def headless(args, app, device, recorder, frame_ms=20, limit_ms=4 * 3600 * 1000):
    """Play to the end on a fake clock, as fast as the computers think."""
    from rolit_core.app import SELECT
    game = getattr(app, "game", None)
    if game is None:
        raise SystemExit("--headless needs a game: give --players (all computers) or --replay")
    if "human" in getattr(app, "kinds", ()):
        raise SystemExit("--headless plays computers only: --players like hard,medium")
    now = 0
    tap = [(SELECT, True), (SELECT, False)]
    while not finished(app):
        # Between rounds of a match nobody is there to press SELECT: press it for them.
        device.update(now, tap if app.mode in ("round_end", "table") else ())
        if recorder is not None:
            recorder.update(app)
        now += frame_ms
        if now > limit_ms:
            raise SystemExit("the game did not finish within %d simulated hours"
                             % (limit_ms // 3600000))
    if recorder is not None:
        recorder.update(app)
        if recorder.failure:
            raise SystemExit(recorder.failure)
    game = app.game
    scores = game.scores()
    letters = " RYGB"
    parts = ["%s %d" % ("+".join([letters[c] for c in game.seat_colours[seat]]), scores[seat])
             for seat in range(len(scores))]
    print("game over after %d moves: %s" % (len(game.board.moves), ", ".join(parts)))
    return 0


def choose_mode(args):
    """"headless", "terminal" or "window": a window only if one really opens (a DISPLAY that
    cannot be reached makes SDL pick an invisible driver: then the terminal, saying why)."""
    if args.headless:
        return "headless"
    if args.terminal:
        return "terminal"
    if not display_available():
        if args.window:
            _fail("cannot open a window: no display (no DISPLAY or WAYLAND_DISPLAY)")
        print("No display found (no DISPLAY or WAYLAND_DISPLAY): starting the terminal mode.",
              file=sys.stderr)
        return "terminal"
    try:
        from . import window as window_module
        window_module.open_display()
    except Exception as error:  # no SDL, no video device, an unreachable display
        if args.window:
            _fail("cannot open a window: %s" % error)
        print("Cannot open a window (%s): starting the terminal mode." % error, file=sys.stderr)
        return "terminal"
    return "window"


def check(args):
    """Every argument and path, before anything runs. Returns the mode, the storage and the
    replayed record's text."""
    text = None
    players_in_record = None
    if args.replay is not None:
        text = read_record(args.replay)
        players_in_record = record_players(text, args.replay)
    check_seats(args, players_in_record)
    if args.record is not None:
        check_output("--record", args.record)
    if args.screenshot is not None:
        check_output("--screenshot", args.screenshot, image=True)
    if args.storage and args.storage.lower() != "none":
        for other, name in ((args.record, "--record"), (args.replay, "--replay"),
                            (args.screenshot, "--screenshot"), (args.settings, "--settings")):
            if other and os.path.abspath(other) == os.path.abspath(args.storage):
                _fail("--storage and %s are the same file: %s" % (name, other))
    mode = choose_mode(args)
    if mode == "terminal" and not os.isatty(sys.stdin.fileno()):
        _fail("terminal mode needs a terminal (stdin is not a tty); --headless runs without one")
    storage = open_storage(args, mode)
    return mode, storage, text


def run(args):
    from .device import describe

    mode, storage, text = check(args)
    app, device = build(args, storage, text)
    recorder = Recorder(args.record) if args.record else None
    seat_names = list(args.players) if args.players else None
    if args.sound and mode != "headless":
        from .sound import speaker
        device.speaker = speaker(args.sound)
        if device.speaker is None:
            print("No sound device: playing without sound.", file=sys.stderr)

    def on_frame():
        if recorder is not None:
            recorder.update(app)

    def information(app_):
        info = describe(app_, seat_names)
        if recorder is not None and recorder.failure and "notice" not in info:
            info["notice"] = recorder.failure
        return info

    status = 0
    try:
        if mode == "window":
            mode = run_window(args, device, seat_names, information, on_frame)
        if mode == "headless":
            status = headless(args, app, device, recorder)
        elif mode == "terminal":
            from . import terminal
            truecolour = None if args.colours == "auto" else args.colours == "24bit"
            terminal.run(device, information, fps=args.fps, truecolour=truecolour,
                         on_frame=on_frame)
    finally:
        if device.speaker is not None:
            device.speaker.close()
        if storage is not None and mode != "headless":
            save_on_quit(app, storage)
    if recorder is not None:
        recorder.update(app)
        if recorder.failure:
            print(recorder.failure, file=sys.stderr)
            status = 1
    failure = getattr(storage, "failure", None)
    if failure:
        print("The last save failed (%s): %s" % (storage.path, failure), file=sys.stderr)
        status = 1
    if args.screenshot:
        status = screenshot_at_end(args, app, device, seat_names) or status
    return status


def save_on_quit(app, storage):
    """Keep the settings just changed: the App saves them once the menu has rested 2 s (as on
    the device, where each write wears the flash), and a quit may come sooner."""
    try:
        storage.save(app.state_bytes())
    except Exception:  # the failure is in storage.failure, reported below
        pass


def run_window(args, device, seat_names, information, on_frame):
    """Play in the window until it is closed; returns "terminal" if it could not open."""
    from . import window as window_module
    try:
        win = window_module.Window(device, size=args.window_size, labels=not args.no_labels,
                                   fullscreen=args.fullscreen, seat_names=seat_names,
                                   fps=args.fps, describe=information)
    except Exception as error:  # the display went away, a size the screen refuses...
        if args.window or not os.isatty(sys.stdin.fileno()):
            _fail("cannot open a window: %s" % error)
        print("Cannot open a window (%s): starting the terminal mode." % error, file=sys.stderr)
        return "terminal"
    try:
        win.run(on_frame)
    finally:
        win.close()
    return "window"


def screenshot_at_end(args, app, device, seat_names):
    """Save the picture of the final position; 1 (and a line) if that fails."""
    from .device import describe
    from .window import screenshot
    game = getattr(app, "game", None)
    if game is not None:
        device.show(position_frame(game))
    info = describe(app, seat_names)
    if game is not None:
        info["size"] = game.size  # the picture is the final position: label it
    info.pop("cursor", None)
    try:
        screenshot(device.colours, info, args.screenshot)
    except Exception as error:  # pygame.error: a disk that filled up meanwhile...
        print("screenshot not saved to %s: %s" % (args.screenshot, error), file=sys.stderr)
        return 1
    print("screenshot: %s" % args.screenshot)
    return 0


def main(argv=None):
    try:
        args = parser().parse_args(argv)
        return run(args)
    except KeyboardInterrupt:
        # Ctrl-C: every mode has restored the terminal or closed its window on the way out.
        if sys.stderr.isatty():
            sys.stderr.write("\n")
        return INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
