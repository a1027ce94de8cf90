"""code.py on CPython with the device doubles: one-button and joystick play, bad settings,
repeated crashes. (The MicroPython run of the deployed folder is in test_deploy.py.)"""

import os
import re
import runpy
import sys
import time

import pytest

from device_doubles import Device
from rolit_core.app import App

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRESH = ("hardware.handheld", "hardware.main")   # import supervisor.ticks_ms when loaded


@pytest.fixture
def device(monkeypatch, tmp_path):
    dev = Device()
    saved = {}
    for name in FRESH:
        saved[name] = sys.modules.pop(name, None)
    monkeypatch.chdir(tmp_path)
    # The fake clock moves with every reading; real sleeping would only slow the tests down.
    monkeypatch.setattr(time, "sleep", lambda seconds: None)
    dev.neopixel_write.KEEP = 100000
    yield dev
    for name in FRESH:
        sys.modules.pop(name, None)
        if saved[name] is not None:
            sys.modules[name] = saved[name]
    dev.close()


def boot(device, settings, stop_ms, script=()):
    """Run code.py until the fake clock reaches ``stop_ms``."""
    with open("settings.toml", "w") as handle:
        handle.write("ROLIT_FRAME_MS = 0\n" + settings)
    device.supervisor.STOP_AT = stop_ms
    device.keypad.SCRIPT[:] = list(script)
    with pytest.raises(KeyboardInterrupt):
        runpy.run_path(os.path.join(ROOT, "code.py"), run_name="__main__")


def moves_logged(out):
    return re.findall(r"^\s+\d+\. ([RYGB]) ([a-h]\d)", out, re.M)


def seed_where_red_starts():
    for seed in range(100):
        app = App(seed=seed)
        app.start(seats=("human", "easy"))
        if app.game.first == 1:
            return seed
    raise AssertionError("no seed found")


def replay(seed, timeline, until):
    """The App fed directly with ``timeline`` ({ms: events}) at the device's frame times: what
    the drivers should have produced. Returns the app and its cursor at each listed time."""
    from rolit_core.app import App as Plain

    app = Plain(seed=seed)
    cursors = {}
    for t in range(0, until, 20):
        app.update(t, timeline.get(t, []))
        cursors[t] = app.cursor
    return app, cursors


def test_one_button_plays_the_next_legal_cell(device, capsys):
    from rolit_core.app import SELECT

    seed = seed_where_red_starts()
    script = [
        (200, "GP6", True), (260, "GP6", False),     # short: title -> menu
        (1000, "GP6", True), (1800, "GP6", False),   # long: SELECT on the menu's play page
        (3000, "GP6", True), (3060, "GP6", False),   # short: cursor to the next legal cell
        (4000, "GP6", True), (4800, "GP6", False),   # long: preview, then place on release
    ]
    boot(device, 'ROLIT_INPUT = "onebutton"\nROLIT_SEED = %d\n' % seed, 6000, script)
    out = capsys.readouterr().out
    assert "controls: onebutton" in out
    # Where the cursor was when the short press came, and the legal cells then.
    app, cursors = replay(seed, {200: [(SELECT, True), (SELECT, False)],
                                 1600: [(SELECT, True)], 1800: [(SELECT, False)]}, 3060)
    legal = app.game.legal_moves()
    after = [cell for cell in legal if cell > cursors[3040]]
    expected = after[0] if after else legal[0]
    assert expected != cursors[3040]
    assert moves_logged(out)[0] == ("R", app.game.board.cell_name(expected))


