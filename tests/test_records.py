"""Game records from anywhere: a byte-order mark, huge or broken input, bad header values.
Errors name the line (and key); reading stops at the first error."""

import time
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


def test_an_oversized_record_is_refused_at_once():
    text = RECORD + "# padding\n" * (MAX_RECORD_CHARS // 10)
    assert len(text) > MAX_RECORD_CHARS
    start = time.process_time()
    with pytest.raises(ValueError, match="too long"):
        Game.from_record(text)
    assert time.process_time() - start < 0.5


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
