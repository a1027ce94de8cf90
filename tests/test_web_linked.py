"""A page in headless Chromium joins the linked game of a hosting simulator that serves it: the
hub of ``python -m sim --host`` (sim.net.NetHost, the page's files on the same port) and the
host's App run in a thread on the real clock; the page offers "Join the game on this server",
joins over ws://HOST:PORT/link, and the two play a round to the end, each seeing the same board.
A reload mid-game rejoins as the same node and the host resyncs it. Skipped like the other
browser tests without Chromium (ROLIT_BROWSER_TESTS=required makes that a failure)."""

import os
import threading
import time

import pytest

from rolit_core.app import SELECT, App
from rolit_core.link import Link
from rolit_core.rng import Random
from rolit_core.vocab import LEVELS
from sim.net import NetHost
from web import browser, build
from web_tab import ARTEFACTS, Tab, save_figures

pytestmark = pytest.mark.slow


class HostingSim:
    """The hosting simulator: its App with a link and the hub's pump, every 10 ms in a thread.
    The test acts on the App only while holding ``lock``, between two frames."""

    def __init__(self, web):
        self.hub = NetHost(0, "127.0.0.1", web=web)
        self.app = App(storage=None, seed=21, levels=LEVELS, link=Link())
        self.lock = threading.Lock()
        self.events = []
        self.start = time.monotonic()
        self.running = True
        self.failure = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def now(self):
        return int((time.monotonic() - self.start) * 1000)

    def _run(self):
        try:
            while self.running:
                with self.lock:
                    now = self.now()
                    events, self.events = self.events, []
                    self.hub.pump(self.app.link, now)
                    self.app.update(now, events)
                time.sleep(0.01)
        except Exception as error:  # the test sees it
            self.failure = error
            raise

    def tap(self, key):
        with self.lock:
            self.events.append((key, True))
        time.sleep(0.05)
        with self.lock:
            self.events.append((key, False))
        time.sleep(0.05)

    def wait(self, condition, seconds=60):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            assert self.failure is None, self.failure
            with self.lock:
                if condition(self.app):
                    return True
            time.sleep(0.02)
        return False

    def close(self):
        self.running = False
        self.thread.join(5)
        self.hub.close()


@pytest.fixture(scope="module")
def site():
    reason = browser.missing()
    if reason:
        if os.environ.get("ROLIT_BROWSER_TESTS") == "required":
            pytest.fail("the browser tests are required here, but " + reason)
        pytest.skip(reason)
    return build.build(os.path.join(ARTEFACTS, "linked-site"))


@pytest.fixture
def hosting(site):
    sim = HostingSim(site)
    yield sim
    sim.close()


@pytest.fixture(scope="module")
def chromium(site):
    with browser.launch() as instance:
        yield instance


def host_a_game(sim, size=4, players=2):
    """The host's menu: two players on 4x4 (or ``players`` on ``size``), every seat but the
    first 'link'; its lobby opens."""
    sim.tap(SELECT)  # the title gives way to the menu
    assert sim.wait(lambda app: app.mode == "menu")
    with sim.lock:
        settings = sim.app.settings
        settings.players = players
        settings.size = size
        settings.seats[0] = "human"
        for seat in range(1, players):
            settings.seats[seat] = "link"
        settings.fix()
        sim.app.begin_linked()  # the play page's SELECT (tests/test_sim_linked.py uses the keys)
        assert sim.app.mode == "lobby", sim.app.error


def page_to_move(tab, seat=1):
    info = tab.info()
    game = info["game"]
    return (info["mode"] == "play" and game and game["phase"] == "input" and not game["over"]
            and game["turn"] in game["seat_colours"][seat])


LATENCY = {"host_to_page_ms": [], "page_to_host_ms": []}
REFUSED = []  # moves refused while the game paused


