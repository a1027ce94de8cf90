"""docs/rules.md cannot drift from the rules core: every diagram is played with rolit_core.

A diagram is a fenced block marked ``rolit``. It holds one or two boards (rows numbered from 1 at the
top, cells ``. R Y G B``; two boards side by side are "before" and "after"), then statements, one a
line, each of which is checked:

    green plays c3 and turns d4          the move turns exactly these balls and gives the "after" board
    green may play: c3 e3 c5             exactly the legal cells in the first board
    red may not play: a1 (does not touch a ball), d4 (is taken)
                                         illegal, and the reason is in the IllegalMove message
    red must capture / red cannot capture
    start position of the 6x6 board      every board is the start position of its size
    position: ......../....              the first board's position text
    game: 2 players, two colours each, tie rule none
    count: red 17, yellow 0, green 19, blue 0         balls per colour on the last board
    score: red+green 7, yellow+blue 9                 points per seat
    winner: green / winners with tie rule none: nobody

A line the test does not understand fails it, so a typo cannot hide a claim.
"""

import os
import re

import pytest

from rolit_core import COLOURS, NAMES, Board, Game, IllegalMove, Match
from rolit_core import menu
from rolit_core.game import seating
from test_hardware_docs import tool

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLOUR = r"(red|yellow|green|blue)"
CELL = r"[a-h][1-8]"
STATEMENTS = (
    ("move", re.compile(r"^%s plays (%s) and turns (nothing|%s(?: %s)*)$" % (COLOUR, CELL, CELL,
                                                                          CELL))),
    ("legal", re.compile(r"^%s may play: (%s(?: %s)*)$" % (COLOUR, CELL, CELL))),
    ("illegal", re.compile(r"^%s may not play: (.+)$" % COLOUR)),
    ("must", re.compile(r"^%s (must|cannot) capture$" % COLOUR)),
    ("start", re.compile(r"^start positions? of the ([468])x\1(?: and ([468])x\2)? boards?$")),
    ("position", re.compile(r"^position: (\S+)$")),
    ("game", re.compile(r"^game: ([1-4]) players?(, two colours each)?(?:, tie rule (shared|none))?$")),
    ("count", re.compile(r"^count: (.+)$")),
    ("score", re.compile(r"^score: (.+)$")),
    ("winner", re.compile(r"^winners?(?: with tie rule (shared|none))?: (.+)$")),
)


def read(relative):
    with open(os.path.join(ROOT, relative), encoding="utf-8") as handle:
        return handle.read()


RULES = read("docs/rules.md")


def colours_in(text):
    return [COLOURS[NAMES.index(word) - 1] for word in re.findall(COLOUR, text)]


def diagrams():
    """(line number, block text) of every ``rolit`` block in docs/rules.md."""
    found = []
    for match in re.finditer(r"^```rolit\n(.*?)^```$", RULES, re.M | re.S):
        found.append((RULES.count("\n", 0, match.start()) + 1, match.group(1)))
    return found


def parse(block):
    """The boards (position texts) and the statements (kind, match) of a diagram."""
    boards, statements = [], []
    for line in block.splitlines():
        tokens = line.split()
        if not tokens or set(tokens) <= {"before", "after"}:
            continue
        if all(len(token) == 1 and token in "abcdefgh" for token in tokens):
            continue  # column letters
        if tokens[0].isdigit():
            column, i = 0, 0
            while i < len(tokens):
                if tokens[i] == "->":
                    i += 1
                    continue
                number = int(tokens[i])
                i += 1
                cells = ""
                while i < len(tokens) and tokens[i] in (".", "R", "Y", "G", "B"):
                    cells += tokens[i]
                    i += 1
                if column == len(boards):
                    boards.append([])
                assert number == len(boards[column]) + 1, "row %d out of order: %r" % (number, line)
                boards[column].append(cells)
                column += 1
            continue
        for kind, pattern in STATEMENTS:
            found = pattern.match(line.strip())
            if found:
                statements.append((kind, found))
                break
        else:
            raise AssertionError("not understood: %r" % line)
    texts = []
    for rows in boards:
        for row in rows:
            assert len(row) == len(rows), "a %d-row board has a row of %d cells" % (len(rows),
                                                                                  len(row))
        texts.append("/".join(rows))
    return texts, statements


def cell_names(board, cells):
    return sorted([board.cell_name(cell) for cell in cells])