def test_joystick_moves_and_presses(device, capsys):
    from rolit_core.app import DOWN, SELECT

    seed = seed_where_red_starts()
    clock = device.supervisor

    def y_axis():
        t = clock.elapsed
        return 65535 if 3000 <= t < 3100 or 3400 <= t < 3500 else 32500

    device.analogio.VALUES["GP26"] = 32900
    device.analogio.VALUES["GP27"] = y_axis
    script = [(200, "GP22", True), (220, "GP22", False),     # title -> menu
              (1000, "GP22", True), (1020, "GP22", False),   # play
              (4000, "GP22", True), (4100, "GP22", False)]   # place two rows down
    boot(device, 'ROLIT_INPUT = "joystick"\nROLIT_SEED = %d\n' % seed, 5000, script)
    out = capsys.readouterr().out
    assert "controls: joystick" in out and "settings:" not in out
    # The same game fed the keys directly places the same ball.
    tap = [(SELECT, True), (SELECT, False)]
    app, cursors = replay(seed, {200: tap, 1000: tap, 3000: [(DOWN, True)],
                                 3100: [(DOWN, False)], 3400: [(DOWN, True)],
                                 3500: [(DOWN, False)], 4000: [(SELECT, True)],
                                 4100: [(SELECT, False)]}, 4200)
    assert cursors[3500] == cursors[2980] + 16
    assert app.game.moves == [cursors[3500]]
    assert moves_logged(out) == [("R", app.game.board.cell_name(cursors[3500]))]


def test_bad_settings_show_a_pattern_and_the_game_still_runs(device, capsys):
    boot(device, 'ROLIT_ROTATION = 45\nROLIT_PIN_UP = "GP99"\nROLIT_VOLUME = "loud"\n', 5000,
         [(3000, "GP6", True), (3020, "GP6", False)])
    out = capsys.readouterr().out
    assert "settings: ROLIT_ROTATION = 45 should be one of 0, 90, 180, 270; using 0" in out
    assert "settings: ROLIT_VOLUME = 'loud' should be a whole number from 0 to 100" in out
    assert "settings: up button: this board has no pin 'GP99'" in out
    assert "up button: using the pico pin GP2 instead" in out
    first = device.neopixel_write.FRAMES[1][1]  # after the first light
    # Yellow border (GRB bytes, gamma and 30 % brightness applied) and 4 white dots.
    yellow = first[0:3]
    assert yellow[0] > 0 and yellow[1] > 0 and yellow[2] == 0
    assert first[3 * 7:3 * 8] == yellow and first[3 * 56:3 * 57] == yellow
    dots = [i for i in range(64) if first[3 * i] == first[3 * i + 1] == first[3 * i + 2] > 0]
    assert len(dots) == 4
    # Then the game runs: frames keep coming after the 2 s pattern.
    assert device.neopixel_write.count > 5
    assert "error in frame" not in out


def test_repeated_crashes_back_off_and_skip_the_save(device, capsys, monkeypatch):
    def broken(self, now_ms, events=()):
        raise ValueError("broken frame")

    monkeypatch.setattr(App, "update", broken)
    boot(device, "", 20000)
    captured = capsys.readouterr()
    out = captured.out + captured.err
    restarts = out.count("restarting the game from the saved state")
    # Waits of 1, 2, 3, 4, 5 s between tries: at most 6 tries in 20 s, never a tight loop.
    assert 4 <= restarts <= 6
    assert "crashed 3 times in a row: starting without loading the saved game" in out
    assert out.count("ValueError: broken frame") == out.count("error in frame") == restarts + 1
    last = device.neopixel_write.FRAMES[-1][1]
    assert last[3:6] == last[0:3] and last[1] > 0 and last[0] == 0  # red border (GRB)


def test_start_up_code_is_left_for_the_collector(device, capsys, monkeypatch):
    # Settings come from settings.toml, but hardware.config, parts, wiring and startup are
    # forgotten once the handheld is built, and the buzzer, joystick and one-button drivers are
    # never loaded when the settings skip them.
    names = ("config", "parts", "startup", "wiring", "firstlight", "presets", "buzzer", "joystick",
             "onebutton")
    for name in names:
        monkeypatch.delitem(sys.modules, "hardware." + name, raising=False)
    import hardware

    for name in names:
        monkeypatch.delattr(hardware, name, raising=False)
    boot(device, 'ROLIT_BRIGHTNESS = 55\nROLIT_PIXEL_ORDER = "rgb"\n', 3000,
         [(200, "GP6", True), (220, "GP6", False)])
    out = capsys.readouterr().out
    assert "pico pin GP0, RGB, rows, rotation 0, brightness 55%, budget 500 mA" in out
    assert "controls: buttons; sound: off" in out and "settings:" not in out
    assert device.neopixel_write.count >= 2   # the title, then the menu
    for name in names:
        assert "hardware." + name not in sys.modules
        assert not hasattr(hardware, name)


