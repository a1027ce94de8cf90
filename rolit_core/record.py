"""Reading game records (``Game.from_record``): a line at a time, checking each move as it comes,
stopping at the first error, which names its line (and ply, or header key).

Loaded only when a record is read (the simulator, the tests; never the device's game).
"""

from .board import IllegalMove, colour_of
from .vocab import MAX_RECORD_CHARS, NAMES, SIZES, TIE_RULES

_HEADER_KEYS = ("size", "players", "teams", "tie", "first", "seed", "rounds", "round")
_NUMBER_DIGITS = 10       # header numbers: no big ints, and only ASCII digits


def read(cls, text):
    """The game (of class ``cls``, a ``Game``) that record ``text`` describes: see
    ``Game.from_record``."""
    header = {}
    game = None
    ply = 0
    for number, key, value in _record_items(text):
        if key is not None:
            if game is not None:
                raise ValueError("line %d: header line after the moves" % number)
            header[key] = value
            continue
        if game is None:
            game = _game_from_header(cls, header, value[0])
        ply += 1
        _play_ply(game, ply, number, value[0], value[1])
    if game is None:
        game = _game_from_header(cls, header, None)
    return game


NOT_A_RECORD = "not a game record: it needs a header such as `First: green`"
EMPTY = "empty file"


def _game_from_header(cls, header, letter):
    # The game a record's header describes; without "First:" the first move's colour starts.
    first = header.get("first")
    if first is None:
        if letter is None:
            if not header:
                raise ValueError(NOT_A_RECORD)
            raise ValueError("record header: no 'First:' line; add one such as `First: green`")
        first = colour_of(letter)
    try:
        return cls(players=header.get("players", 2), size=header.get("size", 8), first=first,
                   teams=header.get("teams", False), tie=header.get("tie", "shared"), seed=0)
    except ValueError as error:
        raise ValueError("record header: %s" % error)


def _play_ply(game, ply, line, letter, name):
    if len(name) > 20:
        raise ValueError("ply %d (line %d): %s is not a cell name" % (ply, line, _shown(name)))
    where = "ply %d (line %d, %s)" % (ply, line, name)
    if game.over:
        raise IllegalMove("%s: the game is already over" % where)
    if letter is not None and colour_of(letter) != game.turn:
        raise IllegalMove("%s: it is %s's turn, not %s's"
                          % (where, NAMES[game.turn], NAMES[colour_of(letter)]))
    try:
        cell = game.board.parse_cell(name)
    except ValueError as error:
        raise ValueError("%s: %s" % (where, error))
    try:
        game.play(cell)
    except IllegalMove as error:
        raise IllegalMove("%s: %s" % (where, error))


def replay(game, moves):
    """Play ``moves`` ((line, colour letter or None, cell name) triples) on ``game``."""
    ply = 0
    for line, letter, name in moves:
        ply += 1
        _play_ply(game, ply, line, letter, name)


def parse_record(text):
    """Split a record into its header (a dict) and its moves. Raises ``ValueError`` on bad text."""
    header = {}
    moves = []
    for number, key, value in _record_items(text):
        if key is None:
            moves.append((number, value[0], value[1]))
        elif moves:
            raise ValueError("line %d: header line after the moves" % number)
        else:
            header[key] = value
    return header, moves


