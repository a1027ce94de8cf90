"""Play many games between computer players and print who is stronger.

    python -m sim.arena --players medium,easy --games 200 --size 8 [--seed S] [--jobs 2]
    python -m sim.arena --players hard,medium,medium,medium --games 200
    python -m sim.arena --players examples.greedy_bot:choose,easy --games 100

A player is a level name (easy, medium, hard, expert) or ``module:function``, a function that
takes a ``rolit_core.Game`` and returns a cell (an int or a name like ``"c3"``), or a factory of
such players with options, like the independent opponents ``sim.opponents:alphabeta:ms=300`` and
``sim.opponents:mcts:ms=100``. Seats and the
first colour rotate from game to game so that nobody keeps an advantage. Score: a win is 1, a
round shared by k tied winners is 1/k each; the table gives the score with a 95% confidence
interval, mean points, and mean and worst thinking time per move (CPU time).
"""

import argparse
import importlib
import math
import sys
import time

from rolit_core import Game, IllegalMove
from rolit_core.ai import LEVELS, player as level_player
from rolit_core.rng import Random

BAR = 30


class SpecError(ValueError):
    """A player given on the command line that cannot be loaded."""


def load(spec, seed):
    """A function ``game -> cell`` for a player spec: a level, ``module:function``, or
    ``module:factory:key=value:...`` for a factory (a function with ``arena_factory = True``, such
    as ``sim.opponents:mcts:ms=100``), which is called with the seed and the options."""
    spec = spec.strip()
    if spec in LEVELS:
        return level_player(spec, seed).choose
    if ":" not in spec:
        raise SpecError("%r is neither a level (%s) nor module:function"
                        % (spec, ", ".join(LEVELS)))
    module_name, _, rest = spec.partition(":")
    name, _, options = rest.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # not found, a relative name like "..x", a bot that fails to load
        raise SpecError("cannot import %r for player %r: %s" % (module_name, spec, error))
    function = getattr(module, name, None)
    if not callable(function):
        raise SpecError("%s has no function %r" % (module_name, name))
    if not getattr(function, "arena_factory", False):
        if options:
            raise SpecError("%s:%s takes no options (%r)" % (module_name, name, options))
        return function
    kwargs = {}
    for option in options.split(":") if options else ():
        key, equals, value = option.partition("=")
        if not equals or not key.isidentifier():
            raise SpecError("option %r of %s:%s is not key=value" % (option, module_name, name))
        kwargs[key] = _number(value)
    try:
        return function(seed=seed, **kwargs)
    except TypeError as error:
        raise SpecError("%s:%s: %s" % (module_name, name, error))


