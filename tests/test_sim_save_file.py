"""The simulator's save file is the handheld's: one record (hardware.saverecord) on a PC and on a
board, so a save moves either way; a file the simulator wrote before (the bare save) still loads
and is rewritten as a record; a file that is not a save is never written over."""

import os

import pytest

from hardware.filestore import FileStorage as BoardFile
from hardware.saverecord import MAGIC as RECORD
from rolit_core.app import App
from rolit_core.save import MAGIC as BARE
from sim.device import FileStorage


class Memory:
    def __init__(self):
        self.data = None

    def load(self):
        return self.data

    def save(self, data):
        self.data = bytes(data)


def game_save(seed=1):
    """The bytes an App saves for a game just started against easy."""
    store = Memory()
    App(storage=store, seed=seed).start(seats=("human", "easy"))
    return store.data


def test_a_save_the_simulator_writes_loads_on_the_board_and_back(tmp_path):
    path = str(tmp_path / "rolit.sav")
    data = game_save()
    sim = FileStorage(path)
    sim.save(data)
    assert open(path, "rb").read(2) == RECORD
    board = BoardFile(path)
    assert board.load() == data and board.error is None
    newer = game_save(seed=2)
    assert newer != data
    assert board.save(newer)
    assert FileStorage(path).load() == newer
    # The board's next save follows the simulator's sequence number, and the other way round:
    # a board that finds both PATH and PATH.new takes the newer.
    sim = FileStorage(path)
    sim.load()
    sim.save(data)
    assert BoardFile(path).load() == data


def test_a_bare_save_from_before_the_record_loads_and_the_next_save_writes_the_record(tmp_path):
    path = tmp_path / "rolit.sav"
    data = game_save()
    assert data[:2] == BARE
    path.write_bytes(data)  # as the simulator wrote it before
    FileStorage(str(path)).check()
    app = App(storage=FileStorage(str(path)))
    assert app.error is None and app.match is not None and not app.match.over
    moves = app.match.game.board.moves
    app.storage.save(data)
    assert path.read_bytes()[:2] == RECORD
    again = App(storage=FileStorage(str(path)))
    assert again.error is None and again.match.game.board.moves == moves
    assert os.listdir(str(tmp_path)) == ["rolit.sav"]


def test_a_damaged_record_is_reported_and_replaced(tmp_path):
    path = tmp_path / "rolit.sav"
    FileStorage(str(path)).save(game_save())
    damaged = bytearray(path.read_bytes())
    damaged[-1] ^= 0xFF
    path.write_bytes(bytes(damaged))
    FileStorage(str(path)).check()  # still this program's file
    storage = FileStorage(str(path))
    assert storage.load() is None and "checksum" in storage.error
    app = App(storage=FileStorage(str(path)))
    assert app.error is not None
    good = FileStorage(str(path))
    assert good.load() is not None and good.error is None


def test_a_file_that_is_not_a_save_is_never_written_over(tmp_path):
    path = tmp_path / "rolit.sav"
    storage = FileStorage(str(path))
    storage.check()  # nothing there yet
    path.write_text("my own notes\n")  # put there after the check
    with pytest.raises(OSError):
        storage.save(game_save())
    assert "left untouched" in storage.failure
    assert path.read_text() == "my own notes\n" and os.listdir(str(tmp_path)) == ["rolit.sav"]
