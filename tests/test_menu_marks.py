"""The menu's yes/no pages show a red cross for "no" and a green tick for "yes", in both
palettes, and the two marks stay apart under simulated red-green colour blindness."""

import pytest

from rolit_core import menu, menu_draw, menu_screen, palette
from rolit_core.app import DOWN, RIGHT
from test_app_palette import (DEUTERANOPIA, IDENTITY, PROTANOPIA, ciede2000, lab,
                              simulate)
from test_app_support import Driver

BLACK = (0, 0, 0)
CLEARLY_APART = 20.0  # CIEDE2000, as for the ball colours

# The cells of each mark on the value rows 3-7, read off the pictures.
CROSS_CELLS = [3 * 8 + i % 8 + i // 8 * 8 for i in range(40) if menu_draw.OFF[i] != "."]
TICK_CELLS = [3 * 8 + i % 8 + i // 8 * 8 for i in range(40) if menu_draw.ON[i] != "."]

# (page name, how to reach "no" from a fresh Settings, how to reach "yes")
YES_NO_PAGES = (
    ("teams", lambda s: None, lambda s: setattr(s, "teams", True)),
    ("hints", lambda s: None, lambda s: setattr(s, "hints", True)),
    ("palette", lambda s: None, lambda s: setattr(s, "colour_blind", True)),
    ("time", lambda s: None, None),  # "off" is a cross; the other values are numbers
)


def reddish(colour):
    r, g, b = colour
    return r > 2 * g and r > 2 * b


def greenish(colour):
    """Green, or the colour-blind palette's blue-ish green: no red in it to speak of."""
    r, g, b = colour
    return g > 2 * r and g >= b


def menu_frame(settings, name, colour_blind):
    shades = palette.Shades(palette.PALETTES[1 if colour_blind else 0], 255)
    page = menu.PAGE_NAMES.index(name) << 3
    assert page in menu_screen.pages_for(settings)
    frame = [BLACK] * 64
    menu_draw.draw(frame, shades, settings, page, 0)
    return frame


@pytest.mark.parametrize("colour_blind", (False, True))
@pytest.mark.parametrize("name, no, yes", YES_NO_PAGES)
def test_no_is_a_red_cross_and_yes_a_green_tick(name, no, yes, colour_blind):
    shown = palette.PALETTES[1 if colour_blind else 0]
    settings = menu.Settings()
    no(settings)
    frame = menu_frame(settings, name, colour_blind)
    value_rows = frame[24:]
    assert [c for c in range(24, 64) if frame[c] != BLACK] == CROSS_CELLS
    assert set(value_rows) == {BLACK, shown[palette.CROSS]}
    assert reddish(shown[palette.CROSS])
    if yes is not None:
        yes(settings)
        frame = menu_frame(settings, name, colour_blind)
        assert [c for c in range(24, 64) if frame[c] != BLACK] == TICK_CELLS
        assert set(frame[24:]) == {BLACK, shown[palette.TICK]}
        assert greenish(shown[palette.TICK])


def test_the_app_shows_the_cross_then_the_tick_on_the_hints_page():
    d = Driver(seed=1)
    d.wait_until(lambda: d.app.mode == "menu", 5000)
    for _ in range(20):
        if d.app.page[0] == "hints":
            break
        d.tap(DOWN)
    assert d.app.page == ("hints", 0)
    cross = d.app.shades.get(palette.CROSS)
    assert [c for c in range(24, 64) if d.frame[c] != BLACK] == CROSS_CELLS
    assert {d.frame[c] for c in CROSS_CELLS} == {cross} and reddish(cross)
    d.tap(RIGHT)
    tick = d.app.shades.get(palette.TICK)
    assert [c for c in range(24, 64) if d.frame[c] != BLACK] == TICK_CELLS
    assert {d.frame[c] for c in TICK_CELLS} == {tick} and greenish(tick)


@pytest.mark.parametrize("shown", palette.PALETTES)
def test_cross_and_tick_stay_apart_for_red_green_colour_blindness(shown):
    cross, tick = shown[palette.CROSS], shown[palette.TICK]
    for matrix in (IDENTITY, PROTANOPIA, DEUTERANOPIA):
        a, b = lab(simulate(cross, matrix)), lab(simulate(tick, matrix))
        assert ciede2000(a, b) > CLEARLY_APART
        # and apart by lightness alone, the tick the lighter, so hue is not needed
        assert b[0] - a[0] > 15
        # both stand out from the dark LEDs around them
        assert ciede2000(a, lab(simulate(BLACK, matrix))) > CLEARLY_APART


def test_the_normal_reds_and_greens_would_not_do():
    # the check bites: the ball red and green of the normal palette come closer than the
    # threshold for a deuteranope
    a = lab(simulate(palette.NORMAL[palette.RED], DEUTERANOPIA))
    b = lab(simulate(palette.NORMAL[palette.GREEN], DEUTERANOPIA))
    assert ciede2000(a, b) < CLEARLY_APART
