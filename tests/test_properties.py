"""Properties over random games, checked against a plain reference reading of the rules."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rolit_core import EMPTY, SIZES, Board, Game, IllegalMove
from rolit_core.rng import Random

DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


def reference_flips(cells, size, cell, colour):
    """RULES.md 'A turn', step 2, read literally on a list of colours."""
    if cells[cell] != EMPTY:
        return []
    row, col = divmod(cell, size)
    turned = []
    for dr, dc in DIRECTIONS:
        line = []
        r, c = row + dr, col + dc
        while 0 <= r < size and 0 <= c < size:
            here = cells[r * size + c]
            if here == EMPTY:
                line = []
                break
            if here == colour:
                break
            line.append(r * size + c)
            r += dr
            c += dc
        else:
            line = []  # ran off the edge before an own ball
        turned.extend(line)
    return sorted(turned)


def reference_legal(cells, size, colour):
    adjacent = []
    for cell in range(size * size):
        if cells[cell] != EMPTY:
            continue
        row, col = divmod(cell, size)
        if any(0 <= row + dr < size and 0 <= col + dc < size and cells[(row + dr) * size + col + dc]
               for dr, dc in DIRECTIONS):
            adjacent.append(cell)
    capturing = [c for c in adjacent if reference_flips(cells, size, c, colour)]
    return capturing or adjacent


game_setups = st.one_of(
    st.tuples(st.sampled_from([1, 2, 3, 4]), st.sampled_from([8, 6]), st.just(False)),
    st.tuples(st.sampled_from([1, 2]), st.just(4), st.just(False)),
    st.tuples(st.just(2), st.sampled_from(SIZES), st.just(True)),
)


@settings(max_examples=60, deadline=None)
@given(setup=game_setups, seed=st.integers(0, 2**31), first_pick=st.integers(0, 3))
def test_random_games_follow_the_rules(setup, seed, first_pick):
    players, size, teams = setup
    probe = Game(players=players, size=size, teams=teams, first=None, seed=seed)
    first = probe.colours[first_pick % len(probe.colours)]
    game = Game(players=players, size=size, teams=teams, first=first)
    rng = Random(seed)
    board = game.board
    texts = [board.to_text()]
    plies = 0
    while True:
        cells = list(bytearray(board.to_text().replace("/", "").translate(
            str.maketrans(".RYGB", "\x00\x01\x02\x03\x04")), "ascii"))
        legal = game.legal_moves()
        if game.over:
            assert board.is_full()
            break
        # A legal move always exists until the board is full.
        assert legal
        # Move generation agrees with the literal reading of the rules, and capture is mandatory.
        assert legal == reference_legal(cells, size, game.turn)
        captures = [c for c in legal if reference_flips(cells, size, c, game.turn)]
        if captures:
            assert captures == legal
        cell = legal[rng.below(len(legal))]
        expected = reference_flips(cells, size, cell, game.turn)
        assert board.flips(cell, game.turn) == expected
        mover = game.turn
        turned = game.play(cell)
        plies += 1
        assert turned == expected
        # Only the new ball and the turned balls changed, and they changed to the mover.
        for i in range(size * size):
            if i == cell or i in turned:
                assert board[i] == mover
            else:
                assert board[i] == cells[i]
        # Ball count = moves + 4.
        assert size * size - board.count(EMPTY) == plies + 4
        texts.append(board.to_text())
    assert sum(game.scores()) + sum(board.count(c) for c in game.colours if game.seat_of(c) is None) \
        <= size * size
    # Undo restores every earlier position exactly, back to the start.
    while texts:
        assert board.to_text() == texts.pop()
        if texts:
            game.undo()
    assert board.moves == []


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), cell=st.integers(-5, 70), colour=st.integers(-1, 6))
def test_refused_moves_change_nothing(seed, cell, colour):
    game = Game(players=4, seed=seed)
    rng = Random(seed)
    for _ in range(rng.below(40)):
        game.play(game.legal_moves()[rng.below(len(game.legal_moves()))])
    board = game.board
    before = (board.to_text(), [board.count(c) for c in range(5)], board.moves)
    try:
        board.play(cell, colour)
    except IllegalMove:
        assert 1 <= colour <= 4
        assert not (0 <= cell < 64) or cell not in board.legal_moves(colour)
    except ValueError:
        assert not 1 <= colour <= 4
    else:
        board.undo()
        assert 0 <= cell < 64 and 1 <= colour <= 4
    assert (board.to_text(), [board.count(c) for c in range(5)], board.moves) == before


@settings(max_examples=50, deadline=None)
@given(text=st.text(alphabet="./RYGBX\n 7", max_size=80))
def test_from_text_either_parses_or_raises_value_error(text):
    try:
        board = Board.from_text(text)
    except ValueError:
        return
    assert Board.from_text(board.to_text()) == board


@settings(max_examples=50, deadline=None)
@given(text=st.text(max_size=120))
def test_from_record_either_replays_or_raises_value_error(text):
    try:
        game = Game.from_record(text)
    except ValueError:
        return
    assert Game.from_record(game.record()).board == game.board