def seat_named(game, names):
    """The seat whose colours are the colour words of ``names`` (``red+green``)."""
    wanted = tuple(sorted(colours_in(names)))
    for seat in range(len(game.seat_colours)):
        if tuple(sorted(game.seat_colours[seat])) == wanted:
            return seat
    raise AssertionError("no seat plays %s" % names)


def check_diagram(texts, statements):
    """Check every statement of one diagram; returns how many were checked."""
    assert texts, "a diagram without a board"
    kinds = [kind for kind, _ in statements]
    boards = [Board.from_text(text) for text in texts]
    first, last = boards[0], boards[-1]
    moves = [found for kind, found in statements if kind == "move"]
    if len(boards) == 2 and not moves:
        assert kinds and set(kinds) == {"start"}, "two boards but no move between them"
    assert len(moves) <= 1 and (not moves or len(boards) == 2), "a move needs a before and an after"
    settings = {"players": None, "teams": False, "tie": "shared"}
    for kind, found in statements:
        if kind == "game":
            settings = {"players": int(found.group(1)), "teams": bool(found.group(2)),
                        "tie": found.group(3) or "shared"}
    mover = None
    for kind, found in statements:
        if kind == "move":
            mover = colours_in(found.group(1))[0]
            board = first.copy()
            turned = board.play(found.group(2), mover)
            said = [] if found.group(3) == "nothing" else sorted(found.group(3).split())
            assert cell_names(board, turned) == said, found.group(0)
            assert board == last, "%s gives %s, not %s" % (found.group(0), board.to_text(),
                                                          last.to_text())
        elif kind == "legal":
            colour = colours_in(found.group(1))[0]
            assert cell_names(first, first.legal_moves(colour)) == sorted(found.group(2).split())
        elif kind == "illegal":
            colour = colours_in(found.group(1))[0]
            items = re.findall(r"(%s)(?: \(([^)]*)\))?(?:, |$)" % CELL, found.group(2))
            assert items and ", ".join([c + (" (%s)" % r if r else "") for c, r in items]) == \
                found.group(2), "cannot read %r" % found.group(0)
            for cell, reason in items:
                board = first.copy()
                with pytest.raises(IllegalMove) as refused:
                    board.play(cell, colour)
                assert reason in str(refused.value), (cell, str(refused.value))
                assert board == first
        elif kind == "must":
            colour = colours_in(found.group(1))[0]
            assert first.has_capture(colour) == (found.group(2) == "must"), found.group(0)
        elif kind == "start":
            sizes = [int(size) for size in found.groups() if size]
            assert sorted([board.size for board in boards]) == sorted(sizes), found.group(0)
            for board in boards:
                assert board == Board(board.size), "%s is not the start" % board.to_text()
        elif kind == "position":
            assert first.to_text() == found.group(1)
        elif kind == "count":
            said = {}
            for name, number in re.findall(COLOUR + r" (\d+)", found.group(1)):
                said[colours_in(name)[0]] = int(number)
            assert len(said) == 4, "count all four colours: %s" % found.group(0)
            for colour in COLOURS:
                assert last.count(colour) == said[colour], (NAMES[colour], found.group(0))
        elif kind in ("score", "winner"):
            assert settings["players"], "%r needs a 'game:' line" % found.group(0)
            tie = found.group(1) if kind == "winner" and found.group(1) else settings["tie"]
            game = Game(settings["players"], last.size, mover or "red", settings["teams"], tie)
            if mover:
                game.board = first.copy()
                game.play(moves[0].group(2))
                assert game.board == last
            else:
                game.board = last.copy()
                game._over = last.is_full()
            if kind == "score":
                items = re.findall(r"([a-z+]+) (\d+)", found.group(1))
                assert len(items) == len(game.seat_colours), "one score per seat"
                for names, points in items:
                    assert game.scores()[seat_named(game, names)] == int(points), (names,
                                                                                  found.group(0))
            else:
                assert game.over, "a winner only at the end: %s" % found.group(0)
                said = found.group(2)
                seats = [] if said == "nobody" else sorted(set(
                    [seat_named(game, part) for part in re.split(r", | and ", said)]))
                assert list(game.winners()) == seats, found.group(0)
    return len(statements)


