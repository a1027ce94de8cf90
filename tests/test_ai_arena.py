"""The arena: seat and first-colour rotation, student bots, illegal answers, the table."""

import io
import os
import subprocess
import sys
import threading

import pytest

from sim import arena

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bad_bot(game):
    """Answers a taken cell every time: the red start ball's."""
    size = game.board.size
    return (size // 2 - 1) * size + size // 2 - 1


def crashing_bot(game):
    raise RuntimeError("student bug")


def undo_bot(game):
    """Takes back the last move of the game it is given, then answers a legal cell."""
    if game.moves:
        game.undo()
    return game.legal_moves()[0]


def own_move_bot(game):
    """Plays a move itself on the game it is given, then answers the next legal cell."""
    game.play(game.legal_moves()[0])
    return game.legal_moves()[0] if game.legal_moves() else 0


GARBAGE = ["zz", None, 3.5, True, -1, 10 ** 100, [1], "", object(), "c99"]


def garbage_bot(game):
    """Answers something that is not a cell, a different thing each move."""
    return GARBAGE[len(game.moves) % len(GARBAGE)]


def exiting_bot(game):
    raise SystemExit(0)


def endless_bot(game):
    while True:
        pass


def printing_bot(game):
    for _ in range(200):
        print("thinking hard about", game.legal_moves())
    return game.legal_moves()[-1]


def failing_factory(seed, **options):
    raise RuntimeError("no model file")


failing_factory.arena_factory = True


def run_briefly(specs, **options):
    """``arena.run`` in a thread: the rows and the table, or a failure if it has not finished
    within a minute (a bot that hangs the arena)."""
    out = io.StringIO()
    result = []
    worker = threading.Thread(target=lambda: result.append(arena.run(
        specs, out=out, err=io.StringIO(), **options)), daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "the arena hangs"
    assert result, "the arena stopped with an exception"
    return result[0], out.getvalue()


def test_every_player_gets_every_seat_and_every_first_colour():
    for count, colours in ((2, (1, 3)), (3, (1, 2, 3)), (4, (1, 2, 3, 4))):
        seen = set()
        for index in range(count * len(colours)):
            order, first = arena.seating(index, count, colours)
            assert sorted(order) == list(range(count))
            for seat in range(count):
                seen.add((order[seat], seat, first))
        assert len(seen) == count * count * len(colours)


def test_student_bot_against_a_level_fills_the_table():
    out = io.StringIO()
    rows = arena.run(["examples.greedy_bot:choose", "easy"], games=8, size=6, seed=3, out=out,
                     err=io.StringIO())
    text = out.getvalue()
    assert "examples.greedy_bot:choose" in text and "easy" in text and "95% CI" in text
    assert abs(rows[0]["score"] + rows[1]["score"] - 1.0) < 1e-9
    assert rows[0]["points"] + rows[1]["points"] <= 36
    assert rows[0]["illegal"] == 0 and rows[1]["illegal"] == 0
    assert rows[0]["wins"] + rows[1]["wins"] + (rows[0]["ties"] + rows[1]["ties"]) // 2 == 8


def test_illegal_or_crashing_bots_forfeit_moves_but_the_games_finish():
    rows = arena.run(["test_ai_arena:bad_bot", "test_ai_arena:crashing_bot", "medium"], games=3,
                     size=6, out=io.StringIO(), err=io.StringIO())
    assert rows[0]["illegal"] > 10 and rows[1]["illegal"] > 10
    assert rows[2]["illegal"] == 0


def test_parallel_games_give_the_same_results():
    specs = ["medium", "easy"]
    one = arena.run(specs, games=6, size=4, seed=5, jobs=1, out=io.StringIO(), err=io.StringIO())
    two = arena.run(specs, games=6, size=4, seed=5, jobs=2, out=io.StringIO(), err=io.StringIO())
    for a, b in zip(one, two):
        assert (a["score"], a["points"], a["wins"]) == (b["score"], b["points"], b["wins"])


@pytest.mark.parametrize("argv", [
    ["--players", "grandmaster,easy"],
    ["--players", "nosuchmodule:choose,easy"],
    ["--players", "examples.greedy_bot:nothing,easy"],
    ["--players", "easy"],
    ["--players", "easy,easy,easy", "--size", "4"],
    ["--players", "test_ai_arena:failing_factory,easy"],
])
def test_bad_command_lines_are_refused_with_a_message(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        arena.main(argv + ["--games", "2"])
    assert stop.value.code == 2
    assert "error" in capsys.readouterr().err


def test_a_bot_that_undoes_or_plays_on_its_game_forfeits_and_is_named():
    rows, text = run_briefly(["test_ai_arena:undo_bot", "test_ai_arena:own_move_bot", "easy"],
                             games=3, size=6, seed=2)
    assert rows[0]["illegal"] > 5 and rows[1]["illegal"] > 5 and rows[2]["illegal"] == 0
    for who, spec in ((1, "test_ai_arena:undo_bot"), (2, "test_ai_arena:own_move_bot")):
        line = [x for x in text.splitlines() if x.startswith("%d %s: " % (who, spec))]
        assert line and "changed the game it was given" in line[0], text
    assert "easy:" not in text


def test_garbage_answers_exits_and_prints_forfeit_or_are_contained(capsys):
    rows, text = run_briefly(["test_ai_arena:garbage_bot", "test_ai_arena:exiting_bot",
                              "test_ai_arena:printing_bot", "medium"], games=2, size=8)
    assert rows[0]["illegal"] >= 20 and rows[1]["illegal"] >= 20
    assert rows[2]["illegal"] == 0 and rows[3]["illegal"] == 0
    assert "1 test_ai_arena:garbage_bot: " in text and "answered no cell" in text
    assert "answered an illegal move" in text           # -1 and 10**100: ints, not cells
    assert "2 test_ai_arena:exiting_bot: " in text and "raised SystemExit" in text
    assert "3 test_ai_arena:printing_bot: printed" in text
    printed = capsys.readouterr()
    assert "thinking hard" not in printed.out + printed.err + text


def test_a_bot_that_never_answers_forfeits_at_the_move_limit():
    # In its own process: the limit is a signal, which only a main thread gets; without the
    # limit the arena would never finish (the timeout is for Python's start only).
    env = dict(os.environ, PYTHONPATH=os.pathsep.join((ROOT, os.path.join(ROOT, "tests"))))
    done = subprocess.run([sys.executable, "-m", "sim.arena", "--players",
                           "test_ai_arena:endless_bot,easy", "--games", "2", "--size", "4",
                           "--move-seconds", "0.05"], capture_output=True, text=True,
                          timeout=120, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "1 test_ai_arena:endless_bot: took longer than 0.05 s, " in done.stdout
    table = [x.split() for x in done.stdout.splitlines() if x.startswith("1 ")]
    assert int(table[0][-1]) >= 4          # every move of its games forfeited


@pytest.mark.parametrize("value", ["0", "nan", "-1"])
def test_the_move_limit_must_be_a_time(value, capsys):
    with pytest.raises(SystemExit) as stop:
        arena.main(["--players", "easy,easy", "--games", "1", "--move-seconds", value])
    assert stop.value.code == 2
    assert "--move-seconds must be 0.001-86400" in capsys.readouterr().err


def _midgame(players, plies=16):
    """A game past the opening book: ``plies`` random first moves."""
    from rolit_core import Game
    from rolit_core.rng import Random
    game = Game(players, 8, first="red")
    rng = Random(7)
    for _ in range(plies):
        game.play(rng.choice(game.legal_moves()))
    return game


def test_a_level_with_a_node_budget_searches_that_many_nodes():
    for players in (2, 3, 4):
        game = _midgame(players)
        small = arena.load("expert:nodes=300", 1)
        big = arena.load(" expert:nodes=3000 ", 1)
        assert small(game) in game.legal_moves() and big(game) in game.legal_moves()
        # bot.__self__ is the rolit_core.ai.Player; its nodes are those of the last search.
        assert 0 < small.__self__.nodes <= 300 < 1000 < big.__self__.nodes <= 3000, players
        assert small.__self__.budget == 300 and big.__self__.budget == 3000
    default = arena.load("expert", 1)
    default(_midgame(2))
    assert default.__self__.nodes > 3000      # the option is what held them back
    hard = arena.load("hard:nodes=1000", 1)      # any searching level (hard: 200 by default)
    hard(_midgame(2))
    assert 230 < hard.__self__.nodes <= 1000


@pytest.mark.parametrize("spec", ["expert:nodes=0", "expert:nodes=-5", "expert:nodes=2.5",
                                  "expert:nodes=lots", "expert:nodes=", "expert:nodes",
                                  "expert:ms=100", "expert:", "expert:nodes=100:depth=3",
                                  "easy:nodes=100", "expert:nodes=1000000000"])
def test_a_bad_level_option_is_refused(spec):
    with pytest.raises(arena.SpecError):
        arena.load(spec, 1)


def test_a_level_with_a_budget_plays_in_the_arena(capsys):
    rows, text = run_briefly(["expert:nodes=50", "hard"], games=2, size=6)
    assert rows[0]["player"] == "expert:nodes=50" and rows[0]["illegal"] == 0
    assert "expert:nodes=50" in text
    with pytest.raises(SystemExit) as stop:
        arena.main(["--players", "expert:nodes=0,hard", "--games", "2"])
    assert stop.value.code == 2
    assert "nodes must be a whole number" in capsys.readouterr().err
