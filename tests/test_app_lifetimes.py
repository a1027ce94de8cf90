"""Screens loaded only while shown leave nothing behind once another screen takes their place:
no object of theirs, so none of their code, stays alive during a round (on a board that is
heap; here the collector's word for it is a dead weak reference)."""

import gc
import sys
import weakref

import pytest

from rolit_core import app as appmod
from rolit_core.app import BACK, DOWN, SELECT
from test_app_support import Driver

SEEN_SELDOM = ("rolit_core.rounds", "rolit_core.screens", "rolit_core.font",
               "rolit_core.menu_screen", "rolit_core.menu_draw", "rolit_core.shows",
               "rolit_core.selftest", "rolit_core.attract", "rolit_core.starting")


@pytest.fixture(autouse=True)
def seldom_seen_unloaded():
    """Each test starts with those modules unloaded, as a board starts, whatever other test
    files imported to test them; afterwards each is as it was before the test."""
    import rolit_core

    def take(name):
        short = name.split(".")[1]
        found = (sys.modules.pop(name, None), getattr(rolit_core, short, None))
        if hasattr(rolit_core, short):
            delattr(rolit_core, short)
        return found

    saved = dict((name, take(name)) for name in SEEN_SELDOM)
    yield
    for name, (module, attribute) in saved.items():
        take(name)
        if module is not None:
            sys.modules[name] = module
        if attribute is not None:
            setattr(rolit_core, name.split(".")[1], attribute)


def code_of(screen):
    """Weak references to the screen's class and to the modules it draws with (those its
    module imported, and the menu's drawing)."""
    kind = type(screen)
    refs = [weakref.ref(kind)]
    names = kind.draw.__globals__ if "draw" in vars(kind) else kind.press.__globals__
    modules = [names.get("screens"), getattr(screen, "drawing", None)]
    modules = [module for module in modules if module is not None]
    modules += [vars(module)["font"] for module in modules]  # the pictures' font
    return refs + [weakref.ref(module) for module in modules]


def gone(refs):
    gc.collect()
    return [ref for ref in refs if ref() is not None] == []


def in_play(d):
    assert d.app.mode == "play"
    loaded = [name for name in SEEN_SELDOM if name in sys.modules]
    assert loaded == [], "loaded during a round: %s" % loaded
    # Nor held by a module that stays: one of them, or a name imported from one.
    for name, module in list(sys.modules.items()):
        if name.startswith("rolit_core") and module is not None:
            for key, value in vars(module).items():
                source = getattr(value, "__name__", None) if type(value) is type(sys) else \
                    getattr(value, "__module__", None)
                assert source not in SEEN_SELDOM, "%s.%s holds %s" % (name, key, source)


def test_the_pause_menu_leaves_nothing_once_the_round_goes_on():
    d = Driver(seed=2)
    d.start(seats=("human", "human"), first="red")
    in_play(d)
    d.press(BACK)
    d.wait(appmod.HOLD_MS)
    d.release(BACK)
    assert d.app.mode == "pause"
    refs = code_of(d.app.screen)
    assert len(refs) == 3  # the class, rolit_core.screens and rolit_core.font
    d.tap(BACK)  # resume
    in_play(d)
    assert gone(refs)


def test_the_round_end_and_rounds_table_live_until_the_next_round():
    d = Driver(seed=4)
    d.start(seats=("hard", "hard"), size=4, rounds=2)
    d.wait_until(lambda: d.app.mode == "round_end")
    refs = code_of(d.app.screen)
    d.wait_until(lambda: d.app.round_end.pour_done)
    winners = d.app.round_end.winners
    d.tap(SELECT)
    assert d.app.mode == "table" and d.app.round_end.winners == winners
    assert not gone(refs)  # the table reads the round end's winners
    d.tap(SELECT)  # the second round
    in_play(d)
    assert gone(refs)


def test_the_menu_leaves_nothing_during_a_game_and_opens_again_on_its_last_page():
    d = Driver(seed=1)
    d.wait_until(lambda: d.app.mode == "menu", 5000)
    d.tap(DOWN)
    d.tap(DOWN)
    page = d.app.page
    refs = code_of(d.app.screen)
    assert len(refs) == 3  # the class, its drawing (rolit_core.menu_draw) and the font
    d.start(seats=("human", "human"))
    in_play(d)
    assert gone(refs)
    d.app.quit()
    d.tick()
    assert d.app.mode == "menu" and d.app.page == page


def test_the_attract_mode_plays_each_game_without_the_last_ones_round_end():
    # The attract mode shows its board and round end itself, game after game: each game is
    # played as a round is, with none of the between-moves screens' code loaded.
    d = Driver(seed=3)
    d.wait_until(lambda: d.app.mode == "attract", appmod.IDLE_MS + 10000)
    attract = d.app.screen
    # (asked by name: app.round_end would load those screens)
    d.wait_until(lambda: attract.inner.name == "round_end", 600000)
    refs = code_of(attract.inner)
    play = d.app.play
    d.wait_until(lambda: attract.inner is play and len(play.game.board.moves) > 2, 60000)
    assert d.app.mode == "attract"
    loaded = [name for name in ("rolit_core.rounds", "rolit_core.screens", "rolit_core.font")
              if name in sys.modules]
    assert loaded == [], "loaded during the next attract game: %s" % loaded
    assert gone(refs)