def test_rules_page_has_the_diagrams_the_newcomer_needs():
    found = diagrams()
    assert len(found) >= 8
    lines = [line.strip() for _, block in found for line in block.splitlines()]
    # the worked example of the rulebooks, a capture along several lines, a free placement,
    # the end with its score, and the small boards' start
    assert "green plays c3 and turns d4" in lines
    assert any(re.match(r"^\w+ plays %s and turns %s %s %s" % (CELL, CELL, CELL, CELL), line)
               for line in lines)
    assert any(line.endswith("and turns nothing") for line in lines)
    assert any(line.endswith("cannot capture") for line in lines)
    assert any(line.startswith("winner") for line in lines)
    assert any(line.startswith("start position") for line in lines)


@pytest.mark.parametrize("line,block", [pytest.param(line, block, id="line %d" % line)
                                        for line, block in diagrams()])
def test_every_diagram_agrees_with_the_rules_core(line, block):
    texts, statements = parse(block)
    assert check_diagram(texts, statements) >= 1, "diagram at line %d claims nothing" % line


def test_a_wrong_diagram_is_caught():
    start = Board().to_text()
    bad = [
        (start, start, "green plays c3 and turns d4"),  # the after board is not what c3 gives
        (start, None, "green may play: c3 e3"),         # c5 is legal too
        (start, None, "red may not play: c3 (does not touch a ball)"),  # it touches; no capture
        (start, None, "red cannot capture"),
        (start, None, "count: red 2, yellow 1, green 1, blue 0"),
    ]
    for before, after, statement in bad:
        block = board_block(before, after) + statement + "\n"
        texts, statements = parse(block)
        with pytest.raises(AssertionError):
            check_diagram(texts, statements)
    with pytest.raises(AssertionError):
        parse(board_block(start, None) + "green plays c3, turning d4\n")


def board_block(before, after):
    rows = before.split("/")
    other = after.split("/") if after else None
    lines = []
    for r in range(len(rows)):
        line = "%d %s" % (r + 1, " ".join(rows[r]))
        if other:
            line += "   %d %s" % (r + 1, " ".join(other[r]))
        lines.append(line)
    return "\n".join(lines) + "\n"


def test_seat_table_matches_the_core():
    table = RULES[RULES.index("| players | colours played |"):]
    table = table[:table.index("\n\n")]
    rows = [row.split("|")[1:-1] for row in table.splitlines()[2:]]
    assert len(rows) == 5
    for players_cell, played, neutral, order in rows:
        players = int(players_cell.strip()[0])
        teams = "two colours each" in players_cell
        game = Game(players, teams=teams, first="red")
        flat = [colour for seat in seating(players, teams) for colour in seat]
        assert colours_in(played) == flat, players_cell
        assert colours_in(neutral) == [c for c in COLOURS if c not in game.colours], players_cell
        turn = colours_in(order)
        assert list(game.colours) == turn
        for i in range(len(turn)):
            assert game.next_colour(turn[i]) == turn[(i + 1) % len(turn)]


def test_match_example_matches_the_core():
    table = RULES[RULES.index("| | red | yellow | green |"):]
    table = table[:table.index("\n\n")]
    rows = {}
    for row in table.splitlines()[2:]:
        cells = [cell.strip() for cell in row.split("|")[1:-1]]
        rows[cells[0]] = cells[1:]
    rounds = [[int(n) for n in rows["round %d" % i]] for i in (1, 2, 3)]
    for tie in ("shared", "none"):
        match = Match(rounds=3, players=3, tie=tie, first="red")
        for number in range(3):
            red, yellow, green = rounds[number]
            match.game.board = Board.from_text(full_board(red * "R" + yellow * "Y" + green * "G"))
            match.game._over = True
            if number < 2:
                match.next_round()
        assert list(match.points) == [int(n) for n in rows["points"]]
        assert list(match.rounds_won) == [int(n.strip("*")) for n in
                                          rows["rounds won, tie rule %s" % tie]]
        marks = rows["match winner, tie rule %s" % tie]
        assert list(match.winners()) == [seat for seat in range(3) if marks[seat]]


def full_board(cells):
    assert len(cells) == 64
    return "/".join([cells[i:i + 8] for i in range(0, 64, 8)])


def test_every_menu_variant_is_described():
    section = RULES[RULES.index("## Choices in the menu"):]
    section = section[:section.index("\n## ")]
    for players in range(1, 5):
        assert "**%d**" % players in section
    for size in (8, 6, 4):
        assert "%d×%d" % (size, size) in section
    for seconds in menu.TIMES:
        if seconds:
            assert "%d s" % seconds in section
    for tie in menu.TIES:
        assert "**%s**" % tie in section
    for words in ("two colours each", "who starts", "rounds", "solo"):
        assert words in section.lower()