def test_buzzer_and_one_button_still_load_when_the_settings_use_them(device, capsys):
    boot(device, 'ROLIT_VOLUME = 40\nROLIT_INPUT = "onebutton"\n', 2000)
    out = capsys.readouterr().out
    assert "controls: onebutton; sound: volume 40" in out and "settings:" not in out
    assert "hardware.buzzer" in sys.modules and "hardware.onebutton" in sys.modules


def red_corners(frame_bytes):
    """True if the four corner LEDs show red (GRB bytes: green 0, red lit, blue 0)."""
    for i in (0, 7, 56, 63):
        g, r, b = frame_bytes[3 * i:3 * i + 3]
        if not (r > 0 and g == 0 and b == 0):
            return False
    return True


def test_every_failed_save_is_printed_and_shown(device, capsys):
    # a save file in a folder that does not exist: every save fails
    boot(device, 'ROLIT_STORAGE = "file"\nROLIT_SAVE_FILE = "missing/rolit.sav"\n', 4000,
         [(200, "GP6", True), (220, "GP6", False), (1000, "GP6", True), (1020, "GP6", False)])
    out = capsys.readouterr().out
    assert "NOT SAVED (1 failed saves): storage failed to save: cannot write missing/rolit.sav" \
        in out
    assert "error in frame" not in out
    frames = [data for _, data in device.neopixel_write.FRAMES]
    assert any(red_corners(f) for f in frames)


def test_a_working_store_prints_no_save_problem(device, capsys):
    boot(device, "", 4000,
         [(200, "GP6", True), (220, "GP6", False), (1000, "GP6", True), (1020, "GP6", False)])
    out = capsys.readouterr().out
    assert "game 1:" in out and "NOT SAVED" not in out and "saved game:" not in out


def test_the_centre_lights_dimly_before_the_game_is_loaded(device):
    # code.py's first write to the matrix comes before it imports the game (seconds on a
    # board): the four centre pixels, dim; then the title's frames.
    boot(device, "", 400)
    pin, first = device.neopixel_write.FRAMES[0]
    assert pin == "GP0" and len(first) == 192
    lit = [i for i in range(64) if first[3 * i:3 * i + 3] != b"\x00\x00\x00"]
    assert lit == [27, 28, 35, 36]
    assert all(first[3 * i:3 * i + 3] == b"\x08\x08\x08" for i in lit)
    assert len(device.neopixel_write.FRAMES) >= 2


def test_the_first_light_never_stops_the_start(device, monkeypatch):
    from hardware import firstlight

    monkeypatch.setenv("ROLIT_MATRIX_PIN", "GP99")
    assert firstlight.light() is False
    monkeypatch.setenv("ROLIT_MATRIX_PIN", "GP16")
    monkeypatch.setenv("ROLIT_PIXEL_ORDER", "GRBW")
    assert firstlight.light() is True
    pin, sent = device.neopixel_write.FRAMES[-1]
    assert pin == "GP16" and len(sent) == 256 and sent[27 * 4:27 * 4 + 4] == b"\x08\x08\x08\x00"


class LinkedApp:
    """The little of an App that code.py's frame loop asks of it, with a link; ``said(n)``, the
    bytes update ``n`` says on the link, and ``took`` ms each update takes on ``clock``."""

    game = None
    thinker = None
    error = None
    link_status = None
    save_failures = 0
    wants_restart = False
    dirty = False

    def __init__(self, said=lambda n: b"", clock=None, took=0):
        from rolit_core.link import Link

        self.link = Link()
        self.link.node = 0
        self.cues = []
        self.frames = 0
        self.said = said
        self.clock = clock
        self.took = took

    def update(self, now, events):
        self.frames += 1
        if self.clock is not None:
            self.clock[0] += self.took
        payload = self.said(self.frames)
        if payload:
            self.link.tell(1, 5, payload)
        return [(0, 0, 0)] * 64