def _number(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def seating(game_index, count, colours):
    """Which player sits in each seat, and the first colour, for game ``game_index``:
    every player gets every seat, and within that every colour starts in turn."""
    shift = game_index % count
    order = [(seat + shift) % count for seat in range(count)]
    first = colours[(game_index // count) % len(colours)]
    return order, first


def play_game(task):
    """Play one game. Returns (order, scores, winners, per player [moves, seconds, worst,
    illegal])."""
    index, specs, size, teams, tie, seed, opening = task
    count = len(specs)
    probe = Game(count, size, first="red", teams=teams, tie=tie)
    order, first = seating(index, count, probe.colours)
    game = Game(count, size, first=first, teams=teams, tie=tie)
    if opening:
        # Random first moves, the same for each rotation of the seats: deterministic players
        # would otherwise replay nearly the same few games.
        rng = Random(seed * 7919 + index // count)
        for _ in range(opening):
            if not game.over:
                game.play(rng.choice(game.legal_moves()))
    # Seat s is played by player order[s].
    bots = [load(specs[order[seat]], seed * 100003 + index * 8 + seat) for seat in range(count)]
    stats = [[0, 0.0, 0.0, 0] for _ in specs]
    while not game.over:
        seat = game.seat_of(game.turn)
        who = order[seat]
        # CPU time of this process: what a player really used, whatever else loads the machine.
        started = time.process_time()
        try:
            cell = bots[seat](game)
            error = None
        except Exception as problem:  # a student bot must not stop the arena
            cell = None
            error = problem
        spent = time.process_time() - started
        stat = stats[who]
        stat[0] += 1
        stat[1] += spent
        if spent > stat[2]:
            stat[2] = spent
        try:
            if error is not None:
                raise IllegalMove(str(error))
            game.play(cell)
        except (IllegalMove, ValueError, TypeError):
            # An illegal answer forfeits the move: the first legal cell is played instead.
            stat[3] += 1
            game.play(game.legal_moves()[0])
    return order, game.scores(), game.winners(), stats


def interval(scores):
    """Mean of per-game scores and its 95% confidence half-width (normal approximation)."""
    n = len(scores)
    mean = sum(scores) / n
    if n < 2:
        return mean, 0.0
    var = sum((s - mean) ** 2 for s in scores) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def progress(done, total, started, out):
    filled = BAR * done // total
    elapsed = time.time() - started
    eta = elapsed / done * (total - done) if done else 0
    out.write("\r[%s%s] %d/%d games  %.0fs elapsed, ~%.0fs left " %
              ("#" * filled, "." * (BAR - filled), done, total, elapsed, eta))
    out.flush()


def run(specs, games, size=8, teams=False, tie="shared", seed=1, jobs=1, out=sys.stdout,
        err=sys.stderr, opening=0):
    """Play the games and print the table. Returns one result dict per player."""
    count = len(specs)
    for spec in specs:
        load(spec, 0)  # fail early on a bad spec
    Game(count, size, teams=teams, tie=tie, first="red")  # and on a bad configuration
    tasks = [(i, tuple(specs), size, teams, tie, seed, opening) for i in range(games)]
    scores = [[] for _ in specs]
    points = [0] * count
    stats = [[0, 0.0, 0.0, 0] for _ in specs]
    wins = [0] * count
    ties = [0] * count
    started = time.time()
    if jobs > 1:
        import multiprocessing
        pool = multiprocessing.Pool(jobs)
        results = pool.imap_unordered(play_game, tasks)
    else:
        pool = None
        results = map(play_game, tasks)
    done = 0
    try:
        for order, seat_scores, winners, game_stats in results:
            for seat in range(count):
                who = order[seat]
                points[who] += seat_scores[seat]
                if seat in winners:
                    share = 1.0 / len(winners)
                    if len(winners) > 1:
                        ties[who] += 1
                    else:
                        wins[who] += 1
                else:
                    share = 0.0
                scores[who].append(share)
                mine = game_stats[who]
                stat = stats[who]
                stat[0] += mine[0]
                stat[1] += mine[1]
                stat[2] = max(stat[2], mine[2])
                stat[3] += mine[3]
            done += 1
            progress(done, games, started, err)
    finally:
        if pool is not None:
            pool.terminate()
    err.write("\n")
    out.write("%d games, %d players, %dx%d%s, tie rule %s, seed %d, %s"
              "seats and first colour rotated\n"
              % (games, count, size, size, ", two colours each" if teams else "", tie, seed,
                 "%d random opening moves, " % opening if opening else ""))
    header = "%-3s %-28s %7s %17s %5s %5s %8s %9s %9s %7s\n"
    out.write(header % ("#", "player", "score", "95% CI", "wins", "ties", "points",
                        "cpu ms", "worst ms", "illegal"))
    rows = []
    for who in range(count):
        mean, half = interval(scores[who])
        stat = stats[who]
        per_move = 1000.0 * stat[1] / stat[0] if stat[0] else 0.0
        row = {"player": specs[who], "score": mean, "ci": half, "wins": wins[who],
               "ties": ties[who], "points": points[who] / games, "ms_per_move": per_move,
               "worst_ms": 1000.0 * stat[2], "illegal": stat[3]}
        rows.append(row)
        out.write("%-3d %-28s %6.1f%% %17s %5d %5d %8.1f %9.1f %9.1f %7d\n" % (
            who + 1, specs[who][:28], 100 * mean,
            "[%.1f%%, %.1f%%]" % (100 * max(0.0, mean - half), 100 * min(1.0, mean + half)),
            wins[who], ties[who], row["points"], per_move, row["worst_ms"], stat[3]))
    return rows


class _Parser(argparse.ArgumentParser):
    """Argument errors in one line (argparse's default puts the whole usage before it)."""

    def error(self, message):
        self.exit(2, "%s: error: %s (--help lists the options)\n" % (self.prog, message))


def main(argv=None):
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C: no traceback, the usual status
        sys.stderr.write("\n")
        return 130


def _main(argv):
    parser = _Parser(prog="python -m sim.arena", description=__doc__.split("\n")[0])
    parser.add_argument("--players", required=True,
                        help="comma-separated: easy, medium, hard, expert or module:function")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--size", type=int, default=8, choices=(8, 6, 4))
    parser.add_argument("--teams", action="store_true", help="two colours each (2 players)")
    parser.add_argument("--tie", default="shared", choices=("shared", "none"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    parser.add_argument("--opening", type=int, default=0, help="random first moves per game")
    args = parser.parse_args(argv)
    specs = [s.strip() for s in args.players.split(",") if s.strip()]
    if not 2 <= len(specs) <= 4:
        parser.error("give 2, 3 or 4 players")
    if not 1 <= args.games <= 1000000:
        parser.error("--games must be 1-1000000, not %d" % args.games)
    if not 1 <= args.jobs <= 64:
        parser.error("--jobs must be 1-64, not %d" % args.jobs)
    try:
        run(specs, args.games, args.size, args.teams, args.tie, args.seed, max(1, args.jobs),
            opening=max(0, args.opening))
    except (SpecError, ValueError) as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
