"""Fit the computer players' evaluation weights to game results (self-play, games against MCTS).

    python -m bench.tune                    # = make tune: play, fit and write the tables
    python -m bench.tune play --round 1 --players 4 --jobs 2
    python -m bench.tune play --round 1 --against mcts --jobs 2   # after the round's self-play
    python -m bench.tune fit --round 1 [--write]   # --write puts the tables into rolit_core/

1. **Self-play** (``play``): games of ``hard`` against itself on 8x8, seats and first colour
   rotated, the first 0-4 moves at random and 1 move in 20 at random after that, so that positions
   vary and mistakes get punished. Round 1 plays with the hand-set weights below (``HAND``), round
   2 (``--round 2``) with the tables fitted in round 1. The shipped tables are round 1's
   (``SHIPPED_ROUND``): ``fit --round 1`` on the stored games gives them exactly; round 2's are
   not shipped (its four-player table scored less in the arena, docs/ai.md; the others were not
   measured). Each game is stored as its moves and result
   (build/tune/selfplay-<players>p-r<round>.txt); every game comes from a seed, so reruns give
   the same files, and an interrupted run goes on where it stopped.
   **Against MCTS** (``play --against mcts``, four players only): games of one ``hard``, with
   the round's self-play tables, among three biased MCTS players (``AGAINST``, 30 ms of CPU a
   move), seats and first colour rotated (build/tune/mcts-4p-r<round>.txt). The MCTS stop on
   CPU time, so these games are not replayed exactly by a rerun.
2. **Features**: every position of every game, per seat, the features of the evaluation
   (rolit_core.ai: balls per kind of cell, frontier pairs, X and C cells next to an empty
   corner, stable edge runs, mobility, who moves next), computed here from the board by plain
   code and expanded over three game phases (just set up, half full, full) with linear
   interpolation between them, as the search interpolates its weights.
3. **Fit**: a multinomial logit over the seats, P(seat i wins) = exp(v_i) / sum_j exp(v_j) with
   v_i = weights . features_i, labelled with the game's result (1 for a win, 1/k for a shared win),
   by Newton's method with a small ridge penalty; with two seats this is logistic regression on
   the difference. One fit per player count, one without mobility (the device levels do not
   compute it) and one with it (``expert``). The games are split 80/20 by seed: the log loss and
   the share of positions whose most likely winner won are reported on the held-out games.
   The four-player row of the device levels (no mobility) is mixed: ``MCTS_SHARE`` of it is the
   fit on the games against MCTS, the rest the self-play fit (when the round has those games).
   Fitted on them alone it played better against those MCTS and worse against others; one part
   in three did better against both (docs/ai.md).
4. The weights, 1024 to a logit, rounded, are the tables ``rolit_core.ai._WEIGHTS`` and
   ``rolit_core.mobility.WEIGHTS`` (``expert``'s, with mobility).

NumPy is used here only (pinned in requirements.txt); the device tables are small integer tuples.
"""

import argparse
import math
import os
import sys

from rolit_core import Game
from rolit_core import ai, mobility
from rolit_core.ai import _FEATURES, _F_MOB, _tables, player
from rolit_core.rng import Random

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "build", "tune")
AI_SOURCE = os.path.join(ROOT, "rolit_core", "ai.py")
MOBILITY_SOURCE = os.path.join(ROOT, "rolit_core", "mobility.py")
GAMES = {2: 1500, 3: 1200, 4: 1200}
ROUNDS = 2
# The four-player games against MCTS: how many, the opponents (an arena player), their seed.
AGAINST = "sim.opponents:mcts:ms=30:bias=1"
AGAINST_GAMES = 1600
AGAINST_SEED = 777
# The share of the four-player device row (no mobility) fitted on those games; the rest is the
# self-play fit. Measured in the arena (docs/ai.md): the MCTS fit alone and half of it lost
# among three Best-Reply Search players, one third won more there and among the MCTS.
MCTS_SHARE = (1, 3)
# The fitted mobility weight times this per phase (board just set up, half full, full), in
# expert's two-seat table (three and four players: not measured, left as fitted). A fit to game
# results values what a feature predicts by itself; mobility pays off through the search (the
# moves it leaves), so the fit underrates it before the endgame. Set in the arena (docs/ai.md):
# against the independent alpha-beta player at equal CPU time (40 games, seed 2026) x1 53.8%,
# x3 in every phase 76.2%; x3 but x1 on the full board against x3 in every phase, 60.0% of 80
# games at 20,000 nodes each.
MOBILITY_SCALE = (3, 3, 1)
SHIPPED_ROUND = 1  # the round whose tables rolit_core/ai.py holds; make tune plays up to it
# The starting point of round 1: hand-set weights (disc 4 -> 16 as the board fills, plus the
# cell values and corner terms of the first evaluation), the same row for every player count.
_HAND_ROWS = ((44, 8, 12, 0, 3, 5, -3, -24, -10, 6, 0, 0, 0, 0),
              (50, 14, 18, 6, 9, 11, -3, -24, -10, 6, 0, 0, 0, 0),
              (56, 20, 24, 12, 15, 17, -3, -24, -10, 6, 0, 0, 0, 0))