def run_linked_session(app, cable, frame_ms, frames, show=lambda frame: None):
    """code.py's frame loop (hardware.main.Session) for ``frames`` frames, the handheld doubles
    giving it ``cable`` (and ``show``, its LEDs)."""
    from types import SimpleNamespace

    from hardware.main import Session

    handheld = SimpleNamespace(cable=cable, storage=SimpleNamespace(error=None),
                               poll=lambda now, app: [], show=show,
                               sound=lambda cues, now: None)
    Session(SimpleNamespace(frame_ms=frame_ms, max_frames=frames), handheld).run(app)


def test_what_an_update_says_on_the_link_is_written_in_the_same_frame():
    # A move (or the host's answer to one) made in an update goes on the cable before the frame
    # ends: left for the next frame's pump, it would wait a frame at each handheld round the
    # ring. So do frames passing by: the cable is pumped after each long part of a frame.
    seen = []

    class Cable:
        def pump(self, link, now):
            seen.append(("pump", app.frames, bytes(link.output())))

    app = LinkedApp(said=lambda n: b"move" if n == 2 else b"")
    run_linked_session(app, Cable(), 0, 3, show=lambda frame: seen.append(("show", app.frames)))
    # each frame: before the update, after it, after the LEDs, after the collection
    assert [step[:2] for step in seen] == [
        ("pump", 0), ("pump", 1), ("show", 1), ("pump", 1), ("pump", 1),
        ("pump", 1), ("pump", 2), ("show", 2), ("pump", 2), ("pump", 2),
        ("pump", 2), ("pump", 3), ("show", 3), ("pump", 3), ("pump", 3)]
    written = [step for step in seen if step[0] == "pump" and step[2]]
    assert len(written) == 1 and b"move" in written[0][2]
    assert seen.index(written[0]) == 6  # right after update 2, before its LEDs


def test_while_a_frame_waits_out_its_time_the_cable_passes_frames_on(monkeypatch):
    # A frame on its way round the ring waits at each handheld for that handheld's next pump:
    # pumped only once a frame, four handhelds would hold a move for frames at a time.
    import importlib

    main = importlib.import_module("hardware.main")  # the one run_linked_session runs
    clock = [0]
    pumps = []
    monkeypatch.setattr(main, "ticks_ms", lambda: clock[0])
    monkeypatch.setattr(main.time, "sleep", lambda seconds: clock.__setitem__(
        0, clock[0] + int(round(seconds * 1000))))

    class Cable:
        def pump(self, link, now):
            pumps.append(now)

    run_linked_session(LinkedApp(clock=clock, took=3), Cable(), 20, 2)  # updates of 3 ms
    # each 20 ms frame: the pumps before the update and after its parts, then every 4 ms of
    # the 17 ms left
    assert pumps == [0, 3, 3, 3, 7, 11, 15, 19, 20, 20, 23, 23, 23, 27, 31, 35, 39, 40]


def test_an_app_that_wants_a_fresh_interpreter_is_saved_and_code_py_reloaded(monkeypatch):
    # A board compiling from source restarts code.py when a linked game that forgot the
    # computer players ends (App.wants_restart): what the app holds is saved first, the
    # reload comes after that frame is shown, and a Python without supervisor plays on.
    import sys
    from types import ModuleType

    class Reload(BaseException):  # CircuitPython's reload leaves the program the same way
        pass

    seen = []
    supervisor = ModuleType("supervisor")

    def reload():
        seen.append("reload")
        raise Reload()

    supervisor.reload = reload

    class Restarting(LinkedApp):
        def update(self, now, events):
            frame = LinkedApp.update(self, now, events)
            if self.frames == 2:
                self.wants_restart = True
                self.dirty = True
            return frame

        def save(self):
            seen.append("save")
            self.dirty = False

    monkeypatch.setitem(sys.modules, "supervisor", supervisor)
    app = Restarting()
    with pytest.raises(Reload):
        run_linked_session(app, None, 0, 5, show=lambda frame: seen.append("show %d" % app.frames))
    assert seen == ["show 1", "show 2", "save", "reload"]
    monkeypatch.setitem(sys.modules, "supervisor", None)  # no supervisor: import fails
    app = Restarting()
    run_linked_session(app, None, 0, 5)
    assert app.frames == 5 and not app.wants_restart
