"""What the window and the terminal say beside the panel: whose turn, why a move was refused,
what Enter and Esc do next, the pause menu in words; and how the window's text and yellow look."""

import colorsys
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

from rolit_core.app import BACK, DOWN, RIGHT, SELECT, App  # noqa: E402
from rolit_core.board import YELLOW  # noqa: E402
from rolit_core.palette import NORMAL  # noqa: E402
from rolit_core.screens import pour_ms  # noqa: E402
from sim import terminal, window  # noqa: E402
from sim.device import Device, describe  # noqa: E402
from sim.window import BACKGROUND, NOTICE, SEAT_RGB, Renderer  # noqa: E402

pygame.font.init()


def run(app, start, ms, events=()):
    """``app.update`` every 20 ms from ``start`` for ``ms``; returns the time reached."""
    now = start
    app.update(now, list(events))
    while now < start + ms:
        now += 20
        app.update(now, [])
    return now


def tap(app, now, key):
    app.update(now, [(key, True)])
    app.update(now + 20, [(key, False)])
    return now + 40


def side_of(info, size=(1280, 500)):
    renderer = Renderer()
    surface = pygame.Surface(size)
    renderer.draw(surface, [(0, 0, 0)] * 64, info)
    return surface, renderer.side, renderer


def rows_with(surface, rect, colour):
    return sorted(set([y for y in range(rect.top, rect.bottom)
                       for x in range(rect.left, rect.right)
                       if tuple(surface.get_at((x, y)))[:3] == colour]))


def ink_columns(surface, rect, y0, y1):
    return [x for x in range(rect.left, rect.right)
            if any([tuple(surface.get_at((x, y)))[:3] != BACKGROUND for y in range(y0, y1)])]


# -- whose turn -------------------------------------------------------------------------------

