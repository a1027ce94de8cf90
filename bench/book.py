"""Build the opening book (rolit_core/book.bin) from `expert` self-play.

    python -m bench.book [--seed 1] [--games 40] [--plies 8] [--nodes 20000] [--cap 4]
                         [--depth 4] [--margin 96] [--players 2,3,4] [--out rolit_core/book.bin]
    make book ARGS="--seed 1 --games 60"

For each player count, ``--games`` games on 8x8 from the start (the first colour tossed per
game) are played for their first ``--plies`` plies. At each position an `expert` with
``--nodes`` nodes (twice its own budget by default) and a seed of its own chooses a move, which
is counted for the position; a position searched ``--cap`` times already is not searched again.
The first time a position is met, every legal move is also valued by `expert`'s search held to
that move, all to the same ``--depth``, and the moves within ``--margin`` of the best (1024 to a
logit) become its alternatives, so that the book has more than one good move where the search
sees little between them. The move played is then, for breadth, a random legal one (35% of the
time in the first four plies, 15% after), else one of the position's moves by weight.
Positions are keyed as the book keys them (rolit_core/book.py: the position alone, its
symmetries folded), so transpositions and mirrored openings add to one record.

A record keeps the position's four moves of most weight: 16 times the share of the searches
that chose the move, plus 1-8 for an alternative (8 for the best at ``--depth``, less the
further behind). The same arguments write the same file byte for byte (the searches count
nodes, not time).
"""

import argparse
import os
import sys
import time

from rolit_core import Game, book
from rolit_core.ai import Player
from rolit_core.game import toss_first
from rolit_core.rng import Random
from sim.userfiles import UserFileError, output_path, write_atomically

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "rolit_core", "book.bin")


def canonical_move(game, key, cell):
    """The cell of the book's frame that stands for ``cell`` in ``game``'s position (the least
    image under the key's frames)."""
    return min(book._cell(t, cell) for t in key[2])


def move_values(game, depth, seed):
    """{cell: value} for every legal move: `expert`'s search with the root held to that one
    move, every one to the same ``depth`` (so the values compare), from the side of the player
    to move. Reaches into the search (Player._search, its root moves), which has no public way
    to hold a root move."""
    values = {}
    for cell in game.legal_moves():
        bot = Player("expert", seed=seed)
        bot.book = False
        bot.budgets = (1 << 24, 1 << 24)
        bot.max_depth = bot.multi_depth = depth
        bot.start(game)
        search = bot._search
        if search is None:
            return {}
        keep = [m for m in search.root_moves if m >> 3 & 63 == cell]
        search.root_moves[:] = keep  # also the first iteration's list of root moves
        search.result = search.best_move[0] = keep[0]
        while bot.step(1 << 20) is None:
            pass
        values[cell] = search.result_value
    return values


def alternatives(game, key, depth, margin, seed):
    """{canonical cell: weight 1-8} for the moves whose value at ``depth`` is within ``margin``
    of the best (8 for the best, less the further behind)."""
    values = move_values(game, depth, seed)
    if not values:
        return {}
    best = max(values.values())
    found = {}
    for cell, value in values.items():
        if best - value < margin:
            weight = 1 + 7 * (margin - (best - value)) // margin
            canonical = canonical_move(game, key, cell)
            found[canonical] = max(found.get(canonical, 0), weight)
    return found


def play_games(players, games, plies, nodes, cap, seed, records, log=None, depth=4, margin=96):
    """Play the games of one player count, adding to ``records``: {(h1, h2): [searches,
    {canonical cell: count}, {canonical cell: weight of an alternative}]}. Returns the number of
    searches made."""
    searches = 0
    known = len(records)
    for number in range(games):
        rng = Random(seed * 1000003 + players * 10007 + number)
        game = Game(players=players, first=toss_first(Game(players).colours, rng), seed=0)
        for ply in range(plies):
            moves = game.legal_moves()
            if not moves:
                break
            key = book.position(game)
            entry = records.setdefault(key[:2], [0, {}, {}])
            if entry[0] == 0 and len(moves) > 1 and depth > 0:
                entry[2] = alternatives(game, key, depth, margin, seed)
            if entry[0] < cap and len(moves) > 1:
                bot = Player("expert", seed=rng.bits())
                bot.book = False
                bot.budgets = (nodes, nodes)
                chosen = bot.choose(game)
                cell = canonical_move(game, key, chosen)
                entry[0] += 1
                entry[1][cell] = entry[1].get(cell, 0) + 1
                searches += 1
            if rng.below(100) < (35 if ply < 4 else 15) or not entry[1]:
                move = rng.choice(moves)
            else:
                # One of the counted moves by weight, mapped back onto this position.
                options = []
                for m in moves:
                    w = weight(entry, canonical_move(game, key, m))
                    if w:
                        options.append((m, w))
                pick = rng.below(sum(w for _, w in options))
                for m, w in options:
                    pick -= w
                    if pick < 0:
                        move = m
                        break
            game.play(move)
        if log:
            log("%d players: game %d/%d, %d positions, %d searches"
                % (players, number + 1, games, len(records) - known, searches))
    return searches


