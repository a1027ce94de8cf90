"""A computer's answer is for the position it was asked about: after an undo and a different
move while it thinks (same move count, same colour to move, another position) it thinks again,
and the app never plays the stale answer."""

import pytest

from rolit_core import Game
from rolit_core.ai import LEVELS, player
from rolit_core.app import BACK, DOWN, SELECT, App
from rolit_core.rng import Random
from test_app_support import Driver


def opening(seed, count, size=8):
    game = Game(2, size, first="red")
    rng = Random(seed)
    for _ in range(count):
        game.play(rng.choice(game.legal_moves()))
    return game


def answer(level, seed, game):
    return player(level, seed).choose(game)


def swapped(game, stale):
    """The game with its last move replaced by another of the same colour after which
    ``stale`` is no longer legal, or None if there is no such move."""
    last = game.undo()
    for other in game.legal_moves():
        if other == last:
            continue
        game.play(other)
        if stale not in game.legal_moves():
            return game
        game.undo()
    game.play(last)
    return None


def cases(level, count=6):
    found = []
    seed = 0
    while len(found) < count:
        seed += 1
        game = opening(seed, 5 + seed % 9)
        stale = answer(level, 7, game)
        if swapped(opening(seed, 5 + seed % 9), stale) is not None:
            found.append((seed, 5 + seed % 9, stale))
    return found


@pytest.mark.parametrize("level", LEVELS[:3])
def test_a_player_asked_again_after_the_position_changed_thinks_again(level):
    for seed, count, stale in cases(level):
        game = opening(seed, count)
        thinker = player(level, 7)
        thinker.start(game)
        first = thinker.step(1)                     # a node of the search (easy: its answer)
        assert first is None or first == stale
        assert swapped(game, stale) is not None     # same length, same turn, another position
        cell = None
        for _ in range(100000):
            cell = thinker.step(50)
            if cell is not None:
                break
        assert cell in game.legal_moves() and cell != stale, (level, seed)


def two_swapped(game, stale):
    """The game with its last two moves replaced by another move of the same colour and then
    the same last move (same length, same last cell, same colour to move, another position)
    after which ``stale`` is no longer legal, or None if there is no such pair."""
    last = game.undo()
    before = game.undo()
    for other in game.legal_moves():
        if other == before:
            continue
        game.play(other)
        if last in game.legal_moves():
            game.play(last)
            if stale not in game.legal_moves():
                return game
            game.undo()
        game.undo()
    game.play(before)
    game.play(last)
    return None


@pytest.mark.parametrize("level", LEVELS[:3])
def test_a_player_thinks_again_when_two_moves_changed_but_the_last_cell_did_not(level):
    tried = 0
    for seed in range(1, 200):
        count = 6 + seed % 9
        stale = answer(level, 7, opening(seed, count))
        if two_swapped(opening(seed, count), stale) is None:
            continue
        game = opening(seed, count)
        thinker = player(level, 7)
        thinker.start(game)
        assert thinker.step(1) in (None, stale)
        assert two_swapped(game, stale) is not None
        cell = None
        for _ in range(100000):
            cell = thinker.step(50)
            if cell is not None:
                break
        assert cell in game.legal_moves(), (level, seed)
        tried += 1
        if tried == 6:
            break
    assert tried == 6


def human_move(d, cell):
    d.goto(cell)
    d.tap(SELECT)
    d.finish_move()


def reply_to(first):
    """The computer's reply when the human (red) opens with ``first``, in an app seeded 7."""
    d = Driver(App(seed=7, think_nodes=100000))
    d.start(seats=("human", "hard"), first="red")
    human_move(d, first)
    d.wait_for_human()
    return d.app.game.moves[1]


def test_the_app_never_plays_an_answer_found_before_an_undo_and_another_move():
    # Human (red) against hard: the computer finds its answer in the first frames of its turn
    # and shows "thinking" for a while; meanwhile the human pauses, takes the move back and
    # opens with another, after which that answer is illegal.
    tried = 0
    for first in Game(2, 8, first="red").legal_moves():
        stale = reply_to(first)
        probe = Game(2, 8, first="red")
        for second in probe.legal_moves():
            probe.play(second)
            illegal = stale not in probe.legal_moves()
            probe.undo()
            if second != first and illegal and tried < 4:
                check_undo_and_another_move(first, second, stale)
                tried += 1
    assert tried >= 2


def check_undo_and_another_move(first, second, stale):
    d = Driver(App(seed=7, think_nodes=100000))
    d.start(seats=("human", "hard"), first="red")
    human_move(d, first)
    d.tick()
    d.tick()
    assert d.app.mode == "play" and d.app.phase == "think" and len(d.app.game.moves) == 1
    assert d.app.thinker is not None and not d.app.thinker.thinking  # its answer is ready
    d.press(BACK)                                   # held: the pause menu opens
    d.wait_until(lambda: d.app.mode == "pause")
    d.release(BACK)
    d.tap(DOWN)                                     # "undo"
    d.tap(SELECT)
    d.wait_until(lambda: d.app.mode == "play" and d.app.phase == "input")
    assert d.app.game.moves == []
    human_move(d, second)
    legal = d.app.game.legal_moves()
    d.wait_for_human()
    reply = d.app.game.moves[1]
    assert reply in legal and reply != stale, (first, second)
