"""Game records from anywhere: a byte-order mark, huge or broken input, bad header values.
Errors name the line (and key); reading stops at the first error."""

import tracemalloc

import pytest

from rolit_core import Board, Game, IllegalMove
from rolit_core.game import MAX_RECORD_CHARS
from rolit_core.record import parse_record

RECORD = "# Rolit game record\nSize: 8\nPlayers: 2\nFirst: green\n\n1. G c3\n2. R c2\n"


def test_a_byte_order_mark_is_accepted():
    plain = Game.from_record(RECORD)
    for text in ("\ufeff" + RECORD, "\ufeff" + RECORD.replace("\n", "\r\n")):
        game = Game.from_record(text)
        assert game.moves == plain.moves == [18, 10]
        header, moves = parse_record(text)
        assert header["size"] == 8 and len(moves) == 2


def test_board_text_with_a_byte_order_mark():
    text = Board().to_text()
    assert Board.from_text("\ufeff" + text) == Board()
    assert Board.from_text("\ufeff" + text.replace("/", "\r\n") + "\r\n") == Board()


@pytest.mark.parametrize("line, words", [
    ("Size: \u00b2", "size"),                 # a superscript two: str.isdigit() says yes
    ("Size: \u0662", "size"),                 # an Arabic-Indic digit two
    ("Seed: " + "7" * 5000, "seed"),          # int() refuses 5000 digits on CPython >= 3.11
    ("Players: 9" * 1, "players"),
    ("Size: 9", "size"),
    ("Players: -2", "players"),
    ("Round: 1e3", "round"),
])
def test_bad_header_values_name_the_line_and_the_key(line, words):
    with pytest.raises(ValueError) as caught:
        Game.from_record("# a record\n" + line + "\nFirst: red\n")
    message = str(caught.value)
    assert "line 2" in message and words in message.lower()
    assert "header" in message and len(message) < 120


class Untouchable(str):
    """Text whose reading methods fail: a record refused for its length alone never reads it."""

    def _read(self, *args):
        raise AssertionError("the text was read")

    find = index = split = splitlines = strip = __getitem__ = __iter__ = _read


