"""Saving on microcontroller.nvm (size, corruption, minimal writes), the file fallback, the buzzer."""

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device_doubles import Device
from hardware.buzzer import CUES, Buzzer
from hardware.storage import (HALF_MAX, HEADER, FileStorage, NoStorage, NvmStorage, checksum,
                              frame, open_storage, parse)
from rolit_core.save import MENU_LARGEST


@pytest.fixture
def device():
    dev = Device()
    yield dev
    dev.close()


def test_crc16_known_value():
    assert checksum(b"123456789") == 0x29B1   # the CRC-16/CCITT-FALSE check value
    assert checksum(b"") == 0xFFFF


def test_a_byte_erased_to_ff_is_caught(device):
    nvm = device.microcontroller.nvm
    store = NvmStorage(nvm)
    store.save(b"\x00\x01\x02")
    nvm[HEADER] = 0xFF
    assert store.load() is None and "corrupt" in store.error


def test_blank_nvm_holds_no_game(device):
    store = NvmStorage(device.microcontroller.nvm)
    assert store.load() is None
    assert store.error is None
    assert store.half == HALF_MAX and store.capacity == HALF_MAX - HEADER


def test_round_trip_appends_records_and_unchanged_data_writes_nothing(device):
    nvm = device.microcontroller.nvm
    store = NvmStorage(nvm)
    data = bytes(range(200))
    assert store.save(data)
    # The first save on blank nvm: its record alone (the rest of the half is erased already).
    assert nvm.writes == 1 and nvm.written == HEADER + 200
    assert store.load() == data
    assert store.save(data)                       # unchanged: no flash write at all
    assert nvm.writes == 1
    changed = bytearray(data)
    changed[100] = 7
    assert store.save(bytes(changed))
    # The next record is appended after the first: one write of one record.
    assert nvm.writes == 2 and nvm.written == 2 * (HEADER + 200)
    assert NvmStorage(nvm).load() == bytes(changed)
    assert nvm[0:2] == b"RL" and nvm[HEADER + 200:HEADER + 202] == b"RL"


def test_records_fill_a_half_then_the_other(device):
    nvm = device.microcontroller.nvm
    store = NvmStorage(nvm)
    for i in range(12):
        assert store.save(bytes([i]) * 150)
        assert NvmStorage(nvm).load() == bytes([i]) * 150
    # 3 records of 159 bytes fit a half of 512: saves 0-2 in half 0, 3-5 in half 1, ...
    assert nvm[3 * 159:3 * 159 + 4] == b"\xff" * 4
    assert nvm[0:2] == b"RL" and nvm[HALF_MAX:HALF_MAX + 2] == b"RL"
    assert nvm[2 * HALF_MAX:2 * HALF_MAX + 4] == b"\xff" * 4   # the rest of nvm is untouched
    assert nvm.writes == 12


def test_offset_leaves_the_start_alone(device):
    nvm = device.microcontroller.nvm
    nvm[0:4] = b"keep"
    store = NvmStorage(nvm, offset=100)
    store.save(b"game")
    assert nvm[0:4] == b"keep"
    assert nvm[100:102] == b"RL"
    assert store.load() == b"game"
    assert store.half == HALF_MAX
    small = NvmStorage(nvm, offset=3400)
    assert small.half == 348 and small.capacity == 348 - HEADER


def test_too_big_is_refused_with_a_message(device):
    store = NvmStorage(device.microcontroller.nvm, offset=3900)
    assert store.capacity == (4096 - 3900) // 2 - HEADER
    assert not store.save(bytes(200))
    assert "does not fit" in store.error
    assert store.load() is None
    with pytest.raises(ValueError):
        NvmStorage(device.microcontroller.nvm, offset=4080)
    with pytest.raises(ValueError):
        NvmStorage(None)


@pytest.mark.parametrize("damage, message", [
    (lambda nvm: nvm.__setitem__(HEADER + 3, 99), "checksum"),
    (lambda nvm: nvm.__setitem__(2, 9), "format"),
    (lambda nvm: nvm.__setitem__(slice(5, 7), b"\xff\xf0"), "checksum"),
])
def test_corruption_is_detected(device, damage, message):
    nvm = device.microcontroller.nvm
    store = NvmStorage(nvm)
    store.save(b"a saved game")
    damage(nvm)
    assert store.load() is None
    assert message in store.error


