"""The terminal's emulated releases depend on when keys arrive, never on when the simulator's
loop got the CPU: a key read late (a busy machine) is judged by its arrival time."""

from rolit_core.app import DOWN, LEFT
from sim.terminal import TermKeys


def test_a_second_tap_read_after_the_first_should_have_been_released_is_a_new_press():
    keys = TermKeys(tap_ms=120, hold_ms=700, repeat_gap_ms=150)
    keys.key(LEFT, 0)
    assert keys.take(0) == [(LEFT, True)]
    # the loop next runs 400 ms later (the machine was busy): the release of the first tap and
    # the second tap are seen in the same pass, the tap first
    keys.key(LEFT, 400)
    assert keys.take(400) == [(LEFT, False), (LEFT, True)]
    assert keys.take(600) == [(LEFT, False)]


def test_auto_repeat_that_stopped_then_came_again_late_is_a_new_press():
    keys = TermKeys(tap_ms=120, hold_ms=700, repeat_gap_ms=150)
    keys.key(DOWN, 0)
    for t in range(100, 600, 40):          # the terminal's auto-repeat: held
        keys.key(DOWN, t)
    assert keys.take(600) == [(DOWN, True)]
    keys.key(DOWN, 1000)                   # 420 ms after the last repeat: a new press
    assert keys.take(1000) == [(DOWN, False), (DOWN, True)]


def test_a_repeat_within_the_gap_still_holds_the_key():
    keys = TermKeys(tap_ms=120, hold_ms=700, repeat_gap_ms=150)
    keys.key(DOWN, 0)
    keys.key(DOWN, 110)
    keys.key(DOWN, 250)
    assert keys.take(250) == [(DOWN, True)]
    assert keys.take(401) == [(DOWN, False)]