def test_an_oversized_record_is_refused_at_once():
    # "at once": before a line of it is read (no clock: a busy machine would make that flaky)
    text = Untouchable(RECORD + "# padding\n" * (MAX_RECORD_CHARS // 10))
    assert str.__len__(text) > MAX_RECORD_CHARS
    with pytest.raises(ValueError, match="too long"):
        Game.from_record(text)
    with pytest.raises(AssertionError, match="was read"):
        Game.from_record(Untouchable(RECORD))      # a record of fine length is read


def test_reading_stops_at_the_first_error_without_copying_the_text():
    # ply 2 is illegal; what follows (a long tail within the size bound) is never split up
    tail = "h8 " * 20000
    text = "Players: 2\nFirst: green\nc3\na1\n" + tail
    assert len(text) < MAX_RECORD_CHARS
    tracemalloc.start()
    try:
        with pytest.raises(IllegalMove, match="ply 2"):
            Game.from_record(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < len(text)  # the old reader made a list of every token (several MB here)


def test_a_move_after_the_end_stops_the_reading():
    game = Game(players=2, size=4, first=1, seed=1)
    while not game.over:
        game.play(game.legal_moves()[0])
    text = game.record() + "a1\n" + "b2\n" * 1000
    with pytest.raises(IllegalMove, match="ply %d .*over" % (len(game.moves) + 1)):
        Game.from_record(text)


def test_comments_after_the_end_are_fine():
    game = Game(players=2, size=4, first=1, seed=1)
    while not game.over:
        game.play(game.legal_moves()[0])
    again = Game.from_record(game.record() + "\n# well played\n\n")
    assert again.over and again.moves == game.moves


@pytest.mark.parametrize("text", [
    "First: " + "x" * 50000 + "\n",
    "First: red\n" + "y" * 50000 + "\n",
    "First: red\nc3 " + "k" * 50000 + "\n",
    "First: red\nc4\nEvent: " + "z" * 50000 + "\n",
    "Teams: " + "n" * 50000 + "\n",
])
def test_messages_quote_long_values_cut_short(text):
    with pytest.raises(ValueError) as caught:
        Game.from_record(text)
    assert len(str(caught.value)) < 120 and "line" in str(caught.value)


# -- what the record format accepts (README "Records") -----------------------------------------

@pytest.mark.parametrize("value, teams", [
    ("yes", True), ("Yes", True), ("true", True), ("TRUE", True), ("on", True), ("1", True),
    ("no", False), ("No", False), ("false", False), ("off", False), ("0", False),
])
def test_teams_takes_yes_no_true_false_on_off_1_0(value, teams):
    game = Game.from_record("Players: 2\nTeams: %s\nFirst: red\n\nf4\n" % value)
    assert game.teams is teams and game.moves == [29]
    assert len(game.seat_colours[0]) == (2 if teams else 1)


@pytest.mark.parametrize("value", ["2", "y", "maybe", "nein", ""])
def test_teams_refuses_other_words_naming_the_line(value):
    with pytest.raises(ValueError, match="line 2: teams must be yes or no"):
        Game.from_record("Players: 2\nTeams: %s\nFirst: red\n" % value)


def test_teams_needs_two_players():
    with pytest.raises(ValueError, match="record header"):
        Game.from_record("Players: 3\nTeams: yes\nFirst: red\n")


@pytest.mark.parametrize("line, first", [
    ("First: green", 3), ("first: GREEN", 3), ("First: G", 3), ("First: 3", 3),
    ("FIRST : g", 3), ("First: 1", 1), ("First: Red", 1),
])
def test_first_takes_a_name_a_letter_or_a_number_in_any_case(line, first):
    assert Game.from_record(line + "\n").first == first


@pytest.mark.parametrize("line, size", [("Size: 6", 6), ("size: 6x6", 6), ("Size: 4X4", 4)])
def test_size_takes_n_or_n_by_n(line, size):
    assert Game.from_record(line + "\nFirst: red\n").size == size


def test_tie_takes_shared_or_none_in_any_case():
    assert Game.from_record("Tie: NONE\nFirst: red\n").tie == "none"
    with pytest.raises(ValueError, match="line 1: tie must be shared or none"):
        Game.from_record("Tie: split\nFirst: red\n")


def test_a_header_given_twice_is_refused():
    with pytest.raises(ValueError, match="line 3: a second Players: header"):
        Game.from_record("Players: 2\nFirst: red\nPlayers: 3\n")


# -- files that are not records: the same words in the simulator and the browser -----------------

@pytest.mark.parametrize("text", ["", "\n\n  \n", "\ufeff", "\ufeff\r\n"])
def test_an_empty_file_says_so(text):
    with pytest.raises(ValueError) as caught:
        Game.from_record(text)
    assert str(caught.value) == "empty file"


@pytest.mark.parametrize("text", [
    "c3 b2 a1\n",                                   # moves without colour letters or header
    "# only a comment\n",
    "Hello: my essay\nthis is not a game\n",
    "\ufffdPNG\r\n\x1a\n\x00\x00\x00\rIHDR",         # a PNG as a browser decodes it
    "\x00\x01\x02\x03",
])
def test_a_file_that_is_not_a_record_names_the_header_it_needs(text):
    with pytest.raises(ValueError) as caught:
        Game.from_record(text)
    assert str(caught.value) == \
        "not a game record: it needs a header such as `First: green`"


def test_the_same_moves_under_a_header_are_fine():
    game = Game.from_record("First: red\nf4 c3\n")
    assert [game.board.cell_name(cell) for cell in game.moves] == ["f4", "c3"]


def test_a_header_without_first_says_which_line_to_add():
    with pytest.raises(ValueError, match="no 'First:' line; add one such as `First: green`"):
        Game.from_record("Size: 8\nPlayers: 2\n\nc3\n")


def test_binary_data_after_the_moves_names_its_line():
    with pytest.raises(ValueError, match="line 3: not text"):
        Game.from_record("First: red\nf4\n\x00\x07garbage\n")


def test_a_non_utf8_comment_is_only_a_comment():
    assert Game.from_record("First: red  # caf\ufffd\nf4\n").moves == [29]


def _played(game, pick):
    while not game.over:
        moves = game.legal_moves()
        game.play(moves[0] if pick == "first" else moves[-1])
    return game.record()


def test_the_record_is_written_exactly_in_its_documented_form():
    # Header keys, move numbers from 1 and the result line are what people read and other
    # programs parse: the reader takes any case and ignores the numbers, so only this pins them.
    assert _played(Game(players=2, size=4, first="red"), "first") == (
        "# Rolit game record\nSize: 4\nPlayers: 2\nTeams: no\nTie: shared\nFirst: red\n\n"
        "1. R d2\n2. G a1\n3. R a2\n4. G c1\n5. R b4\n6. G a3\n7. R b1\n8. G d3\n9. R d1\n"
        "10. G a4\n11. R c4\n12. G d4\n# Result: R 5, G 11\n")
    assert _played(Game(players=2, size=4, first="yellow", teams=True), "last") == (
        "# Rolit game record\nSize: 4\nPlayers: 2\nTeams: yes\nTie: shared\nFirst: yellow\n\n"
        "1. Y c4\n2. G d4\n3. B d3\n4. R b4\n5. Y a4\n6. G d2\n7. B a3\n8. R a2\n9. Y b1\n"
        "10. G a1\n11. B c1\n12. R d1\n# Result: R+G 7, Y+B 9\n")
