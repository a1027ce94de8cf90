"""Saving after every move, resuming after power loss, and refusing corrupt or foreign data."""

import random

from rolit_core import app as appmod
from rolit_core import load, save
from rolit_core.app import BACK, DOWN, RIGHT, SELECT, App
from rolit_core.board import RED
from rolit_core.menu import P_BRIGHT, P_ROUNDS, Settings
from test_app_support import Driver, Storage

BLACK = (0, 0, 0)


def test_crc_and_framing():
    assert save.crc16(b"123456789") == 0x29B1
    data = load.pack(b"hello")
    assert data[:3] == b"RH\x02" and len(data) == 5 + 5 + 2
    assert load.unpack(data) == b"hello"
    for bad in (b"", b"RH", data[:-1], data + b"\x00", b"XY" + data[2:], None, "text"):
        try:
            load.unpack(bad)
        except save.SaveError:
            pass
        else:
            raise AssertionError("accepted %r" % (bad,))


def same_state(resumed, app):
    assert resumed.error is None
    assert resumed.settings.to_bytes() == app.settings.to_bytes()
    if app.match is None:
        assert resumed.match is None
        return
    assert resumed.mode in ("play", "round_end")
    assert resumed.game.board == app.game.board
    assert resumed.game.board.moves == app.game.board.moves
    assert resumed.game.turn == app.game.turn and resumed.game.first == app.game.first
    assert resumed.match.round == app.match.round
    assert resumed.match.rounds_won == app.match.rounds_won
    assert resumed.match.points == app.match.points
    assert resumed.kinds == app.kinds and resumed.time_limit == app.time_limit
    assert resumed.hints == app.hints


def play_through_with_power_loss(d, storage, rounds_to_play):
    """Play (humans pick random legal cells); after every save, 'lose power' and resume a new
    app from what was stored: it must be in the same position. Returns how many resumes."""
    app = d.app
    rng = random.Random(1)
    seen = -1
    resumes = 0
    rounds = 0
    while True:
        if storage.writes != seen:
            seen = storage.writes
            resumed = App(storage=Storage(storage.data), seed=1234)
            same_state(resumed, app)
            resumes += 1
        if app.mode == "play" and app.phase == "input":
            d.goto(rng.choice(app.game.legal_moves()))
            d.tap(SELECT)
        elif app.mode == "round_end":
            rounds += 1
            if rounds == rounds_to_play:
                break
            d.tap(SELECT)
            d.tap(SELECT)
            d.tap(SELECT)
        else:
            d.tick()
    return resumes


def test_power_loss_at_every_step_of_a_game():
    storage = Storage()
    d = Driver(App(storage=storage, seed=5))
    d.wait(3000)
    d.tap(SELECT)  # the default: a human against an easy computer, 8x8
    assert d.app.kinds == ("human", "easy")
    resumes = play_through_with_power_loss(d, storage, 1)
    assert resumes >= 61
    assert len(storage.data) < 120  # compact: 60 moves in under 120 bytes


def test_power_loss_at_every_step_of_a_match():
    storage = Storage()
    d = Driver(App(storage=storage, seed=6))
    d.start(seats=("human", "human"), size=4, rounds=3, tie="none", time_limit=60, hints=True)
    resumes = play_through_with_power_loss(d, storage, 3)
    assert resumes >= 3 * 13
    assert d.app.match.round == 3


def test_resume_mid_animation_continues_after_the_move():
    storage = Storage()
    d = Driver(App(storage=storage, seed=7))
    d.start(seats=("human", "easy"), first="red")
    d.goto(d.app.game.legal_moves()[0])
    d.tap(SELECT)
    assert d.app.phase == "animate"
    resumed = Driver(App(storage=Storage(storage.data), seed=8))
    assert resumed.app.mode == "play" and resumed.app.game.moves == d.app.game.moves
    resumed.wait_for_human()
    assert len(resumed.app.game.moves) == 2  # the computer answered after resuming