def play_on(sim, tabs, rng, moves=None):
    """Moves by all until the round is over (or ``moves`` more were played): the host's
    through its App (seat 1), each page's by clicks on its LEDs (``tabs``: one page, or a list
    whose n-th holds seat n + 2). Each move's time until the other end has it goes to LATENCY
    (wall clock, polled: an upper bound)."""
    if isinstance(tabs, Tab):
        tabs = [tabs]
    tab = tabs[0]
    played = 0
    end = time.monotonic() + 300
    while time.monotonic() < end:
        with sim.lock:
            app = sim.app
            game = app.game
            if app.mode == "round_end" or (game is not None and game.over):
                return played
            if moves is not None and played >= moves:
                return played
            host_turn = app.mode == "play" and app.phase == "input" and \
                game.turn in game.seat_colours[0]
            if host_turn:
                cells = game.legal_moves()
                assert app.move_cursor(cells[rng.below(len(cells))])
                sim.events.append((SELECT, True))
                count = len(game.board.moves)
        if host_turn:
            time.sleep(0.05)
            with sim.lock:
                sim.events.append((SELECT, False))
            if not sim.wait(lambda app: app.game.over or len(app.game.board.moves) > count
                            or app.play.illegal is not None, 30):
                raise AssertionError(("the host's move did not land", state(sim, tab)))
            with sim.lock:
                refused = sim.app.play.illegal if len(sim.app.game.board.moves) == count \
                    else None
            if refused is not None:
                # As a person would after "the game is paused": press again once it goes on.
                # Only a pause may refuse a legal move (a frame of the page's held back by a
                # loaded machine for LOST_MS); anything else fails here.
                assert refused == "the game is paused", (refused, state(sim, tab))
                REFUSED.append(refused)
                sim.wait(lambda app: app.link_status != "link lost", 30)
                time.sleep(0.1)
                continue
            made = time.monotonic()
            for each in tabs:
                each.wait_for("([n]) => window.rolit.info().game.moves.length > n", 30000,
                              [count])
            LATENCY["host_to_page_ms"].append((time.monotonic() - made) * 1000)
            played += 1
            continue
        movers = [each for seat, each in enumerate(tabs, 1) if page_to_move(each, seat)]
        if movers:
            tab = movers[0]
            with sim.lock:
                game = sim.app.game
                cells = game.legal_moves()
                cell = cells[rng.below(len(cells))]
                count = len(game.board.moves)
                size = game.size
            x, y = tab.centre_on_screen(cell, size)
            tab.page.mouse.click(x, y)
            made = time.monotonic()  # the click's pointerup came: SELECT goes up next frame
            refused = None
            while refused is None and not sim.wait(
                    lambda app: len(app.game.board.moves) > count, 0.02):
                assert time.monotonic() - made < 30, ("the page's move did not reach the host",
                                                      state(sim, tab))
                refused = tab.info()["reason"]
            if refused is not None:
                assert refused == "the game is paused", (refused, state(sim, tab))
                REFUSED.append(refused)
                sim.wait(lambda app: app.link_status != "link lost", 30)
                time.sleep(0.1)
                continue
            LATENCY["page_to_host_ms"].append((time.monotonic() - made) * 1000)
            for each in tabs:
                each.wait_for("([n]) => window.rolit.info().game.moves.length > n", 30000,
                              [count])
            played += 1
            continue
        time.sleep(0.02)
    raise AssertionError("the round did not end")


def state(sim, tab):
    """What the test saw, for a failure's message."""
    with sim.lock:
        app = sim.app
        host = (app.mode, app.phase, app.link_status, len(app.game.board.moves),
                app.game.turn, app.cursor, sim.hub.take_log())
    return host, tab.info(), tab.page.evaluate("window.rolit.net()")


def same_board(sim, tab):
    info = tab.info()
    with sim.lock:
        game = sim.app.game
        host_moves = [[colour, game.board.cell_name(cell)] for cell, colour in game.board.moves]
        scores = list(game.scores())
    return info["game"] is not None and info["game"]["moves"] == host_moves and \
        info["game"]["scores"] == scores


