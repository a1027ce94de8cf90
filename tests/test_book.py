"""The opening book (rolit_core/book.py, built by bench/book.py): keys, symmetries, the file's
checks, its use by the levels, and the same lookups under MicroPython."""

import os

import pytest

from micropython import run_micropython
from rolit_core import Game, ai, lifetime
from rolit_core.ai import Player
from rolit_core.rng import Random
from rolit_core.vocab import EMPTY
from bench import book as builder

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIPPED = os.path.join(ROOT, "rolit_core", "book.bin")


book = None     # the module as loaded now: a level forgets it whenever no lookup follows
CHECKED = None  # what book.check said of the book the levels read now


def use(path):
    """The levels and this module's lookups read the book at ``path`` (None: the shipped one)."""
    global CHECKED
    ai.use_book(path)
    CHECKED = book.check(path)


@pytest.fixture(autouse=True)
def default_book():
    global book
    book = lifetime.load("rolit_core.book")
    use(None)
    yield
    ai.use_book(None)


def played(players, first, cells):
    game = Game(players=players, first=first)
    for cell in cells:
        game.play(cell)
    return game


def random_game(players, first, plies, seed):
    rng = Random(seed)
    game = Game(players=players, first=first)
    for _ in range(plies):
        game.play(rng.choice(game.legal_moves()))
    return game


def positions():
    """Games of 2, 3 and 4 players, every first colour, 0-5 random plies."""
    found = []
    for players in (2, 3, 4):
        for first in Game(players).colours:
            for plies in range(6):
                found.append(random_game(players, first, plies, players * 100 + first * 10 +
                                         plies))
    return found


