"""The network link's figures with pages: ``python -m bench net --pages``.

A hosting simulator (sim.net.NetHost serving the built page, and the host's App, in a thread
that pumps the hub before each App frame at 60 frames a second, as ``python -m sim --host``
does) and headless Chromium pages (web/browser.py, Debian's chromium) joined over
ws://127.0.0.1:PORT/link, on loopback.

Times are taken from each end's own clock, not from Playwright's polling: the host's thread
notes the machine's clock (time.time()) at the frame its board showed a new move; each page
notes performance.timeOrigin + performance.now() at the frame that took an input (after its
link's bytes were sent) and at the frame whose board showed a new move (window.rolit.stats.
inputs and .shown, web/main.js). Both are the machine's clock; the offset between the two is
measured (the page's clock read between two reads of Python's, the closest of 20 tries) and
taken off, and its uncertainty printed.

- A move from the host: from the host's frame showing it to each page's frame showing it.
- A move from a page: from the page's frame that sent it (its click) to the host's frame
  showing it, and to every other page's (and its own, after the round trip).
- Bytes per move: the link's bytes over each page's WebSocket both ways (window.rolit.net().
  stats), and with the WebSocket frame headers (2 bytes a message from the server, 6 from the
  page); TCP/IP headers not counted.
- Joined pages: the hub has three places for joiners and no spectators, and each place holds a
  seat, so "idle joined pages" are 1, 2 and 3 pages each holding a seat in a game of 2, 3 and 4
  players on 6x6: a page does nothing but its own moves (a click each); every move's time
  until every seat's board shows it, with 100 ms the mark.
- Reconnect: a page reloaded mid-game (a new document; its own clock starts at the reload's
  navigation): until it is linked again, and until its game is in play again.

ROLIT_BENCH_VERBOSE=1 prints each join and move on stderr as it happens.
"""

import os
import random
import statistics
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FRAME_S = 1 / 60           # the simulator's window and terminal run 60 frames a second
MOVES = 12                 # moves timed in each game of the ramp
SIZE = 6
UNDER_MS = 100
TARGET_MS = 50


def machine_load():
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "load average unknown on %d cores" % (os.cpu_count() or 1)
    return "load average %.2f, %.2f, %.2f (1, 5, 15 min) on %d cores" % (
        one, five, fifteen, os.cpu_count() or 1)


class Hosting:
    """The hosting simulator: hub and App, pumped then updated each frame in a thread; the
    bench acts on the App only while holding ``lock``."""

    def __init__(self, web):
        from rolit_core.app import App
        from rolit_core.link import Link
        from rolit_core.vocab import LEVELS
        from sim.net import NetHost
        self.hub = NetHost(0, "127.0.0.1", web=web)
        self.app = App(storage=None, seed=21, levels=LEVELS, link=Link())
        self.lock = threading.Lock()
        self.events = []
        self.shown = []          # (time.time(), moves on the host's board) at each change
        self.start = time.monotonic()
        self.running = True
        self.failure = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        count = -1
        next_at = time.monotonic()
        try:
            while self.running:
                with self.lock:
                    now = int((time.monotonic() - self.start) * 1000)
                    events, self.events = self.events, []
                    self.hub.pump(self.app.link, now)
                    self.app.update(now, events)
                    if self.app.link.waiting_output():
                        self.hub.pump(self.app.link, now)  # as the simulator's frame does
                    game = self.app.game
                    moves = len(game.board.moves) if game is not None else -1
                    if moves != count:
                        count = moves
                        self.shown.append((time.time(), moves))
                next_at += FRAME_S
                time.sleep(max(0.0, next_at - time.monotonic()))
        except Exception as error:  # the bench reports it
            self.failure = error
            raise

    def wait(self, condition, seconds=60):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if self.failure is not None:
                raise RuntimeError("the host failed: %r" % (self.failure,))
            with self.lock:
                if condition(self.app):
                    return True
            time.sleep(0.005)
        return False

    def press(self, key):
        with self.lock:
            self.events.append((key, True))
        time.sleep(0.05)
        with self.lock:
            self.events.append((key, False))

    def shown_at(self, count):
        for at, moves in self.shown:
            if moves >= count:
                return at
        return None

    def close(self):
        self.running = False
        self.thread.join(5)
        self.hub.close()


