"""A Rolit bot in a few lines: take a corner if you can, else turn the most balls.

Pit it against the built-in levels:

    python -m sim.arena --players examples.greedy_bot:choose,easy --games 100

A bot is any function that takes a ``rolit_core.Game`` and returns a cell (an int, or a name
like ``"c3"``). ``game.turn`` is your colour, ``game.legal_moves()`` the cells you may play and
``game.board.flips(cell, colour)`` the balls a move would turn. Do not change the game.
"""


def choose(game):
    board = game.board
    last = board.size - 1
    corners = (0, last, last * board.size, last * board.size + last)
    best_cell = None
    best_score = -1
    for cell in game.legal_moves():
        score = len(board.flips(cell, game.turn))
        if cell in corners:
            score += 100
        if score > best_score:
            best_cell = cell
            best_score = score
    return best_cell