def test_a_page_served_by_a_hosting_simulator_joins_and_plays_to_the_end(chromium, hosting):
    host_a_game(hosting)
    tab = Tab(chromium, "http://127.0.0.1:%d/" % hosting.hub.port)
    try:
        tab.open("?journal=1&seed=4")
        tab.wait_for("!document.getElementById('join').hidden", 30000)
        assert tab.page.locator("#join").inner_text() == "Join the game on this server"
        tab.page.click("#join")
        tab.wait_for("window.rolit.info() && window.rolit.info().mode === 'play'", 60000)
        assert hosting.wait(lambda app: app.mode == "play")
        assert tab.page.evaluate("window.rolit.net().node") == 1
        assert [(node, kind) for node, _, kind in hosting.hub.joiners()] == [(1, "ws")]
        status = tab.page.locator("#status").inner_text()
        assert "Board 4x4" in status
        rng = Random(5)
        played = play_on(hosting, tab, rng, moves=4)
        assert played == 4
        tab.wait_for("([n]) => window.rolit.info().game.moves.length >= n", 30000, [4])
        # a reload mid-game: the tab rejoins as node 1, the App resumes from its save, the host
        # sends it the state
        reloaded = time.monotonic()
        tab.page.reload()
        tab.wait_ready()
        try:
            tab.wait_for("window.rolit.net() && window.rolit.net().state === 'linked'", 60000)
        except Exception:
            raise AssertionError("not linked again: %r %r %r" % (
                tab.page.evaluate("window.rolit.net()"), tab.info(), hosting.hub.take_log()))
        assert tab.page.evaluate("window.rolit.net().node") == 1
        deadline = time.monotonic() + 60
        while not (same_board(hosting, tab) and tab.info()["mode"] == "play"):
            assert time.monotonic() < deadline, (tab.info(), tab.page.evaluate(
                "window.rolit.net()"), hosting.hub.take_log())
            time.sleep(0.05)
        rejoin_ms = round((time.monotonic() - reloaded) * 1000)
        play_on(hosting, tab, rng)
        deadline = time.monotonic() + 60
        while not (same_board(hosting, tab) and tab.info()["game"]["over"]):
            assert time.monotonic() < deadline, tab.info()
            time.sleep(0.05)
        with hosting.lock:
            assert hosting.app.game.over
            count = len(hosting.app.game.board.moves)
        # the page's own clock, for bench net --pages: each new count of moves it showed (the
        # reloaded document's, from the save's count on), each frame that took input, and its
        # linked game's words
        noted = tab.page.evaluate("window.rolit.stats")
        counts = [moves for _, moves in noted["shown"]]
        assert counts == sorted(counts) and counts[-1] == count, counts
        now = time.time() * 1000   # the page notes the machine's clock, as Python reads it
        assert noted["inputs"] and all(now - 600000 < at < now + 1000
                                       for at, _ in noted["inputs"] + noted["shown"])
        assert any((words or "").startswith("linked game") for _, words in noted["linkStates"])
        figures = {"reload_until_same_board_ms": rejoin_ms, "chromium": browser.version(),
                   "load_average": round(os.getloadavg()[0], 1),
                   "moves_refused_while_paused": len(REFUSED)}
        for name, values in LATENCY.items():
            figures[name] = {"mean": round(sum(values) / len(values), 1),
                             "worst": round(max(values), 1), "moves": len(values)}
        save_figures("linked", figures)
        tab.assert_pixels_match()  # the journal (with the link's bytes) replayed on CPython
        assert not tab.errors, tab.errors
    finally:
        tab.close()


