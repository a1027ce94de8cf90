"""Buttons (keypad), joystick (analogio) and one-button input with a fake millisecond clock."""

import pytest

from device_doubles import Device
from hardware.inputs import Buttons, ticks_diff
from hardware.joystick import Joystick
from hardware.onebutton import OneButton

UP, DOWN, LEFT, RIGHT, SELECT, BACK = "up", "down", "left", "right", "select", "back"
WRAP = 1 << 29


@pytest.fixture
def device():
    dev = Device()
    yield dev
    dev.close()


def buttons(device):
    pins = device.board
    return Buttons(((UP, pins.GP2), (DOWN, pins.GP3), (SELECT, pins.GP6)), keypad=device.keypad)


def test_ticks_diff_wraps():
    assert ticks_diff(5, 3) == 2
    assert ticks_diff(3, 5) == -2
    assert ticks_diff(10, WRAP - 10) == 20
    assert ticks_diff(WRAP - 10, 10) == -20


def test_buttons_turn_keypad_events_into_keys(device):
    pad = buttons(device)
    scanner = device.keypad.ALL[-1]
    assert scanner.value_when_pressed is False and scanner.pull   # wired to ground
    assert scanner.names == ["GP2", "GP3", "GP6"]
    scanner.press(0)
    scanner.press(2)
    assert pad.poll(0, []) == [(UP, True), (SELECT, True)]
    scanner.press(0, False)
    assert pad.poll(20, []) == [(UP, False)]
    assert pad.down == [SELECT]
    scanner.press(7)   # a key number the driver never asked for is ignored
    assert pad.poll(40, []) == []


def test_buttons_to_3v3(device):
    Buttons(((UP, device.board.GP2),), to_ground=False, keypad=device.keypad)
    assert device.keypad.ALL[-1].value_when_pressed is True


def test_overflow_releases_held_keys(device):
    pad = buttons(device)
    scanner = device.keypad.ALL[-1]
    scanner.press(1)
    assert pad.poll(0, []) == [(DOWN, True)]
    scanner.events.max_events = 2
    for _ in range(3):
        scanner.press(0)
    assert scanner.events.overflowed
    assert pad.poll(20, []) == [(DOWN, False)]
    assert not scanner.events.overflowed
    assert pad.down == []


def joystick(device, **options):
    return Joystick(device.board.GP26, device.board.GP27, (UP, DOWN, LEFT, RIGHT),
                    analogio=device.analogio, **options)


def test_joystick_calibrates_and_uses_the_dead_zone(device):
    values = device.analogio.VALUES
    values["GP26"] = 30000
    values["GP27"] = 34000
    stick = joystick(device, dead_zone=30)
    assert (stick.centre_x, stick.centre_y) == (30000, 34000)
    assert stick.warning is None
    # 30 % of the travel to the right of 30000 is 10660 (of 35535).
    values["GP26"] = 40660
    assert stick.poll(0, []) == []
    values["GP26"] = 41100
    assert stick.poll(20, []) == [(RIGHT, True)]
    # Hysteresis: held until back within 20 % (two thirds of the zone).
    values["GP26"] = 37500
    assert stick.poll(40, []) == []
    values["GP26"] = 37000
    assert stick.poll(60, []) == [(RIGHT, False)]
    # To the left the travel is 30000: 30 % is 9000.
    values["GP26"] = 21000
    assert stick.poll(80, []) == []
    values["GP26"] = 20600
    assert stick.poll(100, []) == [(LEFT, True)]


def test_joystick_larger_axis_wins_and_directions_switch(device):
    values = device.analogio.VALUES
    stick = joystick(device)
    values["GP26"] = 60000
    values["GP27"] = 50000
    assert stick.poll(0, []) == [(RIGHT, True)]
    values["GP26"] = 40000
    values["GP27"] = 65535
    assert stick.poll(20, []) == [(RIGHT, False), (DOWN, True)]
    values["GP27"] = 0
    values["GP26"] = 32768
    assert stick.poll(40, []) == [(DOWN, False), (UP, True)]


def test_joystick_inversion_and_swap(device):
    values = device.analogio.VALUES
    stick = joystick(device, invert_x=True, invert_y=True)
    values["GP26"] = 65535
    assert stick.poll(0, []) == [(LEFT, True)]
    values["GP26"] = 32768
    values["GP27"] = 65535
    assert stick.poll(20, []) == [(LEFT, False), (UP, True)]
    values["GP27"] = 32768
    stick.poll(30, [])
    swapped = joystick(device, swap=True)
    values["GP27"] = 65535   # the pin given as y is now read as x
    assert swapped.poll(40, []) == [(RIGHT, True)]


