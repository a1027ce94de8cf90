"""Write the one-page rules handout, docs/rules-handout.html, for a class to print (A4 or Letter).

    python tools/handout.py            # writes docs/rules-handout.html
    python tools/handout.py --check    # exit 1 if it is missing or out of date

Its pictures are positions from docs/rules.md, each move played by rolit_core, so the handout
shows what the handheld does. Every board is a table with its position text (``data-position``)
and, for a move, the move and the balls it turns, so a test can replay it from the page alone.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from rolit_core import NAMES, Board  # noqa: E402
from generated import update  # noqa: E402

OUTPUT = os.path.join(ROOT, "docs", "rules-handout.html")
START = "......../......../......../...RY.../...BG.../......../......../........"
SEVERAL = "......../......../...R..../...G.R../..YBG.../....YR../....G.../........"
# (title, position before, colour, cell, caption); colour None: a position only
PICTURES = (
    ("Capture", START, "green", "c3",
     "The start (the same four balls for any number of players); green plays c3: red d4 lies "
     "between the new ball and green e5, so it turns green."),
    ("Several lines at once", SEVERAL, "red", "d6",
     "Red plays d6 and turns d5 and d4 (mixed colours are fine), e6 and e5. Towards c5 and e7 "
     "an empty cell comes before any red ball: nothing turns there."),
    ("No capture anywhere", "......../......../..G...../...GY.../...BG.../......../......../"
     "........", "red", "c4",
     "Red has no ball left and no cell captures: red may put a ball on any empty cell that "
     "touches a ball, here c4."),
)
LETTER = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}


def board_table(position, highlight=(), new=None):
    rows = position.split("/")
    size = len(rows)
    out = ['<table class="board" data-position="%s">' % position,
           "<tr><th></th>" + "".join("<th>%s</th>" % "abcdefgh"[c] for c in range(size))
           + "</tr>"]
    for r, row in enumerate(rows):
        cells = []
        for c, char in enumerate(row):
            name = "%s%d" % ("abcdefgh"[c], r + 1)
            classes = []
            if char != ".":
                classes.append(LETTER[char])
            if name in highlight:
                classes.append("turned")
            if name == new:
                classes.append("new")
            ball = '<span>%s</span>' % char if char != "." else ""
            cells.append('<td%s>%s</td>' % (' class="%s"' % " ".join(classes) if classes else "",
                                            ball))
        out.append("<tr><th>%d</th>%s</tr>" % (r + 1, "".join(cells)))
    out.append("</table>")
    return "\n".join(out)


def picture(title, before, colour, cell, caption):
    if colour is None:
        boards = board_table(before)
        move = ""
    else:
        board = Board.from_text(before)
        number = board.parse_cell(cell)
        turned = sorted(board.cell_name(c) for c in board.play(number, NAMES.index(colour)))
        boards = ('%s<span class="arrow">&rarr;</span>%s'
                  % (board_table(before), board_table(board.to_text(), turned, cell)))
        move = ' data-move="%s %s" data-turns="%s"' % (colour, cell, " ".join(turned) or "nothing")
    return ('<figure%s>\n<figcaption><b>%s.</b> %s</figcaption>\n<div class="boards">%s</div>\n'
            '</figure>' % (move, title, caption, boards))


STYLE = """
@page { margin: 12mm; }
* { box-sizing: border-box; }
html { font-family: "Liberation Sans", Arial, Helvetica, sans-serif; font-size: 9.2pt;
       line-height: 1.3; color: #111; }
body { margin: 0; }
main { width: 186mm; margin: 0 auto; }
h1 { font-size: 19pt; margin: 0 0 1mm; }
h1 small { font-size: 10pt; font-weight: normal; color: #444; }
h2 { font-size: 11.5pt; margin: 2.5mm 0 1mm; border-bottom: 0.3mm solid #999; }
p, ul { margin: 0 0 1.2mm; }
ul { padding-left: 5mm; }
li { margin: 0 0 0.6mm; }
.columns { display: grid; grid-template-columns: 1fr 1fr; column-gap: 6mm; }
.pictures { display: grid; grid-template-columns: 1fr 1fr; gap: 3mm 6mm; margin-top: 1mm; }
.pictures h2 { margin-top: 0; }
figure { margin: 0; break-inside: avoid; }
figcaption { font-size: 8.6pt; margin-bottom: 1mm; }
.boards { display: flex; align-items: center; gap: 2mm; }
.arrow { font-size: 14pt; }
table.board { border-collapse: collapse; }
table.board th { font-size: 6pt; font-weight: normal; color: #555; width: 3mm; height: 3mm;
                 padding: 0; }
table.board td { width: 4.1mm; height: 4.1mm; border: 0.2mm solid #999; padding: 0;
                 text-align: center; vertical-align: middle; background: #f2f2f2; }
table.board td span { display: inline-block; width: 3.5mm; height: 3.5mm; border-radius: 50%;
                      font-size: 6.5pt; font-weight: bold; line-height: 3.5mm;
                      border: 0.2mm solid #333; -webkit-print-color-adjust: exact;
                      print-color-adjust: exact; }
td.red span { background: #e8312f; color: white; }
td.yellow span { background: #ffd21f; color: #111; }
td.green span { background: #2fae4a; color: white; }
td.blue span { background: #2f6fe0; color: white; }
td.new { outline: 0.6mm solid #111; outline-offset: -0.3mm; }
td.turned span { box-shadow: 0 0 0 0.6mm #111; }
table.seats { border-collapse: collapse; width: 100%; font-size: 8.8pt; }
table.seats td, table.seats th { border: 0.2mm solid #999; padding: 0.4mm 1.2mm; text-align: left; }
.key { font-weight: bold; }
footer { margin-top: 2mm; font-size: 8pt; color: #444; }
"""

TEXT = """<h1>Rolit: how to play <small>2 to 4 players, or one playing two colours</small></h1>
<div class="columns">
<section>
<h2>The game in one minute</h2>
<ul>
<li>Everyone plays a colour. The balls belong to nobody: only the colour on top counts.</li>
<li>On your turn put <b>one</b> ball, your colour on top, on an empty cell that <b>touches</b> a
ball already there: beside, above, below or corner to corner.</li>
<li>Look along the eight straight lines from your new ball. Where other colours lie in a row, with
no gap, and then comes a ball of your colour, the balls in between roll over to your colour. Every
such line turns at once; nothing beyond that first ball of yours changes, and there are no chain
reactions.</li>
<li><b>If you can capture anywhere, you must</b> (any capture, not the biggest). If you cannot,
put your ball on any empty cell that touches a ball.</li>
<li>When the board is full, each ball showing your colour is a point. Most points wins.</li>
</ul>
</section>
<section>
<h2>Colours and turns</h2>
<p>Turns go clockwise, <b>red &rarr; yellow &rarr; green &rarr; blue</b>, skipping colours that
nobody plays: those are <b>neutral</b>, can be captured and never win.</p>
<table class="seats">
<tr><th>players</th><th>colours played</th><th>neutral</th></tr>
<tr><td>1 (solo)</td><td>you play red, then green</td><td>yellow, blue</td></tr>
<tr><td>2</td><td>red, green</td><td>yellow, blue</td></tr>
<tr><td>2, two each</td><td>player 1 red + green, player 2 yellow + blue</td><td>none</td></tr>
<tr><td>3</td><td>red, yellow, green</td><td>blue</td></tr>
<tr><td>4</td><td>red, yellow, green, blue</td><td>none</td></tr>
</table>
<h2>The end, ties and matches</h2>
<p>The round ends when every cell is full; neutral balls score for nobody. A tie for the most
points follows the <b>tie rule</b> chosen in the menu: <b>shared</b> (every tied player wins) or
<b>none</b> (nobody wins the round). A <b>match</b> is several rounds: most rounds won wins, then
most points over all rounds; each round the start moves one colour clockwise.</p>
</section>
</div>
<h2>In pictures <small>(columns a&ndash;h from the left, rows 1&ndash;8 from the top; the
framed cell is the new ball, ringed balls are the ones that turned)</small></h2>
<div class="pictures">
%s
<section>
<h2>On the handheld</h2>
<ul>
<li><span class="key">Arrows</span> move the cursor. It blinks in the colour to move, dim white
where you may not play.</li>
<li><span class="key">Hold SELECT</span> to see which balls would turn; <b>release</b> to place
the ball, or move away to cancel.</li>
<li><span class="key">Hold BACK</span> for the pause menu: resume, undo, restart, quit.</li>
<li><b>Menu</b>: UP/DOWN change the page, LEFT/RIGHT or SELECT change its value (a green tick is
yes, a red cross no), SELECT on the green &#9654; starts.</li>
<li>One button: a short press jumps to the next allowed cell, a long press shows and places.</li>
</ul>
</section>
</div>
<footer>Every rule, the variants and more pictures: docs/rules.md in the Rolit Handheld project.
The pictures here are played by the game's own rules code.</footer>
"""


def html():
    figures = "\n".join(picture(*p) for p in PICTURES)
    return ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<title>Rolit: how to play (one page to print)</title>\n<style>%s</style>\n</head>\n'
            '<body>\n<main>\n%s</main>\n</body>\n</html>\n' % (STYLE, TEXT % figures))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    return update(OUTPUT, html(), "--check" in argv, ROOT)


if __name__ == "__main__":
    sys.exit(main())
