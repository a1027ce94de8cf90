"""The rules of RULES.md on hand-made positions."""

import pytest

from rolit_core import (BLUE, EMPTY, GREEN, RED, YELLOW, Board, Game, IllegalMove, colour_of)

START8 = "......../......../......../...RY.../...BG.../......../......../........"


def test_start_position_is_red_yellow_over_blue_green_in_the_centre():
    board = Board()
    assert board.to_text() == START8
    assert board.size == 8
    assert board[board.parse_cell("d4")] == RED
    assert board[board.parse_cell("e4")] == YELLOW
    assert board[board.parse_cell("d5")] == BLUE
    assert board[board.parse_cell("e5")] == GREEN
    assert [board.count(c) for c in (EMPTY, RED, YELLOW, GREEN, BLUE)] == [60, 1, 1, 1, 1]


@pytest.mark.parametrize("size, text", [
    (6, "....../....../..RY../..BG../....../......"),
    (4, "..../.RY./.BG./...."),
])
def test_small_boards_start_in_their_centre(size, text):
    assert Board(size).to_text() == text


@pytest.mark.parametrize("size", [0, 2, 5, 7, 10, "8", None])
def test_unsupported_sizes_are_refused(size):
    with pytest.raises(ValueError):
        Board(size)


def test_cell_names_follow_othello_convention():
    board = Board()
    assert board.parse_cell("a1") == 0
    assert board.parse_cell("h1") == 7
    assert board.parse_cell("a8") == 56
    assert board.parse_cell("h8") == 63
    assert board.parse_cell("c3") == 18
    assert board.parse_cell(" C3 ") == 18
    for cell in range(64):
        assert board.parse_cell(board.cell_name(cell)) == cell
    small = Board(4)
    assert small.parse_cell("d4") == 15
    assert small.cell_name(5) == "b2"


@pytest.mark.parametrize("name", ["i1", "a9", "a0", "", "c", "c33", "33", "zz", 3, None])
def test_bad_cell_names_raise_value_error(name):
    with pytest.raises(ValueError):
        Board().parse_cell(name)


def test_cell_names_outside_a_small_board_are_refused():
    with pytest.raises(ValueError):
        Board(6).parse_cell("g1")
    with pytest.raises(ValueError):
        Board(6).cell_name(36)
    with pytest.raises(ValueError):
        Board().cell_name(-1)


def test_worked_example_green_c3_turns_d4():
    # Seed 000: green starts and plays diagonally above-left of red; red is enclosed and turns.
    board = Board()
    assert board.play(board.parse_cell("c3"), GREEN) == [board.parse_cell("d4")]
    assert board.to_text() == "......../......../..G...../...GY.../...BG.../......../......../........"


def test_from_text_round_trips_and_reports_what_is_wrong():
    text = "RYGB..../......../..G...../...GY.../...BG.../......../......../.......B"
    assert Board.from_text(text).to_text() == text
    with pytest.raises(ValueError, match="row 2"):
        Board.from_text("......../......./......../...RY.../...BG.../......../......../........")
    with pytest.raises(ValueError, match="X"):
        Board.from_text("......../......../..X...../...RY.../...BG.../......../......../........")
    with pytest.raises(ValueError, match="rows"):
        Board.from_text("......../........")
    with pytest.raises(ValueError):
        Board.from_text(None)


def test_start_moves_capture_for_each_colour():
    board = Board()
    # Red (d4) captures along lines ending in red: e.g. f4 over yellow e4? no: f4-e4(Y)-d4(R): yes.
    assert board.legal_moves(RED) == sorted(board.parse_cell(n) for n in ("f4", "f6", "d6"))
    assert board.legal_moves(GREEN) == sorted(board.parse_cell(n) for n in ("c3", "c5", "e3"))
    assert board.legal_moves(YELLOW) == sorted(board.parse_cell(n) for n in ("c4", "c6", "e6"))
    assert board.legal_moves(BLUE) == sorted(board.parse_cell(n) for n in ("d3", "f3", "f5"))


def test_without_a_capture_any_empty_adjacent_cell_is_legal():
    # Red has vanished from the board: it may play next to any ball (seed 000 FAQ).
    board = Board.from_text("......../......../......../...GY.../...BG.../......../......../........")
    expected = [c for c in range(64) if board[c] == EMPTY and any(
        board[n] != EMPTY for n in neighbours(c))]
    assert board.legal_moves(RED) == expected
    assert len(expected) == 12


def neighbours(cell, size=8):
    row, col = divmod(cell, size)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            r, c = row + dr, col + dc
            if (dr or dc) and 0 <= r < size and 0 <= c < size:
                yield r * size + c


def test_capture_is_mandatory():
    board = Board()
    with pytest.raises(IllegalMove, match="must capture"):
        board.play(board.parse_cell("c4"), RED)  # next to red, captures nothing
    assert board.to_text() == START8


