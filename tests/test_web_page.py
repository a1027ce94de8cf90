"""The browser page's Python side (web/page.py) and its build (web/build.py), without a browser:
on CPython here, and the glue once under real MicroPython (the interpreter the page runs)."""

import base64
import doctest
import json
import os

import pytest

from micropython import ROOT, run_micropython
from rolit_core import Game, load, save
from rolit_core.ai import player
from rolit_core.app import App, LEVELS, SELECT
from web import build, page


class Store:
    """localStorage's one key, as the page's read/write functions see it."""

    def __init__(self, text=None, fail=None):
        self.text = text
        self.fail = fail
        self.writes = 0

    def read(self):
        return self.text

    def write(self, text):
        if self.fail:
            return self.fail  # the page's writeSave says why, it does not throw
        self.text = text
        self.writes += 1
        return ""


# What the page's Python imports from sim/ besides rolit_core (web/build.py copies the same).
PAGE_SIM_FILES = tuple("sim/" + name for name in build.SIM_FILES)


def run(p, keys_per_step, start=0, dt=20, nodes=200):
    now = start
    result = 0
    for keys in keys_per_step:
        now += dt
        result = p.step(now, keys, nodes)
    return result, now


def test_doctests():
    assert doctest.testmod(page).failed == 0


def test_storage_keeps_the_device_save_format_as_hex():
    store = Store()
    p = page.Page(store.read, store.write, seed=3)
    assert p.begin("human,hard") == ""
    data = bytes.fromhex(store.text)
    assert data[:2] == save.MAGIC  # the device's bytes, spelt out
    settings = App().settings
    match, kinds, _, _, _ = load.decode(data, settings)
    assert kinds == ("human", "hard") and match.game.size == 8
    again = page.Page(store.read, store.write, seed=4)
    assert again.app.mode == "play" and again.app.kinds == ("human", "hard")


@pytest.mark.parametrize("text", ["zz", "52480100", "", "5248" * 20])
def test_corrupt_stored_text_starts_fresh_with_the_reason(text):
    store = Store(text)
    p = page.Page(store.read, store.write, seed=1)
    assert p.app.mode == "error"
    assert p.app.error
    p.step(0, "", 100)
    assert json.loads(p._info)["error"] == p.app.error
    # the damaged value was replaced by a good save of fresh settings
    assert load.decode(bytes.fromhex(store.text), App().settings) is None


