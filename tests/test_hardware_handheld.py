"""hardware.handheld: building the parts from settings, falling back instead of failing."""

import sys

from handheld_parts import KEYS, build, device  # noqa: F401 (device: a fixture)
from hardware import config
from hardware.inputs import Buttons
from hardware.joystick import Joystick
from hardware.onebutton import OneButton
from hardware.storage import FileStorage, NvmStorage


def test_default_build(device):
    handheld = build(device)
    assert handheld.errors == []
    assert handheld.matrix is not None and handheld.matrix.pixels.pin.pin.name == "GP0"
    assert len(handheld.inputs) == 1 and isinstance(handheld.inputs[0], Buttons)
    assert handheld.inputs[0].keys == KEYS
    assert device.keypad.ALL[-1].names == ["GP2", "GP3", "GP4", "GP5", "GP6", "GP7"]
    assert handheld.buzzer is None                      # no sound unless a volume is set
    assert isinstance(handheld.storage, NvmStorage)
    assert device.handheld.ticks_ms() == 0              # the supervisor double's clock


def test_show_skips_unchanged_frames(device):
    handheld = build(device)
    frame = [(1, 2, 3)] * 64
    assert handheld.show(frame)
    assert not handheld.show(list(frame))
    frame[5] = (0, 0, 0)
    assert handheld.show(frame)
    assert device.neopixel_write.count == 2


class FailingNeoPixel:
    """A ``neopixel`` whose strip cannot be made, with ``WHY`` as the error."""

    WHY = ""

    class NeoPixel:
        def __init__(self, *args, **kwargs):
            raise RuntimeError(FailingNeoPixel.WHY)


def test_a_matrix_that_cannot_be_made_says_where_to_look(device, monkeypatch):
    monkeypatch.setitem(sys.modules, "neopixel", FailingNeoPixel)
    FailingNeoPixel.WHY = "No module named 'neopixel_write'"
    handheld = build(device)
    assert handheld.matrix is None
    assert handheld.errors == ["matrix: No module named 'neopixel_write' (is lib/neopixel.py "
                               "there?)"]
    # Blinka on a Pi without its LED library: Blinka's words (the first line), and the guide
    monkeypatch.setattr(device.board, "__blinka__", True, raising=False)
    FailingNeoPixel.WHY = ("The platform library '_rpi_ws281x' was not found. To install, try "
                           "typing: python -m pip install 'rpi_ws281x>=4.0.0'\nThen restart")
    handheld = build(device)
    assert handheld.matrix is None
    # (errors[1:]: the digitalio double is not Blinka's, which hardware.pinkeys needs)
    assert handheld.errors[:1] == ["matrix: The platform library '_rpi_ws281x' was not found. To "
                               "install, try typing: python -m pip install 'rpi_ws281x>=4.0.0' "
                               "(docs/hardware.md, A Raspberry Pi as the handheld, step 3)"]


def test_joystick_without_analog_pins_falls_back_to_buttons(device):
    handheld = build(device, ROLIT_INPUT="joystick", ROLIT_JOY_X="")
    assert "joystick: no analog pins, using the buttons" in handheld.errors
    assert [type(i) for i in handheld.inputs] == [Buttons]


def test_joystick_build(device):
    handheld = build(device, ROLIT_INPUT="joystick", ROLIT_JOY_INVERT_Y=1)
    assert [type(i) for i in handheld.inputs] == [Joystick, Buttons]
    assert handheld.inputs[0].invert_y
    # The stick's press and the SELECT and BACK buttons.
    assert device.keypad.ALL[-1].names == ["GP22", "GP6", "GP7"]
    assert handheld.inputs[1].keys == (4, 4, 5)


def test_one_button_build_and_steering(device):
    handheld = build(device, ROLIT_INPUT="onebutton", ROLIT_LONG_PRESS=500)
    assert [type(i) for i in handheld.inputs] == [OneButton]
    assert handheld.inputs[0].long_ms == 500 and handheld.inputs[0].hold_ms == 2000
    assert handheld.steer is not None
    handheld2 = build(device, ROLIT_INPUT="onebutton", ROLIT_PIN_SELECT="")
    assert "one button: no pin, using the buttons" in handheld2.errors