def host_a_game(sim, players):
    from rolit_core.app import SELECT
    sim.press(SELECT)  # the title gives way to the menu
    assert sim.wait(lambda app: app.mode == "menu"), "the host's menu did not open"
    with sim.lock:
        settings = sim.app.settings
        settings.players = players
        settings.size = SIZE
        settings.seats[0] = "human"
        for seat in range(1, players):
            settings.seats[seat] = "link"
        settings.fix()
        sim.app.begin_linked()  # the play page's SELECT
        assert sim.app.mode == "lobby", sim.app.error


def led_centre(page, cell, size):
    """Where the LED of board ``cell`` is on the page, in CSS pixels: the panel's layout
    (web/panel.js: a border of 7 % around 8 x 8 equal cells, the board centred)."""
    offset = (8 - size) // 2
    x, y = cell % size + offset, cell // size + offset
    left, top, shown, width = page.evaluate(
        "(() => { const c = document.getElementById('board'); const b = c.getBoundingClientRect();"
        " return [b.left, b.top, b.width, c.width]; })()")
    border = max(3, width * 7 // 100)
    step = (width - 2 * border) / 8
    px, py = border + int((x + 0.5) * step), border + int((y + 0.5) * step)
    scale = shown / width
    return left + (px + 0.5) * scale, top + (py + 0.5) * scale


class Page:
    def __init__(self, chromium, base, seed):
        self.context = chromium.new_context(viewport={"width": 1280, "height": 800})
        self.page = self.context.new_page()
        self.page.set_default_timeout(120000)
        # a returning visitor: no how-to over the board
        self.page.add_init_script(
            "try { localStorage.setItem('rolit-handheld.page', JSON.stringify({ labels: true,"
            " pad: null, howto: true })); } catch (error) {}")
        self.base = base
        self.seed = seed
        self.offset = 0.0      # page clock - Python's clock, in ms
        self.error = 0.0

    def join(self):
        self.page.goto(self.base + "?seed=%d" % self.seed)
        self.page.wait_for_function("window.rolit && window.rolit.stats.firstFrame !== null")
        self.page.wait_for_function("!document.getElementById('join').hidden")
        self.page.click("#join")
        self.page.wait_for_function("window.rolit.net() && window.rolit.net().state === 'linked'")
        self.calibrate()

    def calibrate(self, tries=20):
        best = None
        for _ in range(tries):
            before = time.time() * 1000
            page = self.page.evaluate("performance.timeOrigin + performance.now()")
            after = time.time() * 1000
            if best is None or after - before < best[0]:
                best = (after - before, page - (before + after) / 2)
        self.error = best[0] / 2
        self.offset = best[1]

    def stats(self):
        return self.page.evaluate("window.rolit.stats")

    def shown_at(self, count, after=0.0):
        """Python's clock when this page's frame first showed ``count`` moves (after
        ``after``), or None."""
        for at, moves in self.page.evaluate("window.rolit.stats.shown"):
            at -= self.offset
            if moves >= count and at >= after:
                return at / 1000
        return None

    def last_input(self):
        inputs = self.page.evaluate("window.rolit.stats.inputs")
        return (inputs[-1][0] - self.offset) / 1000 if inputs else None

    def moves(self):
        info = self.page.evaluate("window.rolit.info()")
        return len(info["game"]["moves"]) if info and info.get("game") else -1

    def net(self):
        return self.page.evaluate("window.rolit.net()")

    def close(self):
        self.context.close()


def to_move(page, seat):
    info = page.page.evaluate("window.rolit.info()")
    game = info and info.get("game")
    return (info["mode"] == "play" and game and game["phase"] == "input" and not game["over"]
            and game["turn"] in game["seat_colours"][seat])


def note(words):
    if os.environ.get("ROLIT_BENCH_VERBOSE"):
        print("  [%s] %s" % (time.strftime("%H:%M:%S"), words), file=sys.stderr, flush=True)


def play(sim, pages, rng, moves):
    """``moves`` moves (or to the end of the round). Returns per move (who, made, {end:
    shown}) in Python's clock: who is "host" or the page's index."""
    from rolit_core.app import SELECT
    timed = []
    retries = 0
    deadline = time.monotonic() + 600
    while len(timed) < moves and time.monotonic() < deadline:
        with sim.lock:
            app = sim.app
            game = app.game
            if app.mode == "round_end" or game.over:
                break
            seat = next(s for s, colours in enumerate(game.seat_colours) if game.turn in colours)
            count = len(game.board.moves)
            # the host's App waits for input on its own turn only; a page's turn: the page's
            ready = app.mode == "play" and (app.phase == "input" or seat != 0)
            if ready and seat == 0:
                cells = game.legal_moves()
                assert app.move_cursor(cells[rng.randrange(len(cells))])
                sim.events.append((SELECT, True))
        if not ready:
            time.sleep(0.01)
            continue
        if seat == 0:
            time.sleep(0.05)
            with sim.lock:
                sim.events.append((SELECT, False))
            who = "host"
        else:
            page = pages[seat - 1]
            waited = time.monotonic() + 60
            while not to_move(page, seat):
                assert time.monotonic() < waited, "page %d never had its turn" % seat
                time.sleep(0.01)
            with sim.lock:
                cells = sim.app.game.legal_moves()
            x, y = led_centre(page.page, cells[rng.randrange(len(cells))], SIZE)
            page.page.mouse.click(x, y)
            who = seat - 1
        if not sim.wait(lambda app: len(app.game.board.moves) > count or
                        app.play.illegal is not None, 5 if who != "host" else 30):
            assert who != "host", "the host's move did not land"
            # not played: the page's own words say why (a frame of a loaded machine), and a
            # person would click again
            retries += 1
            assert retries < 5, ("the page's move did not reach the host",
                                 page.page.evaluate("[window.rolit.info(), window.rolit.net()]"))
            note("the page's click did not play: %r" % (
                page.page.evaluate("window.rolit.info().reason"),))
            continue
        retries = 0
        with sim.lock:
            refused = sim.app.play.illegal if len(sim.app.game.board.moves) == count else None
        if refused is not None:
            print("  a move was refused (%s); played again" % refused)
            sim.wait(lambda app: app.link_status != "link lost", 30)
            time.sleep(0.2)
            continue
        for page in pages:
            page.page.wait_for_function(
                "([n]) => window.rolit.info().game.moves.length > n", arg=[count])
        made = sim.shown_at(count + 1) if who == "host" else pages[who].last_input()
        ends = {"host": sim.shown_at(count + 1)}
        for index, page in enumerate(pages):
            ends[index] = page.shown_at(count + 1, after=made * 1000 - 1000)
        timed.append((who, made, ends))
        note("move %d by %s" % (count + 1, who))
    return timed


def ms(values):
    return "mean %.1f ms, worst %.1f ms (%d)" % (statistics.mean(values), max(values),
                                                 len(values)) if values else "none"


def traffic(pages):
    total = wire = 0
    for page in pages:
        stats = page.net()["stats"]
        total += stats["bytesIn"] + stats["bytesOut"]
        wire += stats["bytesIn"] + stats["bytesOut"] + 2 * stats["messagesIn"] + \
            6 * stats["messagesOut"]
    return total, wire


def ramp_game(chromium, folder, joined, rng, reload_after=None):
    sim = Hosting(folder)
    pages = []
    try:
        host_a_game(sim, joined + 1)
        base = "http://127.0.0.1:%d/" % sim.hub.port
        for number in range(joined):
            page = Page(chromium, base, 10 + number)
            pages.append(page)
            page.join()
            note("page %d joined" % number)
        assert sim.wait(lambda app: app.mode == "play", 120), "the game did not start"
        for page in pages:
            page.page.wait_for_function("window.rolit.info().mode === 'play'")
        before = traffic(pages)
        first = reload_after if reload_after is not None else MOVES
        timed = play(sim, pages, rng, first)
        after = traffic(pages)
        gaps = []
        for page in pages:
            log = page.page.evaluate("window.rolit.stats.log.map((entry) => entry[0])")
            gaps += [b - a for a, b in zip(log, log[1:])]
        result = {"timed": timed, "bytes": ((after[0] - before[0]), (after[1] - before[1])),
                  "bytes_moves": len(timed), "gaps": sorted(gaps), "error": max(page.error for page in pages)}
        if reload_after is not None:
            result["reload"] = reload(sim, pages[0])
            timed += play(sim, pages, rng, MOVES - first)
        return result
    finally:
        for page in pages:
            page.close()
        sim.close()


def reload(sim, page):
    """Reload the page mid-game: ms from the new document's start (its own clock) until it is
    linked and until its board is the host's, and Python's time for the whole."""
    with sim.lock:
        count = len(sim.app.game.board.moves)
    began = time.time()
    page.page.reload()
    page.page.wait_for_function("window.rolit && window.rolit.net() && "
                                "window.rolit.net().state === 'linked'")
    page.page.wait_for_function("([n]) => window.rolit.info() && window.rolit.info().game && "
                                "window.rolit.info().game.moves.length >= n && "
                                "window.rolit.info().mode === 'play'", arg=[count])
    page.page.wait_for_function("window.rolit.info().link && "
                                "window.rolit.info().link.startsWith('linked game')")
    ended = time.time()
    origin, linked, states, connections = page.page.evaluate(
        "[performance.timeOrigin, window.rolit.net().stats.linkedAt, window.rolit.stats."
        "linkStates, window.rolit.net().stats.connections]")
    # the page resumes the game from its save first (its board shows the moves at once), then
    # the host's state puts it back in play: "linked game, seat N" in its own words
    playing = [at for at, words in states if words and words.startswith("linked game")]
    note("after the reload: %r" % [(round(at - origin), words) for at, words in states])
    page.calibrate()
    return {"linked": linked, "board": playing[0] - origin if playing else None,
            "whole": (ended - began) * 1000, "connections": connections,
            "navigation_after_ms": origin - page.offset - began * 1000}


def main(argv=(), ramp=(1, 2, 3)):
    sys.path.insert(0, ROOT)
    from web import browser, build

    reason = browser.missing()
    if reason:
        print("pages: skipped (%s)" % reason)
        return
    folder = build.build(os.path.join(ROOT, "build", "web-bench-net"))
    rng = random.Random(3)
    print(browser.version())
    print("machine before: %s" % machine_load())
    with browser.launch() as chromium:
        games = {}
        for joined in ramp:
            games[joined] = ramp_game(chromium, folder, joined, rng,
                                      reload_after=MOVES // 2 if joined == 1 else None)
            print("machine after %d joined page(s): %s" % (joined, machine_load()))
    one = games[1]
    out = [end - made for who, made, ends in one["timed"] if who == "host"
           for end in [ends[0]] if end is not None]
    back = [ends["host"] - made for who, made, ends in one["timed"] if who != "host"]
    print("one page, 2 players on %dx%d, the host at 60 frames a second, the page at its "
          "animation frames; clocks matched within %.1f ms" % (SIZE, SIZE, one["error"]))
    print("a host's move until the page shows it: %s (target %d ms)" % (
        ms([1000 * v for v in out]), TARGET_MS))
    print("a page's move (its click's frame) until the host shows it: %s (target %d ms)" % (
        ms([1000 * v for v in back]), TARGET_MS))
    moves = one["bytes_moves"]
    print("bytes per move over the page's WebSocket, both ways: %d of the link's, %d with the "
          "WebSocket headers (%d moves)" % (one["bytes"][0] // max(moves, 1),
                                            one["bytes"][1] // max(moves, 1), moves))
    r = one["reload"]
    print("a page reloaded mid-game: its WebSocket linked again %.0f ms and its game in play "
          "again (the host's state) %.0f ms after its new document began (%d connection); "
          "%.0f ms from the reload's call, read by polling" % (
              r["linked"], r["board"], r["connections"], r["whole"]))
    for joined, game in games.items():
        worst = []
        for who, made, ends in game["timed"]:
            worst.append(1000 * (max(v for v in ends.values() if v is not None) - made))
        under = len([w for w in worst if w < UNDER_MS])
        gaps = game["gaps"]
        print("%d joined page(s), %d players: a move until every seat shows it: %s; %d of %d "
              "under %d ms; the pages' frames %.0f ms apart (median; 95th percentile %.0f ms, "
              "60 frames a second is 17)" % (
                  joined, joined + 1, ms(worst), under, len(worst), UNDER_MS,
                  statistics.median(gaps), gaps[int(len(gaps) * 0.95)]))
    last = games[max(games)]
    hops = []
    for index in range(max(games)):
        values = [1000 * (ends[index] - made) for who, made, ends in last["timed"]
                  if who == "host" and ends[index] is not None]
        if values:
            hops.append("node %d %.0f ms" % (index + 1, statistics.mean(values)))
    # the ring runs through the pages: each hop waits for the host's next frame (the hub is
    # pumped once a frame) and the page's next animation frame (it passes frames on then)
    print("%d joined pages: a host's move until each page shows it, mean, by its place on the "
          "ring: %s" % (max(games), ", ".join(hops)))
    print("machine after: %s" % machine_load())


if __name__ == "__main__":
    main(sys.argv[1:])
