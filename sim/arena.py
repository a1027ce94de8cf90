"""Play many games between computer players and print who is stronger.

    python -m sim.arena --players medium,easy --games 200 --size 8 [--seed S] [--jobs 2]
    python -m sim.arena --players hard,medium,medium,medium --games 200
    python -m sim.arena --players examples.greedy_bot:choose,easy --games 100

A player is a level name (easy, medium, hard, expert), a searching level with another node
budget per move (``expert:nodes=4000``: that many nodes with two, three or four players; the
level is otherwise unchanged, opening book included), or ``module:function``, a function that
takes a ``rolit_core.Game`` and returns a cell (an int or a name like ``"c3"``), or a factory of
such players with options, like the independent opponents ``sim.opponents:alphabeta:ms=300`` and
``sim.opponents:mcts:ms=100``. Seats and the
first colour rotate from game to game so that nobody keeps an advantage. Score: a win is 1, a
round shared by k tied winners is 1/k each; the table gives the score with a 95% confidence
interval, mean points, and mean and worst thinking time per move (CPU time).

A bot is given a copy of the game, so that nothing it does can change the real one. An answer
that is not a legal cell, an exception, a change to the game it was given, or a move that takes
longer than ``--move-seconds`` forfeits the move (the first legal cell is played instead); what
a bot prints is not shown. Under the table each bot's faults are listed by kind.
"""

import argparse
import contextlib
import copy
import importlib
import math
import signal
import sys
import threading
import time

from rolit_core import Game
from rolit_core.ai import LEVELS, player as level_player
from rolit_core.notation import parse_cell, to_text
from rolit_core.rng import Random

BAR = 30
MOVE_SECONDS = 30.0


class SpecError(ValueError):
    """A player given on the command line that cannot be loaded."""


def load(spec, seed):
    """A function ``game -> cell`` for a player spec: a level, a level with a node budget
    (``expert:nodes=4000``), ``module:function``, or ``module:factory:key=value:...`` for a
    factory (a function with ``arena_factory = True``, such as ``sim.opponents:mcts:ms=100``),
    which is called with the seed and the options."""
    spec = spec.strip()
    if spec in LEVELS:
        return level_player(spec, seed).choose
    level, _, options = spec.partition(":")
    if level in LEVELS:  # a level name before the colon is the level, never a module
        return _level(level, options, seed)
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
    except Exception as error:  # bad options, or a factory that fails: the spec is refused
        raise SpecError("%s:%s: %s" % (module_name, name, error))


MAX_NODES = 10 ** 8


def _level(level, options, seed):
    """``level:nodes=N``: the level's player with a budget of N search nodes per move, the same
    with two seats and with three or four players (``Player.budgets``; its ``start`` picks the
    one for the game in hand). Nothing else about the level changes."""
    bot = level_player(level, seed)
    if not any(bot.budgets):
        raise SpecError("%s does not search: it takes no options (%r)" % (level, options))
    for option in options.split(":"):
        key, equals, value = option.partition("=")
        if key != "nodes" or not equals:
            raise SpecError("option %r of %s is not nodes=N" % (option, level))
        nodes = _number(value)
        if type(nodes) is not int or not 1 <= nodes <= MAX_NODES:
            raise SpecError("%s:nodes must be a whole number 1-%d, not %r"
                            % (level, MAX_NODES, value))
        bot.budgets = (nodes, nodes)
        bot.budget = nodes
    return bot.choose


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
    """Play one game. Returns (order, scores, winners, per player ``new_stats()``)."""
    index, specs, size, teams, tie, seed, opening, move_seconds = task
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
    stats = [new_stats() for _ in specs]
    while not game.over:
        seat = game.seat_of(game.turn)
        stat = stats[order[seat]]
        cell, problem, spent, printed = ask(bots[seat], game, move_seconds)
        stat[0] += 1
        stat[1] += spent
        if spent > stat[2]:
            stat[2] = spent
        stat[5] += printed
        if problem is not None:
            stat[3] += 1
            kind, example = problem
            seen = stat[4].setdefault(kind, [0, example])
            seen[0] += 1
            cell = game.legal_moves()[0]
        game.play(cell)
    return order, game.scores(), game.winners(), stats


def new_stats():
    """Per player: [moves, seconds, worst seconds, forfeits, {fault: [count, example]},
    characters printed]."""
    return [0, 0.0, 0.0, 0, {}, 0]


class MoveTimeout(BaseException):
    """A bot ran past the move limit (not an ``Exception``: a bot's ``except Exception`` does
    not swallow it)."""


class _Sink:
    """Where a bot's prints go: counted, not kept."""

    def __init__(self):
        self.chars = 0

    def write(self, text):
        self.chars += len(text)
        return len(text)

    def flush(self):
        pass