def test_bad_and_clashing_pins(device):
    handheld = build(device, ROLIT_MATRIX_PIN="GP99", ROLIT_PIN_DOWN="GP2", ROLIT_PIN_BACK="")
    assert "matrix: this board has no pin 'GP99' (check settings.toml)" in handheld.errors
    assert "matrix: using the pico pin GP0 instead" in handheld.errors
    assert ("ROLIT_PIN_DOWN = 'GP2' is also ROLIT_PIN_UP: a pin does one job; the down button "
            "left out") in handheld.errors
    assert handheld.matrix is not None
    assert device.keypad.ALL[-1].names == ["GP2", "GP4", "GP5", "GP6"]


def test_buzzer_plays_the_most_important_cue(device):
    handheld = build(device, ROLIT_VOLUME=40)
    assert handheld.buzzer is not None and handheld.buzzer.volume == 40
    handheld.sound(["tick", "capture", "place"], 0)
    assert device.pwmio.LOG[-1] == (880, 32768 * 40 // 100)
    for now in range(20, 300, 20):
        handheld.sound([], now)
    assert handheld.buzzer.playing is None
    assert [frequency for frequency, duty in device.pwmio.LOG if duty] == [880, 1320, 1760]


def test_file_storage_fallback_without_nvm(device, tmp_path):
    device.microcontroller.nvm = None
    handheld = build(device, ROLIT_SAVE_FILE=str(tmp_path / "game.sav"))
    assert isinstance(handheld.storage, FileStorage)
    assert any("no microcontroller.nvm" in message for message in handheld.errors)


def test_no_board_module(device, monkeypatch):
    monkeypatch.setitem(sys.modules, "board", None)
    handheld = build(device, ROLIT_STORAGE="none")
    assert handheld.matrix is None and handheld.inputs == []
    assert handheld.errors[0].startswith("no board module")
    assert not handheld.show([(0, 0, 0)] * 64)
    handheld.show_error(device.handheld.CRASH_ERROR)   # nothing to show it on: no error


def test_error_frame():
    from hardware.handheld import error_frame

    frame = error_frame((9, 0, 0), 3)
    border = [i for i in range(64) if frame[i] == (9, 0, 0)]
    assert len(border) == 28
    assert [i for i in range(64) if frame[i] == (200, 200, 200)] == [17, 18, 19]
    assert len([c for c in error_frame((9, 0, 0), 99) if c == (200, 200, 200)]) == 12


def test_two_names_of_one_pin_are_caught_when_the_parts_are_built(device, monkeypatch):
    # config compares names; a board may give one pin two names (here D0 is GP0)
    monkeypatch.setattr(device.board, "D0", device.board.GP0)
    monkeypatch.setattr(device.board, "D1", device.board.GP0)
    handheld = build(device, ROLIT_PIN_UP="D0", ROLIT_BUZZER_PIN="D1", ROLIT_VOLUME=30)
    assert handheld.errors == ["up button: its pin is already used, left out",
                               "buzzer: its pin is already used, left out"]
    assert handheld.matrix is not None and handheld.buzzer is None
    assert device.keypad.ALL[-1].names == ["GP3", "GP4", "GP5", "GP6", "GP7"]


# -- the link's cable (issue 21) --------------------------------------------------------------

PICO_LINK = {"ROLIT_LINK_TX": "GP12", "ROLIT_LINK_RX": "GP13"}


def test_the_cable_is_built_on_the_uart_pair_the_settings_name(device):
    handheld = build(device, **PICO_LINK)
    assert handheld.errors == []
    uart = device.busio.ALL[-1]
    assert handheld.cable is not None and handheld.cable._uart is uart
    assert (uart.tx.name, uart.rx.name, uart.baudrate, uart.timeout) == ("GP12", "GP13", 115200, 0)
    feather = build(device, ROLIT_PRESET="feather_rp2040", ROLIT_LINK_TX="TX",
                    ROLIT_LINK_RX="RX", ROLIT_LINK_BAUD=57600)
    uart = device.busio.ALL[-1]
    assert feather.errors == [] and feather.cable._uart is uart
    assert (uart.tx.name, uart.rx.name, uart.baudrate) == ("TX", "RX", 57600)


def test_no_cable_without_a_link(device):
    made = len(device.busio.ALL)
    assert build(device).cable is None and build(device).errors == []  # the default: no link
    assert build(device, ROLIT_PRESET="blinka_pi").cable is None
    assert build(device, ROLIT_LINK_TX="", ROLIT_LINK_RX="").cable is None
    handheld = build(device, ROLIT_PIN_UP="GP12", **PICO_LINK)  # a clash: refused by settings
    assert handheld.cable is None and "no link" in handheld.errors[0]
    assert len(device.busio.ALL) == made                   # no UART was opened
    assert handheld.matrix is not None and handheld.inputs  # the game goes on


def test_a_uart_that_fails_is_reported_and_the_game_goes_on(device):
    device.busio.FAIL = "Invalid pins"
    handheld = build(device, **PICO_LINK)
    assert handheld.cable is None
    assert handheld.errors == ["link: a UART on TX GP12 and RX GP13 at 115200 baud failed "
                               "(Invalid pins): playing without a link"]
    assert handheld.matrix is not None and len(handheld.inputs) == 1
    assert device.keypad.ALL[-1].names == ["GP2", "GP3", "GP4", "GP5", "GP6", "GP7"]


def test_a_uart_error_of_two_lines_is_reported_in_one(device):
    # Blinka's busio.UART on a Linux board, for pins that are not its port's TX/RX
    device.busio.FAIL = "No Hardware UART on (tx,rx)=(GP12, GP13)\nValid UART ports: ((1, 14, 15),)"
    handheld = build(device, **PICO_LINK)
    assert handheld.cable is None
    assert handheld.errors == ["link: a UART on TX GP12 and RX GP13 at 115200 baud failed "
                               "(No Hardware UART on (tx,rx)=(GP12, GP13)): playing without a link"]


def test_a_link_pin_the_board_does_not_have_is_reported(device):
    handheld = build(device, ROLIT_LINK_TX="GP40", ROLIT_LINK_RX="GP41")
    assert handheld.cable is None
    assert handheld.errors == ["link TX: this board has no pin 'GP40' (check settings.toml)",
                               "link RX: this board has no pin 'GP41' (check settings.toml)",
                               "link: no pins, playing without a link"]


def test_a_link_pin_that_is_another_parts_under_another_name_is_caught(device, monkeypatch):
    monkeypatch.setattr(device.board, "D1", device.board.GP2)  # D1 is the up button's GP2
    monkeypatch.setattr(device.board, "D0", device.board.GP3)
    handheld = build(device, ROLIT_LINK_TX="D1", ROLIT_LINK_RX="D0")
    assert handheld.cable is None
    assert handheld.errors == ["link TX: its pin is already used, left out",
                               "link: playing without a link"]
    assert device.keypad.ALL[-1].names[:2] == ["GP2", "GP3"]


def test_a_loopback_jumper_brings_the_handhelds_own_frames_back(device):
    from rolit_core.link import Link

    device.busio.LOOPBACK = True
    handheld = build(device, **PICO_LINK)
    link = Link(node=0)
    link.broadcast(9, b"ring")
    got = []
    for now in range(0, 200, 20):
        handheld.cable.pump(link, now)
        got += link.receive()
    assert [(m.source, m.kind, bytes(m.payload), m.distance) for m in got] == [(0, 9, b"ring", 1)]
    assert handheld.cable.bytes_in == handheld.cable.bytes_out > 0


def test_the_banner_names_the_link(device, capsys):
    from hardware import startup

    handheld = build(device, **PICO_LINK)
    startup.banner(handheld.settings, handheld, "9.9")
    assert "link: TX GP12, RX GP13, 115200 baud" in capsys.readouterr().out
    pi = build(device)
    startup.banner(pi.settings, pi, "9.9")
    assert "link: none" in capsys.readouterr().out
