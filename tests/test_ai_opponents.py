"""The independent opponents (sim.opponents): their own move generator agrees with rolit_core
everywhere, they answer legal moves in every configuration, budgets and seeds behave, and the
arena loads them with options."""

import io
import random

import pytest

from rolit_core import Game
from sim import arena
from sim.opponents import AlphaBeta, MCTS, alphabeta, mcts
from sim.opponents.bits import Rules, cells_of, from_game, geometry, play, popcount

CONFIGS = [  # (players, size, teams)
    (2, 8, False), (2, 6, False), (2, 4, False), (3, 8, False), (3, 6, False),
    (4, 8, False), (4, 6, False), (2, 8, True), (2, 6, True), (2, 4, True),
]


@pytest.mark.parametrize("players,size,teams", CONFIGS)
def test_bitboard_moves_and_captures_agree_with_the_rules_core(players, size, teams):
    rng = random.Random(players * 100 + size + teams)
    geo = geometry(size)
    positions = 0
    for index in range(12):
        game = Game(players, size, teams=teams, seed=index)
        while not game.over:
            bbs = from_game(game)
            moves = cells_of(geo.moves(bbs, game.turn))
            assert moves == game.legal_moves(), game.board.to_text()
            cell = rng.choice(moves)
            after = play(geo, bbs, game.turn, cell)
            game.play(cell)
            assert after == from_game(game), game.board.to_text()
            positions += 1
    assert positions > 12 * (size * size - 5)


def test_a_colour_without_balls_may_play_any_cell_next_to_a_ball():
    # Yellow has vanished: no capture exists, so every empty cell touching a ball is legal.
    from rolit_core import Board
    game = Game(4, 6, first="yellow")
    game.board = Board.from_text("....../....../..RR../..BG../....../......")
    bbs = from_game(game)
    assert cells_of(geometry(6).moves(bbs, 2)) == game.board.legal_moves(2)
    assert len(game.board.legal_moves(2)) == 12


@pytest.mark.parametrize("players,size,teams", CONFIGS)
def test_opponents_play_whole_games_legally_without_touching_the_game(players, size, teams):
    game = Game(players, size, teams=teams, seed=3)
    _play_legally(game, [alphabeta(seed=1, nodes=300), mcts(seed=2, iterations=40)])
    assert game.board.is_full()


def _play_legally(game, bots):
    # The bots in turn (by seat) to the end: each answer legal, the game it was given untouched.
    while not game.over:
        bot = bots[game.seat_of(game.turn) % len(bots)]
        before = (game.board.to_text(), game.turn, list(game.moves))
        cell = bot(game)
        assert (game.board.to_text(), game.turn, list(game.moves)) == before
        assert cell in game.legal_moves()
        game.play(cell)


@pytest.mark.parametrize("make", [lambda s: AlphaBeta(nodes=500, seed=s),
                                  lambda s: MCTS(iterations=60, seed=s)])
def test_fixed_budgets_are_deterministic_per_seed(make):
    def moves(seed):
        game = Game(3, 6, first="red")
        bot = make(seed)
        for _ in range(14):
            game.play(bot(game))
        return game.moves

    assert moves(4) == moves(4)


@pytest.mark.parametrize("players", (2, 4))
def test_alpha_beta_keeps_its_node_budget(players):
    game = Game(players, 8, first="red")
    for budget in (50, 2000):
        bot = AlphaBeta(nodes=budget, seed=1)
        assert bot(game) in game.legal_moves()
        assert bot.nodes <= budget


def test_alpha_beta_solves_a_small_endgame_exactly():
    # Two empty cells, red to move: f6 wins 21-15, a1 only draws 18-18 (checked below by
    # playing both out).
    from rolit_core import Board
    text = ".GGGGG/GRRRRR/RRRRRR/GGGGGG/GGGGGG/RRRRR."
    game = Game(2, 6, first="red")
    game.board = Board.from_text(text)
    best = None
    for cell in game.legal_moves():
        game.board.play(cell, 1)
        reply = game.board.legal_moves(3)[0]
        game.board.play(reply, 3)
        margin = game.board.count(1) - game.board.count(3)
        game.board.undo()
        game.board.undo()
        if best is None or margin > best[0]:
            best = (margin, cell)
    assert best == (6, 35)
    assert AlphaBeta(nodes=5000, seed=1)(game) == 35


def test_mcts_spends_its_time_budget():
    import time
    game = Game(2, 8, first="red")
    bot = MCTS(ms=30, seed=1)
    started = time.process_time()
    cell = bot(game)
    spent = time.process_time() - started
    assert cell in game.legal_moves()
    assert bot.done > 1 and spent >= 0.03


def test_the_arena_loads_factories_with_options():
    rows = arena.run(["sim.opponents:alphabeta:nodes=200", "sim.opponents:mcts:iterations=20"],
                     games=2, size=4, seed=1, out=io.StringIO(), err=io.StringIO())
    assert rows[0]["illegal"] == 0 and rows[1]["illegal"] == 0
    assert abs(rows[0]["score"] + rows[1]["score"] - 1.0) < 1e-9


@pytest.mark.parametrize("players,size,teams", [(4, 8, False), (3, 6, False), (2, 4, True)])
def test_biased_mcts_and_brs_play_whole_games_legally(players, size, teams):
    game = Game(players, size, teams=teams, seed=5)
    _play_legally(game, [mcts(seed=2, iterations=30, bias=1),
                         arena.load("sim.opponents:brs:nodes=200", 3),
                         arena.load("sim.opponents:mcts:iterations=30:bias=0.5", 4)])


def test_biased_playouts_take_a_free_corner_and_avoid_x_cells_by_an_empty_corner():
    geo = geometry(6)
    bot = MCTS(iterations=1, seed=1, bias=1)
    a1, b2, c3, f6, e5 = 0, 7, 14, 35, 28
    occupied = 1 << c3 | 1 << f6
    # A legal corner is taken.
    assert bot.steer(geo, 1 << a1 | 1 << b2 | 1 << c3, occupied) == 1 << a1
    # No corner: the X cell b2 next to the empty a1 is left out, e5 next to the taken f6 is not.
    assert bot.steer(geo, 1 << b2 | 1 << e5 | 1 << 20, occupied) == 1 << e5 | 1 << 20
    # The X cell is kept when it is the only move.
    assert bot.steer(geo, 1 << b2, occupied) == 1 << b2
    # A whole biased playout ends on a full board with every ball accounted for.
    game = Game(4, 6, first="red")
    rules = Rules(game)
    full = bot._playout(geo, rules.after, from_game(game), 1)
    assert full[1] | full[2] | full[3] | full[4] == geo.full
    assert popcount(full[1]) + popcount(full[2]) + popcount(full[3]) + popcount(full[4]) == 36


def test_bad_mcts_bias_is_refused():
    with pytest.raises(arena.SpecError):
        arena.load("sim.opponents:mcts:bias=2", 1)


@pytest.mark.parametrize("spec", ["sim.opponents:mcts:iterations", "sim.opponents:mcts:fast=1",
                                  "examples.greedy_bot:choose:ms=5"])
def test_bad_factory_options_are_refused(spec):
    with pytest.raises(arena.SpecError):
        arena.load(spec, 1)
