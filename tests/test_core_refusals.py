"""Bad arguments to the rules core are refused with ValueError (IllegalMove for moves) before
anything changes: floats, bools, lists and other types are not cells, sizes or counts."""

import pytest

from rolit_core import Board, Game, IllegalMove, Match


@pytest.mark.parametrize("size", [6.0, 8.0, 4.0, True, [8], 8 + 0j])
def test_board_sizes_must_be_ints(size):
    with pytest.raises(ValueError):
        Board(size)


@pytest.mark.parametrize("size", [6.0, 8.0, True, "8"])
def test_game_and_match_sizes_must_be_ints(size):
    with pytest.raises(ValueError):
        Game(size=size)
    with pytest.raises(ValueError):
        Match(2, 2, size)


@pytest.mark.parametrize("cell", [18.0, True, False, [18], (18,), None, b"c3", 18.5, 10 ** 30,
                                  -1, 64])
def test_board_play_refuses_non_cells_and_changes_nothing(cell):
    board = Board()
    before = board.copy()
    with pytest.raises(IllegalMove):
        board.play(cell, 3)
    assert board == before and board.moves == []
    assert board.legal_moves(3) == [18, 20, 34]


def test_true_is_not_b1():
    # b1 (cell 1) is legal for red on this board; True must not play it
    board = Board.from_text("R.../Y.../..../....")
    assert board.is_legal(1, 2) or board.is_legal(1, 1)
    for colour in (1, 2):
        with pytest.raises(IllegalMove):
            board.play(True, colour)
        assert not board.is_legal(True, colour)
    assert board.moves == []


@pytest.mark.parametrize("cell", [18.0, True, [18], None])
def test_game_play_refuses_non_cells_and_changes_nothing(cell):
    game = Game(first=3)
    with pytest.raises(IllegalMove):
        game.play(cell)
    assert game.moves == [] and game.turn == 3
    assert game.play(18) == [27]


@pytest.mark.parametrize("method", ["flip_lines", "flips"])
@pytest.mark.parametrize("cell", [18.0, True, [18]])
def test_queries_refuse_non_cells(method, cell):
    with pytest.raises(ValueError):
        getattr(Board(), method)(cell, 3)


@pytest.mark.parametrize("cell", [True, 1.0])
def test_cell_name_and_indexing_refuse_non_ints(cell):
    board = Board()
    with pytest.raises(ValueError):
        board.cell_name(cell)
    with pytest.raises((TypeError, IndexError)):
        board[cell]


def test_seat_of_and_next_colour_refuse_bools():
    game = Game(players=4)
    assert game.seat_of(True) is None
    with pytest.raises(ValueError):
        game.next_colour(True)


@pytest.mark.parametrize("rounds", [True, 2.0, "3", 0])
def test_match_rounds_must_be_whole_numbers(rounds):
    with pytest.raises(ValueError):
        Match(rounds)


@pytest.mark.parametrize("players", [True, 2.0, "2"])
def test_match_players_must_be_ints(players):
    with pytest.raises(ValueError):
        Match(2, players)


def test_refused_moves_and_requests_say_why():
    # The app shows these reasons to the player (tests/test_app_illegal_reason.py): each names
    # the cell and the rule.
    board = Board(8)
    for cell, words in (("d4", "d4 is taken"), ("a1", "a1 does not touch a ball"),
                        (99, "no cell 99 on a 8x8 board")):
        with pytest.raises(IllegalMove) as refused:
            board.play(cell, 1)
        assert str(refused.value) == words
    with pytest.raises(ValueError, match="^no cell 64 on a 8x8 board$"):
        board.cell_name(64)
    with pytest.raises(ValueError, match="^no move to undo$"):
        Game(2, 4).undo()
    match = Match(rounds=1, players=2, size=4)
    with pytest.raises(ValueError, match="^round 1 is still being played$"):
        match.next_round()
    while not match.game.over:
        match.game.play(match.game.legal_moves()[0])
    with pytest.raises(ValueError, match="^the match is over$"):
        match.next_round()