@contextlib.contextmanager
def _deadline(seconds):
    """Raise ``MoveTimeout`` in the block after ``seconds`` of wall time, and again every
    ``seconds`` after that (a bot that catches it once is stopped the next time). Only where
    signals can do it: the main thread of a process on a POSIX system."""
    if (seconds is None or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        yield
        return

    def expire(signum, frame):
        raise MoveTimeout()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def view_of(game):
    """A copy of ``game`` for a bot: its own board (with the undo history) and turn."""
    view = copy.copy(game)
    view.board = game.board.copy()
    view._after = list(game._after)
    return view


def ask(bot, game, move_seconds=MOVE_SECONDS):
    """Ask ``bot`` for its move in ``game`` (it gets a copy): ``(cell, problem, seconds,
    characters printed)``, where ``problem`` is None or ``(fault, example)`` and then the
    move is forfeited (``cell`` None)."""
    view = view_of(game)
    sink = _Sink()
    problem = None
    # CPU time of this process: what a player really used, whatever else loads the machine.
    started = time.process_time()
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            with _deadline(move_seconds):
                answer = bot(view)
    except KeyboardInterrupt:
        raise
    except MoveTimeout:
        problem = ("took longer than %g s" % move_seconds, None)
    except BaseException as error:  # a student bot must not stop the arena, not even exit()
        problem = ("raised %s" % type(error).__name__, _short(error))
    spent = time.process_time() - started
    if problem is None and (view.moves != game.moves or view.turn != game.turn
                            or to_text(view.board) != to_text(game.board)):
        problem = ("changed the game it was given (it must only look)", None)
    if problem is not None:
        return None, problem, spent, sink.chars
    cell, problem = cell_of(game, answer)
    return cell, problem, spent, sink.chars


def cell_of(game, answer):
    """``(cell, None)`` for an answer that is a legal cell of ``game`` (an int or a name like
    ``"c3"``), else ``(None, (fault, example))``."""
    if isinstance(answer, str):
        try:
            cell = parse_cell(game.board, answer)
        except ValueError:
            return None, ("answered no cell", _short(answer))
    elif type(answer) is int:
        cell = answer
    else:
        return None, ("answered no cell", _short(answer))
    if cell not in game.legal_moves():
        return None, ("answered an illegal move", _short(answer))
    return cell, None


def _short(thing):
    text = repr(thing) if not isinstance(thing, BaseException) else str(thing)
    return text if len(text) <= 40 else text[:37] + "..."


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
        err=sys.stderr, opening=0, move_seconds=MOVE_SECONDS):
    """Play the games and print the table, then each bot's faults. Returns one result dict per
    player (``illegal``: moves forfeited, ``faults``: {fault: [count, example]}, ``printed``:
    characters printed)."""
    count = len(specs)
    for spec in specs:
        load(spec, 0)  # fail early on a bad spec
    Game(count, size, teams=teams, tie=tie, first="red")  # and on a bad configuration
    tasks = [(i, tuple(specs), size, teams, tie, seed, opening, move_seconds)
             for i in range(games)]
    scores = [[] for _ in specs]
    points = [0] * count
    stats = [new_stats() for _ in specs]
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
                for kind, (times, example) in mine[4].items():
                    stat[4].setdefault(kind, [0, example])[0] += times
                stat[5] += mine[5]
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
               "worst_ms": 1000.0 * stat[2], "illegal": stat[3], "faults": stat[4],
               "printed": stat[5]}
        rows.append(row)
        out.write("%-3d %-28s %6.1f%% %17s %5d %5d %8.1f %9.1f %9.1f %7d\n" % (
            who + 1, specs[who][:28], 100 * mean,
            "[%.1f%%, %.1f%%]" % (100 * max(0.0, mean - half), 100 * min(1.0, mean + half)),
            wins[who], ties[who], row["points"], per_move, row["worst_ms"], stat[3]))
    report_faults(rows, out)
    return rows


def report_faults(rows, out):
    """One line per bot and kind of fault (a forfeited move each time), and what bots printed."""
    lines = []
    for who in range(len(rows)):
        row = rows[who]
        for kind in sorted(row["faults"]):
            times, example = row["faults"][kind]
            lines.append("%d %s: %s, %d time%s%s\n" % (
                who + 1, row["player"], kind, times, "" if times == 1 else "s",
                "" if example is None else " (first: %s)" % example))
        if row["printed"]:
            lines.append("%d %s: printed %d characters (not shown; no move forfeited)\n"
                         % (who + 1, row["player"], row["printed"]))
    if lines:
        out.write("Faults (each forfeits the move: the first legal cell is played instead):\n")
        for line in lines:
            out.write(line)


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
                        help="comma-separated: easy, medium, hard, expert (expert:nodes=N for "
                        "another budget) or module:function")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--size", type=int, default=8, choices=(8, 6, 4))
    parser.add_argument("--teams", action="store_true", help="two colours each (2 players)")
    parser.add_argument("--tie", default="shared", choices=("shared", "none"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    parser.add_argument("--opening", type=int, default=0, help="random first moves per game")
    parser.add_argument("--move-seconds", type=float, default=MOVE_SECONDS,
                        help="a move that takes longer (wall time) is forfeited (default %g)"
                        % MOVE_SECONDS)
    args = parser.parse_args(argv)
    specs = [s.strip() for s in args.players.split(",") if s.strip()]
    if not 2 <= len(specs) <= 4:
        parser.error("give 2, 3 or 4 players")
    if not 1 <= args.games <= 1000000:
        parser.error("--games must be 1-1000000, not %d" % args.games)
    if not 1 <= args.jobs <= 64:
        parser.error("--jobs must be 1-64, not %d" % args.jobs)
    if not 0.001 <= args.move_seconds <= 86400:  # also refuses nan
        parser.error("--move-seconds must be 0.001-86400, not %s" % args.move_seconds)
    try:
        run(specs, args.games, args.size, args.teams, args.tie, args.seed, max(1, args.jobs),
            opening=max(0, args.opening), move_seconds=args.move_seconds)
    except (SpecError, ValueError) as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
