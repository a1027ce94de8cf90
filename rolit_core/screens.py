"""The drawing of the screens between rounds and of the pause menu: pause, round-end bars,
rounds table and match end (the title and the error pattern are drawn by
:mod:`rolit_core.shows`, the self-test by :mod:`rolit_core.selftest`).

Each ``draw_*`` function paints into a cleared 64-entry frame list, using ``shades`` (a
``palette.Shades``) for its colours; ``t`` is the milliseconds since the screen was shown.
"""

from . import font, palette
from .screen import FINAL_MS, POUR_MS, WIN_FLASH_MS

WIN_DIM = 90            # a winner's bar blinks down to this level, never off

# Round-end bars and the rounds table: the matrix columns of each seat, by number of seats
BAR_COLUMNS = (None, None, ((1, 2), (5, 6)), ((0, 1), (3, 4), (6, 7)),
               ((0, 1), (2, 3), (4, 5), (6, 7)))


def draw_pause(frame, shades, item, can_undo):
    """The icon of pause item ``item`` (resume, undo, restart, quit) and a dot per item."""
    font.draw_picture(frame, font.PAUSE_ICONS[item], 0, shades)
    if item == 1 and not can_undo:
        dim = shades.get(palette.YELLOW, 50)
        black = shades.get(0)
        for i in range(48):
            if frame[i] is not black:
                frame[i] = dim
    for i in range(4):
        frame[56 + 1 + 2 * i] = shades.get(palette.WHITE, 255 if i == item else 50)


def pour_ms(scores):
    """How long the round end takes to show the final board and fill the bars."""
    best = 0
    for score in scores:
        if score > best:
            best = score
    return FINAL_MS + best * POUR_MS


def draw_bars(frame, shades, game, scores, winners, t):
    """The final board for ``FINAL_MS``; then balls poured into one bar per seat (a seat's two
    colours stacked), the tallest bar the full height; once full, the winners' bars blink
    between full and dim (never off, so every bar stays readable)."""
    if t < FINAL_MS:
        board = game.board
        size = game.size
        off = (8 - size) // 2
        for cell in range(size * size):
            if board[cell]:
                frame[(cell // size + off) * 8 + cell % size + off] = shades.get(board[cell])
        return
    seats = game.seat_colours
    columns = BAR_COLUMNS[len(seats)]
    best = 1
    for score in scores:
        if score > best:
            best = score
    full = pour_ms(scores)
    counted_all = (t - FINAL_MS) // POUR_MS
    flash_off = t >= full and (t - full) // WIN_FLASH_MS % 2 == 1
    for seat in range(len(seats)):
        dim = flash_off and seat in winners
        colours = seats[seat]
        counted = scores[seat] if counted_all > scores[seat] else counted_all
        units = counted * 8 * 256 // best   # bar height in 1/256 pixels
        first_count = game.board.count(colours[0])
        for p in range(8):
            fill = units - p * 256
            if fill <= 0:
                break
            level = 255 if fill >= 256 else (fill if fill > 40 else 40)
            if dim:
                level = level * WIN_DIM // 255
            colour = colours[0]
            if len(colours) > 1 and p * best // 8 >= first_count:
                colour = colours[1]
            value = shades.get(colour, level)
            for x in columns[seat]:
                frame[(7 - p) * 8 + x] = value


def draw_table(frame, shades, match, winners, t):
    """Rounds won: a dot per round in each seat's columns (the newest blinking), and the
    rounds on row 0, the ones begun bright."""
    seats = match.seat_colours
    columns = BAR_COLUMNS[len(seats)]
    won = match.rounds_won
    for seat in range(len(seats)):
        value = shades.get(seats[seat][0])
        for p in range(won[seat] if won[seat] < 7 else 7):
            newest = p == won[seat] - 1 and seat in winners
            if newest and t // WIN_FLASH_MS % 2:
                continue
            for x in columns[seat]:
                frame[(7 - p) * 8 + x] = value
    for r in range(match.rounds if match.rounds < 8 else 8):
        frame[r] = shades.get(palette.WHITE, 255 if r < match.round else 40)


def draw_match_end(frame, shades, colours, t):
    """Rings moving outward in the match winners' colours."""
    if not colours:
        return
    shift = t // 200
    for y in range(8):
        for x in range(8):
            ring = x if x < y else y
            if 7 - x < ring:
                ring = 7 - x
            if 7 - y < ring:
                ring = 7 - y
            if (ring + shift) % 2 == 0:
                frame[y * 8 + x] = shades.get(colours[(ring + shift) // 2 % len(colours)])
