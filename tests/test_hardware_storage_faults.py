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


# -- erase, the sequence number's wrap, a full record, random sequences ----------------------

def saved_game(saves):
    """nvm after ``saves`` went in one after another, and the store that wrote them."""
    nvm = CutNvm()
    store = NvmStorage(nvm)
    for data in saves:
        assert store.save(data)
    return nvm, store


# Games whose records fill half 0 only, both halves with half 1 newest, both with half 0
# newest; the next game's first save as long as the old first one (a complete new record is
# then followed by the old game's second one, in sequence if numbers restart) or not.
ERASED_GAMES = [SAVES[:3], SAVES[:9], SAVES[:14]]


@pytest.mark.parametrize("old", ERASED_GAMES, ids=["one-half", "half-1-newest", "half-0-newest"])
@pytest.mark.parametrize("same_length", [True, False], ids=["same-length", "other-length"])
def test_an_erased_game_never_comes_back_after_a_cut_save(old, same_length):
    nvm, store = saved_game(old)
    store.erase()
    erased = bytes(nvm.data)
    assert NvmStorage(CutNvm(erased)).load() is None
    first = bytes(len(old[0])) if same_length else b"a new game"
    second = bytes([7]) * len(old[1])
    # the first save after the erase, cut at every byte (it writes a whole half)
    for k in range(HALF_MAX + 1):
        copy = CutNvm(erased)
        save_with_fault(NvmStorage(copy), copy, first, k, PowerCut)
        assert NvmStorage(copy).load() in (None, first), k
    # the second, after the first went in whole
    copy = CutNvm(erased)
    assert NvmStorage(copy).save(first)
    before = bytes(copy.data)
    for k in range(HALF_MAX + 1):
        cut = CutNvm(before)
        save_with_fault(NvmStorage(cut), cut, second, k, PowerCut)
        assert NvmStorage(cut).load() in (first, second), k


@pytest.mark.parametrize("old", ERASED_GAMES, ids=["one-half", "half-1-newest", "half-0-newest"])
def test_an_erase_cut_short_leaves_the_game_or_nothing_never_an_older_copy(old):
    nvm, _ = saved_game(old)
    before = bytes(nvm.data)
    for k in range(2 * HALF_MAX + 2):
        copy = CutNvm(before)
        copy.budget = k
        try:
            NvmStorage(copy).erase()
        except PowerCut:
            pass
        assert NvmStorage(copy).load() in (old[-1], None), k
    # nvm erased by a fresh object (after a reboot) too
    copy = CutNvm(before)
    NvmStorage(copy).erase()
    assert NvmStorage(copy).load() is None


def test_records_whose_magic_an_older_erase_cleared_never_come_back():
    # What erase() wrote before: only the two magic bytes of each half cleared, the records
    # behind them whole. The next save cut two bytes in wrote "RL" back over the old header.
    nvm, _ = saved_game(SAVES[:9])
    nvm.data[0:2] = b"\x00\x00"
    nvm.data[HALF_MAX:HALF_MAX + 2] = b"\x00\x00"
    cleared = bytes(nvm.data)
    assert NvmStorage(CutNvm(cleared)).load() is None
    for data in (bytes(len(SAVES[0])), b"new"):
        for k in range(2 * HALF_MAX + 2):
            copy = CutNvm(cleared)
            save_with_fault(NvmStorage(copy), copy, data, k, PowerCut)
            assert NvmStorage(copy).load() in (None, data), k


