"""Saving on microcontroller.nvm (size, corruption, minimal writes), the file fallback, the buzzer."""

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device_doubles import Device
from hardware.buzzer import CUES, Buzzer
from hardware.storage import (HEADER, FileStorage, NoStorage, NvmStorage, checksum, frame,
                              open_storage)


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
    assert store.capacity == 4096 - HEADER


def test_round_trip_and_only_changed_bytes_written(device):
    nvm = device.microcontroller.nvm
    store = NvmStorage(nvm)
    data = bytes(range(200))
    assert store.save(data)
    assert nvm.writes == 1 and nvm.written == HEADER + 200
    assert store.load() == data
    assert store.save(data)                       # unchanged: no flash write at all
    assert nvm.writes == 1
    changed = bytearray(data)
    changed[100] = 7
    changed[120] = 9
    assert store.save(bytes(changed))
    # One slice assignment covering bytes 100..120 of the data and the checksum bytes (5, 6).
    assert nvm.writes == 2
    assert nvm.written == HEADER + 200 + (HEADER + 121 - 5)
    assert NvmStorage(nvm).load() == bytes(changed)


def test_offset_leaves_the_start_alone(device):
    nvm = device.microcontroller.nvm
    nvm[0:4] = b"keep"
    store = NvmStorage(nvm, offset=100)
    store.save(b"game")
    assert nvm[0:4] == b"keep"
    assert nvm[100:102] == b"RL"
    assert store.load() == b"game"


def test_too_big_is_refused_with_a_message(device):
    store = NvmStorage(device.microcontroller.nvm, offset=4000)
    assert store.capacity == 4096 - 4000 - HEADER
    assert not store.save(bytes(200))
    assert "does not fit" in store.error
    assert store.load() is None
    with pytest.raises(ValueError):
        NvmStorage(device.microcontroller.nvm, offset=4093)
    with pytest.raises(ValueError):
        NvmStorage(None)


@pytest.mark.parametrize("damage, message", [
    (lambda nvm: nvm.__setitem__(HEADER + 3, 99), "checksum"),
    (lambda nvm: nvm.__setitem__(2, 9), "format"),
    (lambda nvm: nvm.__setitem__(slice(3, 5), b"\xff\xf0"), "claims"),
])
def test_corruption_is_detected(device, damage, message):
    nvm = device.microcontroller.nvm
    store = NvmStorage(nvm)
    store.save(b"a saved game")
    damage(nvm)
    assert store.load() is None
    assert message in store.error


def test_open_storage_falls_back_to_a_file(device, tmp_path):
    store, message = open_storage("nvm", microcontroller=device.microcontroller)
    assert isinstance(store, NvmStorage) and message is None
    device.microcontroller.nvm = None
    path = str(tmp_path / "rolit.sav")
    store, message = open_storage("nvm", path, microcontroller=device.microcontroller)
    assert isinstance(store, FileStorage)
    assert "no microcontroller.nvm" in message
    device.microcontroller.nvm = device.microcontroller.NVM(100)
    store, message = open_storage("nvm", path, microcontroller=device.microcontroller)
    assert isinstance(store, FileStorage) and "too small" in message
    assert isinstance(open_storage("none")[0], NoStorage)


def test_file_storage(tmp_path):
    path = str(tmp_path / "rolit.sav")
    store = FileStorage(path)
    assert store.load() is None
    assert store.save(b"hello")
    assert store.save(b"hello")
    assert store.writes == 1
    assert FileStorage(path).load() == b"hello"
    with open(path, "rb") as handle:
        assert handle.read() == frame(b"hello")
    blob = bytearray(frame(b"hello"))
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
    assert loaded is None or checksum(loaded) == (nvm[5] << 8 | nvm[6])