def test_a_failed_save_is_reported_and_the_game_goes_on():
    store = Store(fail="QuotaExceededError: the quota has been exceeded")
    p = page.Page(store.read, store.write, seed=1)
    assert p.begin("human,human") == ""
    assert "storage failed to save" in p.app.error and "quota" in p.app.error
    legal = p.app.game.legal_moves()[0]
    size = p.app.game.size
    result, _ = run(p, ["@%d%d" % (legal % size, legal // size), "4u"] + [""] * 100)
    assert len(p.app.game.board.moves) == 1
    assert json.loads(p._info)["error"].startswith("storage failed to save")


def test_keys_text_becomes_events_and_a_tap_walks_the_cursor():
    store = Store()
    p = page.Page(store.read, store.write, seed=2)
    p.begin("human,human")
    game = p.app.game
    target = [cell for cell in game.legal_moves() if cell != p.app.cursor][0]
    x, y = target % 8, target // 8
    run(p, ["@%d%d" % (x, y)])
    assert p.app.cursor == target and len(game.board.moves) == 0  # SELECT is down: preview
    run(p, ["4u"])
    assert game.board.moves[-1][0] == target
    # off the board (a 4x4 board sits in the middle of the panel): nothing happens
    p.begin("human,human", 4)
    before = p.app.cursor
    run(p, ["@00", "4u", "@77", "4u"])
    assert p.app.cursor == before and not p.app.game.board.moves
    # junk is ignored
    run(p, ["9d", "x", "@9", "0", "@", "5"])
    assert p.app.mode == "play"


def started(seats, seed):
    """A page playing ``seats``, its storage in memory."""
    store = Store()
    p = page.Page(store.read, store.write, seed=seed)
    assert p.begin(seats) == ""
    return p


def tap(cell):
    return "@%d%d" % (cell % 8, cell // 8)


def _until(p, now, done, limit=2000):
    for _ in range(limit):
        if done():
            return now
        now += 20
        p.step(now, "", 200)
    raise AssertionError("the page never got there")


def test_a_tap_while_the_computers_move_is_shown_is_played_after_it():
    p = started("human,easy", 5)
    app = p.app
    now = _until(p, 0, lambda: app.phase == "input")
    game = app.game
    ours = game.legal_moves()[0]
    now = run(p, [tap(ours), "4u"], start=now)[1]
    now = _until(p, now, lambda: len(game.board.moves) == 2 and app.phase == "animate")
    target = game.legal_moves()[-1]  # the computer's move is on the board, still animating
    now = run(p, [tap(target), "4u"], start=now)[1]
    assert app.phase == "animate" and len(game.board.moves) == 2
    _until(p, now, lambda: len(game.board.moves) >= 3)
    assert game.board.moves[2] == (target, game.seat_colours[0][0])


def test_a_tap_while_a_computer_thinks_says_it_is_moving():
    p = started("easy,human", 5)
    app = p.app
    now = _until(p, 0, lambda: app.phase == "think")
    run(p, ["@00", "4u"], start=now)
    info = json.loads(p._info)
    assert info["notice"] == "Red is moving…" and info["notices"] == 1
    _until(p, now, lambda: len(app.game.board.moves) == 1 and app.phase == "input")
    assert app.game.board.moves[0][0] != 0  # the tap did not become a move


def test_a_kept_tap_on_a_cell_no_longer_legal_says_why():
    p = started("human,human", 3)
    app = p.app
    game = app.game
    first = game.legal_moves()[0]
    now = run(p, [tap(first), "4u"])[1]
    assert app.phase == "animate"
    # a tap on the cell just played, while its ball is still landing: kept, then refused
    now = run(p, [tap(first), "4u"], start=now)[1]
    _until(p, now, lambda: app.phase == "input")
    p.step(now + 5000, "", 200)
    info = json.loads(p._info)
    assert len(game.board.moves) == 1
    assert info["notice"].startswith(game.board.cell_name(first) + " was not played: ")


def test_seats_in_any_case_start_a_game_as_in_the_simulator():
    p = started("Human, HARD", 1)
    assert p.app.kinds == ("human", "hard")
    assert p.begin("human", "6.0") == "the board size is 8, 6 or 4, not '6.0'"
    assert p.load_record("Size: 6\nPlayers: 2\nFirst: red\nR e3", "Human,Easy") == ""
    assert p.app.kinds == ("human", "easy") and p.app.game.size == 6


def test_hints_from_the_howto_turn_on_for_the_game_and_the_menu():
    p = started("human,human", 1)
    assert not p.app.hints
    run(p, [""])
    p.set_hints()
    assert p.app.hints and p.app.settings.hints
    assert run(p, [""])[0] & page.CHANGED_INFO and json.loads(p._info)[
        "settings"]["hints"] is True
    pages = json.loads(page.howto())
    assert [len(item["before"]) for item in pages] == [384, 384, 384]
    assert pages[1]["after"] is None and pages[2]["closing"]


def test_info_changes_only_with_what_it_shows():
    store = Store()
    p = page.Page(store.read, store.write, seed=2)
    first, _ = run(p, [""])
    assert first & page.CHANGED_INFO and first & page.CHANGED_FRAME
    again, _ = run(p, [""])
    assert not again & page.CHANGED_INFO
    moved, _ = run(p, ["4d"], start=100)  # title -> menu
    assert moved & page.CHANGED_INFO and json.loads(p._info)["mode"] == "menu"


def test_computers_think_in_slices_and_report_the_nodes_they_used(no_book):
    store = Store()
    p = page.Page(store.read, store.write, seed=5)
    p.begin("expert,hard")
    per_move = {}
    now = 0
    while len(p.app.game.board.moves) < 4:
        now += 20
        game = p.app.game
        key = (len(game.board.moves), p.app.kinds[game.seat_of(game.turn)])
        result = p.step(now, "", 3000)
        if result & page.THINKING:
            per_move.setdefault(key, []).append((result >> page.NODE_SHIFT, p.app.think_nodes))
    assert sorted(kind for _, kind in per_move) == ["expert", "expert", "hard", "hard"]
    for (_, kind), slices in per_move.items():
        used = [nodes for nodes, _ in slices]
        # expert thinks EXPERT_FACTOR times the slice the App is given: the page divides
        assert {think for _, think in slices} == {3000 // page.EXPERT_FACTOR if kind == "expert"
                                                  else 3000}
        assert max(used) <= 3000 + 100
        if kind == "expert":
            # its 10,000 nodes over several frames
            assert len([n for n in used if n]) >= player("expert").budget // 3000
        # the nodes reported add up to the search (at most its budget, a little over at the end)
        assert 0 < sum(used) <= player(kind).budget + 100
        assert used[-1] == 0  # shown "thinking" a while after the answer: no nodes then


def test_a_journal_replays_to_the_same_frames_on_a_fresh_page():
    store = Store()
    p = page.Page(store.read, store.write, seed=9, journal=True)
    p.begin("human,medium")
    size = p.app.game.size
    cell = p.app.game.legal_moves()[-1]
    run(p, ["@%d%d" % (cell % size, cell // size), "4u"] + [""] * 150, nodes=37)
    assert p.load_record("Size: 6\nPlayers: 2\nFirst: red\nR e3", "human,human") == ""
    run(p, ["3d", "3u", "4d"] + [""] * 20, start=5000)
    entries = json.loads(json.dumps([list(e) for e in p.journal]))
    twin = page.Page(Store().read, Store().write, seed=9)
    twin.replay(entries)
    assert twin._shown == p._shown
    assert twin.app.game.record() == p.app.game.record()


def test_load_record_refuses_bad_text_and_keeps_the_game():
    store = Store()
    p = page.Page(store.read, store.write, seed=1)
    p.begin("human,hard")
    run(p, [""] * 3)
    before = p.app.game.record()
    assert "line" in p.load_record("Size: 8\nPlayers: 2\nFirst: red\nR z9")
    assert p.load_record("not a record at all: really")
    assert p.app.game.record() == before
    fresh = Game(players=2, first="red")
    name = fresh.board.cell_name(fresh.legal_moves()[0])
    assert p.load_record("Size: 8\nPlayers: 2\nFirst: red\nR " + name) == ""
    assert len(p.app.game.board.moves) == 1 and p.app.kinds == ("human", "hard")


def test_the_glue_runs_under_micropython():
    script = r'''
from web import page
store = {}
page.start(lambda: store.get("s"), lambda t: store.update(s=t), 7, True)
print(page.begin("human,easy"))
r = 0
for i in range(200):
    r = page.step(i * 20, "@34" if i == 1 else ("4u" if i == 2 else ""), 50)
print(len(page.frame()), page.record().count("\n"), len(store["s"]) % 2)
import json
print(sorted(json.loads(page.info())["game"].keys())[:3])
print(len(json.loads(page.journal())["entries"]))
print(len(json.loads(page.howto())), page.step(5000, "@00", 50) >= 0)
'''
    out = run_micropython(script, trees=("rolit_core",),
                          files=("web/__init__.py", "web/page.py") + PAGE_SIM_FILES)
    lines = out.split("\n")
    assert lines[0] == ""
    length, newlines, odd = lines[1].split()
    assert length == "384" and int(newlines) >= 8 and odd == "0"
    assert lines[2] == "['kinds', 'moves', 'over']"
    assert lines[3] == "201"
    assert lines[4] == "3 True"  # the how-to's pages and a tap (sim/) under MicroPython


def test_build_copies_the_core_and_makes_a_single_file(tmp_path):
    out = build.build(str(tmp_path / "web"))
    names = set(os.listdir(out))
    assert {"index.html", "main.js", "micropython.mjs", "micropython.wasm", "sources.js",
            "rolit.html"} <= names
    text = open(os.path.join(out, "sources.js")).read()
    sources_at = text.index("export const SOURCES = ") + len("export const SOURCES = ")
    data_at = text.index("export const DATA = ")
    sources = json.loads(text[sources_at:data_at].rstrip().rstrip(";"))
    data = json.loads(text[data_at + len("export const DATA = "):].strip().rstrip(";"))
    with open(os.path.join(ROOT, "rolit_core", "book.bin"), "rb") as handle:
        assert base64.b64decode(data["rolit_core/book.bin"]) == handle.read()  # the device's
    core = sorted(n for n in os.listdir(os.path.join(ROOT, "rolit_core")) if n.endswith(".py"))
    assert sorted(k[len("rolit_core/"):] for k in sources if k.startswith("rolit_core/")) == core
    with open(os.path.join(ROOT, "rolit_core", "app.py")) as handle:
        assert sources["rolit_core/app.py"] == handle.read()  # unmodified
    single = open(os.path.join(out, "rolit.html")).read()
    assert 'src="main.js"' not in single and "importmap" in single
    for name in ("https://", "http://"):
        for built in ("index.html", "main.js", "panel.js", "input.js", "words.js", "style.css"):
            assert name not in open(os.path.join(out, built)).read(), built


def test_levels_offered_in_the_page_include_expert():
    p = page.Page(Store().read, Store().write, seed=1)
    assert p.app.levels == tuple(LEVELS) and SELECT == 4


def _host_and_page(page_store=None):
    """A host App (seat 2 'link', 4x4) and a linked page, their bytes passed as the page's
    script passes them: the host's into ``link_in`` as hex, ``link_out``'s to the host."""
    from rolit_core.link import Link
    host = App(storage=None, seed=3, link=Link())
    host.update(0, [(SELECT, True)])
    host.update(20, [(SELECT, False)])
    host.settings.players = 2
    host.settings.size = 4
    host.settings.seats[1] = "link"
    host.settings.fix()
    host.begin_linked()
    store = page_store or Store()
    p = page.Page(store.read, store.write, seed=4, journal=True, linked=True)
    return host, p, store


def _pump(host, p, now):
    out = host.link.output()
    p.link_in(bytes(out).hex(), now)
    p.step(now, "", 100)
    back = p.link_out()
    host.link.feed(bytes.fromhex(back), now)
    host.update(now, [])


def test_a_linked_page_joins_a_host_through_hex_and_its_journal_replays_the_same():
    host, p, store = _host_and_page()
    assert p.describe()["linked"] is True
    assert p.join() == ""
    assert p.app.mode == "join"
    now = 40
    while not (host.mode == "play" and p.app.mode == "play"):
        now += 20
        _pump(host, p, now)
        assert now < 10000, (host.mode, p.app.mode, p.app.link_status)
    rng = 0
    while not host.game.over and now < 60000:
        now += 20
        mover = host if host.phase == "input" and host.game.turn in host.game.seat_colours[0] \
            else p.app if p.app.phase == "input" and p.app.mode == "play" else None
        if mover is not None:
            cells = mover.game.legal_moves()
            rng = (rng * 7 + 3) % 101
            assert mover.move_cursor(cells[rng % len(cells)])
            if mover is host:
                host.update(now, [(SELECT, True)])
                host.update(now + 10, [(SELECT, False)])
            else:
                p.step(now, "4d", 100)
                p.step(now + 10, "4u", 100)
        _pump(host, p, now)
    for _ in range(100):
        now += 20
        _pump(host, p, now)
    assert host.game.over
    assert p.app.game.board.moves == host.game.board.moves
    info = p.describe()
    assert info["link"] == p.app.link_status
    twin = page.Page(lambda: None, lambda text: "", seed=4, linked=True)
    twin.replay(json.loads(page_journal(p))["entries"])
    assert twin.app.game.board.moves == p.app.game.board.moves
    assert twin.app.frame == p.app.frame


def page_journal(p):
    page._page = p
    return page.journal()


def test_bytes_that_are_not_hex_or_not_frames_change_nothing_on_a_linked_page():
    host, p, store = _host_and_page()
    p.join()
    for junk in ("zz", "0", "00" * 300, "ff" * 50):
        p.link_in(junk, 40)
    p.step(60, "", 100)
    assert p.app.mode == "join"


def test_a_page_without_a_link_has_no_link_bytes_and_cannot_join():
    store = Store()
    p = page.Page(store.read, store.write, seed=1)
    p.link_in("00ff", 0)
    assert p.link_out() == ""
    assert p.join() == "this page has no link"
    assert p.describe()["link"] is None and p.describe()["linked"] is False
