"""The simulator window for a newcomer, under SDL's dummy video driver: a click made while a move
is still shown is played once the App takes input (or refused in words), and the first game's
how-to-play, shown once and remembered next to the save."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

from rolit_core.app import App  # noqa: E402
from sim.device import Device  # noqa: E402
from sim.window import HOWTO_FILE, Window, remember  # noqa: E402

FRAME_MS = 16


class Sim:
    def __init__(self, app, **options):
        self.app = app
        self.device = Device(app, {"brightness": 100, "max_current_ma": 20000})
        self.window = Window(self.device, size=(720, 480), **options)
        self.now = 0
        self.step()  # the first picture: the layout the clicks need

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.window.close()

    def step(self, ms=0, events=()):
        """Post ``events`` and run frames for ``ms`` (one frame when 0)."""
        for event in events:
            pygame.event.post(event)
        end = self.now + ms
        while True:
            self.window.step(self.now)
            self.now += FRAME_MS
            if self.now > end:
                break

    def until(self, done, limit_ms=20000):
        end = self.now + limit_ms
        while not done():
            assert self.now < end, "never got there"
            self.step()

    def click(self, cell):
        point = self.window.renderer.centre(cell % 8, cell // 8)
        self.step(events=[pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=point, button=1)])
        self.step(events=[pygame.event.Event(pygame.MOUSEBUTTONUP, pos=point, button=1)])

    def key(self, code):
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            self.step(events=[pygame.event.Event(kind, key=code, mod=0, scancode=0, unicode="")])

    def side_text(self):
        return self.window.describe(self.app)


@pytest.fixture
def against_easy():
    app = App(seed=7)
    app.start(seats=("human", "easy"), first="red")
    with Sim(app) as sim:
        yield sim


def test_a_click_while_the_computers_move_is_shown_is_played_after_it(against_easy):
    sim = against_easy
    app = sim.app
    game = app.game
    sim.step()
    sim.click(game.legal_moves()[0])
    sim.until(lambda: len(game.board.moves) == 2 and app.phase == "animate")
    target = game.legal_moves()[-1]
    sim.click(target)
    assert app.phase == "animate" and len(game.board.moves) == 2  # not yet: kept
    sim.until(lambda: len(game.board.moves) >= 3)
    assert game.board.moves[2] == (target, 1)


def test_a_click_while_a_computer_thinks_says_it_is_moving():
    app = App(seed=7)
    app.start(seats=("easy", "human"), first="red")
    with Sim(app) as sim:
        sim.until(lambda: app.phase == "think")
        sim.click(0)
        assert sim.window.notice == "Red is moving…"
        sim.until(lambda: app.phase == "input")
        assert [cell for cell, _ in app.game.board.moves] != [0]
        sim.step(4000)
        assert sim.window.notice is None  # the notice goes after a while


def test_the_first_window_shows_the_howto_once_and_remembers_it(tmp_path):
    seen = tmp_path / HOWTO_FILE
    app = App(seed=3)
    with Sim(app, howto=str(seen)) as sim:
        assert sim.window.howto == 0 and not seen.exists()
        pixels = pygame.surfarray.array3d(sim.window.surface)
        assert pixels.shape[0] == 720 and pixels.max() > 100  # words and pictures are drawn
        sim.key(pygame.K_RETURN)  # page 2
        sim.key(pygame.K_LEFT)  # back to page 1
        assert sim.window.howto == 0
        for _ in range(2):
            sim.key(pygame.K_RIGHT)
        assert sim.window.howto == 2 and app.mode == "title"  # the game waits behind it
        sim.key(pygame.K_RETURN)  # the last page: play with hints
        assert sim.window.howto is None
        assert seen.read_bytes().startswith(b"Rolit Handheld: the how-to-play was shown")
        assert app.settings.hints and "Hints are on" in sim.window.notice
        sim.key(pygame.K_RETURN)  # now keys reach the game: title -> menu
        assert app.mode == "menu"
    with Sim(App(seed=3), howto=str(seen)) as again:
        assert again.window.howto is None  # shown once


def test_skipping_the_howto_leaves_hints_off_and_a_foreign_file_is_never_written(tmp_path):
    seen = tmp_path / HOWTO_FILE
    app = App(seed=3)
    with Sim(app, howto=str(seen)) as sim:
        sim.key(pygame.K_ESCAPE)
        assert sim.window.howto is None and not app.settings.hints
        assert seen.exists() and not (tmp_path / (HOWTO_FILE + ".tmp")).exists()
    seen.write_text("someone's notes")
    assert remember(str(seen)) == ""
    assert seen.read_text() == "someone's notes"


def test_a_howto_that_cannot_be_remembered_says_so(tmp_path):
    with Sim(App(seed=3), howto=str(tmp_path / "gone" / HOWTO_FILE)) as sim:
        sim.key(pygame.K_ESCAPE)
        assert sim.window.howto is None
        assert sim.window.notice.startswith("Could not remember that the how-to was shown")


def test_the_howto_pictures_are_the_rules(tmp_path):
    """Each picture is the rules code's own position: the move turns what the text says."""
    from rolit_core import Game
    from sim import howto

    pages = howto.pages()
    assert len(pages) == 3
    green, red = (0, 255, 0), (255, 0, 0)
    first = pages[0]
    d4 = 3 * 8 + 3
    assert first["before"][d4] == red and first["after"][d4] == green
    start = Game(players=2, first="red")
    hinted = [cell for cell in range(64) if pages[1]["before"][cell] == howto.HINT]
    assert sorted(hinted) == sorted(start.legal_moves())
    c4 = 3 * 8 + 2
    assert pages[2]["after"][c4] == red and "closing" in pages[2]
