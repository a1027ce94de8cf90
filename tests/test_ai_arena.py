"""The arena: seat and first-colour rotation, student bots, illegal answers, the table."""

import io

import pytest

from sim import arena


def bad_bot(game):
    """Answers a taken cell every time: the red start ball's."""
    size = game.board.size
    return (size // 2 - 1) * size + size // 2 - 1


def crashing_bot(game):
    raise RuntimeError("student bug")


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
])
def test_bad_command_lines_are_refused_with_a_message(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        arena.main(argv + ["--games", "2"])
    assert stop.value.code == 2
    assert "error" in capsys.readouterr().err