def test_settings_are_remembered():
    storage = Storage()
    d = Driver(App(storage=storage, seed=1))
    d.wait(3000)
    for _ in range(12):
        if d.app.page[0] == appmod.menu.PAGE_NAMES[P_ROUNDS]:
            break
        d.tap(DOWN)
    d.tap(RIGHT)
    d.tap(RIGHT)
    for _ in range(12):
        if d.app.page[0] == appmod.menu.PAGE_NAMES[P_BRIGHT]:
            break
        d.tap(DOWN)
    d.tap(RIGHT)
    assert storage.writes == 0  # not while the settings are being changed...
    d.wait(appmod.SETTINGS_SAVE_MS)
    assert storage.writes == 1  # ...but once the menu rests
    again = App(storage=Storage(storage.data), seed=2)
    assert again.settings.rounds == 3 and again.brightness == 4
    assert again.mode == "title"
    frame = Driver(again).wait(3000)
    assert frame[2] == (0, 160 * 255 // 255, 0)  # the play page at brightness 4


def error_shown(d):
    """The error pattern: a red cross, blinking."""
    app = d.app
    assert app.mode == "error" and app.error
    red = app.shades.get(RED)
    assert d.frame[0] == red and d.frame[27] == red and d.frame[63] == red
    assert d.frame[1] == BLACK
    d.wait(400)
    assert d.frame[0] == BLACK


def check_corrupt(data):
    storage = Storage(data)
    d = Driver(App(storage=storage, seed=3))
    assert "error" in d.cues
    error_shown(d)
    # replaced by a fresh start: default settings, no game
    payload = load.unpack(storage.data)
    assert payload == Settings().to_bytes() + b"\x00"
    d.wait(appmod.ERROR_MS)
    assert d.app.mode == "title"
    d.tap(SELECT)
    assert d.app.mode == "menu"
    return d


def valid_save():
    storage = Storage()
    d = Driver(App(storage=storage, seed=5))
    d.start(seats=("human", "human"), first="red", rounds=2)
    for _ in range(4):
        d.goto(d.app.game.legal_moves()[0])
        d.tap(SELECT)
        d.finish_move()
    return storage.data


def test_every_single_bit_flip_is_detected():
    data = valid_save()
    assert App(storage=Storage(data)).mode == "play"
    for i in range(len(data)):
        for bit in (0, 3, 7):
            bad = bytearray(data)
            bad[i] ^= 1 << bit
            app = App(storage=Storage(bytes(bad)), seed=1)
            assert app.mode == "error" and app.error, (i, bit)


def test_corrupt_and_foreign_data_is_reported_and_replaced():
    data = valid_save()
    payload = load.unpack(data)
    rng = random.Random(4)
    settings = Settings().to_bytes()
    cases = [
        b"",
        b"\x00" * 64,
        bytes([rng.randrange(256) for _ in range(100)]),
        data[:-3],
        data + b"x",
        b"RH\x03" + data[3:],                                     # another version
        b"PK\x03\x04" + data[4:],                                  # a zip file
        "a string",
        12345,
        load.pack(b""),
        load.pack(payload[:-1]),                                   # valid CRC, cut short
        load.pack(settings[:5] + b"\x09" + settings[6:] + b"\x00"),  # board size 9
        load.pack(settings + b"\x02"),                             # unknown game flag
        load.pack(payload[:save.SETTINGS_SIZE + 15] + bytes([payload[save.SETTINGS_SIZE + 15],
                                                             0, 0, 0, 0])),  # illegal moves
    ]
    for case in cases:
        check_corrupt(case)


def test_a_failing_store_never_crashes():
    storage = Storage()
    storage.fail = True
    d = Driver(App(storage=storage, seed=3))
    error_shown(d)
    d.wait(appmod.ERROR_MS + appmod.TITLE_MS + 100)
    d.tap(SELECT)
    assert d.app.mode == "play"
    d.goto(d.app.game.legal_moves()[0])
    d.tap(SELECT)
    assert len(d.app.game.moves) == 1 and "save" in d.app.error


def test_no_storage_keeps_nothing():
    d = Driver(App(seed=3))
    d.start(seats=("human", "human"))
    assert d.app.saves == 0
    d.hold(BACK, 700)
    assert d.app.mode == "pause"


def test_power_loss_at_every_frame_of_a_small_game():
    # whenever the power goes, the stored state resumes to the position on the board (a move
    # being animated counts as played), with the same player to move
    storage = Storage()
    d = Driver(App(storage=storage, seed=9))
    d.start(seats=("human", "medium"), size=4, first="red")
    rng = random.Random(2)
    checked = 0
    while d.app.mode == "play":
        if d.app.phase == "input":
            d.goto(rng.choice(d.app.game.legal_moves()))
            d.press(SELECT)
            d.release(SELECT)
        else:
            d.tick()
        resumed = App(storage=Storage(storage.data), seed=3)
        assert resumed.game.board == d.app.game.board
        assert resumed.game.turn == d.app.game.turn
        checked += 1
    assert d.app.mode == "round_end" and checked > 100
    assert App(storage=Storage(storage.data)).mode == "round_end"


def test_encode_writes_what_pack_and_encode_match_describe():
    # encode() writes into one buffer; the layout is that of pack() around the settings, the
    # game flag, the version 2 extras and encode_match()
    d = Driver(App(storage=Storage(), seed=6))
    d.start(seats=("human", "easy", "hard"), size=6, rounds=3, tie="none", time_limit=30,
            first="yellow", hints=True)
    app = d.app
    for _ in range(40):
        if app.mode != "play":
            break
        d.wait_for_human()
        if app.mode == "play":
            d.goto(app.game.legal_moves()[-1])
            d.tap(SELECT)
            d.finish_move()
    d.wait(7000)
    rounds = app.history + [app.game.moves]
    session = (3, [0, 1, 3, 0], 6, False, 1, 3, 30, True, app.first, rounds)
    clock = app.play.clock if app.phase == "input" else 0
    expected = load.pack(app.settings.to_bytes() + bytes((1, 2, clock >> 16, clock >> 8 & 255,
                                                          clock & 255)) + load.encode_match(session))
    assert app.state_bytes() == expected
    assert load.pack(b"hello") == b"RH\x02\x00\x05hello" + load.pack(b"hello")[-2:]


def test_the_table_crc_equals_the_bitwise_one_on_any_bytes_and_continues_a_sum():
    # crc16 works a nibble at a time (an RP2040 summed a save bit by bit in 4.9 ms, twice a
    # save); the sums must stay those of the format.
    import random

    def bitwise(data, crc=0xFFFF):
        for byte in data:
            crc ^= byte << 8
            for _ in range(8):
                crc = (crc << 1 ^ 0x1021) & 0xFFFF if crc & 0x8000 else crc << 1 & 0xFFFF
        return crc

    rng = random.Random(9)
    for size in list(range(0, 40)) + [467, 1024]:
        data = bytes(rng.randrange(256) for _ in range(size))
        start = rng.randrange(65536)
        assert save.crc16(data) == bitwise(data)
        assert save.crc16(data, start) == bitwise(data, start)
        assert save.crc16(memoryview(data)) == bitwise(data)
