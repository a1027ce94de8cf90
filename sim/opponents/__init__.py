"""Independent Rolit opponents for measuring the project's computer players.

Written from the rules alone, on their own bitboard move generator (``bits``), sharing no code,
evaluation or search with ``rolit_core.ai``, so that a level is measured against something that
plays differently:

- ``alphabeta``: iterative-deepening alpha-beta with a transposition table and history ordering,
  an Othello-style evaluation, Best-Reply Search with three or four players;
- ``brs``: the same player by the name of its 3-4 player search (Best-Reply Search);
- ``mcts``: Monte Carlo tree search (UCT) with max^n backup and random playouts, optionally
  biased toward corners and away from X cells next to empty corners (``bias=1``).

In the arena (``sim.arena``) they take options after the name::

    python -m sim.arena --players expert,sim.opponents:alphabeta:ms=250 --games 40
    python -m sim.arena --players hard,sim.opponents:mcts:ms=40 --games 100
    python -m sim.arena --players hard,sim.opponents:mcts:iterations=500 --games 100
    python -m sim.arena --players hard,sim.opponents:mcts:ms=30:bias=1,\\
        sim.opponents:brs:ms=30,sim.opponents:mcts:ms=30:bias=1 --games 60

``ms`` is CPU time per move (``time.process_time``); ``nodes`` (alpha-beta) and ``iterations``
(MCTS) are fixed budgets that make a player deterministic for its seed.
"""

from .alphabeta import AlphaBeta
from .mcts import MCTS


def alphabeta(seed=None, ms=None, nodes=None):
    """An alpha-beta / Best-Reply Search player (a callable ``game -> cell``)."""
    return AlphaBeta(ms=ms, nodes=nodes, seed=seed)


def mcts(seed=None, ms=None, iterations=None, c=None, bias=0):
    """An MCTS max^n player (a callable ``game -> cell``); ``bias`` steers its playouts toward
    corners and away from X cells next to empty corners (a probability, 0 for none)."""
    return MCTS(ms=ms, iterations=iterations, seed=seed, c=c, bias=bias)


def brs(seed=None, ms=None, nodes=None):
    """The alpha-beta player under the name of its search with three or four players: Best-Reply
    Search (all opponents in one layer, only the strongest single reply of any of them played).
    With two seats it is the same plain alpha-beta as ``alphabeta``."""
    return AlphaBeta(ms=ms, nodes=nodes, seed=seed)


alphabeta.arena_factory = True
brs.arena_factory = True
mcts.arena_factory = True
