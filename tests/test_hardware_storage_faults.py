"""A save that fails or is cut short at ANY byte never loses the last good copy: after the fault
(and a 'power cut': a fresh storage object on what the medium holds) the previous save or the new
one loads, never nothing and never anything else. For nvm and for files (FAT-like renames that
cannot replace a file, and POSIX ones that can)."""

import binascii
import random

import pytest

import hardware.filestore as filestore_module
import hardware.saverecord as storage_module
from hardware.storage import HALF_MAX, FileStorage, NvmStorage
from rolit_core.app import SELECT, App
from test_app_support import Driver, Storage


@pytest.fixture(autouse=True)
def fast_checksum(monkeypatch):
    """The same CRC-16/CCITT-FALSE from C (these tests check the records, not the sum's speed):
    thousands of cut points then take seconds, not minutes."""
    def crc(data, start=0xFFFF):
        return binascii.crc_hqx(bytes(data), start)

    for sample in (b"123456789", bytes(range(256)), b""):
        assert crc(sample) == storage_module.checksum(sample)
    assert crc(b"6789", crc(b"12345")) == storage_module.checksum(b"6789",
                                                                  storage_module.checksum(b"12345"))
    monkeypatch.setattr(storage_module, "checksum", crc)
    monkeypatch.setattr(filestore_module, "checksum", crc, raising=False)


class PowerCut(BaseException):
    """The power goes: nothing after it runs (not even ``except Exception``)."""


class CutNvm:
    """``microcontroller.nvm`` whose next write stops after ``budget`` bytes: with a PowerCut, or
    with an OSError the program sees. Counts writes to bytes that were not all erased (0xFF): on
    the RP2040 those are the writes that erase and rewrite the whole 4 KiB sector."""

    def __init__(self, data=None, size=4096):
        self.data = bytearray(b"\xff" * size) if data is None else bytearray(data)
        self.budget = None
        self.fault = PowerCut
        self.writes = 0
        self.erases = 0

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return bytearray(self.data[index])
        return self.data[index]

    def __setitem__(self, index, value):
        start = index.start or 0
        stop = len(self.data) if index.stop is None else index.stop
        assert stop - start == len(value) and stop <= len(self.data)
        if self.data[start:stop].count(0xFF) != stop - start:
            self.erases += 1
        self.writes += 1
        budget = self.budget
        if budget is not None and budget < len(value):
            self.budget = None
            self.data[start:start + budget] = value[:budget]
            raise self.fault("cut after %d bytes" % budget)
        if budget is not None:
            self.budget = budget - len(value)
        self.data[start:stop] = value


def save_with_fault(store, medium, data, budget, fault):
    """``store.save(data)`` with the ``medium`` failing after ``budget`` steps: the result, or
    None if the power went."""
    medium.budget = budget
    medium.fault = fault
    try:
        return store.save(data)
    except PowerCut:
        return None


def app_saves():
    """What the app writes over a game and the start of a 3-round match (every save, in order),
    plus records of random sizes up to the largest the menu allows."""
    storage = Storage()
    d = Driver(App(storage=storage, seed=5))
    d.start(seats=("human", "easy"), size=8, rounds=3, first="red")
    rng = random.Random(3)
    while d.app.mode == "play":
        d.wait_for_human()
        if d.app.mode != "play":
            break
        d.goto(rng.choice(d.app.game.legal_moves()))
        d.tap(SELECT)
        d.finish_move()
    sizes = [rng.randrange(20, 468) for _ in range(12)]
    return storage.history + [bytes([rng.randrange(256) for _ in range(n)]) for n in sizes]


SAVES = app_saves()


def test_the_sequence_is_realistic():
    assert len(SAVES) > 40
    assert max(len(s) for s in SAVES) >= 400


def write_size(nvm_data, data):
    """How many bytes the save of ``data`` writes to a copy of ``nvm_data``."""
    probe = CutNvm(nvm_data)
    before = bytes(probe.data)
    NvmStorage(probe).save(data)
    changed = [i for i in range(len(before)) if before[i] != probe.data[i]]
    return (changed[-1] - changed[0] + 1) if changed else 0


@pytest.mark.parametrize("fault", [PowerCut, OSError])
def test_nvm_fault_at_every_byte_of_every_save(fault):
    nvm = CutNvm()
    running = NvmStorage(nvm)
    good = None
    cuts = restarts = 0
    for data in SAVES:
        snapshot = bytes(nvm.data)
        assert NvmStorage(CutNvm(snapshot)).load() == good
        length = len(data) + 9
        # every byte of the record, and every byte of a half when the save starts one
        span = HALF_MAX if write_size(snapshot, data) > length else length
        restarts += span == HALF_MAX
        for k in range(span + 1):
            copy = CutNvm(snapshot)
            store = NvmStorage(copy)
            result = save_with_fault(store, copy, data, k, fault)
            if fault is OSError and k < span:
                assert result is False and "nvm write failed" in store.error
                # the same object, without a restart (the new record may be whole already if
                # its last bytes were there before)
                assert store.load() in (good, data)
            loaded = NvmStorage(copy).load()          # after the power cut
            assert loaded in (good, data), (k, span)
            if good is not None:
                assert loaded is not None
            if k >= span:
                assert loaded == data
            cuts += 1
        assert running.save(data)
        # the running object and one that just booted write the same
        fresh = CutNvm(snapshot)
        NvmStorage(fresh).save(data)
        assert fresh.data == nvm.data
        good = data
    assert cuts > 10000 and restarts >= 5


