"""Frames while a computer thinks: no update both searches and plays the move, and the device
sizes the search's slices from how long the last frames took (hardware.pacing)."""

from rolit_core.app import App


def test_the_update_that_finds_the_move_does_not_also_play_it():
    app = App(seed=5, think_nodes=1)
    app.start(seats=("hard", "human"), first="red")
    now = 0
    app.update(now, [])
    player = app.thinker
    assert player is not None
    while player.thinking and now < 600000:
        now += 20
        app.update(now, [])
    # That update found the move, long after the shortest thinking time: still thinking.
    assert now > 400
    assert app.phase == "think" and app.game.board.moves == []
    now += 20
    app.update(now, [])
    assert app.phase == "animate" and len(app.game.board.moves) == 1
