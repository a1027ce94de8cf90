"""The wiring self-test's link test (rolit_core.selftest.SelfTestScreen with ``app.link``): a
loopback jumper on one handheld, and who is on a ring of two to four, over the in-memory wires
of tests/link_wire.py."""

import pytest

from link_wire import Ring
from rolit_core import lockstep, selftest
from rolit_core.app import App
from rolit_core.events import BACK, SELECT
from rolit_core.link import Link, RING_KIND

# the protocol tests' noise (test_link.py), and half of it
NOISY = {"drop": 0.1, "dup": 0.1, "flip": 0.1, "extra": 0.05, "delay": 0.2}
HALF = {"drop": 0.05, "dup": 0.05, "flip": 0.05, "extra": 0.025, "delay": 0.1}
ROW = selftest.RING_ROW * 8 + 2  # the first of the four dots


class Handhelds:
    """``count`` apps whose links are the nodes of a ``Ring``; ``testing`` says which show the
    self-test (the others stay in the menu, their links passing frames on)."""

    def __init__(self, count, testing=None, faults=None, seed=1, nodes=None):
        self.ring = Ring(count, seed=seed, faults=faults,
                         links=[Link(None if nodes is None else nodes[i]) for i in range(count)])
        self.apps = []
        for index in range(count):
            app = App(seed=10 + index)
            app.link = self.ring.links[index]
            self.apps.append(app)
        self.frames = [None] * count
        self.step()
        for index in range(count) if testing is None else testing:
            self.apps[index].show_once("SelfTestScreen")
        self.run(selftest.SELFTEST_KEYS_AT + 20)  # to the key test, where the dots are

    def step(self, events=()):
        self.ring.step(10)
        for index, app in enumerate(self.apps):
            self.frames[index] = tuple(app.update(self.ring.now, list(events)))

    def run(self, ms):
        for _ in range(ms // 10):
            self.step()

    def dots(self, index):
        return self.frames[index][ROW:ROW + 4]


def cyan(count):
    return (selftest.RING_ON,) * count + (selftest._ST_OUTLINE,) * (4 - count)


def test_a_loopback_jumper_shows_one_handheld_on_the_ring():
    alone = Handhelds(1)  # a ring of one: the handheld's TX wired to its own RX
    assert alone.apps[0].mode == "selftest"
    assert alone.dots(0) == cyan(1)
    assert alone.apps[0].screen.ring()[0] == 1


def test_nothing_heard_is_four_red_dots():
    alone = Handhelds(1)
    alone.ring.cut(0)
    alone.run(selftest.RING_FRESH_MS + 2 * selftest.RING_PROBE_MS)
    assert alone.dots(0) == (selftest.RING_NONE,) * 4
    assert alone.apps[0].screen.ring() == (0, 0)
    alone.ring.cut(0, False)  # the jumper back in
    alone.run(2 * selftest.RING_PROBE_MS)
    assert alone.dots(0) == cyan(1)


@pytest.mark.parametrize("count", [2, 3, 4])
@pytest.mark.parametrize("faults, share", [(None, 1), (HALF, 0.9), (NOISY, 0.6)],
                         ids=["clean", "noisy", "very-noisy"])
def test_every_handheld_shows_how_many_are_on_the_ring(count, faults, share):
    # a probe round a ring of four under the protocol tests' noise arrives whole about one
    # time in three: the count shows most of the time, and a wrong count never
    ring = Handhelds(count, faults=faults, seed=count)
    seen = [[] for _ in range(count)]
    for _ in range(200):  # 2 s of the key test
        ring.step()
        for index in range(count):
            seen[index].append(ring.dots(index))
    for index in range(count):
        shown = seen[index]
        assert shown.count(cyan(count)) >= share * len(shown), (index, set(shown))
        assert not [dots for dots in shown if selftest.RING_ON in dots and dots != cyan(count)]


def test_handhelds_in_the_menu_are_counted_too():
    # one handheld runs the test; the other three only pass its probes on
    ring = Handhelds(4, testing=[2])
    assert [app.mode for app in ring.apps] == ["menu", "menu", "selftest", "menu"]
    assert ring.dots(2) == cyan(4)
    assert ring.frames[0][ROW:ROW + 4] != cyan(4)  # the menu shows its own page


def test_an_open_ring_shows_who_is_heard_upstream_in_orange():
    ring = Handhelds(3)
    ring.ring.cut(2)  # the cable from the third handheld's TX back to the first one's RX
    ring.run(selftest.RING_FRESH_MS + 2 * selftest.RING_PROBE_MS)
    outline = selftest._ST_OUTLINE
    assert ring.dots(0) == (selftest.RING_NONE,) * 4                        # hears nobody
    assert ring.dots(1) == (selftest.RING_OPEN, outline, outline, outline)  # the first, 1 upstream
    assert ring.dots(2) == (selftest.RING_OPEN, selftest.RING_OPEN, outline, outline)
    ring.ring.cut(2, False)  # plugged back
    ring.run(2 * selftest.RING_PROBE_MS)
    assert [ring.dots(index) for index in range(3)] == [cyan(3)] * 3


def test_the_link_gets_its_node_back_when_the_test_ends():
    ring = Handhelds(2, nodes=[0, None])
    host, guest = ring.apps
    assert host.link.node is None and guest.link.node is None  # in the test: no number
    assert ring.dots(0) == cyan(2) == ring.dots(1)  # a host's number would not pass probes on
    ring.step([(BACK, True)])
    ring.run(selftest.SELFTEST_EXIT_MS + 20)
    assert host.mode == "menu" and host.link.node == 0
    assert guest.mode == "menu" and guest.link.node is None


def test_an_app_without_a_link_draws_the_self_test_as_before():
    def frames(app):
        frames = []
        app.update(0, [])
        app.show_once("SelfTestScreen")
        for now in range(10, selftest.SELFTEST_KEYS_AT + 600, 10):
            frames.append(tuple(app.update(now, [(SELECT, True)] if now == 4500 else [])))
        return frames

    plain = App(seed=3)
    assert plain.link is None
    unlinked = App(seed=3)
    del unlinked.link  # an app of a program that never heard of links
    assert frames(plain) == frames(unlinked)
    linked = App(seed=3, link=Link())  # a link with no cable: nothing comes back
    shown = frames(linked)
    assert shown[-1][ROW:ROW + 4] == (selftest.RING_NONE,) * 4
    assert shown[-1][:ROW] == frames(App(seed=3))[-1][:ROW]  # the key test is as it was


def test_the_probe_is_a_kind_of_its_own():
    kinds = [value for name, value in vars(lockstep).items()
             if name.isupper() and name in ("HELLO", "JOIN", "SEAT", "STATE", "MOVE", "TRY", "NO",
                                            "BEAT", "RESYNC", "NEXT", "BYE")]
    assert len(kinds) == 11 and RING_KIND not in kinds and 0 < RING_KIND < 32


def test_probes_of_another_self_test_never_count_as_ours():
    # two handhelds crossed, both testing: each hears the other's probe once round (distance
    # 1) and its own after two
    ring = Handhelds(2)
    for index in range(2):
        size, heard = ring.apps[index].screen.ring()
        assert size == 2 and heard & 1


RING_ON_MICROPYTHON = r"""
import sys
sys.path.insert(0, "tests")
from link_wire import Ring
from rolit_core.app import App
from rolit_core.link import Link
from rolit_core.selftest import SELFTEST_KEYS_AT

ring = Ring(3, seed=5, faults={"drop": 0.05, "flip": 0.05, "delay": 0.1})
apps = []
for index in range(3):
    app = App(seed=20 + index)
    app.link = ring.links[index]
    app.update(0, [])
    app.show_once("SelfTestScreen")
    apps.append(app)
for step in range(1, 800):
    ring.step(10)
    frames = [app.update(ring.now, []) for app in apps]
    if step * 10 >= SELFTEST_KEYS_AT and step % 50 == 0:
        print(step, [app.screen.ring() for app in apps], frames[0][42:46])
    if step == 550:
        ring.cut(1)
"""


@pytest.mark.micropython
def test_the_link_test_is_the_same_under_micropython():
    import os
    import subprocess
    import sys

    from micropython import run_micropython

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    here = subprocess.run([sys.executable, "-c", RING_ON_MICROPYTHON], cwd=root,
                          capture_output=True, text=True, check=True).stdout
    there = run_micropython(RING_ON_MICROPYTHON, files=("tests/link_wire.py",))
    lines = here.splitlines()
    assert "[(3, 3), (3, 11), (3, 11)]" in lines[0]  # a ring of three
    assert "[(0, 1), (0, 3), (0, 0)]" in lines[-1]   # cut after the second handheld
    assert there == here