def test_a_simulator_and_two_pages_play_a_round_to_the_end_on_the_same_board(chromium,
                                                                               hosting):
    host_a_game(hosting, size=6, players=3)
    base = "http://127.0.0.1:%d/" % hosting.hub.port
    tabs = [Tab(chromium, base), Tab(chromium, base)]
    try:
        for number, tab in enumerate(tabs, 1):
            tab.open("?seed=%d" % (10 + number))
            tab.wait_for("!document.getElementById('join').hidden", 30000)
            tab.page.click("#join")
            tab.wait_for("window.rolit.net() && window.rolit.net().state === 'linked'", 60000)
            assert tab.page.evaluate("window.rolit.net().node") == number
            tab.wait_for("window.rolit.info().mode === 'join'", 60000)
        for tab in tabs:
            tab.wait_for("window.rolit.info().mode === 'play'", 60000)
        assert hosting.wait(lambda app: app.mode == "play")
        play_on(hosting, tabs, Random(8))
        deadline = time.monotonic() + 60
        while not all(same_board(hosting, tab) and tab.info()["game"]["over"] for tab in tabs):
            assert time.monotonic() < deadline, [tab.info() for tab in tabs]
            time.sleep(0.05)
        with hosting.lock:
            assert hosting.app.game.over and len(hosting.app.game.seat_colours) == 3
        for tab in tabs:
            assert not tab.errors, tab.errors
    finally:
        for tab in tabs:
            tab.close()


def test_a_page_on_a_plain_server_offers_no_join_and_plays_as_today(chromium, site):
    from web.serve import serve_in_background
    server, base = serve_in_background(site)
    tab = Tab(chromium, base)
    try:
        tab.open("?journal=1&seed=4#players=human,human")
        tab.frames(10)
        assert tab.page.locator("#join").is_hidden()
        assert tab.page.evaluate("window.rolit.net()") is None
        assert tab.info()["mode"] == "play" and tab.info()["link"] is None
        assert not tab.errors, tab.errors
    finally:
        tab.close()
        server.shutdown()
        server.server_close()


def test_a_page_whose_tab_sleeps_pauses_the_host_within_2_s_and_resyncs(chromium, hosting):
    # A laptop whose lid closes stops the tab: its WebSocket stays open (the browser holds it)
    # but the page runs nothing and sends nothing. Here the page's JavaScript is paused
    # (Debugger.pause: its frame loop stops, its socket stays). The host says "link lost"
    # within 2 s and pauses; the tab wakes, and the game goes on on the same board.
    host_a_game(hosting)
    tab = Tab(chromium, "http://127.0.0.1:%d/" % hosting.hub.port)
    try:
        tab.open("?seed=4")
        tab.wait_for("!document.getElementById('join').hidden", 30000)
        tab.page.click("#join")
        tab.wait_for("window.rolit.info() && window.rolit.info().mode === 'play'", 60000)
        assert hosting.wait(lambda app: app.mode == "play")
        rng = Random(9)
        assert play_on(hosting, tab, rng, moves=2) == 2
        cdp = tab.context.new_cdp_session(tab.page)
        cdp.send("Debugger.enable")
        cdp.send("Debugger.pause")   # at the page's next frame
        frozen = time.monotonic()
        assert hosting.wait(lambda app: app.link_status == "link lost", 10)
        lost_after = time.monotonic() - frozen
        assert lost_after <= 2.0, lost_after
        assert [node for node, _, _ in hosting.hub.joiners()] == [1]   # its socket is open
        time.sleep(1.0)
        cdp.send("Debugger.resume")
        cdp.send("Debugger.disable")
        assert hosting.wait(lambda app: app.link_status != "link lost", 30), state(hosting, tab)
        deadline = time.monotonic() + 60
        while not same_board(hosting, tab):
            assert time.monotonic() < deadline, state(hosting, tab)
            time.sleep(0.05)
        assert tab.page.evaluate("window.rolit.net().stats.connections") == 1
        assert play_on(hosting, tab, rng, moves=2) == 2
        assert not tab.errors, tab.errors
    finally:
        tab.close()
