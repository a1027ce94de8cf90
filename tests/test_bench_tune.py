"""bench.tune's files: the tuned tables go into rolit_core/ai.py whole or not at all, and a
self-play data file cut mid-line (a run killed while writing) is read as its whole games."""

import os

import pytest

from bench import tune
from rolit_core import ai, mobility

SOURCE = "x = 1\n# -- tuned weights begin --\nold = 1\n# -- tuned weights end --\ny = 2\n"


def test_the_tables_replace_only_what_is_between_the_markers(tmp_path):
    path = tmp_path / "ai.py"
    path.write_text(SOURCE)
    tune.write_tables("new = 2", str(path))
    assert path.read_text() == SOURCE.replace("old = 1\n", "new = 2\n")
    assert os.listdir(str(tmp_path)) == ["ai.py"]


def test_a_failed_write_of_the_tables_leaves_ai_py_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "ai.py"
    path.write_text(SOURCE)

    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(OSError):
        tune.write_tables("new = 2", str(path))
    assert path.read_text() == SOURCE
    assert os.listdir(str(tmp_path)) == ["ai.py"]  # no temporary left


def test_a_game_cut_mid_line_is_dropped_not_counted(tmp_path, monkeypatch):
    monkeypatch.setattr(tune, "DATA", str(tmp_path))
    whole = "2 0 1 19 26 | 3 1\n2 1 2 20 27 | 1 3\n"
    path = tmp_path / "selfplay-2p-r1.txt"
    path.write_text(whole + "2 2 1 19 2")  # the third game's line, cut by a kill
    weights = (ai._WEIGHTS, mobility.WEIGHTS)
    assert tune.play(2, 2, 1, weights, out=open(os.devnull, "w")) == str(path)
    assert path.read_text() == whole
    assert [game[1] for game in tune.read_games(str(path))] == [0, 1]


def test_the_mix_takes_its_share_of_the_way_to_the_fit_against_mcts():
    selfplay = ((0, 30, -9), (100, 0, 3))
    versus = ((30, 0, 0), (-200, 3, -3))
    assert tune.mix(selfplay, versus, (1, 3)) == ((10, 20, -6), (0, 1, 1))
    assert tune.mix(selfplay, versus, (0, 3)) == selfplay
    assert tune.mix(selfplay, versus, (3, 3)) == versus


def test_a_game_against_mcts_is_stored_whole_and_legal(tmp_path, monkeypatch):
    from rolit_core import Game
    monkeypatch.setattr(tune, "DATA", str(tmp_path))
    monkeypatch.setattr(tune, "AGAINST", "sim.opponents:mcts:iterations=20:bias=1")
    weights = (ai._WEIGHTS, mobility.WEIGHTS)
    # Five games: the fifth is the fit's held-out one.
    path = tune.play(4, 5, 1, weights, seed=tune.AGAINST_SEED, out=open(os.devnull, "w"),
                     against=True)
    assert path == str(tmp_path / "mcts-4p-r1.txt")
    games = tune.read_games(path)
    assert [game[:2] for game in games] == [(4, index) for index in range(5)]
    for players, index, first, moves, scores in games:
        game = Game(players, 8, first=first)
        for cell in moves:
            game.play(cell)  # raises on an illegal move
        assert game.over and list(game.scores()) == scores
    # The first colour turns once every seat has had the searcher's place.
    assert games[0][2] == games[3][2] != games[4][2]
    assert not os.path.exists(tmp_path / "selfplay-4p-r1.txt")
    # Fitted, those games move the four-player device row only, by MCTS_SHARE of the way.
    quiet = open(os.devnull, "w")
    mixed = tune.with_against(weights, 1, out=quiet)
    versus = tune.fit_players(4, 1, out=quiet, against=True)[False]
    assert mixed[0][:2] == ai._WEIGHTS[:2] and mixed[1] == mobility.WEIGHTS
    assert mixed[0][2] == tune.mix(ai._WEIGHTS[2], versus) != ai._WEIGHTS[2]
    assert tune.with_against(weights, 2, out=quiet) is weights  # round 2 has no such games
