"""The app never loses or hides a save problem, never breaks on bad arguments, and keeps what a
power cut or a pause must not forget: the chosen first colour and the time left of a move."""

import pytest

from rolit_core import app as appmod
from rolit_core import load, save
from rolit_core.app import BACK, SELECT, App
from rolit_core.board import GREEN, RED
from rolit_core.play import CLOCK_SAVE_MS
from test_app_support import Driver, Storage

BLACK = (0, 0, 0)
CORNERS = (0, 7, 56, 63)

# Written by the version-1 format (main before this change): a 3-round match on 6x6, human
# against easy, green chosen to start, 30 s a move, hints on, 7 moves played, red to move.
V1_SAVE = bytes.fromhex("5248010025020001010108000100000300030001020001000006000003001e01030107"
                        "1310080111161c8a77")


class FailingStorage(Storage):
    """Saves like ``NvmStorage`` does when data does not fit: returns False, sets ``error``."""

    def __init__(self, data=None):
        super().__init__(data)
        self.error = None
        self.refuse = True

    def save(self, data):
        if self.refuse:
            self.error = "game of %d bytes does not fit" % len(data)
            return False
        self.error = None
        return super().save(data)


class SmallStorage(Storage):
    capacity = 200


def play_first_legal(d):
    d.wait_for_human()
    d.goto(d.app.game.legal_moves()[0])
    d.tap(SELECT)
    d.finish_move()


def resume(storage, seed=99):
    return Driver(App(storage=Storage(storage.data), seed=seed))


# -- item 5: the chosen first colour survives a power cut ------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_play_again_after_a_power_cut_starts_with_the_chosen_colour(seed):
    storage = Storage()
    d = Driver(App(storage=storage, seed=seed))
    d.start(seats=("human", "human"), size=4, first="green")
    play_first_legal(d)
    again = resume(storage, seed=seed * 7 + 1)
    while again.app.mode == "play":
        play_first_legal(again)
    assert again.app.mode == "round_end"
    again.tap(SELECT)          # skip the counting
    again.tap(SELECT)          # play again
    assert again.app.mode == "play" and again.app.game.moves == []
    assert again.app.game.first == GREEN  # a toss would pick red half of the time


def test_a_tossed_first_colour_is_tossed_again():
    storage = Storage()
    d = Driver(App(storage=storage, seed=1))
    d.start(seats=("human", "human"), size=4)
    payload = load.unpack(storage.data)
    assert payload[save.SETTINGS_SIZE + 1] == 0  # "toss" is what is saved
    firsts = set()
    for seed in range(12):
        again = resume(storage, seed=seed)
        assert again.app.first_choice is None
        again.app.again()
        firsts.add(again.app.game.first)
    assert firsts == {RED, GREEN}


def test_a_version_1_save_still_loads():
    d = Driver(App(storage=Storage(V1_SAVE), seed=3))
    app = d.app
    assert app.error is None and app.mode == "play"
    assert app.game.moves == [19, 16, 8, 1, 17, 22, 28] and app.game.turn == RED
    assert app.kinds == ("human", "easy") and app.time_limit == 30 and app.hints
    assert app.match.rounds == 3 and app.game.size == 6
    assert app.first_choice == GREEN   # version 1 kept it only as the menu's setting
    # and the next save is written in the new format, with the same game
    play_first_legal(d)
    assert d.app.storage.data[:3] == b"RH\x02"
    assert resume(d.app.storage).app.game.moves == app.game.moves


# -- item 13: the time left of a move survives a pause and a power cut ------------------------

def start_timed(seed=4):
    storage = Storage()
    d = Driver(App(storage=storage, seed=seed))
    d.start(seats=("human", "human"), time_limit=30, first="red")
    return d, storage


def timed_out_within(d, ms):
    """True if the time limit runs out within ``ms`` (a random move is played)."""
    d.cues = []
    moves = len(d.app.game.moves)
    d.wait(ms)
    return "timeout" in d.cues and len(d.app.game.moves) == moves + 1


def test_a_pause_does_not_restart_the_countdown():
    d, _ = start_timed()
    d.wait(20000)
    d.hold(BACK, 700)
    assert d.app.mode == "pause"
    d.wait(5000)               # time in the pause menu does not count
    d.tap(SELECT)              # resume
    assert d.app.mode == "play" and d.app.phase == "input"
    assert timed_out_within(d, 10500)


def test_the_countdown_survives_a_power_cut_in_the_pause_menu():
    d, storage = start_timed()
    d.wait(20000)
    d.hold(BACK, 700)
    again = resume(storage)
    assert again.app.mode == "play" and again.app.phase == "input"
    assert timed_out_within(again, 10500)


def test_the_countdown_survives_a_power_cut_while_running():
    d, storage = start_timed()
    writes = storage.writes
    d.wait(25000)
    assert storage.writes == writes + 2  # at 20 s and 10 s left (every CLOCK_SAVE_MS)
    assert CLOCK_SAVE_MS == 10000
    again = resume(storage)
    assert timed_out_within(again, 10500)   # not the full 30 s again
    fresh, storage = start_timed()
    fresh.wait(3000)
    assert not timed_out_within(resume(storage), 29000)  # a move not far in keeps its time


def test_undo_gives_a_fresh_countdown():
    d, _ = start_timed()
    play_first_legal(d)
    d.wait(25000)
    d.hold(BACK, 700)
    d.tap(1)                   # DOWN to "undo"
    d.tap(SELECT)
    assert d.app.game.moves == [] and d.app.mode == "play"
    assert not timed_out_within(d, 29000)