def _record_items(text):
    """The header values and moves of record ``text`` as they are read, one line at a time:
    ``(line, key, value)`` for a header line, ``(line, None, (letter or None, cell name))`` for a
    move. Raises ``ValueError`` at the first bad line (and at once for text too long)."""
    if not isinstance(text, str):
        raise ValueError("a record must be text")
    if len(text) > MAX_RECORD_CHARS:
        raise ValueError("the record is too long: %d characters, at most %d"
                         % (len(text), MAX_RECORD_CHARS))
    start = 1 if text[:1] == "\ufeff" else 0  # a byte-order mark from a Windows editor
    number = 0
    moved = False
    seen = False   # a header line or a move has been read
    blank = True   # nothing but white space so far, not even a comment
    keys = []      # the header keys read (by index): each may come once
    end = len(text)
    while start < end:
        stop = text.find("\n", start)
        if stop < 0:
            stop = end
        raw = text[start:stop]
        start = stop + 1
        number += 1
        hash_at = raw.find("#")
        line = (raw if hash_at < 0 else raw[:hash_at]).strip()
        if hash_at >= 0:
            blank = False
        if not line:
            continue
        blank = False
        if _binary(line):
            if not seen:
                raise ValueError(NOT_A_RECORD)
            raise ValueError("line %d: not text (binary, or not UTF-8): neither a header nor moves"
                             % number)
        seen = True
        colon = line.find(":")
        if colon > 0 and line[:colon].strip().lower() in _HEADER_KEYS:
            key = line[:colon].strip().lower()
            if moved:
                raise ValueError("line %d: header line after the moves" % number)
            if _HEADER_KEYS.index(key) in keys:
                raise ValueError("line %d: a second %s: header" % (number, line[:colon].strip()))
            keys.append(_HEADER_KEYS.index(key))
            yield number, key, _header_value(key, line[colon + 1:].strip(), number)
            continue
        if colon >= 0:
            # Other headers (Event:, Date:, Result: ...) are kept by people and other programs:
            # skip them before the moves, refuse them among the moves.
            if moved or colon == 0:
                raise ValueError("line %d: %s is neither a header nor moves"
                                 % (number, _shown(line)))
            continue
        letter = None
        for token in line.replace(",", " ").split():
            if token[-1] == "." and _is_number(token[:-1]):
                continue  # a move number
            if len(token) == 1 and token.upper() in "RYGB":
                letter = token.upper()
                continue
            moved = True
            yield number, None, (letter, token)
            letter = None
        if letter is not None:
            raise ValueError("line %d: colour %s without a move" % (number, letter))
    if blank:
        raise ValueError(EMPTY)


def _binary(line):
    # Bytes that were not text (as a browser or the simulator decodes them: U+FFFD), or control
    # characters no editor puts in a record. A comment may hold anything: it was cut off before.
    for char in line:
        if char == "\ufffd" or (char < " " and char != "\t" and char != "\r"):
            return True
    return False


def _is_number(text):
    # ASCII digits only: str.isdigit() also takes "\u00b2" and other digits int() refuses
    if not text or len(text) > _NUMBER_DIGITS:
        return False
    for char in text:
        if not "0" <= char <= "9":
            return False
    return True


def _shown(value):
    # a value as messages quote it: a long one cut short
    return repr(value if len(value) <= 20 else value[:16] + "...")


def _header_value(key, value, number):
    low = value.lower()
    where = "record header line %d: %s" % (number, key)
    if key == "size" and len(low) == 3 and low[1] == "x" and low[0] == low[2]:
        value = low[0]  # "8x8"
    if key in ("size", "players", "seed", "rounds", "round"):
        negative = value[:1] == "-"
        if not _is_number(value[1:] if negative else value):
            raise ValueError("%s must be a whole number of at most %d digits, not %s"
                             % (where, _NUMBER_DIGITS, _shown(value)))
        result = int(value)
        if key == "size" and result not in SIZES:
            raise ValueError("%s must be 8, 6 or 4, not %d" % (where, result))
        if key == "players" and not 1 <= result <= 4:
            raise ValueError("%s must be 1, 2, 3 or 4, not %d" % (where, result))
        return result
    if key == "teams":
        if low in ("yes", "true", "1", "on"):
            return True
        if low in ("no", "false", "0", "off"):
            return False
        raise ValueError("%s must be yes or no (true/false, on/off, 1/0), not %s"
                         % (where, _shown(value)))
    if key == "first":
        try:
            return colour_of(int(value) if _is_number(value) else value)
        except ValueError:
            raise ValueError("%s: not a colour: %s (use R, Y, G, B or 1-4)"
                             % (where, _shown(value)))
    if low not in TIE_RULES:
        raise ValueError("%s must be shared or none, not %s" % (where, _shown(value)))
    return low
