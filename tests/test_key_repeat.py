"""Held arrows repeat in one place, the App (``REPEAT_DELAY_MS``, then every ``REPEAT_MS``), so
that buttons, a joystick, the simulator's keys and the page's all repeat alike; the drivers only
report presses and releases."""

import inspect

from hardware import inputs, joystick
from rolit_core.app import REPEAT_DELAY_MS, REPEAT_MS, RIGHT, SELECT
from test_app_support import Driver


def cursor_columns_while_held(key, ms, step=10):
    d = Driver(step=step, seed=2)
    d.start(seats=("human", "human"), first="red")
    d.wait_for_human()
    size = d.app.game.size
    columns = []
    d.press(key)
    end = d.now + ms
    while d.now < end:
        columns.append((d.now, d.app.cursor % size))
        d.tick()
    d.release(key)
    return columns, size


def test_a_held_arrow_moves_once_then_repeats_after_the_delay_at_the_pace():
    held = REPEAT_DELAY_MS + 4 * REPEAT_MS + 5
    columns, size = cursor_columns_while_held(RIGHT, held)
    start_time, start_col = columns[0]
    moves = []
    last = start_col
    for now, col in columns:
        if col != last:
            moves.append(now - start_time)
            last = col
    # The press moved it at once (before the first sample). Held past the delay, the time held
    # on counts towards a repeat every REPEAT_MS: the first within one REPEAT_MS of the delay.
    assert REPEAT_DELAY_MS < moves[0] <= REPEAT_DELAY_MS + REPEAT_MS, moves
    assert [b - a for a, b in zip(moves, moves[1:])] == [REPEAT_MS] * (len(moves) - 1), moves
    assert len(moves) == 4 and (columns[-1][1] - start_col) % size == 4


def test_select_held_never_repeats():
    d = Driver(step=10, seed=2)
    d.start(seats=("human", "human"), first="red")
    d.wait_for_human()
    d.app.move_cursor(d.app.game.legal_moves()[0])
    d.press(SELECT)
    d.wait(REPEAT_DELAY_MS + 5 * REPEAT_MS)
    assert d.app.game.board.moves == []  # a preview, still: nothing played while held


def test_the_input_drivers_have_no_repeat_of_their_own():
    assert not hasattr(inputs, "Repeat")
    assert "repeat" not in inspect.signature(inputs.Buttons).parameters
    assert "repeat" not in inspect.signature(joystick.Joystick).parameters
