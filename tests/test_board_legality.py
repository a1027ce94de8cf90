"""``Board.is_legal`` agrees with ``Board.legal_moves`` for every cell and colour, whatever was
asked before (its capture cache is per colour and per position), on every board size."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rolit_core import BLUE, GREEN, RED, YELLOW, Board

COLOURS = (RED, YELLOW, GREEN, BLUE)


def random_position(size, choices):
    """A position reached by legal moves of colours in the order ``choices`` gives."""
    board = Board(size)
    for colour_pick, cell_pick in choices:
        colour = COLOURS[colour_pick % 4]
        moves = board.legal_moves(colour)
        if not moves:
            break
        board.play(moves[cell_pick % len(moves)], colour)
    return board


def assert_agrees(board, colour):
    legal = set(board.legal_moves(colour))
    for cell in range(board.size * board.size):
        assert board.is_legal(cell, colour) == (cell in legal), (board.to_text(), colour, cell)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from((4, 6, 8)),
       st.lists(st.tuples(st.integers(0, 3), st.integers(0, 63)), max_size=60),
       st.permutations(COLOURS), st.integers(0, 3))
def test_is_legal_is_membership_of_legal_moves(size, choices, order, cached):
    board = random_position(size, choices)
    # a cached answer for one colour first, then every colour in a random order
    board.legal_moves(COLOURS[cached])
    for colour in order:
        assert_agrees(board, colour)
    # is_legal asked first, before any legal_moves of that colour in this position
    board.has_capture(COLOURS[cached])
    for colour in order:
        answers = [board.is_legal(cell, colour) for cell in range(size * size)]
        legal = set(board.legal_moves(colour))
        assert answers == [cell in legal for cell in range(size * size)]


def test_a_position_where_only_one_colour_must_capture():
    # Red can capture (so must), yellow cannot (so may play any cell next to a ball): the
    # cache of red's answer must not decide yellow's.
    board = Board.from_text("......../......../......../...RY.../...BG.../......../......../"
                            "........")
    for first, second in ((RED, YELLOW), (YELLOW, RED), (BLUE, GREEN), (GREEN, BLUE)):
        board.legal_moves(first)
        assert_agrees(board, second)
        assert_agrees(board, first)
    board.play(board.legal_moves(RED)[0], RED)
    for colour in COLOURS:
        assert_agrees(board, colour)
    captures = [c for c in COLOURS if board.has_capture(c)]
    assert captures and len(captures) < 4   # both kinds of colour are checked


@settings(max_examples=100, deadline=None)
@given(st.sampled_from((4, 6, 8)), st.one_of(st.integers(-5, 70), st.none(), st.text(max_size=3),
                                             st.booleans(), st.floats()))
def test_no_answer_for_what_is_not_a_cell(size, cell):
    board = Board(size)
    legal = board.legal_moves(RED)
    assert board.is_legal(cell, RED) == (type(cell) is int and cell in legal)


def test_game_is_legal_is_the_turns_legal_moves_and_nothing_once_over():
    from rolit_core import Game
    for size, players in ((4, 2), (6, 3), (8, 4)):
        game = Game(players=players, size=size, first="red")
        while not game.over:
            legal = set(game.legal_moves())
            others = [c for c in COLOURS[:players] if c != game.turn]
            assert [game.is_legal(c) for c in range(size * size)] == \
                [c in legal for c in range(size * size)]
            # a cell only another colour may play is not legal for the game
            for colour in others:
                for cell in game.board.legal_moves(colour):
                    assert game.is_legal(cell) == (cell in legal)
            game.play(min(legal))
        assert not any(game.is_legal(c) for c in range(size * size))
        game.undo()
        assert game.is_legal(game.legal_moves()[0])
