"""Rolit rules, game flow and computer players, with no dependencies beyond CircuitPython's built-ins.

>>> from rolit_core import Game, GREEN
>>> game = Game(players=2, first=GREEN)
>>> game.play("c3")  # green encloses red on the diagonal: d4 turns
[27]
"""

# game first: a board compiles each module on import, and the dearest moment is compiling a module
# beside what is already live. So game.py compiles while the heap is empty, then board.py (from
# game's own import) beside game's code only, not game.py beside board's code and tables.
from .game import Game, Match
from .board import (BLUE, COLOURS, EMPTY, GREEN, LETTERS, NAMES, RED, SIZES, YELLOW, Board,
                    IllegalMove, colour_of)

__version__ = "1.0.0"