def weight(entry, cell):
    """A move's weight in a record: 16 times the share of the searches that chose it, plus its
    weight as an alternative (0-8)."""
    searches, picks, alternative = entry[0], entry[1], entry[2] if len(entry) > 2 else {}
    chosen = 16 * picks.get(cell, 0) // searches if searches else 0
    return chosen + alternative.get(cell, 0)


def encode(records, plies):
    """The book file's bytes for ``records`` (as play_games fills them): per position the four
    moves of most weight."""
    body = bytearray()
    for (h1, h2) in sorted(records):
        entry = records[(h1, h2)]
        cells = set(entry[1]) | set(entry[2] if len(entry) > 2 else ())
        ranked = sorted(((cell, weight(entry, cell)) for cell in cells),
                        key=lambda item: (-item[1], item[0]))
        kept = [(cell, w) for cell, w in ranked if w > 0][:book.SLOTS]
        if not kept:
            continue
        body += h1.to_bytes(4, "big") + h2.to_bytes(4, "big")
        for slot in range(book.SLOTS):
            if slot < len(kept):
                body += bytes((kept[slot][0], min(255, kept[slot][1])))
            else:
                body += bytes((book.NONE, 0))
    import zlib
    count = len(body) // book.RECORD
    head = book.MAGIC + bytes((book.VERSION, book.RECORD, plies, 0)) + count.to_bytes(4, "big") \
        + (zlib.crc32(bytes(body)) & 0xFFFFFFFF).to_bytes(4, "big")
    return bytes(head + body)


def check_out(path):
    """Raise ``UserFileError`` unless ``path`` can take the book: a new file in a folder that
    takes one (sim.userfiles.output_path), or a book (only a book an earlier build wrote is
    replaced)."""
    if output_path("--out", path):
        with open(path, "rb") as handle:
            if handle.read(len(book.MAGIC)) != book.MAGIC:
                raise UserFileError("--out %s is not an opening book: left as it is; give a new "
                                    "name" % path)


def write_book(path, data):
    """Write the book ``data`` to ``path`` whole or not at all: an interrupted or failed write
    leaves the book that was there (sim.userfiles.write_atomically), and only a book is
    replaced (:func:`check_out`)."""
    def write(temporary):
        with open(temporary, "wb") as handle:
            handle.write(data)

    check_out(path)
    write_atomically(path, write)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.book", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=40, help="games per player count")
    parser.add_argument("--plies", type=int, default=8, help="plies per game in the book")
    parser.add_argument("--nodes", type=int, default=20000, help="expert's nodes per search")
    parser.add_argument("--cap", type=int, default=4, help="searches per position at most")
    parser.add_argument("--depth", type=int, default=4,
                        help="depth of the searches that value every move for the alternatives "
                             "(0: none)")
    parser.add_argument("--margin", type=int, default=96,
                        help="how far behind the best an alternative may be (1024 to a logit)")
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--out", default=OUT)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    counts = [int(p) for p in args.players.split(",")]
    if not all(p in (2, 3, 4) for p in counts):
        parser.error("--players: 2, 3 and 4 only")
    if not 1 <= args.plies <= book.MAX_PLIES:
        parser.error("--plies: 1 to %d" % book.MAX_PLIES)
    if not 1 <= args.cap <= 255 or args.games < 1 or args.nodes < 1:
        parser.error("--cap 1-255, --games and --nodes at least 1")
    try:
        check_out(args.out)  # before the minutes of self-play, and again when writing
    except UserFileError as error:
        print("bench.book: %s" % error, file=sys.stderr)
        return 2
    started = time.process_time()
    wall = time.time()
    records = {}
    log = None if args.quiet else (lambda text: print("\r" + text, end="", file=sys.stderr))
    for players in counts:
        before = len(records)
        searches = play_games(players, args.games, args.plies, args.nodes, args.cap, args.seed,
                              records, log, args.depth, args.margin)
        if log:
            print(file=sys.stderr)
        print("%d players: %d positions, %d searches" % (players, len(records) - before,
                                                          searches))
    data = encode(records, args.plies)
    try:
        write_book(args.out, data)
    except (UserFileError, OSError) as error:
        print("bench.book: %s not written: %s"
              % (args.out, getattr(error, "strerror", None) or error), file=sys.stderr)
        return 1
    print("wrote %s: %d records, %d bytes, %.0f s CPU (%.0f s wall)"
          % (os.path.relpath(args.out), (len(data) - book.HEADER) // book.RECORD, len(data),
             time.process_time() - started, time.time() - wall))
    return 0


if __name__ == "__main__":
    sys.exit(main())