def test_moves_must_touch_a_ball_and_land_on_an_empty_cell():
    board = Board()
    with pytest.raises(IllegalMove, match="touch"):
        board.play(board.parse_cell("a1"), RED)
    with pytest.raises(IllegalMove, match="taken"):
        board.play(board.parse_cell("d4"), RED)
    for bad in (-1, 64, 1000, "z9", None, 2.5):
        with pytest.raises(IllegalMove):
            board.play(bad, RED)
    assert board.to_text() == START8


def test_bad_colours_raise_value_error():
    board = Board()
    for bad in (EMPTY, 5, -1, "R", None):
        with pytest.raises(ValueError):
            board.legal_moves(bad)
        with pytest.raises(ValueError):
            board.play(board.parse_cell("c3"), bad)
    assert board.to_text() == START8


def test_capture_stops_at_the_first_own_ball():
    # Row 1: new red at a1, then Y, R, Y, R: only b1 turns, d1 stays yellow.
    board = Board.from_text("_YRYR.../...R..../......../......../......../......../......../........".replace("_", "."))
    assert board.flips(0, RED) == [1]
    board.play(0, RED)
    assert board.to_text().split("/")[0] == "RRRYR..."


def test_mixed_colours_between_are_captured_and_gaps_or_edges_stop_a_line():
    board = Board.from_text("RYGB.R../.Y....../......../......../......../......../......../........")
    # e1 red: west line d1 B, c1 G, b1 Y, a1 R -> all three turn; east f1 is red next door: nothing.
    assert board.flips(4, RED) == [1, 2, 3]
    # A gap: green at a2 looks east over b2 (Y) then c2 empty: no capture.
    assert board.flips(8, GREEN) == []
    # Edge: blue at h1? Not adjacent to anything enclosed; west line g1 empty.
    assert board.flips(7, BLUE) == []


def test_all_capturing_lines_turn_at_once():
    board = Board.from_text("R.R.R.../.YYY..../RY.YR.../.YYY..../R.R.R.../......../......../........")
    turned = board.play(board.parse_cell("c3"), RED)
    assert turned == sorted(board.parse_cell(n) for n in ("b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4"))
    assert board.to_text().split("/")[:5] == ["R.R.R...", ".RRR....", "RRRRR...", ".RRR....", "R.R.R..."]


def test_no_chain_reactions():
    # Red a1 turns b1. Then b2 (yellow) lies between red b1 and red b3, but that column does not
    # pass through the new ball, so b2 stays yellow.
    board = Board.from_text(".YR...../.Y....../.R....../......../......../......../......../........")
    assert board.play(0, RED) == [1]
    assert board[board.parse_cell("b2")] == YELLOW


def test_flip_lines_are_ordered_outward_from_the_new_ball():
    board = Board.from_text("R......./.Y....../..G...../...B..../......../......../......../........")
    lines = board.flip_lines(board.parse_cell("e5"), RED)
    assert lines == [[board.parse_cell("d4"), board.parse_cell("c3"), board.parse_cell("b2")]]
    assert board.flip_lines(board.parse_cell("d4"), RED) == []  # taken


def test_undo_restores_exactly_and_refuses_with_nothing_to_undo():
    board = Board()
    with pytest.raises(ValueError):
        board.undo()
    board.play(board.parse_cell("c3"), GREEN)
    board.play(board.parse_cell("b2"), RED)
    assert board.undo() == board.parse_cell("b2")
    assert board.to_text() == "......../......../..G...../...GY.../...BG.../......../......../........"
    board.undo()
    assert board.to_text() == START8
    assert [board.count(c) for c in (EMPTY, RED, YELLOW, GREEN, BLUE)] == [60, 1, 1, 1, 1]


def test_full_board_and_counts():
    text = "/".join(["RYGB"] * 4)
    board = Board.from_text(text)
    assert board.is_full()
    assert board.legal_moves(RED) == []
    assert (board.count(RED), board.count(GREEN), board.count(EMPTY)) == (4, 4, 0)


def test_copy_is_independent_and_equal():
    board = Board()
    other = board.copy()
    assert other == board
    other.play(other.parse_cell("c3"), GREEN)
    assert other != board
    assert board.to_text() == START8
    other.undo()
    assert other == board


def test_colour_of_accepts_ints_letters_and_names():
    assert colour_of("g") == GREEN
    assert colour_of("Blue") == BLUE
    assert colour_of(1) == RED
    for bad in (0, 5, "x", "", None, True):
        with pytest.raises(ValueError):
            colour_of(bad)


def test_game_play_accepts_cell_names():
    game = Game(players=2, first=GREEN)
    assert game.play("c3") == [27]
    assert game.turn == RED
