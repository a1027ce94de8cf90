"""The move clock runs out at exactly 0 ms left: not a millisecond before, not a frame after,
whatever the frame length; and a turn's clock restarts whole after a move."""

import pytest

from rolit_core.app import CUE_TIMEOUT, SELECT
from test_app_support import Driver


def start(limit, step):
    d = Driver(seed=8, step=step)
    d.start(seats=("human", "human"), time_limit=limit, first="red")
    return d


@pytest.mark.parametrize("limit", [1, 30, 60])
def test_the_timeout_fires_when_the_clock_reaches_exactly_zero(limit):
    d = start(limit, 20)
    d.wait(limit * 1000 - 1)           # 1 ms left
    assert CUE_TIMEOUT not in d.cues and d.app.game.moves == []
    legal = d.app.game.legal_moves()
    d.tick(dt=1)                       # 0 ms left
    assert d.cues.count(CUE_TIMEOUT) == 1
    assert len(d.app.game.moves) == 1 and d.app.game.moves[0] in legal


@pytest.mark.parametrize("step", [1, 7, 20, 999, 1000])
def test_the_first_frame_at_or_past_the_limit_plays_the_move(step):
    # frames of any length: the timeout is in the first frame whose time reaches the limit
    d = start(30, step)
    while d.now + step < 30000:
        d.tick()
        assert CUE_TIMEOUT not in d.cues, d.now
    d.tick()
    assert d.now >= 30000 and d.now - step < 30000
    assert d.cues.count(CUE_TIMEOUT) == 1 and len(d.app.game.moves) == 1


def test_the_next_turn_gets_its_whole_time_again():
    d = start(30, 20)
    d.wait(12000)
    d.tap(SELECT)                      # red plays with 18 s left
    d.finish_move()
    assert len(d.app.game.moves) == 1 and d.app.phase == "input"
    began = d.now
    d.step = 1
    while CUE_TIMEOUT not in d.cues:
        d.tick()
        assert d.now - began <= 30000
    assert d.now - began == 30000 and len(d.app.game.moves) == 2
