"""What the device-memory work changed in the app, checked on CPython: the shade cache stays
small and never loses its black."""

from rolit_core import palette
from rolit_core.app import App
from rolit_core.play import RING


def test_the_shade_cache_stays_small_while_a_computer_breathes():
    app = App(seed=3)
    app.start(seats=("hard", "hard", "hard", "hard"))
    now = 0
    largest = 0
    while app.game is not None and len(app.game.board.moves) < 12:
        now += 20
        app.update(now, [])
        largest = max(largest, len(app.shades._cache))
    assert largest <= palette.CACHE_SIZE


def test_the_cache_keeps_its_black_when_it_starts_again():
    shades = palette.Shades()
    black = shades.get(0)
    for level in range(200):
        shades.get(palette.RED, level)
    assert shades.get(0) is black


def test_a_thinking_frame_shows_the_comet_when_the_cache_starts_again_mid_frame():
    # The frame is cleared with the cached black; the comet is drawn only on pixels that are
    # still that very object. A cache emptied by the breathing ball's new shade used to hand
    # the comet a new black, and the comet vanished for that frame.
    app = App(seed=3)
    app.start(seats=("hard", "hard"), first="red")
    app.update(0, [])
    assert app.phase == "think"
    black = app.shades.get(0)
    junk = {255: black}
    for key in range(1000, 1200):
        junk[key] = (1, 2, 3)
    app.shades._cache = junk  # full: the next new shade starts the cache again
    frame = app.update(60, [])
    head = 60 // 60 % 28
    assert frame[RING[head]] == app.shades.get(app.game.turn)