def test_a_format_1_save_still_loads(device):
    nvm = device.microcontroller.nvm
    data = b"an older game"
    crc = checksum(data)
    nvm[0:7 + len(data)] = b"RL\x01" + bytes((0, len(data), crc >> 8, crc & 255)) + data
    store = NvmStorage(nvm)
    assert store.load() == data and store.error is None
    assert store.save(b"a newer game")      # goes to the other half: the old copy stays
    assert nvm[0:3] == b"RL\x01" and nvm[HALF_MAX:HALF_MAX + 3] == b"RL\x02"
    assert NvmStorage(nvm).load() == b"a newer game"


def test_open_storage_falls_back_to_a_file(device, tmp_path):
    store, message = open_storage("nvm", microcontroller=device.microcontroller)
    assert isinstance(store, NvmStorage) and message is None
    assert store.capacity >= MENU_LARGEST
    device.microcontroller.nvm = None
    path = str(tmp_path / "rolit.sav")
    store, message = open_storage("nvm", path, microcontroller=device.microcontroller)
    assert isinstance(store, FileStorage)
    assert "no microcontroller.nvm" in message
    device.microcontroller.nvm = device.microcontroller.NVM(100)
    store, message = open_storage("nvm", path, microcontroller=device.microcontroller)
    assert isinstance(store, FileStorage) and "too small" in message
    assert isinstance(open_storage("none")[0], NoStorage)


def test_an_nvm_offset_that_leaves_too_little_for_two_saves_is_refused(device, tmp_path):
    # 300 bytes would have done before (one copy, at least 256 bytes); a 7-round match needs
    # two copies of 467 bytes.
    path = str(tmp_path / "rolit.sav")
    for offset, fits in ((0, True), (4096 - 2 * (MENU_LARGEST + HEADER), True),
                         (4096 - 2 * (MENU_LARGEST + HEADER) + 2, False), (3796, False)):
        store, message = open_storage("nvm", path, offset, device.microcontroller)
        assert isinstance(store, NvmStorage) == fits, offset
        if not fits:
            assert "too small" in message and "ROLIT_NVM_OFFSET" in message and path in message


def test_file_storage(tmp_path):
    path = str(tmp_path / "rolit.sav")
    store = FileStorage(path)
    assert store.load() is None
    assert store.save(b"hello")
    assert store.save(b"hello")
    assert store.writes == 1
    assert FileStorage(path).load() == b"hello"
    with open(path, "rb") as handle:
        assert handle.read() == frame(b"hello", 1)
    assert not os.path.exists(path + ".new")
    blob = bytearray(frame(b"hello", 1))
    blob[-1] ^= 1
    with open(path, "wb") as handle:
        handle.write(blob)
    again = FileStorage(path)
    assert again.load() is None and "corrupt" in again.error
    os.remove(path)


def test_file_storage_read_only(tmp_path):
    store = FileStorage(str(tmp_path / "missing" / "rolit.sav"))
    assert not store.save(b"x")
    assert "cannot write" in store.error


def test_a_file_that_is_not_a_save_is_never_overwritten(tmp_path):
    path = tmp_path / "code.py"
    path.write_text("print('my program')\n")
    store = FileStorage(str(path))
    assert store.load() is None and "not a saved game" in store.error
    assert not store.save(b"game")
    assert "not a saved game" in store.error
    assert path.read_text() == "print('my program')\n"
    assert not (tmp_path / "code.py.new").exists()
    folder = tmp_path / "folder.sav"
    folder.mkdir()
    store = FileStorage(str(folder))
    assert store.load() is None and store.error
    assert not store.save(b"game") and folder.is_dir()


def test_a_format_1_file_still_loads(tmp_path):
    path = tmp_path / "rolit.sav"
    data = b"an older game"
    crc = checksum(data)
    path.write_bytes(b"RL\x01" + bytes((0, len(data), crc >> 8, crc & 255)) + data)
    store = FileStorage(str(path))
    assert store.load() == data and store.error is None
    assert store.save(b"new") and FileStorage(str(path)).load() == b"new"


