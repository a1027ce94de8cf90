"""Linked games through the app, as players make them: the menus on each handheld, the lobby and
the join screen, moves made with the keys, a pulled cable, power cuts and refusals. The
handhelds' links are wired in a ring in memory (tests/link_wire.py)."""

import pytest

from link_wire import Ring
from rolit_core.app import BACK, DOWN, LEFT, SELECT, UP, App
from rolit_core.game import Match
from rolit_core.link import Link, Message
from rolit_core.load import decode_state
from rolit_core.lockstep_base import MOVE, NEXT, PLAYED, STATE
from rolit_core.menu import Settings
from rolit_core.play import RING
from rolit_core.rng import Random
from rolit_core.save import SaveError, encode


class Store:
    """A handheld's storage that survives its power cuts."""

    def __init__(self):
        self.data = None

    def load(self):
        return self.data

    def save(self, data):
        self.data = bytes(data)
        return True


class Table:
    """``count`` handhelds on one ring, each an App with its own storage and link."""

    def __init__(self, count, seed=1, faults=None):
        self.ring = Ring(count, seed, faults)
        self.stores = [Store() for _ in range(count)]
        self.apps = [App(storage=self.stores[i], seed=seed * 10 + i, link=self.ring.links[i])
                     for i in range(count)]
        self.frames = [None] * count
        self.rng = Random(seed)
        self.played = []  # (round, cell) as the host played them

    def step(self, ms=20, events=None):
        self.ring.step(ms)
        for index, app in enumerate(self.apps):
            mine = (events or {}).get(index, ())
            self.frames[index] = tuple(app.update(self.ring.now, mine))

    def tap(self, index, key):
        self.step(events={index: [(key, True)]})
        self.step(events={index: [(key, False)]})

    def run(self, ms, until=None):
        for _ in range(ms // 20):
            self.step()
            if until is not None and until():
                return True
        return until is None

    def power_cut(self, index):
        """The handheld loses power: a new App from its own save, and a link that knows nothing."""
        link = Link()
        self.ring.links[index] = link
        self.apps[index] = App(storage=self.stores[index], seed=99 + index, link=link)

    def to_menu(self, index):
        self.tap(index, SELECT)  # the title answers a key with the menu
        assert self.apps[index].mode == "menu"

    def host(self, players=2, linked_seats=(1,), computer_seats=(), rounds=1, time_limit=0):
        """Handheld 0 sets up the game in its menu and hosts it."""
        app = self.apps[0]
        self.to_menu(0)
        settings = app.settings
        settings.players = players
        settings.rounds = rounds
        settings.time_limit = time_limit
        for seat in range(4):
            settings.seats[seat] = "human"
        for seat in computer_seats:
            settings.seats[seat] = "easy"
        settings.fix()
        app.menu_screen.enter()  # the pages of these settings
        # the linked seats chosen with the keys, as a player would: "link" is left of "human"
        for seat in linked_seats:
            while app.page != ("seat", seat):
                self.tap(0, DOWN)
            self.tap(0, LEFT)
            assert settings.seats[seat] == "link"
        self.tap(0, BACK)   # back to the play page
        assert app.page == ("play", 0)
        self.tap(0, SELECT)
        assert app.mode == "lobby", app.error

    def join(self, index):
        app = self.apps[index]
        self.to_menu(index)
        self.tap(index, UP)  # the last page, round from the play page
        assert app.page == ("linked", 0)
        self.tap(index, SELECT)
        assert app.mode == "join"

    def move(self, index, cell):
        app = self.apps[index]
        assert app.move_cursor(cell)
        self.step(events={index: [(SELECT, True)]})
        self.step(events={index: [(SELECT, False)]})

    def mover(self):
        """The handheld that accepts a move now, or None."""
        for index, app in enumerate(self.apps):
            if app.mode == "play" and app.phase == "input":
                return index
        return None

    def play_round(self, limit_ms=600000):
        """Every human seat plays random legal moves until the round ends everywhere."""
        spent = 0
        while spent < limit_ms:
            if all(app.mode == "round_end" for app in self.apps):
                return
            index = self.mover()
            if index is not None:
                game = self.apps[index].game
                cells = game.legal_moves()
                self.move(index, cells[self.rng.below(len(cells))])
                spent += 40
            else:
                self.step()
                spent += 20
        raise AssertionError("the round did not end: %r" % ([a.mode for a in self.apps],))


def boards(table):
    return [tuple(app.play.game.board._cells) for app in table.apps]


def test_two_handhelds_set_up_from_the_menus_and_play_a_round_to_the_same_end():
    table = Table(2, seed=3)
    table.host()
    table.join(1)
    # the guest glows in its seat's colour while it waits; the host shows both seats
    assert table.run(3000, lambda: table.apps[0].mode == "play" and table.apps[1].mode == "play")
    table.play_round()
    first, second = table.apps
    assert first.play.game.board.moves == second.play.game.board.moves
    assert first.play.game.scores() == second.play.game.scores()
    # the same moves played on one handheld give the same end
    local = Match(1, 2, 8, False, "shared", first.first, 0)
    for cell in first.play.game.moves:
        local.game.play(cell)
    assert tuple(local.game.board._cells) == tuple(first.play.game.board._cells)
    # both show the round's end: the same scores poured, the same winners
    table.run(6000)
    assert [app.mode for app in table.apps] == ["round_end", "round_end"]
    assert first.round_end.winners == second.round_end.winners


def test_the_joining_handheld_glows_its_own_colour_while_it_waits():
    table = Table(3, seed=5)
    table.host(players=3, linked_seats=(1, 2))
    table.join(1)
    assert table.run(2000, lambda: table.apps[1].linked.session.seat is not None)
    guest = table.apps[1]
    assert guest.mode == "join"
    assert "waiting for the host" in guest.link_status
    # seat 1 of three plays yellow: the whole matrix is yellow, at some level
    table.step()
    frame = table.frames[1]
    assert len(set(frame)) == 1 and frame[0] != (0, 0, 0)
    red, green, blue = frame[0]
    assert red > 0 and green > 0 and blue == 0
    assert table.apps[0].mode == "lobby"
    assert "waiting for 1 linked handheld" in table.apps[0].link_status
    table.join(2)
    assert table.run(3000, lambda: all(app.mode == "play" for app in table.apps))


def test_only_the_seat_to_move_takes_a_move_and_the_others_show_whose_turn():
    table = Table(2, seed=7)
    table.host()
    table.join(1)
    table.run(3000, lambda: all(app.mode == "play" for app in table.apps))
    mover = table.mover()
    other = 1 - mover
    assert table.apps[other].phase == "wait"
    before = table.apps[other].play.game.board.moves
    table.tap(other, SELECT)   # not its turn: nothing happens there
    assert table.apps[other].play.game.board.moves == before
    # the waiting handheld's border glows in the mover's colour where the board is empty
    turn = table.apps[other].play.game.turn
    frame = table.frames[other]
    lit = [frame[at] for at in RING if frame[at] != (0, 0, 0)]
    assert lit


def test_an_illegal_move_is_refused_with_the_rules_words_on_the_guest():
    table = Table(2, seed=2)
    table.host()
    table.join(1)
    table.run(3000, lambda: all(app.mode == "play" for app in table.apps))
    # let the host move until it is the guest's turn
    while table.mover() != 1:
        if table.mover() == 0:
            game = table.apps[0].game
            table.move(0, game.legal_moves()[0])
        table.step()
    guest = table.apps[1]
    game = guest.game
    illegal = [cell for cell in range(64) if cell not in game.legal_moves()
               and not game.board[cell]][0]
    guest.move_cursor(illegal)
    table.step(events={1: [(SELECT, True)]})
    assert guest.illegal_reason and "illegal" in guest.cues
    table.step(events={1: [(SELECT, False)]})
    assert game.board.moves == table.apps[0].game.board.moves


def test_a_pulled_cable_shows_link_lost_within_two_seconds_pauses_and_loses_no_move():
    table = Table(2, seed=4)
    table.host(time_limit=30)
    table.join(1)
    table.run(3000, lambda: all(app.mode == "play" for app in table.apps))
    for _ in range(4):
        index = None
        while index is None:
            table.step()
            index = table.mover()
        table.move(index, table.apps[index].game.legal_moves()[0])
    table.run(1000)
    moves = list(table.apps[0].game.board.moves)
    mover = table.mover()
    clock = table.apps[mover].play.clock
    table.ring.cut(0)
    table.ring.cut(1)
    lost_at = None
    for step in range(100):
        table.step()
        if all(app.link_status == "link lost" for app in table.apps):
            lost_at = step * 20
            break
    assert lost_at is not None and lost_at <= 2000
    # paused: a move is refused, the clock stands still, red marches round the border
    clock = table.apps[mover].play.clock
    table.run(3000)
    assert table.apps[mover].play.clock == clock
    table.move(mover, table.apps[mover].game.legal_moves()[0])
    assert list(table.apps[0].game.board.moves) == moves
    frame = table.frames[0]
    assert sum(1 for at in RING if frame[at] == table.apps[0].shades.get(1)) >= 7
    table.ring.cut(0, False)
    table.ring.cut(1, False)
    assert table.run(3000, lambda: all(app.link_status != "link lost" for app in table.apps))
    table.play_round()
    assert table.apps[0].game.board.moves == table.apps[1].game.board.moves
    assert table.apps[0].game.board.moves[:len(moves)] == moves


@pytest.mark.parametrize("who", [0, 1])
def test_a_handheld_that_loses_power_resumes_from_its_save_rejoins_and_the_game_goes_on(who):
    table = Table(2, seed=6)
    table.host()
    table.join(1)
    table.run(3000, lambda: all(app.mode == "play" for app in table.apps))
    for _ in range(6):
        index = None
        while index is None:
            table.step()
            index = table.mover()
        game = table.apps[index].game
        table.move(index, game.legal_moves()[-1])
    table.run(1500)
    moves = list(table.apps[0].game.board.moves)
    table.power_cut(who)
    back = table.apps[who]
    assert back.mode == "play" and back.linked is not None
    assert list(back.game.board.moves) == moves
    # the other handheld waits for it, then both go on
    assert table.run(4000, lambda: all(app.linked.running() for app in table.apps))
    table.play_round()
    assert table.apps[0].game.board.moves == table.apps[1].game.board.moves
    assert table.apps[0].game.board.moves[:len(moves)] == moves


def test_three_rounds_with_a_computer_seat_on_the_host_go_round_on_every_handheld():
    table = Table(2, seed=8)
    table.host(players=3, linked_seats=(1,), computer_seats=(2,), rounds=2)
    table.join(1)
    table.run(3000, lambda: all(app.mode == "play" for app in table.apps))
    table.play_round()
    table.run(8000)
    # the guest cannot start the next round; the host can
    table.tap(1, SELECT)
    table.tap(1, SELECT)
    assert table.apps[1].match.round == 1
    for _ in range(3):
        table.tap(0, SELECT)
        table.run(1500)
    assert table.apps[0].match.round == 2
    assert table.run(3000, lambda: table.apps[1].match.round == 2
                     and table.apps[1].mode == "play")
    table.play_round()
    assert table.apps[0].match.game.board.moves == table.apps[1].match.game.board.moves


def test_the_host_quitting_ends_the_game_on_every_handheld_with_a_message():
    table = Table(2, seed=9)
    table.host()
    table.join(1)
    table.run(3000, lambda: all(app.mode == "play" for app in table.apps))
    table.apps[0].quit()
    assert table.run(2000, lambda: table.apps[1].mode == "menu")
    assert table.apps[1].error == "the host ended the game"
    assert table.apps[1].linked is None


def test_undo_and_restart_are_off_in_a_linked_game():
    table = Table(2, seed=10)
    table.host()
    table.join(1)
    table.run(3000, lambda: all(app.mode == "play" for app in table.apps))
    index = None
    while index is None:
        table.step()
        index = table.mover()
    table.move(index, table.apps[index].game.legal_moves()[0])
    table.run(1500)
    app = table.apps[0]
    moves = list(app.game.board.moves)
    table.step(events={0: [(BACK, True)]})
    table.run(800)
    table.step(events={0: [(BACK, False)]})
    assert app.mode == "pause"
    for item in ("undo", "restart"):
        while app.page != (item, 0):
            table.tap(0, DOWN)
        table.step(events={0: [(SELECT, True)]})
        assert "illegal" in app.cues
        table.step(events={0: [(SELECT, False)]})
        assert list(app.game.board.moves) == moves


def test_a_second_joiner_of_a_full_game_is_refused_in_words():
    table = Table(3, seed=11)
    table.host()
    table.join(1)
    table.run(2000, lambda: table.apps[1].linked.session.seat is not None)
    table.join(2)
    assert table.run(3000, lambda: table.apps[2].link_status == "the game is full")


def test_a_linked_save_round_trips_and_a_bad_link_part_is_refused():
    settings = Settings()
    match = Match(1, 2, 8, False, "shared", 1, 0)
    match.game.play(match.game.legal_moves()[0])
    data = encode(settings, match, ("human", "link"), 0, False, 1, (), None, 0,
                  (1, 0x1234, None, (0, 1)))
    assert data[2] == 3
    saved = decode_state(data, Settings())
    assert saved[1] == ("human", "link")
    assert saved[7] == (1, 0x1234, None, (0, 1))
    # a local game's save is unchanged: version 2, no link part
    plain = encode(settings, match, ("human", "hard"), 0, False, 1)
    assert plain[2] == 2 and decode_state(plain, Settings())[7] is None
    bad = bytearray(data)
    bad[5 + 14 + 5] = 7  # the role
    from rolit_core.load import pack, unpack
    with pytest.raises(SaveError):
        decode_state(pack(unpack(bytes(bad))), Settings())


def test_a_guest_reads_adopts_and_saves_the_state_it_took_in_three_frames():
    # Reading the whole state (decoding it, replaying its moves), setting up the board screen
    # from it, and the save (a flash write) each fill much of a frame on a board: one a frame.
    table = Table(2, seed=12)
    table.host()
    table.join(1)
    guest = table.apps[1]
    assert table.run(3000, lambda: guest.linked.adopt_due)
    assert guest.mode != "play" and guest.linked.session.match is not None  # read, not shown
    saves = guest.saves
    table.step()
    assert guest.mode == "play" and guest.linked.save_due and guest.saves == saves
    assert guest.game is guest.linked.session.match.game
    table.step()
    assert guest.saves == saves + 1 and not guest.linked.save_due
    alone = App(storage=table.stores[1], seed=1)
    assert alone.mode == "play"


def test_a_linked_save_resumes_as_a_local_game_on_a_handheld_without_a_link():
    table = Table(2, seed=12)
    table.host()
    table.join(1)
    table.run(3000, lambda: all(app.mode == "play" for app in table.apps))
    table.run(20)  # the guest saves the state it took in the frame after
    alone = App(storage=table.stores[1], seed=1)
    assert alone.mode == "play" and alone.linked is None
    assert set(alone.kinds) == {"human"}
    assert "linked" not in [alone.menu_screen.page[0]]


NOISE = {"drop": 0.03, "dup": 0.03, "flip": 0.03, "extra": 0.03, "delay": 0.1}


@pytest.mark.parametrize("count", [2, 4])
def test_a_ring_of_handhelds_on_noisy_wires_ends_with_every_board_the_same(count):
    table = Table(count, seed=20 + count, faults=NOISE)
    table.host(players=count, linked_seats=tuple(range(1, count)))
    for index in range(1, count):
        table.join(index)
    assert table.run(8000, lambda: all(app.mode == "play" for app in table.apps))
    table.play_round(limit_ms=900000)
    moves = [app.game.board.moves for app in table.apps]
    assert all(m == moves[0] for m in moves)
    # the seats' colours were given in the ring's order, one handheld each
    seats = sorted(app.linked.seat for app in table.apps[1:])
    assert seats == list(range(1, count))


LINKED_APPS = """
import sys
sys.path.insert(0, "tests")
from link_wire import Ring
from rolit_core.app import App, SELECT, DOWN, LEFT, BACK, UP
from rolit_core.rng import Random

ring = Ring(2, 5)
apps = [App(seed=1 + i, link=ring.links[i]) for i in range(2)]
rng = Random(3)
digest = 0
def step(events=None):
    global digest
    ring.step(20)
    for i in range(2):
        frame = apps[i].update(ring.now, (events or {}).get(i, ()))
        for pixel in frame:
            digest = (digest * 31 + pixel[0] * 7 + pixel[1] * 3 + pixel[2]) & 0xFFFFFF
def tap(i, key):
    step({i: [(key, True)]})
    step({i: [(key, False)]})
tap(0, SELECT)
tap(1, SELECT)
for _ in range(3):   # play, players, seat 1, seat 2
    tap(0, DOWN)
tap(0, LEFT)   # seat 1: easy, then human...
tap(0, LEFT)   # ...then link
tap(0, BACK)
tap(0, SELECT)
tap(1, UP)
tap(1, SELECT)
for _ in range(20000):
    if all(app.mode == "round_end" for app in apps):
        break
    mover = None
    for i in range(2):
        if apps[i].mode == "play" and apps[i].phase == "input":
            mover = i
    if mover is None:
        step()
        continue
    cells = apps[mover].game.legal_moves()
    apps[mover].move_cursor(cells[rng.below(len(cells))])
    tap(mover, SELECT)
for app in apps:
    print(app.mode, app.play.game.board.to_text().replace("\\n", "/"), app.play.game.scores())
print(digest)
"""


def test_a_linked_game_through_the_app_is_the_same_under_micropython():
    import os
    import subprocess
    import sys

    from micropython import run_micropython

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    here = subprocess.run([sys.executable, "-c", LINKED_APPS], cwd=root, capture_output=True,
                          text=True, check=True).stdout
    there = run_micropython(LINKED_APPS, files=("tests/link_wire.py",))
    lines = here.splitlines()
    assert lines[0].startswith("round_end ") and lines[1].startswith("round_end ")
    assert lines[0] == lines[1]  # the same board and scores on both handhelds
    assert there == here


def test_a_menu_that_remembers_a_link_seat_offers_human_there_without_a_link():
    settings = Settings()
    settings.seats[1] = "link"
    store = Store()
    store.data = encode(settings)
    assert App(storage=store, seed=1, link=Link()).settings.seats[1] == "link"
    alone = App(storage=store, seed=1)
    assert alone.settings.seats[1] == "human"
    assert "link" not in alone.seat_choices()


def linked_modules():
    """The linked game's modules loaded now (rolit_core.lockstep gathers them on a desktop)."""
    import sys

    return sorted(name for name in sys.modules
                  if name.startswith("rolit_core.lockstep")
                  or name in ("rolit_core.linked", "rolit_core.matchbytes"))


def forget_linked_modules():
    import sys

    for name in linked_modules():
        sys.modules.pop(name)


def test_a_local_game_holds_no_linked_code_and_a_linked_game_leaves_none_when_it_ends():
    import gc
    import sys
    import weakref

    from rolit_core import play

    forget_linked_modules()
    gc.collect()
    local = App(seed=3, link=Link())  # a handheld with a link, playing on its own
    local.start(seats=("human", "easy"))
    local.update(0, [(SELECT, True)])
    local.update(20, [(SELECT, False)])
    assert type(local.play) is play.PlayScreen and local.game.board.moves
    assert linked_modules() == []
    table = Table(2, seed=9)
    table.host()
    table.join(1)
    assert table.run(3000, lambda: all(app.mode == "play" for app in table.apps))
    code = [weakref.ref(type(app.play)) for app in table.apps]
    for name in ("rolit_core.lockstep_base", "rolit_core.lockstep_host",
                 "rolit_core.lockstep_guest", "rolit_core.matchbytes"):
        code.append(weakref.ref(sys.modules[name]))
    assert type(table.apps[0].play).__name__ == "LinkedPlay"
    table.apps[0].quit()
    assert table.run(2000, lambda: table.apps[1].mode == "menu")
    for app in table.apps:
        assert app.linked is None and type(app.play) is play.PlayScreen
    assert linked_modules() == []
    gc.collect()
    assert [ref for ref in code if ref() is not None] == []


@pytest.mark.parametrize("role", ["host", "guest"])
def test_a_handheld_loads_only_its_own_roles_side_of_the_protocol(role):
    # The host's code is no use to a guest, nor a guest's to the host: each costs heap on the
    # chip for the whole game. (Each handheld alone here: one process holds one role's code.)
    forget_linked_modules()
    table = Table(1, seed=4)
    if role == "host":
        table.host()
        mine, other = "rolit_core.lockstep_host", "rolit_core.lockstep_guest"
    else:
        table.join(0)
        mine, other = "rolit_core.lockstep_guest", "rolit_core.lockstep_host"
    table.run(500)
    assert linked_modules() == sorted(["rolit_core.linked", "rolit_core.lockstep_base", mine,
                                       "rolit_core.matchbytes"])
    assert other not in linked_modules()
    table.apps[0].linked.quit()
    assert linked_modules() == []


def alone_in_a_linked_game(role, computer_seats):
    """One handheld in a linked game: the host of a 3-player game (seat 2 linked, the
    ``computer_seats`` computers) or a guest looking for its host; 200 ms played."""
    table = Table(1, seed=6)
    if role == "host":
        table.host(players=3, linked_seats=(1,), computer_seats=computer_seats)
    else:
        table.join(0)
    table.run(200)
    return table


@pytest.mark.parametrize("role, computer_seats, keeps", [
    ("guest", (), False), ("host", (), False), ("host", (2,), True)])
def test_a_linked_game_with_no_computer_seat_here_holds_no_computer_players(
        role, computer_seats, keeps):
    # The computer players are the biggest module; in a linked game only the host runs any,
    # for its own computer seats. The next local game against a computer loads them again.
    import sys

    from rolit_core import ai  # noqa: F401 (loaded, as the app loads it on a board)

    table = alone_in_a_linked_game(role, computer_seats)
    assert ("rolit_core.ai" in sys.modules) is keeps
    app = table.apps[0]
    app.linked.quit()
    app.start(seats=("easy", "easy"))
    table.run(3000, lambda: len(app.game.board.moves) > 1)
    assert app.game.board.moves and "rolit_core.ai" in sys.modules
    assert app.ais["easy"] is not None  # a real computer player, not random moves


@pytest.mark.parametrize("role, computer_seats, from_source, restarts", [
    ("guest", (), True, True), ("host", (), True, True), ("host", (2,), True, False),
    ("guest", (), False, False)])
def test_compiled_from_source_a_linked_game_that_forgot_the_computer_players_ends_in_a_restart(
        monkeypatch, role, computer_seats, from_source, restarts):
    # On a board compiling from source the computer players do not compile again in the heap
    # a linked game leaves: the app asks for a fresh interpreter when the game ends there,
    # and only then (a compiled board loads them again as it is).
    from rolit_core import ai  # noqa: F401 (loaded, as the app loads it on a board)
    from rolit_core import app as app_module

    monkeypatch.setattr(app_module, "_RESTART_FOR_AI", from_source)
    table = alone_in_a_linked_game(role, computer_seats)
    app = table.apps[0]
    assert app.linked is not None and not app.wants_restart  # not while the game goes on
    app.quit()  # the menu's way out of a linked game (and the host's end of it)
    assert app.wants_restart is restarts
    assert app.screen is app.menu_screen and app.dirty is False  # the menu, saved


def test_a_move_from_the_link_is_saved_in_the_frame_after_the_one_that_shows_it():
    # The frame that takes another handheld's move off the link, checks it with the core and
    # begins its animation is a busy one on a board; the save (a flash write) waits a frame,
    # and a power cut then still resumes the game (the host's state fills in the move).
    table = Table(2, seed=12)
    table.host()
    table.join(1)
    assert table.run(3000, lambda: all(app.mode == "play" for app in table.apps))
    table.run(200)
    seen = 0
    for _ in range(8):
        assert table.run(5000, lambda: table.mover() is not None)
        index = table.mover()
        other = table.apps[1 - index]
        moves = len(other.game.board.moves)
        saves = other.saves
        table.move(index, table.apps[index].game.legal_moves()[0])
        assert table.run(3000, lambda: len(other.game.board.moves) > moves)
        if other.saves == saves:  # shown in this frame, not saved yet
            assert other.linked.save_due
            table.step()
            assert other.saves == saves + 1 and not other.linked.save_due
            seen += 1
    assert seen == 8


def test_a_move_that_arrives_with_the_whole_state_is_played_on_the_state_taken():
    # A resync's STATE and the host's next MOVE read in one update: the move belongs to the
    # match just taken, not to the board screen's game that the next frame replaces.
    table = Table(2, seed=12)
    table.host()
    table.join(1)
    assert table.run(3000, lambda: all(app.mode == "play" for app in table.apps))
    assert table.run(5000, lambda: table.mover() == 0)
    host, guest = table.apps
    session = guest.linked.session
    link = session.link
    receive = link.receive
    link.receive = lambda: []        # the guest's inbox fills while it reads nothing
    session._resync()                # the guest asks for the whole state
    table.run(400)                   # the host sends it
    moves = len(host.game.board.moves)
    table.move(0, host.game.legal_moves()[0])
    assert table.run(2000, lambda: len(host.game.board.moves) > moves)
    table.run(400)                   # the host's MOVE is in the guest's inbox too
    kinds = [message.kind for message in link._inbox]
    assert kinds.index(STATE) < kinds.index(MOVE)
    asked = session._asked
    link.receive = receive           # both read in one update
    assert table.run(3000, lambda: guest.mode == "play" and guest.phase == "input")
    assert boards(table)[0] == boards(table)[1]
    assert guest.game is session.match.game
    assert session._asked == asked   # no second resync was needed


def record(link):
    """Keep every message ``link`` delivers from now on; the function returned stops that and
    gives them, oldest first."""
    receive = link.receive
    heard = []

    def recording():
        messages = receive()
        heard.extend(messages)
        return messages

    def stop():
        link.receive = receive
        return heard

    link.receive = recording
    return stop


def replay_units(heard):
    """What to replay: a whole state (its parts in order) as one unit, any other message alone."""
    units = []
    for message in heard:
        follows = units and units[-1][-1].kind == STATE
        if message.kind == STATE and message.payload[0] > 0 and follows:
            units[-1].append(message)
        else:
            units.append([message])
    return units


def fuzz(table, index, units, rng, hops, batches=600):
    """Handheld ``index`` reads ``units`` in random batches, each message maybe with a byte
    changed or cut short, from another node, broadcast or not, 1 to ``hops`` nodes away; every
    frame it shows is whole."""
    link = table.apps[index].linked.session.link
    for batch in range(batches):
        messages = []
        for _ in range(1 + rng.below(5)):
            for real in units[rng.below(len(units))]:
                payload = bytearray(real.payload)
                mangle = rng.below(6)
                if mangle == 1 and payload:
                    payload[rng.below(len(payload))] = rng.below(256)
                elif mangle == 2:
                    payload = payload[:rng.below(len(payload) + 1)]
                source = real.source if rng.below(4) else rng.below(4)
                messages.append(Message(source, real.kind, bytes(payload), rng.below(2) == 1,
                                        1 + rng.below(hops)))
        link._inbox.extend(messages)
        table.step()
        frame = table.frames[index]
        assert len(frame) == 64 and all(len(pixel) == 3 for pixel in frame), batch


@pytest.mark.parametrize("count", [2, 3])
def test_a_guest_survives_the_hosts_messages_mangled_repeated_and_out_of_order(count):
    # What the host (and, on a ring of three, the other guest) really sent, replayed in
    # batches: repeated, out of order, with bytes changed or cut, and from other nodes. The
    # guest's app never fails and shows a whole frame each time; then, with the real messages
    # only, its board is the host's.
    table = Table(count, seed=21)
    table.host(players=count, linked_seats=tuple(range(1, count)), rounds=2)
    for index in range(1, count):
        table.join(index)
    assert table.run(4000, lambda: all(app.mode == "play" for app in table.apps))
    host, guest = table.apps[0], table.apps[1]
    session = guest.linked.session
    stop = record(session.link)
    for _ in range(6):  # some moves, and a resync so that STATE is among them
        assert table.run(5000, lambda: table.mover() is not None)
        index = table.mover()
        table.move(index, table.apps[index].game.legal_moves()[0])
        if session._asked is None:
            session._resync()
        table.run(300)
    units = replay_units(stop())
    assert any(unit[0].kind == STATE for unit in units)
    assert any(unit[0].kind == MOVE for unit in units)
    if count > 2:  # the other guest's moves, played here as they pass
        assert any(unit[0].kind == PLAYED and unit[0].source == 2 for unit in units)
    fuzz(table, 1, units, Random(4), hops=2)
    # The genuine host again: the guest asks for what it lacks and catches up.
    assert table.run(20000, lambda: len(set(boards(table))) == 1
                     and guest.linked.session.match.round == host.match.round)
    assert guest.mode in ("play", "round_end")


def test_a_host_survives_its_guests_messages_mangled_repeated_and_out_of_order():
    # The other way: what two guests sent the host, replayed to the host's app in batches,
    # mangled as above, some as if from the host's own number. Every frame is whole, and the
    # game goes on to the same boards.
    table = Table(3, seed=22)
    table.host(players=3, linked_seats=(1, 2))
    table.join(1)
    table.join(2)
    assert table.run(4000, lambda: all(app.mode == "play" for app in table.apps))
    host = table.apps[0]
    stop = record(host.linked.session.link)
    for _ in range(9):
        assert table.run(5000, lambda: table.mover() is not None)
        index = table.mover()
        table.move(index, table.apps[index].game.legal_moves()[0])
        table.run(200)
    # The guests' messages (the host's own HELLO, back round the ring, says who hosts: a
    # changed one is a second host, which ends the game by design), each one alone.
    heard = [message for message in stop() if message.source != 0]
    assert len(set(message.kind for message in heard)) >= 3
    fuzz(table, 0, [[message] for message in heard], Random(6), hops=3)
    before = len(host.game.board.moves)
    table.play_round()
    assert len(set(boards(table))) == 1 and len(host.game.board.moves) > before


def test_a_guest_survives_the_hosts_messages_mangled_across_a_round_end():
    # As above, with what the host sent over a round's end and the next round's beginning
    # (NEXT, and whole states taken at the round end and in the next round) among the replays.
    table = Table(2, seed=31)
    table.host(rounds=3)
    table.join(1)
    assert table.run(3000, lambda: all(app.mode == "play" for app in table.apps))
    host, guest = table.apps
    session = guest.linked.session
    stop = record(session.link)
    table.play_round()
    session._resync()
    table.run(3000)
    for _ in range(3):
        table.tap(0, SELECT)  # the host's rounds table, then the next round
        table.run(1500)
    assert host.match.round == 2
    session._resync()
    for _ in range(4):
        assert table.run(5000, lambda: table.mover() is not None)
        index = table.mover()
        table.move(index, table.apps[index].game.legal_moves()[0])
        table.run(300)
    units = replay_units(stop())
    kinds = set(unit[0].kind for unit in units)
    assert NEXT in kinds and STATE in kinds and MOVE in kinds
    fuzz(table, 1, units, Random(7), hops=2)
    assert table.run(20000, lambda: len(set(boards(table))) == 1
                     and guest.linked.session.match.round == host.match.round)