HAND = ((_HAND_ROWS,) * 3, (_HAND_ROWS,) * 3)  # (ai._WEIGHTS, mobility.WEIGHTS)
UNIT = 1024
RIDGE = 1e-3
NAMES = ("corner", "C", "edge", "X", "ring", "centre", "frontier", "X open", "C open", "stable",
         "mobility", "to move", "next", "after")


# -- self-play ---------------------------------------------------------------------------------


SELFPLAY_NODES = (500, 500)


def play_one(task):
    """One self-play game: returns the line that stores it."""
    players, index, weights, seed = task
    ai._WEIGHTS, mobility.WEIGHTS = weights
    level = "hard"
    colours = Game(players, 8, first="red").colours
    first = colours[index % len(colours)]
    game = Game(players, 8, first=first)
    rng = Random(seed * 1000003 + index)
    bots = [player(level, seed=rng.bits()) for _ in range(players)]
    for bot in bots:
        # The budget the shipped tables were fitted with (hard's device budget changes with
        # the chip's calibration; the tuning games must not).
        bot.budgets = SELFPLAY_NODES
    opening = rng.below(5)
    while not game.over:
        if len(game.moves) < opening or rng.below(20) == 0:
            cell = rng.choice(game.legal_moves())
        else:
            cell = bots[game.seat_of(game.turn)].choose(game)
        game.play(cell)
    return game_line(index, first, game)


def game_line(index, first, game):
    """The line that stores a finished ``game`` (``read_games`` reads it back)."""
    return "%d %d %d %s | %s" % (game.players, index, first, " ".join(map(str, game.moves)),
                                 " ".join(map(str, game.scores())))


