"""Rolit rules, game flow and computer players, with no dependencies beyond CircuitPython's built-ins.

>>> from rolit_core import Game, GREEN
>>> game = Game(players=2, first=GREEN)
>>> game.play("c3")  # green encloses red on the diagonal: d4 turns
[27]
"""

# game.py first: compiled from source on a board, it then compiles while the heap is empty.
from .game import Game, Match
from .board import (BLUE, COLOURS, EMPTY, GREEN, LETTERS, NAMES, RED, SIZES, YELLOW, Board,
                    IllegalMove, colour_of)

__version__ = "1.0.0"
