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

from .headless import headless
from .net.wire import DEFAULT_PORT
from .recorder import Recorder
from .userfiles import UserFileError, output_path, read_input, write_atomically

INTERRUPTED = 130        # the exit status of a program stopped by Ctrl-C (128 + SIGINT)
NET_ERROR = 2            # a port that cannot be had, a host that cannot be reached
MAX_RECORD_BYTES = 1 << 20  # a whole match's record is a few KB
MAX_SETTINGS_BYTES = 1 << 16
MAX_SETTINGS_MESSAGES = 10  # then a count: a wrong file must not scroll the screen away
MAX_ROUNDS = 7              # the menu's limit, so a match from the command line is one it shows
MAX_WINDOW = (7680, 4320)   # 8K, the largest screens: memory grows with the area
PIXEL_ORDERS = ("GRB", "RGB", "BRG", "RBG", "GBR", "BGR", "GRBW", "RGBW")
RECORD_HEADER = "# Rolit game record"  # the first line of every record this program writes
IMAGE_MAGIC = (b"\x89PNG", b"BM", b"\xff\xd8\xff")
DEFAULT_FPS = 60
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


def parse_join(text):
    """``--join HOST[:PORT]`` -> ``("tcp", host, port)``; ``--join serial:PATH`` ->
    ``("serial", path)``; ``--join emulator`` -> ``("emulator",)``."""
    from .net.join import parse_address
    if text == "emulator":
        return ("emulator",)
    if text.startswith("serial:"):
        path = text[len("serial:"):]
        if not path:
            raise argparse.ArgumentTypeError("serial: needs the port, like serial:/dev/ttyACM1")
        return ("serial", path)
    try:
        return ("tcp",) + parse_address(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error))


