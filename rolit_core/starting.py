"""Starting a match from its options (:meth:`rolit_core.app.App.start`): the options checked,
the match made and begun. Loaded for each start and forgotten after (``use_once``), so a round
keeps none of this code."""

import gc

from .game import Game, Match
from .save import largest
from .vocab import HUMAN, LEVELS

# MicroPython and CircuitPython collect before the match's long-lived objects are made.
_TIDY = hasattr(gc, "mem_free")


def start(app, seats, size, teams, rounds, tie, time_limit, first, hints, record):
    """``App.start``'s work, with its arguments; raises ValueError on bad ones (or a match too
    big for the storage) and leaves the app as it was."""
    if isinstance(seats, str):
        raise ValueError("seats is a list of 'human' or levels, not %r" % (seats,))
    try:
        seats = tuple(seats)
    except TypeError:
        raise ValueError("seats is a list of 'human' or levels, not %r" % (seats,))
    if record is not None:
        game = Game.from_record(record)
        size, teams, tie, first = game.size, game.teams, game.tie, game.first
        if len(seats) != game.players:
            seats = (HUMAN,) * game.players
    players = len(seats)
    for kind in seats:
        if kind != HUMAN and kind not in LEVELS:
            raise ValueError("a seat is 'human' or a level %r, not %r" % (LEVELS, kind))
    if type(size) is not int or size not in (8, 6, 4):
        raise ValueError("size must be 8, 6 or 4, not %r" % (size,))
    if type(rounds) is not int or not 1 <= rounds <= 99:
        raise ValueError("rounds must be 1-99, not %r" % (rounds,))
    if type(time_limit) is not int or not 0 <= time_limit <= 3600:
        raise ValueError("time_limit is seconds 0-3600, not %r" % (time_limit,))
    capacity = getattr(app.storage, "capacity", None)
    if type(capacity) is int and largest(rounds, size) > capacity:
        raise ValueError("a %d-round match on %dx%d can need %d bytes; the storage holds %d"
                         % (rounds, size, size, largest(rounds, size), capacity))
    if _TIDY:
        gc.collect()
    rng = app.rng
    state = (rng._z, rng._w)  # a refused start must not move the random sequence either
    try:
        match = Match(rounds, players, size, teams, tie, first, rng.bits())
        if record is not None:
            for cell in game.moves:
                match.game.play(cell)
    except (TypeError, ValueError) as error:
        rng._z, rng._w = state
        raise ValueError(str(error))
    # Everything is checked: from here on nothing raises.
    kinds = seats if players > 1 else (HUMAN, HUMAN)
    app.begin_match(match, kinds, time_limit, app.settings.hints if hints is None else
                    bool(hints))
    app.first_choice = None if record is not None else match.game.first if first \
        is not None else None  # for "play again"
    app.save()