def test_joystick_not_connected_warns_and_uses_the_middle(device):
    device.analogio.VALUES["GP26"] = 200
    stick = joystick(device)
    assert stick.centre_x == 32768
    assert "x axis" in stick.warning


def test_one_button_short_long_and_hold(device):
    button = OneButton(device.board.GP6, "next", SELECT, long_ms=600, hold_key=BACK,
                       hold_ms=2000, keypad=device.keypad)
    scanner = device.keypad.ALL[-1]
    scanner.press(0)
    assert button.poll(0, []) == []
    scanner.press(0, False)
    assert button.poll(200, []) == [("next", True), ("next", False)]
    scanner.press(0)
    assert button.poll(1000, []) == []
    assert button.poll(1599, []) == []
    assert button.poll(1600, []) == [(SELECT, True)]        # while held: the game previews
    assert button.poll(1900, []) == []
    scanner.press(0, False)
    assert button.poll(2000, []) == [(SELECT, False)]       # let go: the ball is placed
    scanner.press(0)
    button.poll(3000, [])
    assert button.poll(3600, []) == [(SELECT, True)]
    assert button.poll(4999, []) == []
    assert button.poll(5000, []) == [(BACK, True)]          # held on: pause instead
    scanner.press(0, False)
    assert button.poll(6000, []) == [(SELECT, False), (BACK, False)]
    scanner.press(0)
    scanner.press(0, False)
    assert button.poll(7000, []) == [("next", True), ("next", False)]  # a tap between polls


def test_one_button_long_press_across_wrap(device):
    button = OneButton(device.board.GP6, "next", SELECT, long_ms=600, keypad=device.keypad)
    scanner = device.keypad.ALL[-1]
    scanner.press(0)
    button.poll(WRAP - 300, [])
    assert button.poll(299, []) == []
    assert button.poll(300, []) == [(SELECT, True)]
    assert button.poll(WRAP - 1, []) == []                  # no hold key: nothing more


class FakeGame:
    size = 8

    def __init__(self, legal):
        self.legal = legal

    def legal_moves(self):
        return list(self.legal)


class FakeApp:
    def __init__(self, mode="play", phase="input", cursor=0, legal=()):
        self.mode = mode
        self.phase = phase
        self.cursor = cursor
        self.game = FakeGame(legal) if mode == "play" else None

    def move_cursor(self, cell):
        if self.mode != "play" or self.phase != "input":
            return False
        self.cursor = cell
        return True


def test_steer_moves_the_cursor_to_the_next_legal_cell():
    from hardware.onebutton import NEXT, Steer

    steer = Steer(UP, DOWN, LEFT, RIGHT)
    app = FakeApp(cursor=29, legal=(29, 43, 45))       # f4 -> d6
    events = steer.translate(app, [(NEXT, True), (NEXT, False), (SELECT, True)])
    assert events == [(SELECT, True)] and app.cursor == 43
    app = FakeApp(cursor=45, legal=(2, 43, 45))        # after the last: round to the first (c1)
    assert steer.translate(app, [(NEXT, True)]) == [] and app.cursor == 2


def test_steer_carries_a_real_app_cursor_to_each_legal_cell_in_turn():
    from hardware.onebutton import NEXT, Steer
    from rolit_core.app import App

    app = App(seed=1)
    app.start(seats=("human", "human"), first="red")
    app.update(0, [])
    steer = Steer(UP, DOWN, LEFT, RIGHT)
    legal = app.game.legal_moves()
    seen = []
    for now in range(20, 20 * (len(legal) + 1), 20):
        app.update(now, steer.translate(app, [(NEXT, True), (NEXT, False)]))
        seen.append(app.cursor)
    assert sorted(seen) == legal and app.mode == "play" and app.game.board.moves == []


def test_steer_outside_play_is_a_down_tap():
    from hardware.onebutton import NEXT, Steer

    steer = Steer(UP, DOWN, LEFT, RIGHT)
    for app in (FakeApp(mode="menu"), FakeApp(phase="think", legal=(3,)),
                FakeApp(legal=())):
        assert steer.translate(app, [(NEXT, True), (NEXT, False)]) == [(DOWN, True),
                                                                        (DOWN, False)]