def parse_cable(text):
    """``--cable serial:PATH`` -> the port's path."""
    if not text.startswith("serial:") or not text[len("serial:"):]:
        raise argparse.ArgumentTypeError("--cable takes serial:PATH, like serial:/dev/ttyACM1")
    return text[len("serial:"):]


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
    if not (160 <= size[0] <= MAX_WINDOW[0] and 120 <= size[1] <= MAX_WINDOW[1]):
        raise argparse.ArgumentTypeError("%s is out of range: 160x120 to %dx%d"
                                         % (text, MAX_WINDOW[0], MAX_WINDOW[1]))
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
    game.add_argument("--rounds", type=_number(1, MAX_ROUNDS, " (the menu's limit)"),
                      metavar="N", help="rounds in the match, 1-%d (default 1)" % MAX_ROUNDS)
    game.add_argument("--tie", choices=("shared", "none"), help="round tie rule (default shared)")
    game.add_argument("--time-limit", type=int, choices=(0, 30, 60), metavar="S",
                      help="seconds per move: 0 (off), 30 or 60")
    game.add_argument("--first", choices=("red", "yellow", "green", "blue"),
                      help="colour that starts (default: tossed)")
    net = p.add_argument_group("linked game over the network (docs/network.md; set it up in "
                               "the menu: its last page joins, a 'link' seat hosts)")
    linked = net.add_mutually_exclusive_group()
    linked.add_argument("--host", type=_number(0, 65535), nargs="?", const=DEFAULT_PORT,
                        metavar="PORT",
                        help="host a linked game: other simulators join over TCP, browsers "
                             "open http://HOST:PORT/ (default port %d; 0: any free one)"
                             % DEFAULT_PORT)
    linked.add_argument("--join", type=parse_join, metavar="HOST[:PORT]",
                        help="join the linked game a simulator hosts (port %d by default); "
                             "serial:PATH (e.g. serial:/dev/ttyACM1): a handheld's cable on a "
                             "serial port, where the menu hosts or joins; emulator: an emulated "
                             "Pico with the real firmware beside the simulator, linked by its "
                             "UART (python -m sim.emulate's)" % DEFAULT_PORT)
    net.add_argument("--cable", type=parse_cable, action="append", default=[],
                     metavar="serial:PATH",
                     help="with --host: a handheld on a serial port (its USB data channel, or "
                          "a USB-serial adapter on its link pins) takes a place in the game "
                          "beside the joiners; give it once per handheld")
    p.add_argument("--seed", type=int, help="seed for the toss and the computer players")
    p.add_argument("--record", metavar="FILE",
                   help="write the game record to FILE (after every move and at the end); "
                        "finished rounds of a match in FILE.roundN")
    p.add_argument("--replay", metavar="FILE",
                   help="start from a game record (Game.record() format) and play on from "
                        "there; with --rounds, as the first round of a match")
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
    drv.add_argument("--pixel-order", choices=PIXEL_ORDERS,
                     help="the order the driver sends (GRBW, RGBW: RGBW strips such as SK6812)")
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
    pan.add_argument("--panel-order", choices=PIXEL_ORDERS,
                     help="colour order of the panel's chips (default GRB, as WS2812B; "
                          "for a GRBW or RGBW driver the driver's order, as SK6812 RGBW)")
    view = p.add_argument_group("display")
    view.add_argument("--fps", type=_number(1, 240),
                      help="frames per second, 1-240 (default %d)" % DEFAULT_FPS)
    view.add_argument("--no-labels", action="store_true", help="hide the a-h / 1-8 labels")
    view.add_argument("--fullscreen", action="store_true")
    view.add_argument("--window-size", type=parse_window_size, metavar="WxH",
                      help="initial window size, e.g. 1200x800")
    view.add_argument("--colours", choices=("auto", "24bit", "256"),
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
    if args.settings is not None:
        from hardware import config
        check_settings_file(args.settings)
        try:
            settings = config.load(getenv=lambda key: None, path=args.settings)
        except (OSError, ValueError) as error:  # changed since the check
            _fail("--settings %s: cannot read it (%s)" % (args.settings, error))
        for message in settings.errors[:MAX_SETTINGS_MESSAGES]:
            print("settings: " + message, file=sys.stderr)
        if len(settings.errors) > MAX_SETTINGS_MESSAGES:
            print("settings: ... and %d more problems in %s"
                  % (len(settings.errors) - MAX_SETTINGS_MESSAGES, args.settings),
                  file=sys.stderr)
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


def check_settings_file(path):
    """A ``--settings`` file must be a regular file of UTF-8 text of at most 64 KB (the device's
    own is a few hundred bytes): else one line, before anything runs."""
    try:
        read_input("--settings", path, MAX_SETTINGS_BYTES, "a settings.toml")
    except UserFileError as error:
        _fail(str(error))


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


def position_frame(game):
    """The game's position as a frame: the board's colours, centred, the rest dark."""
    from rolit_core.palette import NORMAL
    frame = [(0, 0, 0)] * 64
    offset = (8 - game.size) // 2
    for cell in range(game.size * game.size):
        y, x = divmod(cell, game.size)
        frame[(y + offset) * 8 + x + offset] = NORMAL[game.board[cell]]
    return frame


# -- checks before anything runs -------------------------------------------------------------

def _fail(message):
    raise SystemExit("python -m sim: " + message)


def check_output(option, path, image=False):
    """A file the run will write (``sim.userfiles.output_path``), with the name of a picture
    type for ``image``; an existing one must be of the kind the option writes (a record this
    program wrote, a picture), else it is left untouched. Nothing is written to ``path``."""
    try:
        exists = output_path(option, path)
    except UserFileError as error:
        _fail(str(error))
    if image and os.path.splitext(path)[1].lower() not in IMAGE_TYPES:
        _fail("%s %s: the name must end in %s" % (option, path, ", ".join(IMAGE_TYPES)))
    if exists and not os.access(path, os.W_OK):
        _fail("%s %s: the file is read-only" % (option, path))
    if exists and os.path.getsize(path) and \
            not (_is_picture(path) if image else _is_record(path)):
        _fail("%s %s exists and is not %s: left untouched (delete it or give another name)"
              % (option, path, "a picture" if image else "a game record this program wrote"))


def _is_record(path):
    """Whether ``path`` begins like a record this program writes (``Game.record()``)."""
    try:
        with open(path, "rb") as file:
            head = file.read(len(RECORD_HEADER.encode()) + 3)
    except OSError:
        return False
    return head.decode("utf-8", "replace").lstrip("\ufeff").startswith(RECORD_HEADER)


def _is_picture(path):
    """Whether ``path`` holds a picture (PNG, BMP, JPEG by their first bytes; TGA, which has
    none, if pygame reads it)."""
    try:
        with open(path, "rb") as file:
            head = file.read(4)
        if head.startswith(IMAGE_MAGIC):
            return True
        if os.path.getsize(path) > 1 << 26:
            return False
        import pygame
        pygame.image.load(path)
    except Exception:  # pygame.error, OSError: not a picture
        return False
    return True


def read_record(path):
    """The text of a game record file, or a one-line SystemExit saying why it is unusable.
    Bytes that are not UTF-8 become U+FFFD, as in the browser, so that the record reader
    says the same about a file in both (``rolit_core.record``: "not a game record...")."""
    try:
        data = read_input("--replay", path, MAX_RECORD_BYTES, "a game record", text=False)
    except UserFileError as error:
        _fail(str(error))
    return data.decode("utf-8-sig", "replace")  # a byte-order mark from a Windows editor


def record_game(text, path):
    """The record's game; a bad record fails with the rules' message."""
    from rolit_core import Game
    try:
        return Game.from_record(text)
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
    if args.time_limit and (args.headless or (seats is not None and "human" not in seats)):
        # the App times a person's moves only: computers answer in their own time
        _fail("--time-limit times a person's moves, and %s has no person"
              % ("--headless" if args.headless else "--players " + ",".join(seats)))
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


def open_storage(args, mode, warnings=None):
    """The FileStorage to use, checked (None: keep nothing). The default file in the user data
    folder is only for the window and the terminal; when it cannot be used the game runs
    without it (never touching it) and says so at once on stderr and, through ``warnings`` (a
    list, if given), beside the panel. A ``--storage FILE`` that cannot be used stops the run."""
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
            if getattr(error, "foreign", False):
                warning = ("Settings will not be kept: %s is not a Rolit Handheld save (left "
                           "untouched): delete it or use --storage FILE" % path)
                # short enough for an 80-column terminal's status line
                shown = ("%s is not this game's save: delete it or use --storage FILE"
                         % os.path.basename(path))
            else:
                warning = shown = "Settings will not be kept: %s" % error
            print(warning, file=sys.stderr)
            if warnings is not None:
                warnings.append(shown)
            return None
        return storage
    storage = FileStorage(path)
    try:
        storage.check()
    except StorageError as error:
        _fail("--storage " + str(error))
    return storage


# -- running ---------------------------------------------------------------------------------

def build(args, storage=None, text=None, warnings=None):
    """The App (started or loaded as asked) and the Device that shows it. A game asked for on
    the command line never replaces an unfinished one in the storage: the run saves nothing
    (``app.storage`` None), said on stderr and through ``warnings`` (a list, if given)."""
    from rolit_core.app import App
    from .device import Device, FileStorage

    driver, panel = driver_settings(args)
    try:
        device = Device(None, driver, panel)  # checked before the App touches the storage
    except ValueError as error:
        raise SystemExit("matrix settings: %s" % error)
    if storage is None and args.storage and args.storage.lower() != "none":
        storage = FileStorage(args.storage)
    link = None
    if getattr(args, "host", None) is not None or getattr(args, "join", None) is not None:
        from rolit_core.link import Link
        link = Link()
    # the desktop offers expert too
    app = App(storage=storage, seed=args.seed, levels=LEVELS, link=link)
    device.app = app
    options = start_options(args)
    match = app.match
    if (args.replay or options is not None) and match is not None and not match.over:
        app.storage = None
        print("Nothing is saved this run, so that the unfinished game in %s is kept (python -m "
              "sim without game options resumes it)" % storage.path, file=sys.stderr)
        if warnings is not None:
            warnings.append("Not saved: the unfinished game in %s is kept"
                            % os.path.basename(storage.path))
    if args.replay:
        if text is None:
            text = read_record(args.replay)
        more = {}
        if args.rounds is not None:
            more["rounds"] = args.rounds
        if args.time_limit is not None:
            more["time_limit"] = args.time_limit
        try:
            app.start(seats=args.players or (), record=text, **more)
        except ValueError as error:
            raise SystemExit("%s: %s" % (args.replay, error))
    elif options is not None:
        try:
            app.start(**options)
        except ValueError as error:
            raise SystemExit("cannot start that game: %s" % error)
    return app, device


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


# Options that only some modes use, by the modes (and "screenshot": a --screenshot) that do.
# Every other combination is refused in one line: an option is never dropped without a word.
_DRIVER = ("settings", "layout", "rotation", "mirror", "pixel_order", "gamma", "brightness",
           "max_ma", "panel_layout", "panel_rotation", "panel_mirror", "panel_order")
MODE_OPTIONS = tuple([(name, ("window", "terminal", "screenshot")) for name in _DRIVER]) + (
    ("fps", ("window", "terminal")),
    ("sound", ("window", "terminal")),
    ("no_labels", ("window", "terminal", "screenshot")),
    ("fullscreen", ("window",)),
    ("window_size", ("window",)),
    ("colours", ("terminal",)),
)
_WHY = {"window": "only the window uses it", "terminal": "only the terminal uses it"}


def _flag(name):
    return "--" + name.replace("_", "-")


def unused_options(args, mode):
    """The options given that ``mode`` (with or without a --screenshot) would not use."""
    unused = []
    for name, modes in MODE_OPTIONS:
        if getattr(args, name) is None or getattr(args, name) is False:
            continue
        if mode in modes or (args.screenshot and "screenshot" in modes):
            continue
        unused.append(name)
    return unused


def check_mode_options(args, mode):
    """Refuse, in one line, an option the chosen mode would not use."""
    unused = unused_options(args, mode)
    if not unused:
        return
    name = unused[0]
    modes = dict(MODE_OPTIONS)[name]
    if "screenshot" in modes and mode == "headless":
        _fail("%s changes only the picture, and --headless draws none without --screenshot"
              % _flag(name))
    if mode == "terminal" and not args.terminal:
        _fail("%s needs the window, which cannot open here (see above)" % _flag(name))
    why = _WHY.get(modes[0]) if len(modes) == 1 else "only the window and the terminal use it"
    _fail("%s: %s, not --%s" % (_flag(name), why, mode))


def check_replay_options(args, game):
    """``--replay`` takes the board size, teams, tie rule and first colour from the record:
    an option that says otherwise is refused (one that agrees is fine). ``--rounds`` and
    ``--time-limit`` make the record's game the first round of a match, with that clock."""
    from rolit_core.board import NAMES
    record = {"size": game.size, "teams": game.teams, "tie": game.tie,
              "first": NAMES[game.first]}
    shown = {"size": "%dx%d" % (game.size, game.size),
             "teams": "two colours each" if game.teams else "one colour each",
             "tie": "tie rule %s" % game.tie,
             "first": "%s first" % NAMES[game.first].capitalize()}
    for name in ("size", "teams", "tie", "first"):
        value = getattr(args, name)
        if value is None or value is False or value == record[name]:
            continue
        _fail("%s: %s is %s (--replay takes the size, teams, tie and first colour from the "
              "record)" % (_flag(name), args.replay, shown[name]))


def check_distinct(args):
    """No file is both written by one option and read or written by another (through links
    too): the record over the settings, the picture over the record... The one exception is
    ``--replay FILE --record FILE``, which plays on and keeps the longer record there."""
    storage = args.storage if args.storage and args.storage.lower() != "none" else None
    files = [(name, path) for name, path in (
        ("--storage", storage), ("--record", args.record), ("--screenshot", args.screenshot),
        ("--replay", args.replay), ("--settings", args.settings)) if path]
    for i in range(len(files)):
        for j in range(i + 1, len(files)):
            (one, first), (other, second) = files[i], files[j]
            if (one, other) == ("--record", "--replay") or \
                    os.path.realpath(first) != os.path.realpath(second):
                continue
            _fail("%s and %s are the same file: %s" % (one, other, second))


def check_link_options(args):
    """``--host`` and ``--join`` play a linked game set up in the menu, by people: refuse in
    one line what cannot go with them."""
    if args.cable and args.host is None:
        _fail("--cable: a handheld on a cable takes a place in a game this simulator hosts: "
              "give --host too (to join a handheld's game, --join serial:PATH)")
    if args.host is None and args.join is None:
        return
    flag = "--host" if args.host is not None else "--join"
    if args.headless:
        _fail("%s plays a linked game with people at each end: not --headless" % flag)
    if args.replay is not None:
        _fail("%s: a linked game starts in the menu, not from --replay" % flag)
    if start_options(args) is not None:
        _fail("%s: a linked game is set up in the menu (the host's 'link' seats, the joiner's "
              "last page): leave out the game options" % flag)


def open_cable(args):
    """The network end the App's link is pumped through (``sim.net``), or None. A port that
    cannot be had or a host that cannot be reached is one line on stderr, exit status 2."""
    from .net import NetError, NetHost, NetJoin
    try:
        if args.host is not None:
            if len(args.cable) > 3:
                raise NetError("--cable: at most 3 handhelds join a game (4 seats)")
            from .net.serial import SerialLink
            cable = NetHost(args.host)
            for path in args.cable:
                try:
                    cable.add_cable(SerialLink(path), path)
                except NetError:
                    cable.close()
                    raise
            for line in cable.describe():
                print(line)
            sys.stdout.flush()  # seen at once through a pipe too (a script waiting for it)
            return cable
        if args.join == ("emulator",):
            from .net.emulated import start_chip
            cable = start_chip()
            print("an emulated Pico with the game is starting, its UART0 the link: host with a "
                  "'link' seat on one board, join from the other's menu (its last page); Tab "
                  "chooses the board your keys go to. The simulator runs on the chip's clock.")
            sys.stdout.flush()
            return cable
        if args.join is not None and args.join[0] == "serial":
            from .net.serial import SerialLink
            cable = SerialLink(args.join[1])
            print("linked on %s: a 'link' seat hosts, the menu's last page (UP from play) joins"
                  % args.join[1])
            return cable
        if args.join is not None:
            cable = NetJoin(*args.join[1:])
            print("connected to %s:%d: choose the menu's last page (UP from play) and join"
                  % args.join[1:])
            return cable
    except NetError as error:
        print("python -m sim: %s" % error, file=sys.stderr)
        raise SystemExit(NET_ERROR)
    return None


def cable_lines(cable):
    """What the network end says beside the panel: where to join a host, why a joiner is not
    linked."""
    from .net import NetHost
    from .net.serial import SerialLink
    if cable is None:
        return ()
    if getattr(cable, "chip", None) is not None:  # --join emulator (sim.net.emulated)
        return ("Cable: the emulated Pico's UART0",)
    if isinstance(cable, SerialLink):
        if cable.state == "linked":
            return ("Cable: %s" % cable.path,)
        return ("Cable: %s (trying again)" % cable.reason,)
    if isinstance(cable, NetHost):
        lines = cable.describe()
        shown = ["Hosting on port %d, %d joined" % (cable.port, len(cable.joiners()))]
        if len(lines) > 1:
            shown.append(lines[1].strip())
        return tuple(shown)
    if cable.state == "linked":
        return ("Joined %s:%d" % (cable.host, cable.port),)
    if cable.state == "refused":
        return ("Network: refused: %s" % cable.reason,)
    if cable.reason:
        return ("Network: %s (trying again)" % cable.reason,)
    return ("Network: connecting to %s:%d" % (cable.host, cable.port),)


def check(args, warnings=None):
    """Every argument and path, before anything runs. Returns the mode, the storage and the
    replayed record's text; ``warnings`` (a list) gets what the run should show on screen."""
    text = None
    players_in_record = None
    if args.replay is not None:
        text = read_record(args.replay)
        game = record_game(text, args.replay)
        players_in_record = game.players
        check_replay_options(args, game)
    check_seats(args, players_in_record)
    check_link_options(args)
    check_distinct(args)
    if args.settings is not None:
        check_settings_file(args.settings)
    if args.record is not None:
        check_output("--record", args.record)
    if args.screenshot is not None:
        check_output("--screenshot", args.screenshot, image=True)
    mode = choose_mode(args)
    check_mode_options(args, mode)
    if mode == "terminal" and not os.isatty(sys.stdin.fileno()):
        _fail("terminal mode needs a terminal (stdin is not a tty); --headless runs without one")
    storage = open_storage(args, mode, warnings)
    return mode, storage, text


def run(args):
    from .device import describe

    warnings = []
    mode, storage, text = check(args, warnings)
    app, device = build(args, storage, text, warnings)
    device.cable = open_cable(args)
    storage = app.storage
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
        take_log = getattr(device.cable, "take_log", None)
        if take_log is not None:
            for line in take_log():
                hub_log.append(line)
                if mode == "window":  # the terminal's screen would be scrolled by stderr
                    print("link: " + line, file=sys.stderr)

    hub_log = []

    def information(app_):
        info = describe(app_, seat_names)
        net = cable_lines(device.cable)
        if net:
            info["status"] = tuple(info.get("status", ())) + net
        if hub_log and "notice" not in info:
            info["notice"] = hub_log[-1]
        if recorder is not None and recorder.failure and "notice" not in info:
            info["notice"] = recorder.failure
        if warnings and "notice" not in info:
            info["notice"] = warnings[0]  # the terminal's screen hides what went to stderr
        return info

    status = 0
    try:
        if getattr(device.cable, "chip", None) is not None:  # --join emulator: both boards
            from .net import emulated
            emulated.run(args, mode, device, information)
            mode = "linked"
        if mode == "window":
            mode = run_window(args, device, seat_names, information, on_frame)
        if mode == "headless":
            status = headless(args, app, device, recorder)
        elif mode == "terminal":
            from . import terminal
            truecolour = None if args.colours in (None, "auto") else args.colours == "24bit"
            shown = information
            if args.no_labels:
                def shown(app_):
                    info = information(app_)
                    info.pop("size", None)  # the a-h / 1-8 labels go with the board's size
                    return info
            terminal.run(device, shown, fps=args.fps or DEFAULT_FPS, truecolour=truecolour,
                         on_frame=on_frame)
    finally:
        if device.cable is not None:
            device.cable.close()  # the joiners see the connection close: "link lost"
        if device.speaker is not None:
            device.speaker.close()
        if storage is not None and mode != "headless":
            save_on_quit(app, storage)
    if recorder is not None:
        recorder.update(app)
        for note in recorder.notes:
            print(note, file=sys.stderr)
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
    # The first game's how-to, once: remembered in the simulator's data folder, beside the save.
    path = getattr(getattr(device.app, "storage", None), "path", None)
    howto = os.path.join(os.path.dirname(path), window_module.HOWTO_FILE) \
        if path and args.storage is None else None
    try:
        win = window_module.Window(device, size=args.window_size, labels=not args.no_labels,
                                   fullscreen=args.fullscreen, seat_names=seat_names,
                                   fps=args.fps or DEFAULT_FPS, describe=information,
                                   howto=howto)
    except Exception as error:  # the display went away, a size the screen refuses...
        if args.window or not os.isatty(sys.stdin.fileno()):
            _fail("cannot open a window: %s" % error)
        unused = unused_options(args, "terminal")
        if unused:
            _fail("cannot open a window (%s), which %s needs" % (error, _flag(unused[0])))
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
    if args.no_labels:
        info.pop("size", None)
    try:
        write_atomically(args.screenshot, lambda path: screenshot(device.colours, info, path))
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
