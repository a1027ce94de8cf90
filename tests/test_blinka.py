"""The device path under the real Adafruit Blinka on this PC, with Blinka's OS-agnostic board
(``BLINKA_OS_AGNOSTIC=1``): its ``board``, ``digitalio``, ``pwmio``, ``neopixel_write`` and
``microcontroller``, the pip ``neopixel`` and ``adafruit_pixelbuf`` on top, and no device
doubles. Each run is a fresh process (``tests/blinka_harness.py``) with a clean environment.

The OS-agnostic board's pins read fixed levels: ``Dx_INPUT_TRUE`` high, ``Dx_INPUT_FALSE`` low,
``Dx_INPUT_TOGGLE`` the opposite of its last reading. Buttons are wired to ground, so a low pin
is a held button and the toggling pin a button tapped at every other scan. Where a test needs
presses at chosen times, the harness sets the level of the pins it names (see its docstring).
"""

import json
import os
import subprocess
import sys
import sysconfig

import pytest

from hardware.filestore import parse
from hardware.handheld import SETTINGS_ERROR, error_frame
from rolit_core.app import App, DOWN, LEFT, RIGHT, SELECT, UP
from test_hardware_code import seed_where_red_starts

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "tests", "blinka_harness.py")
FRAME_MS = 20
# Linear and uncapped, so the bytes on the wire are the frame's own colours (GRB order).
PLAIN = ('ROLIT_PRESET = "blinka_pi"\nROLIT_MATRIX_PIN = "NEOPIXEL"\nROLIT_GAMMA = 10\n'
         'ROLIT_BRIGHTNESS = 100\nROLIT_MAX_MA = 10000\nROLIT_SAVE_FILE = "rolit.sav"\n'
         'ROLIT_BUZZER_PIN = "Ax_OUTPUT"\nROLIT_VOLUME = 50\n')
# Buttons on pins whose level the harness scripts (UP, DOWN, LEFT, RIGHT, SELECT), BACK on a pin
# Blinka itself holds high (never pressed).
SCRIPTED = {UP: "Dx_INPUT_TRUE_PULL_UP", DOWN: "Dx_INPUT_TRUE_PULL_DOWN", LEFT: "DOTSTAR_DATA",
            RIGHT: "DOTSTAR_CLK", SELECT: "Dx_INPUT_TRUE"}
SCRIPTED_PINS = ('ROLIT_PIN_UP = "Dx_INPUT_TRUE_PULL_UP"\nROLIT_PIN_DOWN = '
                 '"Dx_INPUT_TRUE_PULL_DOWN"\nROLIT_PIN_LEFT = "DOTSTAR_DATA"\n'
                 'ROLIT_PIN_RIGHT = "DOTSTAR_CLK"\nROLIT_PIN_SELECT = "Dx_INPUT_TRUE"\n'
                 'ROLIT_PIN_BACK = "Dx_OUTPUT"\n')
SITE = sysconfig.get_paths()["purelib"]  # where pip put Blinka and the libraries


