"""``App.illegal_reason``: the rules' own words for a refused SELECT, until the player moves on."""

from rolit_core.app import CUE_ILLEGAL, RIGHT, SELECT, App
from rolit_core.board import Board


def started():
    app = App(seed=5)
    app.start(seats=("human", "human"), first="red")
    app.update(0, [])
    return app


def select_at(app, name, now):
    assert app.move_cursor(Board(8).parse_cell(name))
    app.update(now, [(SELECT, True), (SELECT, False)])


def test_each_refusal_says_why_in_the_rules_words():
    app = started()
    assert app.illegal_reason is None
    for name, reason in (("a1", "a1 does not touch a ball"),
                         ("d4", "d4 is taken"),
                         ("c3", "c3 captures nothing, and red must capture")):
        select_at(app, name, 20)
        assert CUE_ILLEGAL in app.cues
        assert app.illegal_reason == reason
    assert app.game.board.moves == []  # nothing was played


def test_the_reason_goes_once_the_cursor_moves_or_a_move_is_played():
    app = started()
    select_at(app, "a1", 20)
    app.update(40, [(RIGHT, True), (RIGHT, False)])
    assert app.illegal_reason is None
    select_at(app, "a1", 60)
    cell = app.game.legal_moves()[0]
    assert app.move_cursor(cell)
    app.update(80, [(SELECT, True), (SELECT, False)])
    assert app.game.board.moves[0][0] == cell
    assert app.illegal_reason is None
