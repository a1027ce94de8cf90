"""Rolit Handheld for CircuitPython: boots straight into the game.

The serial console (115200 baud, or the Mu / Thonny / `tio` console) shows a banner, any settings
problem, and a log of every game: each move with the scores, then the result. Settings live in
settings.toml (see docs/hardware.md). If anything goes wrong inside a frame, the matrix shows a red
border, the error is printed, and the game flow starts again from the saved game.

The game is ``hardware.main``: this file stays small because CircuitPython compiles it from
source at every start, before it can light anything.
"""

# Light first: loading the game takes seconds on a board.
from hardware.firstlight import light

light()
del light

from hardware.main import main  # noqa: E402

if __name__ == "__main__":
    main()
