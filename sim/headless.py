"""``--headless``: computers play a game or a match to the end on a fake clock, and the result
is printed, a line per round and one for the match."""


def headless(args, app, device, recorder, frame_ms=20, limit_ms=4 * 3600 * 1000):
    """Play to the end on a fake clock, as fast as the computers think; print a line per round
    and, for a match, its result."""
    from rolit_core.app import SELECT
    game = getattr(app, "game", None)
    if game is None:
        raise SystemExit("--headless needs a game: give --players (all computers) or --replay")
    if "human" in getattr(app, "kinds", ()):
        raise SystemExit("--headless plays computers only: --players like hard,medium")
    now = 0
    tap = [(SELECT, True), (SELECT, False)]
    match = app.match
    first_round = match.round
    games = [app.game]
    while not finished(app):
        # Between rounds of a match nobody is there to press SELECT: press it for them.
        device.update(now, tap if app.mode in ("round_end", "table") else ())
        if app.game is not games[-1]:
            games.append(app.game)
        if recorder is not None:
            recorder.update(app)
        now += frame_ms
        if now > limit_ms:
            raise SystemExit("the game did not finish within %d simulated hours"
                             % (limit_ms // 3600000))
    if recorder is not None:
        recorder.update(app)
        if recorder.failure:
            raise SystemExit(recorder.failure)
    names = seat_labels(app.game, app.kinds)
    for number, game in enumerate(games, first_round):
        line = round_line(game, names)
        if match.rounds > 1:
            line = "round %d of %d: %s" % (number, match.rounds, line)
        print(line)
    if match.rounds > 1:
        print(match_line(match, names))
    return 0


def seat_labels(game, kinds):
    """Each seat's colours and level: ``"Red (hard)"``, ``"Red+Green (easy)"``."""
    from .device import NAMES
    return ["%s (%s)" % ("+".join([NAMES[c] for c in game.seat_colours[seat]]), kinds[seat])
            for seat in range(len(game.seat_colours))]


def _who(seats, names):
    if len(seats) == 1:
        return names[seats[0]] + " wins"
    return "shared by " + " and ".join([names[seat] for seat in seats])


def round_line(game, names):
    """``game over after 60 moves: R (easy) 40, G (hard) 24: Green (hard) wins``."""
    letters = " RYGB"
    scores = game.scores()
    parts = ["%s (%s) %d" % ("+".join([letters[c] for c in game.seat_colours[seat]]),
                             names[seat].split(" (")[1][:-1], scores[seat])
             for seat in range(len(scores))]
    winners = game.winners()
    result = _who(winners, names) if winners else "a tie for no one"
    return "game over after %d moves: %s: %s" % (len(game.board.moves), ", ".join(parts),
                                                 result)


def match_line(match, names):
    """``match: Green (medium) wins 2-1``: rounds won, the winner's first; the points too when
    the rounds won did not decide; with more than two seats, the order of the numbers."""
    won = match.rounds_won
    points = match.points
    winners = match.winners()
    order = list(winners) + [seat for seat in range(len(won)) if seat not in winners]
    line = "match: %s%s %s" % (_who(winners, names), "," if len(winners) > 1 else "",
                                "-".join([str(won[seat]) for seat in order]))
    if [won[seat] for seat in order].count(won[winners[0]]) > 1:
        line += " on points %s" % "-".join([str(points[seat]) for seat in order])
    if len(order) > 2:
        line += " (%s)" % ", ".join([names[seat].split(" (")[0] for seat in order])
    return line


def finished(app):
    """True once the whole game (or match) is over."""
    match = getattr(app, "match", None)
    if match is not None:
        return match.over
    game = getattr(app, "game", None)
    return game is not None and game.over
