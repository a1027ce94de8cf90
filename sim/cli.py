"""``python -m sim``: the handheld game in a window, a terminal, or headless.

Run ``python -m sim --help`` for the options; docs/simulator.md explains them.
"""

import argparse
import os
import sys

LEVELS = ("easy", "medium", "hard", "expert")
SEATS = ("human",) + LEVELS


def parse_players(text):
    """``"human,hard"`` -> ``("human", "hard")``; 1-4 seats, each human or a computer level."""
    seats = tuple([part.strip().lower() for part in text.split(",") if part.strip()])
    if not 1 <= len(seats) <= 4:
        raise argparse.ArgumentTypeError("--players needs 1 to 4 seats, like human,hard")
    for seat in seats:
        if seat not in SEATS:
            raise argparse.ArgumentTypeError("unknown seat %r: use %s" % (seat, ", ".join(SEATS)))
    return seats


def parser():
    p = argparse.ArgumentParser(
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
    game.add_argument("--rounds", type=int, metavar="N", help="rounds in the match (default 1)")
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
    p.add_argument("--screenshot", metavar="FILE", help="save a PNG of the board at the end")
    p.add_argument("--storage", metavar="FILE",
                   help="keep settings and the saved game in FILE between runs, like the device")
    drv = p.add_argument_group("matrix driver (as in the device's settings.toml)")
    drv.add_argument("--settings", metavar="FILE",
                     help="read the driver settings from a device settings.toml")
    drv.add_argument("--layout", choices=("rows", "serpentine"))
    drv.add_argument("--rotation", type=int, choices=(0, 90, 180, 270))
    drv.add_argument("--mirror", action="store_true", default=None)
    drv.add_argument("--pixel-order", choices=("GRB", "RGB", "BRG", "RBG", "GBR", "BGR"))
    drv.add_argument("--gamma", type=int, metavar="TENTHS", help="22 = 2.2 (default), 10 = none")
    drv.add_argument("--brightness", type=int, metavar="PERCENT",
                     help="driver brightness (default 100 here; the device's default is 30)")
    drv.add_argument("--max-ma", type=int, metavar="MA", help="current budget (default 500)")
    pan = p.add_argument_group("simulated panel (defaults to matching the driver)")
    pan.add_argument("--panel-layout", choices=("rows", "serpentine"))
    pan.add_argument("--panel-rotation", type=int, choices=(0, 90, 180, 270))
    pan.add_argument("--panel-mirror", action="store_true", default=None)
    pan.add_argument("--panel-order", choices=("GRB", "RGB", "BRG", "RBG", "GBR", "BGR"),
                     help="colour order of the panel's chips (default GRB, as WS2812B)")
    view = p.add_argument_group("display")
    view.add_argument("--fps", type=int, default=60, help="frames per second (default 60)")
    view.add_argument("--no-labels", action="store_true", help="hide the a-h / 1-8 labels")
    view.add_argument("--fullscreen", action="store_true")
    view.add_argument("--window-size", metavar="WxH", help="initial window size, e.g. 1200x800")
    view.add_argument("--colours", choices=("auto", "24bit", "256"), default="auto",
                      help="terminal colours (default: 24-bit unless the terminal lacks it)")
    view.add_argument("--sound", type=int, nargs="?", const=50, metavar="VOLUME",
                      help="play the buzzer's cues on the speaker (volume 1-100, default 50)")
    return p


def driver_settings(args):
    """The Matrix keyword arguments (plus ``pixel_order``) and the panel settings."""
    driver = {"brightness": 100}
    if args.settings:
        from hardware import config
        if not os.path.exists(args.settings):
            raise SystemExit("no such settings file: %s" % args.settings)
        settings = config.load(getenv=lambda key: None, path=args.settings)
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
    SDL video driver, such as ``dummy`` in tests)."""
    environ = os.environ if environ is None else environ
    if environ.get("SDL_VIDEODRIVER"):
        return True
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))
    return True


class Recorder:
    """Writes the record of the game in play to a file whenever a move was made. In a match of
    several rounds, each finished round stays in ``FILE.roundN``."""

    def __init__(self, path):
        self.path = path
        self.game = None
        self.plies = -1
        self.rounds = 0

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

    @staticmethod
    def _write(path, game):
        temporary = path + ".tmp"
        with open(temporary, "w") as file:
            file.write(game.record())
        os.replace(temporary, path)


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


def build(args):
    """The App (started or loaded as asked) and the Device that shows it."""
    from rolit_core.app import App
    from .device import Device, FileStorage

    storage = FileStorage(args.storage) if args.storage else None
    app = App(storage=storage, seed=args.seed, levels=LEVELS)  # the desktop offers expert too
    options = start_options(args)
    if args.replay:
        try:
            with open(args.replay) as file:
                text = file.read()
        except OSError as error:
            raise SystemExit("cannot read %s: %s" % (args.replay, error))
        try:
            app.load_record(text, seats=args.players)
        except ValueError as error:
            raise SystemExit("%s: %s" % (args.replay, error))
    elif options is not None:
        try:
            app.start(**options)
        except ValueError as error:
            raise SystemExit("cannot start that game: %s" % error)
    driver, panel = driver_settings(args)
    try:
        device = Device(app, driver, panel)
    except ValueError as error:
        raise SystemExit("matrix settings: %s" % error)
    return app, device


def headless(args, app, device, recorder, frame_ms=20, limit_ms=4 * 3600 * 1000):
    """Play to the end on a fake clock, as fast as the computers think."""
    from rolit_core.app import SELECT
    game = getattr(app, "game", None)
    if game is None:
        raise SystemExit("--headless needs a game: give --players (all computers) or --replay")
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
    game = app.game
    scores = game.scores()
    letters = " RYGB"
    parts = ["%s %d" % ("+".join([letters[c] for c in game.seat_colours[seat]]), scores[seat])
             for seat in range(len(scores))]
    print("game over after %d moves: %s" % (len(game.board.moves), ", ".join(parts)))
    return 0


def run(args):
    from .device import describe

    mode = "headless" if args.headless else "terminal" if args.terminal else "window"
    if mode == "window" and not args.window and not display_available():
        print("No display found (no DISPLAY or WAYLAND_DISPLAY): starting the terminal mode.",
              file=sys.stderr)
        mode = "terminal"
    if mode == "headless" and args.players and "human" in args.players:
        raise SystemExit("--headless plays computers only: --players like hard,medium")
    app, device = build(args)
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

    status = 0
    if mode == "headless":
        status = headless(args, app, device, recorder)
    elif mode == "window":
        win = None
        try:
            from . import window as window_module
            size = None
            if args.window_size:
                width, _, height = args.window_size.lower().partition("x")
                size = (int(width), int(height))
            win = window_module.Window(device, size=size, labels=not args.no_labels,
                                       fullscreen=args.fullscreen, seat_names=seat_names,
                                       fps=args.fps)
        except Exception as error:  # no SDL, no video device, bad size: fall back
            if args.window:
                raise SystemExit("cannot open a window: %s" % error)
            print("Cannot open a window (%s): starting the terminal mode." % error,
                  file=sys.stderr)
            mode = "terminal"
        if win is not None:
            try:
                win.run(on_frame)
            finally:
                win.close()
    if mode == "terminal":
        from . import terminal
        truecolour = None if args.colours == "auto" else args.colours == "24bit"
        terminal.run(device, lambda app_: describe(app_, seat_names), fps=args.fps,
                     truecolour=truecolour, on_frame=on_frame)
    if device.speaker is not None:
        device.speaker.close()
    if recorder is not None:
        recorder.update(app)
    if args.screenshot:
        from .window import screenshot
        game = getattr(app, "game", None)
        if game is not None:
            device.show(position_frame(game))
        info = describe(app, seat_names)
        if game is not None:
            info["size"] = game.size  # the picture is the final position: label it
        screenshot(device.colours, info, args.screenshot)
        print("screenshot: %s" % args.screenshot)
    return status


def main(argv=None):
    args = parser().parse_args(argv)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
