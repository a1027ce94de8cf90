"""Seats, turns, options, scoring, records and matches."""

import pytest

from rolit_core import BLUE, GREEN, RED, YELLOW, Board, Game, IllegalMove, Match
from rolit_core.rng import Random


def play_out(game, rng=None):
    rng = rng or Random(1)
    while not game.over:
        moves = game.legal_moves()
        game.play(moves[rng.below(len(moves))])
    return game


@pytest.mark.parametrize("players, seats", [
    (1, ((RED,), (GREEN,))),
    (2, ((RED,), (GREEN,))),
    (3, ((RED,), (YELLOW,), (GREEN,))),
    (4, ((RED,), (YELLOW,), (GREEN,), (BLUE,))),
])
def test_seat_colours(players, seats):
    assert Game(players=players, first=RED).seat_colours == seats


def test_two_colours_each_variant_alternates_players():
    game = Game(players=2, teams=True, first=RED)
    assert game.seat_colours == ((RED, GREEN), (YELLOW, BLUE))
    order = []
    for _ in range(4):
        order.append(game.turn)
        game.play(game.legal_moves()[0])
    assert order == [RED, YELLOW, GREEN, BLUE]
    assert [game.seat_of(c) for c in order] == [0, 1, 0, 1]
    with pytest.raises(ValueError):
        Game(players=3, teams=True)


def test_turn_order_is_clockwise_skipping_colours_not_in_play():
    game = Game(players=3, first=GREEN)
    seen = []
    for _ in range(4):
        seen.append(game.turn)
        game.play(game.legal_moves()[0])
    assert seen == [GREEN, RED, YELLOW, GREEN]
    game = Game(players=2, first=GREEN)
    seen = []
    for _ in range(3):
        seen.append(game.turn)
        game.play(game.legal_moves()[0])
    assert seen == [GREEN, RED, GREEN]


def test_neutral_colours_can_be_captured_but_score_for_nobody():
    game = Game(players=2, first=RED)
    game.play("f4")  # red over yellow e4
    assert game.board[game.board.parse_cell("e4")] == RED
    assert game.scores() == (3, 1)
    assert game.seat_of(YELLOW) is None and game.seat_of(BLUE) is None


def test_random_first_colour_is_in_play_and_seedable():
    for players in (2, 3, 4):
        firsts = set()
        for seed in range(40):
            game = Game(players=players, seed=seed)
            assert game.first in game.colours
            assert Game(players=players, seed=seed).first == game.first
            firsts.add(game.first)
        assert firsts == set(game.colours)


def test_chosen_first_colour_must_be_in_play():
    assert Game(players=2, first="green").turn == GREEN
    with pytest.raises(ValueError):
        Game(players=2, first=YELLOW)
    with pytest.raises(ValueError):
        Game(players=2, first="purple")


@pytest.mark.parametrize("kwargs", [
    dict(players=0), dict(players=5), dict(players="2"), dict(size=5), dict(size=4, players=3),
    dict(size=4, players=4), dict(tie="random"),
])
def test_bad_options_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        Game(**kwargs)


def test_small_boards_play_to_a_full_board():
    for size, players in ((4, 2), (4, 1), (6, 2), (6, 3), (6, 4)):
        game = play_out(Game(players=players, size=size, seed=size))
        assert game.board.is_full()
        assert len(game.moves) == size * size - 4


def test_scores_and_shared_or_no_tie():
    text = "RRGG/RRGG/YYBB/YYBB"
    shared = Game(players=2, size=4, first=RED)
    shared.board = Board.from_text(text)
    shared._over = True
    assert shared.scores() == (4, 4)
    assert shared.winners() == (0, 1)
    none = Game(players=2, size=4, first=RED, tie="none")
    none.board = Board.from_text(text)
    none._over = True
    assert none.winners() == ()


def test_team_scores_add_both_colours():
    game = play_out(Game(players=2, teams=True, seed=5))
    board = game.board
    assert game.scores() == (board.count(RED) + board.count(GREEN),
                             board.count(YELLOW) + board.count(BLUE))
    assert sum(game.scores()) == 64


def test_winners_only_once_the_game_is_over():
    game = Game(players=4, seed=2)
    assert game.winners() == ()
    play_out(game)
    scores = game.scores()
    assert game.winners() == tuple(s for s in range(4) if scores[s] == max(scores))


def test_moves_after_the_end_are_refused_and_undo_reopens_the_game():
    game = play_out(Game(players=2, size=4, seed=3))
    assert game.over and game.legal_moves() == []
    text = game.board.to_text()
    with pytest.raises(IllegalMove, match="over"):
        game.play(0)
    assert game.board.to_text() == text
    last = game.moves[-1]
    mover = game.board.moves[-1][1]
    assert game.undo() == last
    assert not game.over and game.turn == mover
    assert game.legal_moves() == [last]


def test_game_undo_gives_the_turn_back():
    game = Game(players=3, first=RED)
    with pytest.raises(ValueError):
        game.undo()
    game.play(game.legal_moves()[0])
    game.play(game.legal_moves()[0])
    assert game.turn == GREEN
    game.undo()
    assert game.turn == YELLOW
    game.undo()
    assert game.turn == RED and game.board.to_text() == Board().to_text()


def test_illegal_game_moves_change_nothing():
    game = Game(players=2, first=RED)
    before = game.board.to_text()
    for bad in ("a1", "d4", "c4", 99, -3, "zz", None):
        with pytest.raises(IllegalMove):
            game.play(bad)
    assert game.board.to_text() == before and game.turn == RED and game.moves == []