def blinka(tmp_path, mode, settings, script, timeout=120):
    """Run the harness in ``tmp_path``; returns (result, stdout)."""
    (tmp_path / "settings.toml").write_text(settings)
    (tmp_path / "script.json").write_text(json.dumps(script))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "LANG": "C.UTF-8", "BLINKA_OS_AGNOSTIC": "1"}
    done = subprocess.run([sys.executable, HARNESS, mode, "result.json"], cwd=str(tmp_path),
                          env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return json.loads((tmp_path / "result.json").read_text()), done.stdout


def wire(frame):
    """The bytes a plain (linear, full brightness, GRB, rows) matrix sends for ``frame``."""
    return bytes([value for r, g, b in frame for value in (g, r, b)]).hex()


def changes(frames, shown=None):
    """The frames that differ from the one before (``shown``: what the matrix showed first)."""
    found = []
    for frame in frames:
        if frame != shown:
            found.append(frame)
            shown = frame
    return found


def assert_blinka_only(modules, used=("board", "digitalio", "pwmio", "neopixel_write",
                                       "microcontroller", "neopixel", "adafruit_pixelbuf")):
    """The modules ``used`` are the pip packages' (Blinka's...), none of ``tests/`` is loaded."""
    for name in used:
        assert modules[name] and modules[name].startswith(SITE), (name, modules[name])
    assert modules["supervisor"] is None and modules["keypad"] is None
    assert modules["tests"] == []
    assert modules["hardware"] == os.path.join(ROOT, "hardware", "__init__.py")


class Memory:
    """Storage for the reference game: keeps the last save."""

    error = None
    writes = 0
    capacity = None

    def __init__(self):
        self.data = None

    def load(self):
        return None

    def save(self, data):
        self.data = bytes(data)
        return True


def taps(times, long_ms=40):
    """Low spans for taps at ``times`` (ms), each held ``long_ms``."""
    return [[at, at + long_ms] for at in times]


def expected_events(low, frames):
    """The key events of ``low`` ({key: spans}) as scans at every frame see them."""
    timeline = []
    held = {}
    for number in range(frames):
        now = number * FRAME_MS
        events = []
        for key in (UP, DOWN, LEFT, RIGHT, SELECT):
            down = any(start <= now < end for start, end in low.get(key, ()))
            if down != held.get(key, False):
                events.append([key, down])
                held[key] = down
        timeline.append(events)
    return timeline


def test_handheld_under_blinka_plays_frames_sounds_and_saves_a_move(tmp_path):
    seed = seed_where_red_starts()
    frames = 180
    # title -> menu -> play (the menu opens on its play page); the cursor starts on a legal
    # cell, every arrow takes it two rows down to another (DOWN, DOWN, RIGHT, DOWN, UP, LEFT);
    # SELECT held shows the captures, let go it places the ball there.
    low = {SELECT: taps([100, 400]) + [[2400, 2700]], DOWN: taps([1000, 1200, 1600]),
           RIGHT: taps([1400]), UP: taps([1800]), LEFT: taps([2000])}
    timeline = expected_events(low, frames)
    saved = Memory()
    reference = App(storage=saved, seed=seed)
    reference_frames = []
    cues = []
    for number in range(frames):
        reference_frames.append([list(c) for c in reference.update(number * FRAME_MS,
                                                                    timeline[number])])
        cues.append(list(reference.cues))
    assert reference.game.board.moves[0] == (45, 1) and "place" in cues[2700 // FRAME_MS], \
        "the script should place red's ball two rows below the cursor's first cell"
    script = {"frames": frames, "seed": seed,
              "low": {SCRIPTED[key]: spans for key, spans in low.items()}}

    result, _ = blinka(tmp_path, "handheld", PLAIN + SCRIPTED_PINS, script)

    assert_blinka_only(result["modules"])
    assert result["errors"] == ["no microcontroller.nvm here: saving to rolit.sav"]
    assert result["storage"] == "FileStorage"
    assert result["scanners"] == ["hardware.pinkeys"]  # not Blinka's threaded keypad
    updates = result["updates"]
    assert [events for _, events, _ in updates] == timeline
    assert [frame for _, _, frame in updates] == reference_frames
    # What reached neopixel_write, frame by frame: each frame that changed, and nothing else.
    assert result["sent"] == [wire(frame) for frame in changes(reference_frames)]
    # The buzzer's notes on Blinka's PWMOut: the place cue starts 1320 Hz at half volume.
    placed = [number for number in range(frames) if "place" in cues[number]][0]
    assert result["tones"][placed][0] == 1320
    assert abs(result["tones"][placed][1] - 32768 * 50 // 100) <= 1
    assert result["tones"][-1][1] == 0  # and silence once the cues are over
    # The move is saved in the file, which holds what the game saved.
    data, _, problem = parse((tmp_path / "rolit.sav").read_bytes())
    assert problem is None and data == saved.data
    assert not (tmp_path / "rolit.sav.new").exists()


def test_code_py_main_loop_under_blinka_sends_every_frame_it_draws(tmp_path):
    """code.py as `python code.py` runs it, on Blinka's own pins and nothing scripted: SELECT
    on the toggling pin taps every other frame, the other buttons read high."""
    settings = (PLAIN + 'ROLIT_PIN_UP = "Dx_INPUT_TRUE"\nROLIT_PIN_DOWN = '
                '"Dx_INPUT_TRUE_PULL_UP"\nROLIT_PIN_LEFT = "Dx_INPUT_TRUE_PULL_DOWN"\n'
                'ROLIT_PIN_RIGHT = "Dx_OUTPUT"\nROLIT_PIN_SELECT = "Dx_INPUT_TOGGLE"\n'
                'ROLIT_PIN_BACK = ""\nROLIT_STORAGE = "nvm"\nROLIT_MAX_FRAMES = 300\n'
                'ROLIT_SEED = %d\n' % seed_where_red_starts())
    result, out = blinka(tmp_path, "code", settings, {"low": {}})

    assert_blinka_only(result["modules"])
    assert "cpython on linux" in out
    assert "controls: buttons; sound: volume 50; saving: FileStorage" in out
    assert "settings: no microcontroller.nvm here: saving to rolit.sav" in out
    updates = result["updates"]
    assert len(updates) == 300
    # The toggling pin: first read high, then low, high... (pressed when low).
    for number, (_, events, _) in enumerate(updates):
        assert events == ([] if number == 0 else [[SELECT, number % 2 == 1]]), number
    # The yellow border for the settings message first, then every frame that changed.
    border = [list(colour) for colour in error_frame(SETTINGS_ERROR, 1)]
    frames = [frame for _, _, frame in updates]
    assert result["sent"] == [wire(border)] + [wire(f) for f in changes(frames, border)]
    assert len(result["sent"]) > 20
    assert "game 1: 2 players" in out and "  1. R " in out  # SELECT taps play red's moves
    data, _, problem = parse((tmp_path / "rolit.sav").read_bytes())
    assert problem is None and data


def test_held_button_on_blinkas_low_pin_reaches_the_game(tmp_path):
    """Nothing scripted: SELECT on Blinka's always-low pin is held from the first scan."""
    settings = (PLAIN + 'ROLIT_PIN_UP = "Dx_INPUT_TRUE"\nROLIT_PIN_DOWN = ""\n'
                'ROLIT_PIN_LEFT = ""\nROLIT_PIN_RIGHT = ""\nROLIT_PIN_SELECT = "Dx_INPUT_FALSE"\n'
                'ROLIT_PIN_BACK = ""\nROLIT_STORAGE = "none"\n')
    result, _ = blinka(tmp_path, "handheld", settings, {"frames": 5, "low": {}})
    assert_blinka_only(result["modules"], ("board", "digitalio", "neopixel_write", "neopixel"))
    assert result["errors"] == []
    assert [events for _, events, _ in result["updates"]] == [[[SELECT, True]], [], [], [], []]
    assert result["storage"] == "NoStorage"


def test_one_button_under_blinka_long_press_is_select(tmp_path):
    """OneButton polls its pin through hardware.pinkeys too: held 600 ms, SELECT goes down."""
    settings = (PLAIN + 'ROLIT_INPUT = "onebutton"\nROLIT_PIN_SELECT = "Dx_INPUT_TRUE"\n'
                'ROLIT_STORAGE = "none"\n')
    low = {"Dx_INPUT_TRUE": [[100, 900]]}
    result, _ = blinka(tmp_path, "handheld", settings, {"frames": 50, "low": low})
    assert_blinka_only(result["modules"])
    assert result["errors"] == [] and result["scanners"] == ["hardware.pinkeys"]
    events = {now: events for now, events, _ in result["updates"] if events}
    assert events == {700: [[SELECT, True]], 900: [[SELECT, False]]}


LINK = 'ROLIT_LINK_TX = "UART_TX"\nROLIT_LINK_RX = "UART_RX"\n'
# What Blinka's busio.UART raises on its OS-agnostic board: it has no UART driver but
# MicroPython's ``machine.UART``.
LINK_FAILED = ("link: a UART on TX UART_TX and RX UART_RX at 115200 baud failed (No module named "
               "'machine'): playing without a link")


def test_a_link_in_settings_under_blinka_is_left_out_in_words_and_the_game_plays(tmp_path):
    """settings.toml switches the link on with the OS-agnostic board's own UART pins: Blinka's
    busio.UART fails there, the handheld says so and plays without a cable, frame for frame as
    a game without a link."""
    frames = 60
    # the title, then the menu's play page: a game starts. Every scripted pin is named (the
    # DOTSTAR pins are no buttons of Blinka's: unscripted, they read numbers or nothing).
    low = {UP: [], DOWN: [], LEFT: [], RIGHT: [], SELECT: taps([100, 400])}
    timeline = expected_events(low, frames)
    reference = App(storage=Memory(), seed=1)
    reference_frames = [[list(c) for c in reference.update(number * FRAME_MS, timeline[number])]
                        for number in range(frames)]
    script = {"frames": frames, "seed": 1,
              "low": {SCRIPTED[key]: spans for key, spans in low.items()}}

    result, _ = blinka(tmp_path, "handheld", PLAIN + SCRIPTED_PINS + LINK, script)

    assert_blinka_only(result["modules"])
    assert result["modules"]["busio"].startswith(SITE)  # Blinka's busio was asked, and failed
    assert result["cable"] is None
    assert result["errors"] == [LINK_FAILED, "no microcontroller.nvm here: saving to rolit.sav"]
    updates = result["updates"]
    assert [events for _, events, _ in updates] == timeline
    assert [frame for _, _, frame in updates] == reference_frames
    assert result["sent"] == [wire(frame) for frame in changes(reference_frames)]


def test_code_py_with_a_link_under_blinka_says_why_there_is_none_and_plays(tmp_path):
    settings = (PLAIN + LINK + 'ROLIT_PIN_UP = "Dx_INPUT_TRUE"\nROLIT_PIN_DOWN = ""\n'
                'ROLIT_PIN_LEFT = ""\nROLIT_PIN_RIGHT = ""\nROLIT_PIN_SELECT = "Dx_INPUT_TOGGLE"\n'
                'ROLIT_PIN_BACK = ""\nROLIT_STORAGE = "none"\nROLIT_MAX_FRAMES = 50\n')
    result, out = blinka(tmp_path, "code", settings, {"low": {}})

    assert_blinka_only(result["modules"])
    lines = out.splitlines()
    assert "link: none" in lines and "settings: " + LINK_FAILED in lines
    assert not [line for line in lines if "Traceback" in line or line.startswith("error in")]
    updates = result["updates"]
    assert len(updates) == 50
    border = [list(colour) for colour in error_frame(SETTINGS_ERROR, 1)]
    frames = [frame for _, _, frame in updates]
    assert result["sent"] == [wire(border)] + [wire(f) for f in changes(frames, border)]


@pytest.mark.parametrize("flags, why", [
    ([], "Blinka sees a PC without GPIO pins"),
    (["-S"], "import board failed (ModuleNotFoundError: No module named 'board')"),
])
def test_code_py_on_a_pc_says_it_wants_a_board(tmp_path, flags, why):
    """Without BLINKA_OS_AGNOSTIC, Blinka finds a PC; with -S there is no Blinka at all."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "LANG": "C.UTF-8"}
    done = subprocess.run([sys.executable] + flags + [os.path.join(ROOT, "code.py")],
                          cwd=str(tmp_path), env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("code.py wants a board: a CircuitPython board, or a Raspberry "
                               "Pi with Blinka")
    assert "BLINKA_OS_AGNOSTIC=1" in lines[0] and lines[0].endswith("Here: %s." % why)
    assert list(tmp_path.iterdir()) == []  # no save file, nothing written


def test_joystick_under_blinkas_analogio(tmp_path):
    """A joystick on the OS-agnostic board's analog pins, read through Blinka's analogio: X on
    its fixed pin (31415, near the middle: the centre), Y scripted, pushed to the end and back;
    SELECT on Blinka's always-high pin (never pressed)."""
    settings = (PLAIN + 'ROLIT_INPUT = "joystick"\nROLIT_JOY_X = "Ax_INPUT_FIXED_INT_PI"\n'
                'ROLIT_JOY_Y = "Ax_INPUT_WAVE_SINE"\nROLIT_JOY_PRESS = ""\n'
                'ROLIT_PIN_SELECT = "Dx_INPUT_TRUE"\nROLIT_PIN_BACK = ""\nROLIT_STORAGE = "none"\n')
    analog = {"Ax_INPUT_WAVE_SINE": {"rest": 32768, "spans": [[200, 400, 65535],
                                                              [600, 700, 0]]}}
    result, _ = blinka(tmp_path, "handheld", settings, {"frames": 40, "low": {}, "analog": analog})

    assert_blinka_only(result["modules"])
    assert result["modules"]["analogio"].startswith(SITE)
    assert result["errors"] == []  # X rests at 31415: within the middle half, no warning
    assert result["scanners"] == ["hardware.joystick", "hardware.pinkeys"]
    events = {now: events for now, events, _ in result["updates"] if events}
    assert events == {200: [[DOWN, True]], 400: [[DOWN, False]], 600: [[UP, True]],
                      700: [[UP, False]]}
