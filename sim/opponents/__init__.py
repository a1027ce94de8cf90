"""Independent Rolit opponents for measuring the project's computer players.

Written from the rules alone, on their own bitboard move generator (``bits``), sharing no code,
evaluation or search with ``rolit_core.ai``, so that a level is measured against something that
plays differently:

- ``alphabeta``: iterative-deepening alpha-beta with a transposition table and history ordering,
  an Othello-style evaluation, Best-Reply Search with three or four players;
- ``mcts``: Monte Carlo tree search (UCT) with max^n backup and random playouts.

In the arena (``sim.arena``) they take options after the name::

    python -m sim.arena --players expert,sim.opponents:alphabeta:ms=250 --games 40
    python -m sim.arena --players hard,sim.opponents:mcts:ms=40 --games 100
    python -m sim.arena --players hard,sim.opponents:mcts:iterations=500 --games 100

``ms`` is CPU time per move (``time.process_time``); ``nodes`` (alpha-beta) and ``iterations``
(MCTS) are fixed budgets that make a player deterministic for its seed.
"""

from .alphabeta import AlphaBeta
from .mcts import MCTS


def alphabeta(seed=None, ms=None, nodes=None):
    """An alpha-beta / Best-Reply Search player (a callable ``game -> cell``)."""
    return AlphaBeta(ms=ms, nodes=nodes, seed=seed)


def mcts(seed=None, ms=None, iterations=None, c=None):
    """An MCTS max^n player (a callable ``game -> cell``)."""
    return MCTS(ms=ms, iterations=iterations, seed=seed, c=c)


alphabeta.arena_factory = True
mcts.arena_factory = True