# -- item 2: a failed save is never ignored --------------------------------------------------

def corners_blink_red(d, ms=appmod.SAVE_ERROR_MS):
    red = d.app.shades.get(RED)
    seen_red = seen_other = 0
    end = d.now + ms
    while d.now < end:
        d.tick()
        if all(d.frame[c] == red for c in CORNERS):
            seen_red += 1
        else:
            seen_other += 1
    return seen_red > 5 and seen_other > 5


@pytest.mark.parametrize("how", ["returns False", "raises"])
def test_a_failed_save_sets_error_cues_and_shows_the_pattern(how):
    storage = FailingStorage()
    d = Driver(App(storage=storage, seed=2))
    if how == "raises":
        storage.refuse = False
        storage.fail = True
    d.start(seats=("human", "human"), size=8, first="red")
    assert "save" in d.app.error and d.app.save_failures == 1 and d.app.saves == 0
    assert "error" in d.cues
    assert corners_blink_red(d)
    frame = d.wait(100)
    assert frame[0] == BLACK   # the pattern is over; play goes on
    d.cues = []
    play_first_legal(d)
    assert d.app.save_failures == 2 and "error" in d.cues
    if how == "returns False":
        assert "does not fit" in d.app.error


def test_the_first_successful_save_shows_nothing_and_frames_are_unchanged():
    plain = Driver(App(storage=Storage(), seed=2))
    failing = FailingStorage()
    failing.refuse = False
    watched = Driver(App(storage=failing, seed=2))
    for d in (plain, watched):
        d.start(seats=("human", "easy"), size=6, first="red")
    for _ in range(200):
        plain.tick()
        watched.tick()
        assert plain.frame == watched.frame
    assert watched.app.save_failures == 0


def test_a_failed_save_in_the_menu_shows_too():
    storage = FailingStorage()
    d = Driver(App(storage=storage, seed=2))
    d.wait(3000)
    assert d.app.mode == "menu"
    d.tap(3)  # RIGHT on the play page changes nothing; go to a setting
    d.tap(1)
    d.tap(3)
    d.wait(appmod.SETTINGS_SAVE_MS + 40)
    assert d.app.save_failures == 1 and "error" in d.cues
    assert corners_blink_red(d)


def test_a_store_that_found_a_damaged_save_is_reported():
    class Damaged(Storage):
        error = "saved game is corrupt (checksum): ignored"

        def load(self):
            return None

    d = Driver(App(storage=Damaged(), seed=1))
    assert d.app.mode == "error" and "corrupt" in d.app.error and "error" in d.cues


def test_a_match_too_big_for_the_storage_is_refused_before_anything_changes():
    storage = SmallStorage()
    d = Driver(App(storage=storage, seed=1))
    with pytest.raises(ValueError, match="storage"):
        d.app.start(seats=("human", "human"), rounds=7)
    assert d.app.mode == "title" and storage.writes == 0
    d.app.start(seats=("human", "human"), rounds=2)
    assert d.app.mode == "play"


def test_the_menu_refuses_settings_the_storage_cannot_keep():
    storage = SmallStorage()
    d = Driver(App(storage=storage, seed=1))
    d.app.settings.rounds = 7
    d.wait(3000)
    d.cues = []
    d.tap(SELECT)
    assert d.app.mode == "menu" and "illegal" in d.cues and "storage" in d.app.error


# -- item 6: bad arguments never leave the app broken ----------------------------------------

@pytest.mark.parametrize("kwargs", [
    dict(size=8.0), dict(size=True), dict(size="8"), dict(size=5),
    dict(rounds=2.0), dict(rounds=True), dict(time_limit=30.0), dict(time_limit=False),
    dict(seats="human"), dict(seats=None), dict(seats=(1, 2)), dict(seats=("human", ["hard"])),
    dict(seats=()), dict(seats=("human",) * 5), dict(tie=["none"]), dict(tie="maybe"),
    dict(first=7), dict(first=2.0), dict(first="yellow"), dict(teams=True, seats=("human",) * 3),
    dict(size=4, seats=("human",) * 3), dict(record="Size: 9\n"), dict(record=12),
])
def test_bad_start_arguments_are_refused_and_change_nothing(kwargs):
    reference = App(seed=11)
    app = App(seed=11)
    Driver(app).wait(3000)
    before = (app.mode, app.match, app.kinds)
    with pytest.raises(ValueError):
        app.start(**kwargs)
    assert (app.mode, app.match, app.kinds) == before
    for t in range(20):
        app.update(3100 + 20 * t, [(SELECT, t % 2 == 0)])  # still works
    app2 = App(seed=11)
    app2.start(seats=("human", "hard"))
    reference.start(seats=("human", "hard"))
    assert app2.game.first == reference.game.first


@pytest.mark.parametrize("value", [True, 3.0, "3", 0, 6])
def test_brightness_takes_whole_numbers_1_to_5_only(value):
    app = App(seed=1)
    with pytest.raises(ValueError):
        app.brightness = value
    assert app.brightness == 3


@pytest.mark.parametrize("nodes", [0, -5, 2.5, "20", None, True])
def test_think_nodes_are_checked_when_the_app_is_made(nodes):
    with pytest.raises(ValueError):
        App(think_nodes=nodes)