def test_readme_and_guides_link_the_rules_page_not_outside_the_repo():
    readme = read("README.md")
    assert "(docs/rules.md)" in readme
    assert "../shared" not in readme
    assert "(rules.md)" in read("docs/app.md")
    for name in os.listdir(os.path.join(ROOT, "docs")):
        if name.endswith(".md"):
            assert "../shared" not in read("docs/" + name), name


def test_links_inside_the_rules_page_lead_to_its_headings():
    slugs = set()
    for heading in re.findall(r"^#+ (.+)$", RULES, re.M):
        slugs.add(re.sub(r"[^a-z0-9 -]", "", heading.lower()).replace(" ", "-"))
    for anchor in re.findall(r"\]\(#([^)]+)\)", RULES):
        assert anchor in slugs, anchor
    for target in re.findall(r"\]\(([a-z]+\.md)\)", RULES):
        assert os.path.exists(os.path.join(ROOT, "docs", target)), target


# -- the one-page handout (docs/rules-handout.html) ---------------------------------------------

class HandoutBoards:
    """The handout's figures as (data-move, data-turns, [(data-position, cells, turned)])."""

    def __init__(self, text):
        from html.parser import HTMLParser

        figures = self.figures = []
        inside = []  # a board table is open

        class Parser(HTMLParser):
            def handle_endtag(self, tag):
                if tag == "table" and inside:
                    inside.pop()

            def handle_starttag(self, tag, attrs):
                attrs = dict(attrs)
                if tag == "figure":
                    figures.append((attrs.get("data-move"), attrs.get("data-turns"), []))
                elif tag == "table" and "board" in (attrs.get("class") or ""):
                    figures[-1][2].append([attrs["data-position"], [], []])
                    inside.append(True)
                elif not inside:
                    return
                elif tag == "tr":
                    figures[-1][2][-1][1].append("")
                elif tag == "td":
                    classes = (attrs.get("class") or "").split()
                    board = figures[-1][2][-1]
                    letter = "."
                    for name in classes:
                        if name in ("red", "yellow", "green", "blue"):
                            letter = name[0].upper()
                    board[1][-1] += letter
                    if "turned" in classes:
                        column = len(board[1][-1]) - 1
                        board[2].append("abcdefgh"[column] + str(len(board[1]) - 1))

        Parser().feed(text)


def test_the_handout_is_up_to_date_and_linked_from_the_guides():
    assert tool("handout").main(["--check"]) == 0, "run: python tools/handout.py"
    assert "(rules-handout.html)" in read("docs/hardware.md")
    assert "(rules-handout.html)" in RULES


def test_every_handout_picture_is_what_the_rules_core_plays():
    figures = HandoutBoards(read("docs/rules-handout.html")).figures
    assert len(figures) >= 3
    for move, turns, boards in figures:
        for position, cells, _ in boards:
            assert "/".join(row for row in cells if row) == position  # drawn as it says
        before, after = boards
        colour, cell = move.split()
        board = Board.from_text(before[0])
        turned = board.play(board.parse_cell(cell), COLOURS[NAMES.index(colour) - 1])
        names = sorted(board.cell_name(c) for c in turned)
        assert board.to_text() == after[0], move
        assert (" ".join(names) or "nothing") == turns, move
        assert sorted(after[2]) == names, move  # the ringed balls are the turned ones


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_handout_prints_on_one_page(paper, tmp_path):
    import sys
    sys.path.insert(0, ROOT)
    from web import browser

    reason = browser.missing()
    if reason:
        if os.environ.get("ROLIT_BROWSER_TESTS") == "required":
            pytest.fail(reason)
        pytest.skip(reason)
    pdf = tmp_path / "handout.pdf"
    with browser.launch() as chromium:
        page = chromium.new_page()
        page.goto("file://" + os.path.join(ROOT, "docs", "rules-handout.html"))
        page.pdf(path=str(pdf), format=paper, print_background=True)
    data = pdf.read_bytes()
    assert len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", data)) == 1
    width, height = {"A4": (595.92, 842.88), "Letter": (612, 792)}[paper]
    box = [float(v) for v in re.search(rb"/MediaBox\s*\[([^\]]*)\]", data).group(1).split()]
    assert abs(box[2] - width) < 1 and abs(box[3] - height) < 1