def test_the_sequence_number_wraps_at_65536():
    nvm = CutNvm()
    # the newest record numbered just below the wrap, as 65,533 saves would leave it
    record = storage_module.frame(b"old", 65533)
    nvm.data[0:len(record)] = record
    for count in range(1, 9):
        store = NvmStorage(nvm)
        data = b"save %d" % count
        assert store.save(data)
        # a fresh store (a reboot) loads the newest across the wrap, and numbers on from it
        again = NvmStorage(nvm)
        assert again.load() == data and again.error is None
        assert again._seq == (65533 + count) & 0xFFFF
    again = NvmStorage(nvm)
    again.load()
    assert again._seq == 5
    # and a save cut after the wrap still leaves the one before it
    copy = CutNvm(bytes(nvm.data))
    save_with_fault(NvmStorage(copy), copy, b"cut", 3, PowerCut)
    assert NvmStorage(copy).load() == b"save 8"


def test_the_newest_of_two_halves_across_the_wrap():
    for old_seq, new_seq in ((65535, 0), (65000, 10), (40000, 7000)):
        for new_half in (0, 1):
            nvm = CutNvm()
            for seq, half, data in ((old_seq, 1 - new_half, b"older"),
                                    (new_seq, new_half, b"newer")):
                record = storage_module.frame(data, seq)
                nvm.data[half * HALF_MAX:half * HALF_MAX + len(record)] = record
            assert NvmStorage(nvm).load() == b"newer", (old_seq, new_seq, new_half)


