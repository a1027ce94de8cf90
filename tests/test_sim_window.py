"""The simulator window under SDL's dummy video driver: keys, mouse and pad in, LED pixels out."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

from rolit_core.app import App  # noqa: E402
from sim.device import Device  # noqa: E402
from sim.window import UNLIT, Renderer, Window  # noqa: E402

FRAME_MS = 16


def expected_screen(value, gamma=2.2):
    """What a channel of the App's frame looks like on screen, computed independently of the
    simulator: the driver's gamma (at least 1 for a lit value), then the sRGB encoding of that
    linear LED light."""
    if value == 0:
        return 0
    wire = max(1, int(255 * (value / 255) ** gamma + 0.5))
    light = wire / 255
    encoded = 12.92 * light if light <= 0.0031308 else 1.055 * light ** (1 / 2.4) - 0.055
    return int(encoded * 255 + 0.5)


def check_leds(window, frame):
    renderer = window.renderer
    for index in range(64):
        x, y = index % 8, index // 8
        got = tuple(window.surface.get_at(renderer.centre(x, y)))[:3]
        want = tuple([min(255, UNLIT[c] + expected_screen(frame[index][c])) for c in range(3)])
        assert max([abs(got[c] - want[c]) for c in range(3)]) <= 1, (x, y, got, want)


@pytest.fixture
def sim():
    app = App(seed=7)
    app.start(seats=("human", "human"), first="red")
    device = Device(app, {"brightness": 100, "max_current_ma": 20000})
    window = Window(device, size=(720, 480))
    clock = [0]

    def step(ms=0, events=()):
        """Post ``events`` and run frames for ``ms`` (one frame when 0)."""
        for event in events:
            pygame.event.post(event)
        end = clock[0] + ms
        while True:
            window.step(clock[0])
            clock[0] += FRAME_MS
            if clock[0] > end:
                break

    yield app, device, window, step
    window.close()


def key(kind, code):
    return pygame.event.Event(kind, key=code, mod=0, scancode=0, unicode="")


def led_point(window, x, y):
    return window.renderer.centre(x, y)


def test_led_centres_show_the_apps_frame(sim):
    app, device, window, step = sim
    for _ in range(20):
        step(37)
        check_leds(window, device.frame)
    # The start position is on the panel: d5 blue, e5 green (under the App's palette).
    assert device.frame[4 * 8 + 3] == tuple(app.frame[4 * 8 + 3])
    assert device.frame[4 * 8 + 3][2] > device.frame[4 * 8 + 3][0]


def test_keys_move_the_cursor_and_select_places(sim):
    app, device, window, step = sim
    step()
    x, y = app.cursor % 8, app.cursor // 8
    target = 43  # d6: red captures d5 (d4 is red)
    moves = [(pygame.K_LEFT, x - 3)] if x > 3 else [(pygame.K_RIGHT, 3 - x)]
    moves += [(pygame.K_s, 5 - y)] if y < 5 else [(pygame.K_UP, y - 5)]
    for code, count in moves:
        for _ in range(count):
            step(events=[key(pygame.KEYDOWN, code)])
            step(events=[key(pygame.KEYUP, code)])
    assert app.cursor == target
    step(events=[key(pygame.KEYDOWN, pygame.K_RETURN)])
    assert app.game.board.moves == []  # held SELECT previews, nothing is played yet
    step(events=[key(pygame.KEYUP, pygame.K_RETURN)])
    assert [cell for cell, _ in app.game.board.moves] == [target]
    step(1500)
    check_leds(window, device.frame)
    red = device.frame[target]
    assert red[0] > 0 and red[1] == 0 and device.frame[4 * 8 + 3] == red  # d5 turned red


def test_holding_a_direction_repeats_and_release_stops_it(sim):
    app, device, window, step = sim
    step()
    step(1000, events=[key(pygame.KEYDOWN, pygame.K_DOWN)])
    held_rows = (app.cursor // 8 - 3) % 8
    assert held_rows >= 4  # one press, then repeats every 150 ms after 400 ms
    step(events=[key(pygame.KEYUP, pygame.K_DOWN)])
    after = app.cursor
    step(1000)
    assert app.cursor == after


def test_focus_loss_releases_held_keys(sim):
    app, device, window, step = sim
    step(events=[key(pygame.KEYDOWN, pygame.K_LEFT)])
    step(events=[pygame.event.Event(pygame.WINDOWFOCUSLOST)])
    where = app.cursor
    step(1200)
    assert app.cursor == where


def test_mouse_click_walks_the_cursor_and_plays(sim):
    app, device, window, step = sim
    step()
    legal = app.game.legal_moves()
    target = legal[-1]
    point = led_point(window, target % 8, target // 8)
    step(events=[pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=point, button=1)])
    assert app.cursor == target and app.game.board.moves == []
    step(events=[pygame.event.Event(pygame.MOUSEBUTTONUP, pos=point, button=1)])
    assert [cell for cell, _ in app.game.board.moves] == [target]
    step(1500)
    check_leds(window, device.frame)
    assert device.frame[target][0] > 0  # red ball at the clicked cell


def test_click_on_an_occupied_cell_is_refused(sim):
    app, device, window, step = sim
    step()
    point = led_point(window, 4, 4)  # e5, green
    step(events=[pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=point, button=1)])
    assert "illegal" in app.cues
    step(events=[pygame.event.Event(pygame.MOUSEBUTTONUP, pos=point, button=1)])
    assert app.game.board.moves == []


def test_game_controller_hat_and_buttons(sim):
    app, device, window, step = sim
    step()
    start = app.cursor
    hat = pygame.JOYHATMOTION
    step(events=[pygame.event.Event(hat, joy=0, instance_id=0, hat=0, value=(1, 0))])
    step(events=[pygame.event.Event(hat, joy=0, instance_id=0, hat=0, value=(0, 0))])
    step(events=[pygame.event.Event(hat, joy=0, instance_id=0, hat=0, value=(0, 1))])
    step(events=[pygame.event.Event(hat, joy=0, instance_id=0, hat=0, value=(0, 0))])
    assert app.cursor == start + 1 - 8  # right, then up
    legal = start + 1 - 8 in app.game.legal_moves()
    step(events=[pygame.event.Event(pygame.JOYBUTTONDOWN, joy=0, instance_id=0, button=0)])
    step(events=[pygame.event.Event(pygame.JOYBUTTONUP, joy=0, instance_id=0, button=0)])
    assert len(app.game.board.moves) == (1 if legal else 0)


@pytest.mark.parametrize("size", [(120, 120), (400, 900), (2560, 1440)])
def test_renderer_scales_to_any_size(size):
    renderer = Renderer()
    surface = pygame.Surface(size)
    colours = [((i * 37) % 256, (i * 91) % 256, (i * 13) % 256) for i in range(64)]
    renderer.draw(surface, colours, {"size": 8, "seats": ()})
    board = renderer.board
    assert board.right <= size[0] and board.bottom <= size[1]
    for index in range(64):
        x, y = index % 8, index // 8
        centre = renderer.centre(x, y)
        assert renderer.led_at(centre) == (x, y)
        want = tuple([min(255, UNLIT[c] + colours[index][c]) for c in range(3)])
        assert tuple(surface.get_at(centre))[:3] == want


def test_side_panel_follows_the_menu():
    from rolit_core.app import DOWN, RIGHT
    from sim.device import describe
    app = App(seed=1)
    for now in range(0, 3000, 20):  # past the title
        app.update(now, [])
    assert app.mode == "menu"
    assert describe(app)["status"][0] == "Menu: start the game (select)"
    app.update(3020, [(DOWN, True), (DOWN, False)])
    app.update(3040, [(RIGHT, True), (RIGHT, False)])
    assert describe(app)["status"][0] == "Menu: players 3"


def test_a_status_line_wider_than_the_side_panel_wraps_onto_more_lines():
    # An emulated chip's console lines are long; cut at the window's edge they lost their ends.
    pygame.font.init()
    renderer = Renderer()
    surface = pygame.Surface((720, 480))
    colours = [(0, 0, 0)] * 64

    def lit_rows(status):
        surface.fill((0, 0, 0))
        renderer.draw(surface, colours, {"size": 8, "seats": (), "title": "T",
                                         "status": (status,)})
        side = renderer.side
        background = surface.get_at((side.right - 1, side.bottom - 1))
        rows = [y for y in range(side.top, side.bottom)
                if any(surface.get_at((x, y)) != background
                       for x in range(side.left, side.right, 2))]
        return len(rows)

    one = lit_rows("word")
    many = lit_rows(" ".join(["word"] * 40))
    assert many - one >= renderer.line_height(10) // 2