def write_book(path, games, pick=lambda moves: moves[len(moves) // 2], plies=8):
    """A book with one stored move per position of ``games``: the one ``pick`` chooses; returns
    the (game, cell) stored, one per key."""
    records = {}
    stored = []
    for game in games:
        key = book.position(game)
        if key[:2] in records:
            continue  # a mirror image of a position before (its record is that one's)
        moves = game.legal_moves()
        cell = pick(moves)
        records[key[:2]] = [1, {builder.canonical_move(game, key, cell): 3}]
        stored.append((game, cell))
    with open(path, "wb") as handle:
        handle.write(builder.encode(records, plies))
    use(str(path))
    return stored


START = ((27, 1), (28, 2), (35, 4), (36, 3))  # the 8x8 start: R Y / B G


def derived_frames(game):
    """The symmetries of the game's rules, from its start position and turn order: the board's
    symmetries t (book._cell) with the renaming of the colours that maps the start onto itself,
    colours in play onto colours in play, and the turn order onto itself."""
    found = []
    colours = game.colours
    for t in range(8):
        rename = bytearray(5)
        for cell, colour in START:
            rename[colour] = dict(START)[book._cell(t, cell)]
        ok = all((c in colours) == (rename[c] in colours) for c in range(1, 5))
        ok = ok and all(rename[game.next_colour(c)] == game.next_colour(rename[c])
                        for c in colours)
        if ok:
            found.append((t, bytes(rename)))
    return found


def frames(game):
    # book.FRAMES for the game, as (t, renaming) pairs.
    table = book.FRAMES[len(game.seat_colours)]
    return [(table[at], table[at + 1:at + 6]) for at in range(0, len(table), 6)]


def record(game):
    """The book's moves for the position: (cell, weight) for every legal cell a stored move
    stands for (weights times 12, shared among the cells of one stored move), or None."""
    found = book._record(game, CHECKED)
    if found is None:
        return None
    buf, ts = found
    return [(m, book._weight(buf, slot, ts, m)) for slot in range(book.SLOTS)
            for m in game.legal_moves() if book._weight(buf, slot, ts, m)]


def searched(level, seed, game):
    bot = Player(level, seed)
    bot.book = False
    return bot.choose(game)


# -- keys and symmetries ---------------------------------------------------------------------


def test_the_symmetries_are_inverted_and_are_those_of_the_rules():
    for t in range(8):
        for cell in range(64):
            assert book._cell(book._INVERSE[t], book._cell(t, cell)) == cell
    for players in (2, 3, 4):
        for first in Game(players).colours:
            game = Game(players=players, first=first)
            assert frames(game) == derived_frames(game)
    # Two players: the reflection that swaps the neutral colours, and the half turn and the
    # other reflection that swap red and green; four: the quarter turns; three: none.
    assert [len(book.FRAMES[p]) // 6 for p in (2, 3, 4)] == [4, 1, 4]
    assert book.position(Game(players=2, teams=True)) is None
    assert book.position(Game(players=2, size=6)) is None


def test_the_key_is_the_position_not_the_order_of_the_moves():
    # The same balls and turn reached another way (here: set up from the position's text, with
    # no moves at all) give the same key; another turn, or one ball more, another.
    from rolit_core.board import Board

    for players in (2, 3, 4):
        game = random_game(players, "red", 4, players)
        same = Game(players=players, first=game.turn)
        same.board = Board.from_text(game.board.to_text())
        assert same.board._moves != game.board._moves
        assert book.position(same)[:2] == book.position(game)[:2]
        other = Game(players=players, first=game.next_colour(game.turn))
        other.board = Board.from_text(game.board.to_text())
        assert book.position(other)[:2] != book.position(game)[:2]
        game.play(game.legal_moves()[0])
        assert book.position(game)[:2] != book.position(same)[:2]


def test_mirrored_games_share_a_key_and_the_move_maps_back(tmp_path):
    checked = 0
    for players in (2, 4):
        game = Game(players=players, first="red")
        for t, rename in frames(game)[1:]:
            for seed in range(4):
                rng = Random(seed)
                a = Game(players=players, first="red")
                b = Game(players=players, first=rename[1])
                for _ in range(1 + seed):
                    cell = rng.choice(a.legal_moves())
                    a.play(cell)
                    b.play(book._cell(t, cell))
                assert [rename[v] for v in a.board._cells] == \
                    [b.board._cells[book._cell(t, c)] for c in range(64)]
                assert book.position(a)[:2] == book.position(b)[:2]
                stored = write_book(tmp_path / "one.bin", [a])
                cell = stored[0][1]
                got = dict(record(a))
                assert cell in got
                mirrored = dict(record(b))
                assert book._cell(t, cell) in mirrored
                # The cells of one stored move in a symmetric position are equivalent ones.
                for m in got:
                    assert book._cell(t, m) in mirrored
                checked += 1
    assert checked == 24


# -- round trip ------------------------------------------------------------------------------


def test_round_trip_moves_legal_and_the_stored_ones(tmp_path):
    games = positions()
    stored = write_book(tmp_path / "book.bin", games)
    assert CHECKED and CHECKED[1] == len(set(book.position(g)[:2] for g in games))
    for game, cell in stored:
        moves = game.legal_moves()
        got = record(game)
        assert got and all(m in moves for m, _ in got)
        assert cell in [m for m, _ in got]
        # Only moves equivalent to the stored one under the position's own symmetries.
        ts = book.position(game)[2]
        assert set(m for m, _ in got) == set(
            m for m in moves for t in ts
            if book._cell(t, m) == builder.canonical_move(game, book.position(game), cell))
        for seed in range(3):
            assert book.move(game, moves, Random(seed), CHECKED) in [m for m, _ in got]


def test_the_levels_play_the_book_and_easy_does_not(tmp_path, monkeypatch):
    games = positions()
    stored = write_book(tmp_path / "book.bin", games)
    for game, _ in stored[:12]:
        allowed = [m for m, _ in record(game)]
        for level in ("medium", "hard", "expert"):
            bot = Player(level, seed=5)
            before = game.board.to_text(), game.turn, list(game.board._moves)
            cell = bot.choose(game)
            assert (game.board.to_text(), game.turn, list(game.board._moves)) == before
            assert cell in allowed and bot.nodes == 0
            # In slices: the same move, whatever the slice.
            for size in (1, 50):
                again = Player(level, seed=5)
                again.start(game)
                answer = None
                while answer is None:
                    answer = again.step(size)
                assert answer == cell

    def no_book(*args):
        raise AssertionError("easy asked the book")

    monkeypatch.setattr(book, "move", no_book)
    for game, _ in stored[:12]:
        Player("easy", seed=1).choose(game)


def test_out_of_the_book_the_level_searches_and_the_rng_is_untouched(tmp_path):
    write_book(tmp_path / "book.bin", [Game(players=2, first="red")])
    game = random_game(2, "red", 3, 9)
    assert record(game) is None
    bot = Player("hard", seed=3)
    assert bot.choose(game) == searched("hard", 3, game)
    assert bot.nodes > 0
    # Deeper than the book's plies: not even looked up.
    write_book(tmp_path / "short.bin", [game], plies=2)
    assert record(game) is None


# -- damaged files ---------------------------------------------------------------------------


def damaged(tmp_path):
    good = tmp_path / "good.bin"
    write_book(good, positions())
    data = good.read_bytes()
    flipped = bytearray(data)
    flipped[book.HEADER + 20] ^= 0x40
    version = bytearray(data)
    version[4] = 9
    return {
        "missing": None,
        "empty": b"",
        "header only": data[:book.HEADER],
        "truncated": data[:-5],
        "longer": data + b"\0" * 16,
        "flipped bit": bytes(flipped),
        "foreign": b"PK\x03\x04" + data[4:],
        "other version": bytes(version),
        "text": b"# not a book\n" * 10,
    }


def test_a_damaged_or_missing_book_is_said_once_and_the_level_searches(tmp_path, capsys):
    game = Game(players=2, first="red")
    later = random_game(4, "blue", 2, 1)
    expected = [searched("hard", 4, game), searched("medium", 4, later)]
    for name, data in damaged(tmp_path).items():
        path = tmp_path / ("%s.bin" % name.replace(" ", "-"))
        if data is not None:
            path.write_bytes(data)
        ai.use_book(str(path))
        got = []
        for _ in range(3):
            got = [Player("hard", 4).choose(game), Player("medium", 4).choose(later)]
        assert got == expected, name
        said = capsys.readouterr().out
        assert said.count("opening book") == 1 and "search instead" in said, (name, said)


def test_a_record_whose_moves_are_not_legal_is_not_played(tmp_path):
    # A key that matched another position (or a damaged record whose CRC was rewritten): the
    # stored cell is not a legal move here, so the level searches.
    game = Game(players=3, first="red")
    key = book.position(game)
    records = {key[:2]: [1, {0: 5}]}  # a1: never legal at the start
    path = tmp_path / "bad.bin"
    path.write_bytes(builder.encode(records, 8))
    use(str(path))
    assert book.move(game, game.legal_moves(), Random(1), CHECKED) == -1
    assert Player("hard", 2).choose(game) == searched("hard", 2, game)


# -- the shipped book --------------------------------------------------------------------------


def test_the_shipped_book_covers_every_start():
    assert os.path.isfile(SHIPPED)
    assert book.check(SHIPPED), "rolit_core/book.bin is not a good book"
    for players in (2, 3, 4):
        for first in Game(players).colours:
            game = Game(players=players, first=first)
            got = record(game)
            assert got, (players, first)
            assert all(m in game.legal_moves() for m, _ in got)


def opening(players, seed, plies=8):
    # Two `hard` players (or more) from the start: the moves of the first plies.
    game = Game(players=players, first="red")
    bots = [Player("hard", seed * 10 + k) for k in range(players)]
    for _ in range(plies):
        game.play(bots[game.seat_of(game.turn)].choose(game))
    return tuple(m >> 3 for m in game.board._moves)


def test_the_shipped_book_gives_variety_and_a_seed_repeats_its_game():
    for players in (2, 3, 4):
        games = [opening(players, seed) for seed in range(6)]
        assert len(set(games)) >= 3, (players, games)
        assert opening(players, 2) == games[2]


# -- MicroPython -------------------------------------------------------------------------------

LOOKUPS = """
import gc
from rolit_core import Game, book
from rolit_core.rng import Random
from rolit_core.ai import Player

def random_game(players, first, plies, seed):
    rng = Random(seed)
    game = Game(players=players, first=first)
    for _ in range(plies):
        game.play(rng.choice(game.legal_moves()))
    return game

games = []
for players in (2, 3, 4):
    for first in Game(players).colours:
        for plies in range(5):
            games.append(random_game(players, first, plies, players * 100 + first * 10 + plies))
rng = Random(11)
checked = book.check()
out = []
for game in games:
    out.append(book.move(game, game.legal_moves(), rng, checked))
print("moves", " ".join([str(m) for m in out]))
print("hard", " ".join([str(Player("hard", s).choose(Game(players=p, first="red")))
                         for p in (2, 3, 4) for s in range(3)]))
# What a lookup allocates (this runner's collections free nothing, so only that is seen): the
# same for the second lookup and the twenty-second, so nothing is kept from one to the next.
game = games[1]
moves = game.legal_moves()
cell = second = later = before = 0  # bound first: a new global would grow the dict
book.move(game, moves, Random(1), checked)
gc.collect()
before = gc.mem_free()
cell = book.move(game, moves, Random(1), checked)
second = before - gc.mem_free()
for _ in range(20):
    book.move(game, moves, Random(1), checked)
before = gc.mem_free()
book.move(game, moves, Random(1), checked)
later = before - gc.mem_free()
print("heap", second, later, cell)
"""


def cpython_lookups():
    games = []
    for players in (2, 3, 4):
        for first in Game(players).colours:
            for plies in range(5):
                games.append(random_game(players, first, plies, players * 100 + first * 10 +
                                         plies))
    rng = Random(11)
    return [book.move(game, game.legal_moves(), rng, CHECKED) for game in games]


@pytest.mark.micropython
def test_micropython_looks_up_the_same_moves_and_keeps_no_heap():
    out = run_micropython(LOOKUPS)
    lines = dict(line.split(" ", 1) for line in out.strip().split("\n"))
    expected = cpython_lookups()
    assert [int(m) for m in lines["moves"].split()] == expected
    assert sum(1 for m in expected if m >= 0) >= 20  # most of them are in the book
    hard = [Player("hard", s).choose(Game(players=p, first="red")) for p in (2, 3, 4)
            for s in range(3)]
    assert [int(m) for m in lines["hard"].split()] == hard
    second, later, cell = [int(v) for v in lines["heap"].split()]
    assert cell >= 0
    assert second == later, (second, later)
    assert second < 1000, second  # a few small objects: the record, the key, the file


def test_a_lookup_keeps_nothing_on_cpython():
    import gc
    import tracemalloc

    game = random_game(4, "yellow", 1, 3)
    moves = game.legal_moves()
    assert book.move(game, moves, Random(1), CHECKED) >= 0
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for seed in range(100):
            book.move(game, moves, Random(seed), CHECKED)
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    # what the lookups allocated in rolit_core/book.py and still hold (not this test's own)
    module = os.path.join("rolit_core", "book.py")
    grown = [stat for stat in after.compare_to(before, "filename")
             if stat.traceback[0].filename.endswith(module)]
    assert sum(stat.size_diff for stat in grown) <= 0, [str(stat) for stat in grown]


def test_a_level_holds_the_book_only_while_it_answers_and_never_while_it_searches(monkeypatch):
    import sys

    loads = []
    real_load = ai.load
    # what each lookup found: False when the module was loaded already, True when loaded anew
    monkeypatch.setattr(ai, "load", lambda name: loads.append(name not in sys.modules)
                        or real_load(name))
    searched_with_book = []

    def search(*args):
        searched_with_book.append("rolit_core.book" in sys.modules)
        return ai._Search(*args)

    bots = [Player("medium", seed=1), Player("hard", seed=2)]
    lifetime.forget("rolit_core.book")  # as at power-up (this module's fixture loaded it)
    for bot in bots:
        bot._searcher = search
    game = Game(players=2, first="red")
    from_book = 0
    while not game.over:
        bot = bots[game.seat_of(game.turn)]
        game.play(bot.choose(game))
        if bot.nodes == 0 and len(game.board._moves) <= book.MAX_PLIES:
            from_book += 1
            assert "rolit_core.book" in sys.modules  # kept while its answers come
    assert from_book >= 4
    assert searched_with_book and not any(searched_with_book)
    assert "rolit_core.book" not in sys.modules
    assert not hasattr(sys.modules["rolit_core"], "book")
    # Loaded once, for the opening: once out of its book, a game does not load it again.
    assert sum(loads) == 1 and from_book <= len(loads) <= from_book + 1
    # An undo back into the opening asks the book again; so does a new game.
    del loads[:]
    while len(game.board._moves) > 2:
        game.undo()
    assert bots[game.seat_of(game.turn)].choose(game) in game.legal_moves()
    assert loads == [True]
    fresh = Game(players=2, first="red")
    assert bots[0].choose(fresh) in fresh.legal_moves() and bots[0].nodes == 0
    assert "rolit_core.book" in sys.modules


def test_a_game_out_of_the_book_is_let_go_and_the_next_game_asks_again(tmp_path):
    import gc
    import sys
    import weakref

    # A book of one 3-player position: a 2-player start is not in it.
    stored = write_book(tmp_path / "book.bin", [random_game(3, "red", 1, 5)])
    lifetime.forget("rolit_core.book")
    missed = Game(players=2, first="red")
    bot = Player("hard", seed=3)
    bot.choose(missed)
    assert bot.nodes > 0 and "rolit_core.book" not in sys.modules
    bot.choose(missed)  # the same game: not asked again
    assert "rolit_core.book" not in sys.modules
    gone = weakref.ref(missed)
    game, cell = stored[0]
    assert bot.choose(game) == cell and bot.nodes == 0  # another game asks the book again
    del missed
    gc.collect()
    assert gone() is None  # the mark of the game the book missed holds no game


# -- the builder's output file -----------------------------------------------------------------

TINY = ["--games", "1", "--plies", "1", "--nodes", "10", "--depth", "0", "--players", "2",
        "--quiet"]


def test_the_builder_replaces_a_book_whole_and_nothing_else(tmp_path, capsys):
    out = tmp_path / "book.bin"
    assert builder.main(TINY + ["--out", str(out)]) == 0
    first = out.read_bytes()
    assert first[:4] == book.MAGIC
    assert builder.main(TINY + ["--plies", "2", "--out", str(out)]) == 0  # a book is replaced
    assert out.read_bytes()[:4] == book.MAGIC and out.read_bytes() != first
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"my notes\n")
    assert builder.main(TINY + ["--out", str(notes)]) == 2
    assert notes.read_bytes() == b"my notes\n"
    assert "is not an opening book: left as it is" in capsys.readouterr().err
    assert builder.main(TINY + ["--out", str(tmp_path)]) == 2
    assert sorted(os.listdir(str(tmp_path))) == ["book.bin", "notes.txt"]


def test_a_failed_write_leaves_the_book_that_was_there(tmp_path, monkeypatch, capsys):
    out = tmp_path / "book.bin"
    assert builder.main(TINY + ["--out", str(out)]) == 0
    before = out.read_bytes()
    real_replace = os.replace

    def full_disk(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    assert builder.main(TINY + ["--seed", "3", "--out", str(out)]) == 1
    monkeypatch.setattr(os, "replace", real_replace)
    assert out.read_bytes() == before
    assert os.listdir(str(tmp_path)) == ["book.bin"]  # no temporary left behind
    assert "not written: No space left on device" in capsys.readouterr().err