def test_buzzer_plays_cues_without_blocking(device):
    log = device.pwmio.LOG
    buzzer = Buzzer(device.board.GP15, volume=50, pwmio=device.pwmio)
    buzzer.play("capture", 1000)
    assert log[-1] == (880, 16384)
    buzzer.update(1049)
    assert log[-1] == (880, 16384)
    buzzer.update(1050)
    assert log[-1] == (1320, 16384)
    buzzer.update(1100)
    assert log[-1] == (1760, 16384)
    buzzer.update(1170)
    assert log[-1] == (1760, 0) and buzzer.playing is None
    count = len(log)
    buzzer.play("no such cue", 2000)
    assert len(log) == count
    assert {"place", "capture", "illegal", "win", "tick", "start", "undo", "timeout",
            "error"} <= set(CUES)


def test_buzzer_volume(device):
    quiet = Buzzer(device.board.GP15, volume=0, pwmio=device.pwmio)
    quiet.play("win", 0)
    assert device.pwmio.LOG == []
    loud = Buzzer(device.board.GP15, volume=100, pwmio=device.pwmio)
    loud.play("place", 0)
    assert device.pwmio.LOG == [(1320, 32768)]
    with pytest.raises(ValueError):
        Buzzer(device.board.GP15, volume=101, pwmio=device.pwmio)


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=0, max_size=64), st.integers(0, 63), st.integers(0, 255))
def test_damaged_nvm_never_raises_and_never_returns_wrong_data(data, where, byte):
    nvm = bytearray(b"\xff" * 256)
    store = NvmStorage(nvm)
    store.save(data)
    before = bytes(nvm)
    nvm[where] = byte
    loaded = NvmStorage(nvm).load()
    if bytes(nvm) == before:
        assert loaded == data
    else:
        # A changed byte is caught, unless it lies beyond the saved bytes.
        assert loaded is None or (where >= HEADER + len(data) and loaded == data)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_random_nvm_contents_load_safely(blob):
    nvm = bytearray(blob + b"\xff" * (300 - len(blob)))
    store = NvmStorage(nvm)
    loaded = store.load()
    if loaded is not None:
        # it is the data of a record whose checksum holds, at the start of a half or after one
        found = [parse(nvm[at:]) for at in range(300)]
        assert any(data == loaded for data, _, _ in found)


def test_a_game_saved_by_the_previous_version_resumes_on_the_device(device):
    # nvm as the previous version left it: a format 1 record holding a version 1 save
    from rolit_core.app import App
    from test_app_reliability import V1_SAVE

    nvm = device.microcontroller.nvm
    crc = checksum(V1_SAVE)
    nvm[0:7 + len(V1_SAVE)] = (b"RL\x01" + bytes((0, len(V1_SAVE), crc >> 8, crc & 255))
                               + V1_SAVE)
    app = App(storage=NvmStorage(nvm), seed=1)
    assert app.error is None and app.mode == "play"
    assert app.game.moves == [19, 16, 8, 1, 17, 22, 28]
    app.hints = False
    app.save()
    again = App(storage=NvmStorage(nvm), seed=2)
    assert again.game.moves == app.game.moves and not again.hints


def test_parse_names_what_is_wrong_with_a_record():
    record = frame(b"hello", 7)
    assert parse(record) == (b"hello", 7, None)
    assert parse(record[:-2]) == (None, 7, "saved game is cut short (3 of 5 bytes): ignored")
    assert parse(record[:HEADER]) == (None, 7, "saved game is cut short (0 of 5 bytes): ignored")
    other = b"RL\x07" + record[3:]
    assert parse(other) == (None, 0, "saved game has format 7, expected 2: ignored")
    damaged = record[:-1] + b"?"
    assert parse(damaged) == (None, 7, "saved game is corrupt (checksum): ignored")
    assert parse(b"not ours at all") == (None, 0, None) and parse(None) == (None, 0, None)
    # a format 1 record of no data is exactly its 7-byte header
    empty = b"RL\x01\x00\x00" + bytes((checksum(b"") >> 8, checksum(b"") & 255))
    assert parse(empty) == (b"", 0, None)
    assert parse(empty[:6]) == (None, 0, None)