def play_against_one(task):
    """One four-player game of ``hard`` among three ``AGAINST`` players: returns its line."""
    from sim.arena import load, view_of
    players, index, weights, seed = task
    ai._WEIGHTS, mobility.WEIGHTS = weights
    colours = Game(players, 8, first="red").colours
    first = colours[(index // players) % len(colours)]
    game = Game(players, 8, first=first)
    ours = index % players
    bots = []
    for seat in range(players):
        seat_seed = seed * 1000 + index * 8 + seat
        if seat == ours:
            bots.append(player("hard", seed=seat_seed).choose)
        else:
            bots.append(load(AGAINST, seat_seed))
    while not game.over:
        game.play(bots[game.seat_of(game.turn)](view_of(game)))
    return game_line(index, first, game)


def data_file(players, round_, against=False):
    kind = "mcts" if against else "selfplay"
    return os.path.join(DATA, "%s-%dp-r%d.txt" % (kind, players, round_))


def play(players, games, round_, weights, jobs=1, seed=1, out=sys.stderr, against=False):
    """Play ``games`` self-play games with ``weights`` (continuing a file that holds fewer);
    ``against``: games of one ``hard`` among three ``AGAINST`` players instead (four
    players)."""
    os.makedirs(DATA, exist_ok=True)
    path = data_file(players, round_, against)
    have = 0
    if os.path.exists(path):
        # Games are appended one line each; a run killed mid-line leaves a cut last line,
        # which is dropped here (and played again) instead of being counted and read as a game.
        with open(path, "rb+") as handle:
            data = handle.read()
            whole = data.rfind(b"\n") + 1
            if whole < len(data):
                handle.truncate(whole)
        have = data.count(b"\n")
    seed = seed + 1000 * (round_ - 1)
    tasks = [(players, index, weights, seed) for index in range(have, games)]
    if not tasks:
        return path
    work = play_against_one if against else play_one
    if jobs > 1:
        import multiprocessing
        pool = multiprocessing.Pool(jobs)
        lines = pool.imap(work, tasks, chunksize=4)
    else:
        pool = None
        lines = map(work, tasks)
    try:
        with open(path, "a") as handle:
            for done, line in enumerate(lines, have + 1):
                handle.write(line + "\n")
                if done % 50 == 0 or done == games:
                    out.write("\rround %d, %d players%s: %d/%d games"
                              % (round_, players, " against MCTS" if against else "", done,
                                 games))
                    out.flush()
    finally:
        if pool is not None:
            pool.terminate()
    out.write("\n")
    return path


def read_games(path):
    games = []
    with open(path) as handle:
        for line in handle:
            head, _, tail = line.partition("|")
            fields = [int(x) for x in head.split()]
            games.append((fields[0], fields[1], fields[2], fields[3:],
                          [int(x) for x in tail.split()]))
    return games


# -- features ----------------------------------------------------------------------------------


def colour_features(cells, size, colours, after, to_move):
    """Per colour in play, the evaluation's features of a position (a list of cell colours)."""
    classes, _, corners, _ = _tables(size)
    rows = {colour: [0] * _FEATURES for colour in colours}
    n = size * size
    mobile = {colour: 0 for colour in colours}
    for cell in range(n):
        r, c = divmod(cell, size)
        neighbours = [(r + dr) * size + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                      if (dr or dc) and 0 <= r + dr < size and 0 <= c + dc < size]
        colour = cells[cell]
        if colour in rows:
            row = rows[colour]
            row[classes[cell]] += 1
            row[6] += sum(1 for other in neighbours if not cells[other])
        if not colour and any(cells[other] for other in neighbours):
            for capturer in capturers(cells, size, cell):
                if capturer in mobile:
                    mobile[capturer] += 1
    for corner, x, c1, c2, step_r, step_c in corners:
        owner = cells[corner]
        if not owner:
            if cells[x] in rows:
                rows[cells[x]][7] += 1
            for cc in (c1, c2):
                if cells[cc] in rows:
                    rows[cells[cc]][8] += 1
        elif owner in rows:
            for step in (step_r, step_c):
                k = corner + step
                for _ in range(size - 1):
                    if cells[k] != owner:
                        break
                    rows[owner][9] += 1
                    k += step
    for colour in colours:
        rows[colour][10] = mobile[colour]
    colour = to_move
    for f in range(min(3, len(colours))):
        rows[colour][11 + f] += 1
        colour = after[colour]
    return rows


def capturers(cells, size, cell):
    """The colours that would capture something by playing the empty ``cell``."""
    found = set()
    r, c = divmod(cell, size)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if not (dr or dc):
                continue
            run = []
            rr, cc = r + dr, c + dc
            while 0 <= rr < size and 0 <= cc < size and cells[rr * size + cc]:
                run.append(cells[rr * size + cc])
                rr += dr
                cc += dc
            # A colour captures along a line of other colours closed by its first own ball.
            found.update(colour for colour in run[1:] if colour != run[0])
    return found


def phase_weights(filled, cells):
    """The share of each of the three phases (set up, half full, full) at ``filled`` balls, as
    the search interpolates them."""
    span = cells - 4
    k = min(max(2 * (filled - 4), 0), 2 * span)
    if k <= span:
        return ((span - k) / span, k / span, 0.0)
    return (0.0, (2 * span - k) / span, (k - span) / span)


def positions(games):
    """Per position of the games: the seats' expanded feature rows, the result shares, the
    phase (0-3 by quarters) and the game's index."""
    for players, index, first, moves, scores in games:
        game = Game(players, 8, first=first)
        best = max(scores)
        winners = [s for s in range(len(scores)) if scores[s] == best]
        shares = [1.0 / len(winners) if s in winners else 0.0 for s in range(len(scores))]
        after = {colour: game.next_colour(colour) for colour in game.colours}
        for cell in moves:
            game.play(cell)
            if game.over:
                break
            cells = [game.board[k] for k in range(64)]
            rows = colour_features(cells, 8, game.colours, after, game.turn)
            filled = 64 - game.board.count(0)
            phases = phase_weights(filled, 64)
            seats = []
            for seat in game.seat_colours:
                total = [0] * _FEATURES
                for colour in seat:
                    total = [a + b for a, b in zip(total, rows[colour])]
                seats.append([v * p for p in phases for v in total])
            yield seats, shares, min(3, (filled - 4) * 4 // 60), index


# -- fit ---------------------------------------------------------------------------------------


def fit(x, y, mask, ridge=RIDGE, steps=30):
    """Multinomial logit over seats by Newton's method. ``x``: positions x seats x features,
    ``y``: result shares, ``mask``: the features to fit (the others stay 0)."""
    import numpy as np
    x = x[:, :, mask]
    n, seats, k = x.shape
    w = np.zeros(k)
    for _ in range(steps):
        v = x @ w
        v -= v.max(axis=1, keepdims=True)
        p = np.exp(v)
        p /= p.sum(axis=1, keepdims=True)
        mean = np.einsum("ns,nsk->nk", p, x)
        grad = np.einsum("ns,nsk->k", p - y, x) / n + ridge * w
        hess = (np.einsum("ns,nsk,nsl->kl", p, x, x) - mean.T @ mean) / n + ridge * np.eye(k)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    full = np.zeros(mask.shape[0])
    full[mask] = w
    return full


def quality(x, y, w):
    """Log loss (nats per position) and the share of positions whose favourite won."""
    import numpy as np
    v = x @ w
    v -= v.max(axis=1, keepdims=True)
    p = np.exp(v)
    p /= p.sum(axis=1, keepdims=True)
    loss = -(y * np.log(np.maximum(p, 1e-12))).sum(axis=1).mean()
    favourite = p.argmax(axis=1)
    right = y[np.arange(len(y)), favourite] > 0
    return loss, right.mean()


def dataset(players, round_, against=False):
    import numpy as np
    games = read_games(data_file(players, round_, against))
    xs, ys, phases, held = [], [], [], []
    for seats, shares, phase, index in positions(games):
        xs.append(seats)
        ys.append(shares)
        phases.append(phase)
        held.append(index % 5 == 4)
    return (np.array(xs, dtype=float), np.array(ys), np.array(phases), np.array(held),
            len(games))


def fit_players(players, round_, out=sys.stdout, against=False):
    """Fit both tables' rows for one player count, or with ``against`` the row without mobility
    on the games against MCTS (the only one mixed); print the held-out quality."""
    import numpy as np
    x, y, phase, held, count = dataset(players, round_, against)
    k = 3 * _FEATURES
    train = ~held
    results = {}
    tables = (("no mobility", False),) if against else (("no mobility", False),
                                                        ("with mobility", True))
    for name, use_mobility in tables:
        mask = np.ones(k, dtype=bool)
        if not use_mobility:
            mask[[_F_MOB + _FEATURES * p for p in range(3)]] = False
        w = fit(x[train], y[train], mask)
        loss, right = quality(x[held], y[held], w)
        base = -math.log(1.0 / players)
        out.write("%d players%s, %s: %d games, %d positions; held-out log loss %.4f"
                  " (chance %.4f), favourite won %.1f%%\n"
                  % (players, " against MCTS" if against else "", name, count, len(y), loss,
                     base, 100 * right))
        by_phase = []
        for p in range(4):
            sel = held & (phase == p)
            if sel.any():
                by_phase.append("%.1f%%" % (100 * quality(x[sel], y[sel], w)[1]))
        out.write("    favourite won by quarter of the game: %s\n" % ", ".join(by_phase))
        results[use_mobility] = tuple(tuple(int(round(UNIT * w[p * _FEATURES + f]))
                                            for f in range(_FEATURES)) for p in range(3))
    return results


def table_text(name, tables):
    lines = ["%s = (" % name]
    for rows in tables:
        lines.append("    (" + ",\n     ".join("(" + ", ".join(str(v) for v in row) + ")"
                                               for row in rows) + "),")
    lines.append(")")
    return "\n".join(lines)


def write_tables(text, path=AI_SOURCE):
    """Put ``text`` between the tuned-weights markers of ``path`` (rolit_core/ai.py, or
    mobility.py), written whole under a new name and renamed over it: a full disk or Ctrl-C
    leaves the old file."""
    from sim.userfiles import write_atomically
    with open(path) as handle:
        source = handle.read()
    begin = source.index("# -- tuned weights begin --\n") + len("# -- tuned weights begin --\n")
    end = source.index("# -- tuned weights end --")

    def write(temporary):
        with open(temporary, "w") as handle:
            handle.write(source[:begin] + text + "\n" + source[end:])

    write_atomically(path, write)


def fit_all(round_, out=sys.stdout, against=True):
    """Fit every player count on a round's games: returns (ai._WEIGHTS, mobility.WEIGHTS).
    ``against``: then ``with_against``."""
    plain = []
    mobile = []
    out.write("round %d\n" % round_)
    for players in (2, 3, 4):
        results = fit_players(players, round_, out)
        plain.append(results[False])
        scales = MOBILITY_SCALE if players == 2 else (1, 1, 1)
        mobile.append(tuple(tuple(v * scale if f == _F_MOB else v for f, v in enumerate(row))
                            for row, scale in zip(results[True], scales)))
    weights = (tuple(plain), tuple(mobile))
    return with_against(weights, round_, out) if against else weights


def with_against(weights, round_, out=sys.stdout):
    """``weights`` with the four-player device row mixed with the fit on the round's games
    against MCTS (``mix``), when it has them."""
    if not os.path.exists(data_file(4, round_, True)):
        return weights
    plain, mobile = weights
    versus = fit_players(4, round_, out, against=True)[False]
    out.write("4 players, no mobility: %d/%d of the fit against MCTS, the rest self-play's\n"
              % MCTS_SHARE)
    return plain[:2] + (mix(plain[2], versus),), mobile


def mix(selfplay, versus, share=MCTS_SHARE):
    """The weight rows ``share`` (part, whole) of the way from ``selfplay`` to ``versus``,
    rounded to integers."""
    part, whole = share
    return tuple(tuple(int(round(((whole - part) * a + part * b) / whole)) for a, b in zip(r, q))
                 for r, q in zip(selfplay, versus))


def show(weights, write=False, out=sys.stdout):
    out.write("\nfeatures: %s\n" % ", ".join(NAMES))
    plain = table_text("_WEIGHTS", weights[0])
    mobile = table_text("WEIGHTS", weights[1])
    out.write(plain + "\n" + mobile + "\n")
    if write:
        write_tables(plain, AI_SOURCE)
        write_tables(mobile, MOBILITY_SOURCE)
        out.write("written to %s and %s\n" % (AI_SOURCE, MOBILITY_SOURCE))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.tune", description=__doc__.split("\n")[0])
    parser.add_argument("command", nargs="?", default="all", choices=("all", "play", "fit"))
    parser.add_argument("--round", type=int, default=SHIPPED_ROUND,
                        choices=range(1, ROUNDS + 1),
                        help="the round to play or fit (play and fit)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4))
    parser.add_argument("--games", type=int)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true",
                        help="write the tables into rolit_core/ai.py and mobility.py")
    parser.add_argument("--against", choices=("mcts",),
                        help="play: the round's four-player games of hard among three MCTS,"
                             " with the round's self-play tables")
    args = parser.parse_args(argv)
    counts = (args.players,) if args.players else (2, 3, 4)
    if args.command == "all":
        weights = HAND
        for round_ in range(1, SHIPPED_ROUND + 1):
            for players in counts:
                play(players, args.games or GAMES[players], round_, weights, args.jobs,
                     args.seed)
            weights = fit_all(round_, against=False)
            if 4 in counts:
                play(4, AGAINST_GAMES, round_, weights, args.jobs, AGAINST_SEED, against=True)
            weights = with_against(weights, round_)
        show(weights, write=True)
        return 0
    if args.command == "play":
        if args.against:
            if args.players not in (None, 4):
                parser.error("--against plays four-player games")
            play(4, args.games or AGAINST_GAMES, args.round, fit_all(args.round, against=False),
                 args.jobs, AGAINST_SEED, against=True)
            return 0
        # A round plays with the tables fitted in the one before (round 1: the hand weights).
        weights = HAND if args.round == 1 else fit_all(args.round - 1)
        for players in counts:
            play(players, args.games or GAMES[players], args.round, weights, args.jobs, args.seed)
        return 0
    show(fit_all(args.round), args.write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