def test_nobody_can_move_on_a_board_without_balls_ends_the_game():
    game = Game(players=2, first=RED)
    game.board = Board.from_text("/".join(["." * 8] * 8))
    game._advance()
    assert game.over and game.legal_moves() == []


# -- records -----------------------------------------------------------------------------------

def test_record_round_trips():
    for kwargs in (dict(players=4, seed=1), dict(players=2, teams=True, seed=2),
                   dict(players=3, size=6, seed=3), dict(players=2, size=4, tie="none", seed=4)):
        game = play_out(Game(**kwargs))
        text = game.record()
        again = Game.from_record(text)
        assert again.board.to_text() == game.board.to_text()
        assert again.moves == game.moves
        assert (again.players, again.size, again.teams, again.tie, again.first) == \
            (game.players, game.size, game.teams, game.tie, game.first)
        assert again.over and again.record() == text


def test_partial_record_round_trips_with_turn():
    game = Game(players=3, first=YELLOW)
    for _ in range(5):
        game.play(game.legal_moves()[0])
    again = Game.from_record(game.record())
    assert again.turn == game.turn and again.board == game.board and not again.over


def test_hand_written_record_with_comments():
    text = """
    # a record typed by hand
    Size: 8
    Players: 2
    first: Green   # green starts
    c3 b2   # two moves on one line
    3. G a1
    """
    game = Game.from_record(text)
    assert game.moves == [18, 9, 0]
    assert game.turn == RED


def test_records_from_elsewhere_may_carry_other_headers():
    game = Game.from_record("Event: class tournament\nDate: 2026-11-30\nSize: 6x6\n"
                            "Players: 3\nFirst: Y\nResult: unfinished\n\n1. Y b3\n")
    assert game.size == 6 and game.players == 3 and game.moves == [13]


def test_record_errors_name_the_first_bad_ply():
    with pytest.raises(IllegalMove, match="ply 2"):
        Game.from_record("Players: 2\nFirst: green\nc3\na1\n")
    with pytest.raises(IllegalMove, match="ply 1.*turn"):
        Game.from_record("Players: 2\nFirst: green\nR f4\n")
    with pytest.raises(ValueError, match="ply 2"):
        Game.from_record("Players: 2\nFirst: green\nc3 q9\n")
    with pytest.raises(ValueError, match="First"):
        Game.from_record("Players: 2\nc3\n")
    with pytest.raises(ValueError, match="line 1"):
        Game.from_record("Players: two\nFirst: red\n")
    with pytest.raises(ValueError, match="header"):
        Game.from_record("Players: 7\nFirst: red\n")
    with pytest.raises(ValueError, match="line 4"):
        Game.from_record("Players: 2\nFirst: red\nf4\nColour: red\n")
    with pytest.raises(ValueError):
        Game.from_record(b"Players: 2")
    with pytest.raises(IllegalMove, match="over"):
        game = play_out(Game(players=2, size=4, first=RED))
        Game.from_record(game.record() + "a1\n")


# -- matches -----------------------------------------------------------------------------------

def test_match_rotates_the_starting_seat_and_counts_rounds():
    match = Match(rounds=3, players=3, first=RED, seed=1)
    firsts = []
    rng = Random(9)
    while True:
        firsts.append(match.game.first)
        with pytest.raises(ValueError):
            match.next_round()  # round still being played
        play_out(match.game, rng)
        if match.over:
            break
        match.next_round()
    assert firsts == [RED, YELLOW, GREEN]
    assert match.round == 3
    assert sum(match.points) <= 3 * 64 and sum(match.points) >= 3 * 62
    with pytest.raises(ValueError):
        match.next_round()
    assert match.winners()


def test_match_winner_by_rounds_then_points_then_shared():
    match = Match(rounds=2, players=2, first=RED)
    match._finished = [((40, 24), (0,))]
    match.round = 2
    match.game.board = Board.from_text("/".join(["GGGGGGGG"] * 5 + ["RRRRRRRR"] * 3))
    match.game._over = True
    assert match.rounds_won == (1, 1)
    assert match.points == (64, 64)
    assert match.winners() == (0, 1)  # tied on rounds and points: shared
    match.game.board = Board.from_text("/".join(["GGGGGGGG"] * 4 + ["RRRRRRRR"] * 3 + ["YYYYYYYY"]))
    assert match.points == (64, 56)
    assert match.winners() == (0,)


def test_match_with_no_tie_rule_counts_a_tied_round_for_nobody():
    match = Match(rounds=1, players=2, size=4, tie="none", first=RED)
    match.game.board = Board.from_text("RRGG/RRGG/YYBB/YYBB")
    match.game._over = True
    assert match.rounds_won == (0, 0)
    assert match.over and match.winners() == (0, 1)


def test_match_seeded_first_colour_and_team_rotation():
    a = Match(rounds=2, players=2, teams=True, seed=7)
    b = Match(rounds=2, players=2, teams=True, seed=7)
    assert a.game.first == b.game.first
    first = a.game.first
    play_out(a.game)
    a.next_round()
    assert a.game.seat_colours[a.game.seat_of(a.game.first)] != \
        a.game.seat_colours[a.game.seat_of(first)]
    with pytest.raises(ValueError):
        Match(rounds=0)
