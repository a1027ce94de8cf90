"""``App.move_cursor(cell)``: the window's clicks, the page's taps and one-button play put the
cursor on a cell the way the arrow keys would, and only while a human chooses."""

from rolit_core.app import BACK, SELECT, App
from test_app_support import Driver


def test_the_cursor_shows_on_the_cell_it_was_moved_to():
    d = Driver(App(seed=2))
    d.start(seats=("human", "human"), first="red")
    cell = d.app.game.legal_moves()[-1]
    assert cell != d.app.cursor
    assert d.app.move_cursor(cell) is True
    seen = set()
    for _ in range(30):
        d.tick()
        seen.add(d.at_cell(cell))
    assert d.app.cursor == cell and d.colour(d.app.game.turn) in seen
    d.tap(SELECT)
    d.finish_move()
    assert d.app.game.board.moves[0][0] == cell


def test_moving_away_ends_a_preview_so_the_release_plays_nothing():
    d = Driver(App(seed=2))
    d.start(seats=("human", "human"), first="red")
    first, other = d.app.game.legal_moves()[:2]
    d.app.move_cursor(first)
    d.press(SELECT)  # a preview of first
    d.app.move_cursor(other)
    d.release(SELECT)
    d.wait(1000)
    assert d.app.game.board.moves == [] and d.app.cursor == other
    before = d.app.cursor
    d.app.move_cursor(before)  # the same cell: nothing changes, as with no arrow taps
    d.press(SELECT)
    d.app.move_cursor(before)
    d.release(SELECT)
    d.finish_move()
    assert d.app.game.board.moves[0][0] == before


def test_nothing_moves_outside_a_humans_turn_or_off_the_board():
    app = App(seed=2)
    assert app.move_cursor(3) is False  # the title
    d = Driver(app)
    d.start(seats=("hard", "human"), first="red")
    assert app.phase == "think" and app.move_cursor(3) is False
    d.wait_for_human()
    cursor = app.cursor
    for cell in (-1, 64, "c3", None, 2.0, True):
        assert app.move_cursor(cell) is False
    assert app.cursor == cursor
    d.hold(BACK, 700)
    assert app.mode == "pause" and app.move_cursor(0) is False
    app.start(seats=("human", "human"), size=4)
    assert app.move_cursor(16) is False and app.move_cursor(15) is True
