"""The lines of the game log (``hardware.gamelog``) that begin and end a game: who plays, and
the result with, given code.py's ``hardware.pacing.Pacing``, the heap's lowest and the game's
frames. Loaded for those two lines (``rolit_core.lifetime.use_once``), not held between them.
"""

from hardware.pacing import SLOW_FRAME_MS

NAMES = ("empty", "red", "yellow", "green", "blue")


def _seat(game, seat):
    return "+".join([NAMES[c] for c in game.seat_colours[seat]])


def header(write, app, game, number):
    """Write the line that begins game ``number``; returns the moves it has played already
    (a resumed game)."""
    kinds = getattr(app, "kinds", ())
    seats = []
    for seat in range(len(game.seat_colours)):
        kind = kinds[seat] if seat < len(kinds) else "?"
        seats.append("%s %s" % (_seat(game, seat), kind))
    match = getattr(app, "match", None)
    rounds = ""
    if match is not None and match.rounds > 1:
        rounds = ", round %d of %d" % (match.round, match.rounds)
    write("game %d%s: %d players on %dx%d - %s; %s starts" % (
        number, rounds, game.players, game.size, game.size, ", ".join(seats),
        NAMES[game.first]))
    played = len(game.board.moves)
    if played:
        write("  (resumed after move %d)" % played)
    return played


def result(write, game, heap=None):
    """Write the lines that end ``game``: the scores and who won, then what ``heap`` (a Pacing,
    or None) saw of the heap and the frames."""
    scores = game.scores()
    parts = []
    for seat in range(len(scores)):
        parts.append("%s %d" % (_seat(game, seat), scores[seat]))
    winners = game.winners()
    if not winners:
        verdict = "a tie that counts for no one"
    elif len(winners) == 1:
        verdict = _seat(game, winners[0]) + " wins"
    else:
        verdict = "shared by " + " and ".join([_seat(game, s) for s in winners])
    write("round over: %s - %s" % (", ".join(parts), verdict))
    if heap is not None and heap.low_free:
        write("heap: %d bytes free at the lowest after a collection (%d while a search ran)"
              % (heap.low_free, heap.low_free_searching))
    if heap is not None and heap.frames:
        begin = heap.begin_frame
        write("frames: the longest %d ms, %d over %d ms, of %d after the one that began the "
              "game (%s)" % (heap.longest_frame, heap.slow_frames, SLOW_FRAME_MS, heap.frames,
                             "%d ms" % begin if begin is not None and begin >= 0
                             else "not timed"))