def test_a_save_of_exactly_capacity_bytes_is_reloaded_by_a_fresh_store():
    for offset in (0, 1000, 4096 - 2 * 300):
        nvm = CutNvm()
        store = NvmStorage(nvm, offset=offset)
        full = bytes(range(256)) * (store.capacity // 256) + bytes(store.capacity % 256)
        assert len(full) == store.capacity
        assert store.save(full)
        assert NvmStorage(nvm, offset=offset).load() == full
        other = bytes(reversed(full))
        assert store.save(other)                    # the other half, also exactly full
        assert NvmStorage(nvm, offset=offset).load() == other
        assert not store.save(full + b"!") and "does not fit" in store.error
        assert NvmStorage(nvm, offset=offset).load() == other


@pytest.mark.parametrize("seed", range(8))
def test_random_sequences_of_saves_erases_cuts_and_reboots(seed):
    """A random mix of saves, erases, saves and erases cut at a random byte, and reboots (a
    fresh store): after each step a fresh store loads what the last finished step left (after a
    cut: that or what the cut step would have left), never an erased game."""
    rng = random.Random(seed)
    nvm = CutNvm()
    store = NvmStorage(nvm)
    good = None          # what a fresh store must load
    for step in range(400):
        action = rng.choice("sssssscceer")
        data = rng.choice(SAVES) if rng.random() < 0.6 else bytes(
            [step & 255]) * rng.randrange(1, 300)
        allowed = (good,)
        if action in "sc":
            if action == "c":
                nvm.budget = rng.randrange(9 + len(data) + HALF_MAX)
            try:
                assert store.save(data)
                allowed = (data,)
            except PowerCut:
                allowed = (good, data)
                store = NvmStorage(nvm)
        elif action == "e":
            if rng.random() < 0.5:
                nvm.budget = rng.randrange(2 * HALF_MAX + 2)
            try:
                store.erase()
                allowed = (None,)
            except PowerCut:
                allowed = (good, None)
                store = NvmStorage(nvm)
        else:
            store = NvmStorage(nvm)
        nvm.budget = None
        loaded = NvmStorage(nvm).load()
        assert loaded in allowed, (step, action, good is None)
        good = loaded


class FlakyFS(FakeFS):
    """A FakeFS whose every step (a byte written, an open, a rename, a remove) fails with an
    OSError at ``odds`` (a rename or a remove at ``rename_odds``), or loses the power at
    ``cut_odds``; faults come from ``rng``, so whole sequences of them happen across saves."""

    def __init__(self, rng, replace, odds=0.0, rename_odds=0.0, cut_odds=0.0):
        FakeFS.__init__(self, replace=replace)
        self.rng = rng
        self.odds = odds
        self.rename_odds = rename_odds
        self.cut_odds = cut_odds
        self.renaming = False

    def step(self):
        FakeFS.step(self)
        roll = self.rng.random()
        if roll < self.cut_odds:
            raise PowerCut("cut")
        if roll < self.cut_odds + (self.rename_odds if self.renaming else self.odds):
            raise OSError(5, "I/O error")

    def rename(self, old, new):
        self.renaming = True
        try:
            FakeFS.rename(self, old, new)
        finally:
            self.renaming = False

    def remove(self, path):
        self.renaming = True
        try:
            FakeFS.remove(self, path)
        finally:
            self.renaming = False


def test_file_fault_sequence_rename_fails_then_write_fails_then_save_works(fake_fs):
    # A failed rename leaves PATH.new as the only copy of the newest save; the next save's write
    # fails; the one after works. A fresh store (a reboot) at each point loads the last good one.
    fs = fake_fs(FakeFS())
    store = FileStorage("/rolit.sav")
    assert store.save(b"one")
    # FAT: the rename fails (PATH exists), the remove fails, so does the rename after it
    fs.fault = OSError
    fs.budget = 1 + 9 + 3                   # open, the bytes, then the remove
    assert store.save(b"two")               # in PATH.new, durable
    assert "cannot rename" in store.error
    assert sorted(fs.files) == ["/rolit.sav", "/rolit.sav.new"]
    assert FileStorage("/rolit.sav").load() == b"two"
    fs.budget = 2 + 1 + 3                   # the settling remove and rename, open, 3 bytes
    assert not store.save(b"three") and "cannot write" in store.error
    assert FileStorage("/rolit.sav").load() == b"two"
    again = FileStorage("/rolit.sav")
    assert again.load() == b"two"
    assert again.save(b"four") and again.error is None
    assert FileStorage("/rolit.sav").load() == b"four"
    assert store.save(b"five")              # the old object goes on too
    assert FileStorage("/rolit.sav").load() == b"five"
    assert list(fs.files) == ["/rolit.sav"]


@pytest.mark.parametrize("replace", [False, True], ids=["fat", "posix"])
@pytest.mark.parametrize("seed", range(12))
def test_file_random_fault_sequences_across_saves(fake_fs, replace, seed):
    """Saves and erases on a drive whose writes, renames and removes fail now and then (an
    OSError) or lose the power, with fresh stores at random points: after every step a fresh
    store loads the last good copy, or the new save if it was cut or reported saved; a save that
    said True is there; one that said False left the last good copy; an erased game never
    comes back."""
    rng = random.Random(seed)
    fs = fake_fs(FlakyFS(rng, replace, odds=0.004, rename_odds=0.3, cut_odds=0.002))
    store = FileStorage("/rolit.sav")
    good = None
    for step in range(500):
        data = rng.choice(SAVES[:20] + [b"short", b"x" * 300])
        if rng.random() < 0.06:
            try:
                if store.erase():
                    allowed = (None,)
                else:
                    assert "not erased" in store.error
                    allowed = (good, None)
            except PowerCut:
                allowed = (good, None)
                store = FileStorage("/rolit.sav")
        else:
            try:
                result = store.save(data)
                allowed = (data,) if result else (good,)
                if not result:
                    assert store.error, step
            except PowerCut:
                allowed = (good, data)
                store = FileStorage("/rolit.sav")
        odds = fs.odds, fs.rename_odds, fs.cut_odds
        fs.odds = fs.rename_odds = fs.cut_odds = 0
        fresh = FileStorage("/rolit.sav")
        loaded = fresh.load()
        fs.odds, fs.rename_odds, fs.cut_odds = odds
        assert loaded in allowed, (step, loaded in SAVES, good is None, sorted(fs.files))
        assert fresh.error is None or loaded is None, fresh.error
        good = loaded
        if rng.random() < 0.2:
            store = FileStorage("/rolit.sav")


class _FailingReader(_Reader):
    def read(self, count=-1):
        raise OSError(5, "I/O error")


def test_a_save_file_that_cannot_be_read_is_left_alone(fake_fs):
    # It opens but reading fails (a bad sector, a card pulled half out): it may be the last good
    # copy, so nothing is saved over it until it reads again or the user deletes it.
    fs = fake_fs(FakeFS())
    assert FileStorage("/rolit.sav").save(b"the last good copy")
    kept = dict(fs.files)
    opener = fs.open

    def failing_open(path, mode="r"):
        handle = opener(path, mode)
        return _FailingReader(handle.data) if "r" in mode and path == "/rolit.sav" else handle

    fs.open = failing_open
    filestore_module.open = failing_open
    store = FileStorage("/rolit.sav")
    assert store.load() is None and "cannot read /rolit.sav" in store.error
    assert not store.save(b"new game") and "cannot read /rolit.sav" in store.error
    assert fs.files == kept
    fs.open = filestore_module.open = opener
    assert FileStorage("/rolit.sav").load() == b"the last good copy"


class StuckFS(FakeFS):
    """A FakeFS on which one path cannot be removed."""

    def __init__(self, files, stuck):
        FakeFS.__init__(self, files)
        self.stuck = stuck

    def remove(self, path):
        if path == self.stuck:
            raise OSError(13, "permission denied")
        FakeFS.remove(self, path)


def test_file_erase_removes_both_copies_or_says_which_it_could_not(fake_fs):
    frame = storage_module.frame
    newest_in_path = {"/rolit.sav": frame(b"newer", 5), "/rolit.sav.new": frame(b"older", 4)}
    newest_in_new = {"/rolit.sav": frame(b"older", 4), "/rolit.sav.new": frame(b"newer", 5)}
    for files in (newest_in_path, newest_in_new):
        fs = fake_fs(FakeFS(files))
        store = FileStorage("/rolit.sav")
        assert store.load() == b"newer"
        assert store.erase() is True and store.error is None
        assert fs.files == {} and FileStorage("/rolit.sav").load() is None
        # the older copy goes first: whichever cannot be removed, the newest stays or nothing
        for stuck in files:
            fs = fake_fs(StuckFS(files, stuck))
            store = FileStorage("/rolit.sav")
            assert store.erase() is False
            assert store.error == ("cannot remove %s ([Errno 13] permission denied): game not "
                                   "erased" % stuck)
            assert FileStorage("/rolit.sav").load() in (b"newer", None)
            assert stuck in fs.files
    # a file that is not a save of this program is not removed
    fs = fake_fs(FakeFS({"/rolit.sav": b"print('my program')\n"}))
    store = FileStorage("/rolit.sav")
    assert store.erase() is False and "not a saved game" in store.error
    assert fs.files == {"/rolit.sav": b"print('my program')\n"}
    # a fresh erase, nothing saved: True
    fake_fs(FakeFS())
    assert FileStorage("/rolit.sav").erase() is True


def test_nvm_erase_reports_a_failed_write():
    nvm = CutNvm()
    store = NvmStorage(nvm)
    assert store.save(b"game")
    nvm.budget = 3
    nvm.fault = OSError
    assert store.erase() is False and "game not erased" in store.error
    assert NvmStorage(nvm).load() in (b"game", None)
    assert store.erase() is True and store.error is None
    assert NvmStorage(nvm).load() is None and nvm.data == bytearray(b"\xff" * 4096)
    writes = nvm.writes
    assert store.erase() is True and nvm.writes == writes   # blank already: nothing written


def test_a_save_is_synced_where_fsync_is_missing(fake_fs):
    # CircuitPython has no os.fsync: the drive's cache is flushed with os.sync instead
    fs = fake_fs(FakeFS())
    synced = []
    fs.sync = lambda: synced.append(dict(fs.files))
    assert FileStorage("/rolit.sav").save(b"game")
    assert len(synced) == 1 and "/rolit.sav.new" in synced[0]   # before the rename
    assert FileStorage("/rolit.sav").load() == b"game"