def test_the_side_to_move_is_marked_right_by_its_name():
    info = {"title": "Rolit", "status": ("Board 8x8, move 3",),
            "seats": [((1,), "Red (human)", 2, True), ((3,), "Green (easy)", 3, False)]}
    surface, side, renderer = side_of(info)
    red, green = rows_with(surface, side, SEAT_RGB[1]), rows_with(surface, side, SEAT_RGB[3])
    red_row, green_row = red[len(red) // 2], green[len(green) // 2]
    # a band of its own behind the mover's row, starting at the panel's left edge
    assert tuple(surface.get_at((side.left + 1, red_row)))[:3] != BACKGROUND
    assert tuple(surface.get_at((side.left + 1, green_row)))[:3] == BACKGROUND
    # everything of the mover's row (marker, dot, name, "to move") sits together on the left:
    # no gap wider than a few letters, nothing out at the far side of the panel
    half = renderer.line_height(20) // 2
    columns = ink_columns(surface, side, red_row - half, red_row + half)
    gaps = [b - a for a, b in zip(columns, columns[1:])]
    assert max(gaps) < 40 and columns[-1] < side.left + side.width * 0.6
    # and the mover's row reaches further than the other one: the "to move" words
    others = ink_columns(surface, side, green_row - half, green_row + half)
    assert columns[-1] > others[-1] + 40


# -- why a move was refused -------------------------------------------------------------------------

def started(seats=("human", "human")):
    app = App(seed=2)
    app.start(seats=seats, first="red")
    app.update(0, [])
    return app


def test_the_reason_for_a_refused_move_is_shown_in_the_window_and_the_terminal():
    app = started()
    assert app.move_cursor(0)  # a1: touches no ball
    app.update(20, [(SELECT, True), (SELECT, False)])
    info = describe(app)
    assert info["notice"] == "Not allowed: a1 does not touch a ball"
    surface, side, _ = side_of(info)
    drawn = [tuple(surface.get_at((x, y)))[:3] for y in range(side.top, side.bottom, 2)
             for x in range(side.left, side.right, 2)]
    assert any([max([abs(c[i] - NOTICE[i]) for i in range(3)]) < 40 for c in drawn])
    screen = terminal.render([(0, 0, 0)] * 64, info)
    assert "Not allowed: a1 does not touch a ball" in screen
    app.update(40, [(RIGHT, True), (RIGHT, False)])
    assert "notice" not in describe(app)


# -- what Enter and Esc do now ----------------------------------------------------------------------

def test_round_end_says_what_enter_and_esc_do():
    app = started()
    now = 20
    while app.mode == "play":
        assert app.move_cursor(app.game.legal_moves()[0])
        now = tap(app, now, SELECT)
        now = run(app, now, 1500)
    assert app.mode == "round_end"
    assert describe(app)["prompt"] == "Enter: show the score"
    now = run(app, now, pour_ms(app.game.scores()) + 100)
    prompt = describe(app)["prompt"]
    assert prompt == "Enter: play again   Esc: menu"
    assert prompt in terminal.render([(0, 0, 0)] * 64, describe(app))
    now = tap(app, now, BACK)
    assert app.mode == "menu"


def test_a_match_says_what_comes_next_between_rounds():
    app = App(seed=3)
    app.start(seats=("human", "human"), size=4, rounds=2, first="red")
    now = 0
    while app.mode == "play":
        assert app.move_cursor(app.game.legal_moves()[0])
        now = tap(app, now, SELECT)
        now = run(app, now, 1500)
    now = tap(app, now, SELECT)  # skip the count
    assert describe(app)["prompt"] == "Enter: next (rounds won)   Esc: menu"
    now = tap(app, now, SELECT)
    assert app.mode == "table"
    assert describe(app)["prompt"] == "Enter: next round   Esc: menu"


def test_the_pause_menu_names_its_items():
    app = started()
    now = run(app, 20, 800, [(BACK, True)])
    app.update(now, [(BACK, False)])
    assert app.mode == "pause"
    info = describe(app)
    assert info["menu"] == (["Resume", "Undo", "Restart round", "Quit to menu"], 0)
    tap(app, now + 20, DOWN)
    assert describe(app)["menu"][1] == 1
    screen = terminal.render([(0, 0, 0)] * 64, describe(app))
    assert "[Undo]" in screen and " Resume " in screen and " Quit to menu " in screen


# -- how the window looks ---------------------------------------------------------------------------

def glyph_offset(renderer, words, pixels):
    """How far, on average, the ink of ``words`` as the renderer draws it lies from where the
    font puts it (rendered 12 times larger and scaled down): uneven letter spacing moves ink."""
    def profile(surface):
        width, height = surface.get_size()
        flat = pygame.Surface((width, height))
        flat.fill((0, 0, 0))
        flat.blit(surface, (0, 0))
        return [sum([flat.get_at((x, y))[0] for y in range(height)]) for x in range(width)]

    ours = profile(renderer.text(pixels, words, (255, 255, 255)))
    big = pygame.font.Font(None, int(pixels) * 12).render(words, True, (255, 255, 255))
    ideal = profile(pygame.transform.smoothscale(
        big, (round(big.get_width() / 12), round(big.get_height() / 12))))
    width = max(len(ours), len(ideal))
    ours += [0] * (width - len(ours))
    ideal += [0] * (width - len(ideal))
    total_a, total_b = float(sum(ours)), float(sum(ideal))
    a = b = moved = 0.0
    for x in range(width):
        a += ours[x] / total_a
        b += ideal[x] / total_b
        moved += abs(a - b)
    return moved


def test_side_panel_letters_are_evenly_spaced():
    renderer = Renderer()
    offsets = [glyph_offset(renderer, words, pixels)
               for words in ("Rolit", "start the game", "Red (human)  12",
                             "select (hold: preview)")
               for pixels in (14, 18, 22, 26, 30)]
    # A font drawn at its final size snaps each letter to whole pixels ("Rol it", "st art"):
    # its ink lies 2 px off on average here. Drawn large and scaled down: under half a pixel.
    assert sum(offsets) / len(offsets) < 0.6


def hue(rgb):
    return colorsys.rgb_to_hsv(*[c / 255.0 for c in rgb])[0] * 360


def test_yellow_looks_yellow_not_orange():
    app = App(seed=1)
    device = Device(app, {"brightness": 100, "max_current_ma": 20000})
    frame = [(0, 0, 0)] * 64
    frame[0] = NORMAL[YELLOW]
    device.show(frame)
    shown = device.colours[0]
    # orange is about 30 degrees, yellow 60: the LED on screen and the seat's dot are yellow
    assert 48 <= hue(shown) <= 62, shown
    assert 48 <= hue(SEAT_RGB[YELLOW]) <= 62


# -- a display that cannot be reached --------------------------------------------------------------

def test_an_invisible_video_driver_that_was_not_asked_for_is_refused():
    pygame.display.init()
    assert pygame.display.get_driver() == "dummy"
    with pytest.raises(window.WindowUnavailable) as refused:
        window.open_display({"DISPLAY": ":55"})
    assert "DISPLAY=:55 cannot be reached" in str(refused.value)
    assert window.open_display({"SDL_VIDEODRIVER": "dummy"}) == "dummy"  # asked for: fine