def test_after_a_cut_the_next_save_goes_on():
    nvm = CutNvm()
    store = NvmStorage(nvm)
    store.save(b"first game")
    nvm.budget = 5
    with pytest.raises(PowerCut):
        store.save(b"second game, cut short")
    again = NvmStorage(nvm)
    assert again.load() == b"first game"
    assert again.error == "the last save was cut short: the one before it was loaded"
    assert again.save(b"third game")
    assert NvmStorage(nvm).load() == b"third game"
    assert NvmStorage(nvm).error is None


def test_a_sector_erase_happens_once_a_half_not_every_save():
    # Measured on the app's saves of a game: appends go to erased bytes, which an RP2040
    # programs without erasing the sector.
    nvm = CutNvm()
    store = NvmStorage(nvm)
    game = SAVES[:-12]
    for data in game:
        store.save(data)
    assert nvm.writes == len(game)
    assert nvm.erases <= len(game) // 6, (nvm.erases, len(game))


# -- files ----------------------------------------------------------------------------------

class FakeFS:
    """Files in memory with a budget of steps (each byte written, each rename or remove) before
    a fault. ``replace``: a rename replaces an existing file (POSIX); else it fails (FAT)."""

    def __init__(self, files=None, replace=False):
        self.files = dict(files or {})
        self.replace = replace
        self.budget = None
        self.fault = PowerCut

    def step(self):
        if self.budget is not None:
            if self.budget == 0:
                self.budget = None
                raise self.fault(28, "cut")
            self.budget -= 1

    # the parts of os that hardware.storage uses
    def rename(self, old, new):
        if old not in self.files:
            raise OSError(2, "no such file")
        if new in self.files and not self.replace:
            raise OSError(17, "exists")
        self.step()
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        if path not in self.files:
            raise OSError(2, "no such file")
        self.step()
        del self.files[path]

    def stat(self, path):
        if path not in self.files:
            raise OSError(2, "no such file")
        return (0,) * 10

    def open(self, path, mode="r"):
        if "w" in mode:
            self.step()
            self.files[path] = bytearray()
            return _Writer(self, path)
        if path not in self.files:
            raise OSError(2, "no such file")
        return _Reader(bytes(self.files[path]))


class _Writer:
    def __init__(self, fs, path):
        self.fs = fs
        self.path = path

    def write(self, data):
        for byte in data:
            self.fs.step()
            self.fs.files[self.path].append(byte)
        return len(data)

    def flush(self):
        pass

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _Reader:
    def __init__(self, data):
        self.data = data
        self.at = 0

    def read(self, count=-1):
        end = len(self.data) if count < 0 else self.at + count
        chunk = self.data[self.at:end]
        self.at += len(chunk)
        return chunk

    def close(self):
        pass


@pytest.fixture
def fake_fs(monkeypatch):
    def use(fs):
        monkeypatch.setattr(filestore_module, "os", fs)
        monkeypatch.setattr(filestore_module, "open", fs.open, raising=False)
        return fs
    return use


@pytest.mark.parametrize("replace", [False, True], ids=["fat", "posix"])
@pytest.mark.parametrize("fault", [PowerCut, OSError])
def test_file_fault_at_every_step_of_every_save(fake_fs, replace, fault):
    fs = fake_fs(FakeFS(replace=replace))
    running = FileStorage("/rolit.sav")
    good = None
    cuts = 0
    for data in SAVES:
        snapshot = dict((k, bytes(v)) for k, v in fs.files.items())
        steps = 1 + len(data) + 9 + 3  # open, every byte, remove and renames
        for k in range(steps + 1):
            fake_fs(FakeFS(snapshot, replace))
            store = FileStorage("/rolit.sav")
            assert store.load() == good
            fs_now = filestore_module.os
            result = save_with_fault(store, fs_now, data, k, fault)
            if fault is OSError and result is False:
                assert store.error and store.load() == good
            fs_now.budget = None
            loaded = FileStorage("/rolit.sav").load()
            assert loaded in (good, data), k
            if good is not None:
                assert loaded is not None
            # a save that said True is there after a power cut
            if result:
                assert loaded == data
            cuts += 1
            # and the next save after the fault works and is kept
            after = FileStorage("/rolit.sav")
            after.load()
            assert after.save(b"next"), after.error
            assert FileStorage("/rolit.sav").load() == b"next"
        fs = fake_fs(FakeFS(snapshot, replace))
        running = FileStorage("/rolit.sav")
        assert running.save(data)
        assert FileStorage("/rolit.sav").load() == data
        assert list(fs.files) == ["/rolit.sav"]   # no .new left behind
        good = data
    assert cuts > 1000


def test_a_new_copy_left_by_a_cut_between_remove_and_rename_is_found(fake_fs):
    fs = fake_fs(FakeFS())
    store = FileStorage("/rolit.sav")
    store.save(b"one")
    # cut just before the final rename: /rolit.sav removed, /rolit.sav.new complete
    fs.budget = 1 + 9 + 3 + 1
    with pytest.raises(PowerCut):
        store.save(b"two")
    assert list(fs.files) == ["/rolit.sav.new"]
    again = FileStorage("/rolit.sav")
    assert again.load() == b"two"
    # the next save moves the good copy into place before writing a new one
    fs.budget = 1 + 9 + 5
    with pytest.raises(PowerCut):
        again.save(b"three")
    assert FileStorage("/rolit.sav").load() in (b"two", b"three")
