"""``easy`` is one move ahead with a lot of chance (rolit_core/ai.py ``_easy_move``): over many
seeded positions it turns clearly more balls than a random legal move, picks the biggest capture
far more often than chance, and takes a free corner far more often than chance. Fixed seeds:
the figures are the same on every run."""

from rolit_core import Game
from rolit_core.ai import player
from rolit_core.rng import Random


def positions(count, seed=11):
    """Games in random positions where the moves differ in what they turn."""
    rng = Random(seed)
    found = []
    while len(found) < count:
        players = 2 + rng.below(3)
        game = Game(players, 8 if players > 2 else (6, 8)[rng.below(2)], first="red")
        for _ in range(6 + rng.below(30)):
            if game.over:
                break
            game.play(rng.choice(game.legal_moves()))
        if game.over:
            continue
        sizes = [len(game.board.flips(c, game.turn)) for c in game.legal_moves()]
        if len(set(sizes)) > 1:
            found.append(game)
    return found


POSITIONS = positions(400)


def flips(game, cell):
    return len(game.board.flips(cell, game.turn))


def test_easy_turns_more_balls_than_a_random_move_and_often_the_most():
    easy_total = random_total = 0.0
    easy_best = random_best = 0.0
    for index in range(len(POSITIONS)):
        game = POSITIONS[index]
        moves = game.legal_moves()
        sizes = [flips(game, c) for c in moves]
        best = max(sizes)
        cell = player("easy", index).choose(game)
        assert cell in moves
        easy_total += flips(game, cell)
        easy_best += flips(game, cell) == best
        random_total += sum(sizes) / len(sizes)
        random_best += sizes.count(best) / len(sizes)
    n = len(POSITIONS)
    # measured: easy turns about 1.4 times the balls of a random move and picks the biggest
    # capture in about half the positions, against about 21% by chance
    assert easy_total / n > 1.25 * random_total / n, (easy_total / n, random_total / n)
    assert easy_best / n > random_best / n + 0.2, (easy_best / n, random_best / n)
    assert easy_best / n < 0.9        # and it is not greedy: a third of its moves are random


def test_easy_takes_a_free_corner_far_more_often_than_chance():
    taken = chance = cases = 0
    for index in range(len(POSITIONS)):
        game = POSITIONS[index]
        size = game.board.size
        corners = {0, size - 1, size * (size - 1), size * size - 1}
        moves = game.legal_moves()
        free = [c for c in moves if c in corners]
        if not free:
            continue
        cases += 1
        taken += player("easy", index).choose(game) in corners
        chance += len(free) / len(moves)
    assert cases >= 20
    # measured: about 40% of the time, against about 15% by chance
    assert taken / cases > chance / cases + 0.15, (taken, chance, cases)
