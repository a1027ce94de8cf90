"""The game in a file (``hardware.storage.FileStorage``), for boards without nvm and for Blinka.

A save writes the record to ``PATH.new`` and renames it to ``PATH``. CircuitPython's FAT cannot
rename over a file, so there ``PATH`` is removed first; ``load()`` takes a ``PATH.new`` that a
power cut left behind (the newest valid record wins), and the next save moves it into place
before writing a new one. ``PATH`` itself is never written, so it always holds the last good save.
"""

import os

from .saverecord import FORMAT, HEADER, MAGIC, OLD_HEADER, _SEQ_MASK, _header, _valid, frame, newer


def parse(blob):
    """``(data, seq, error)`` of one record: data None if ``blob`` holds no valid record (error
    None if it holds nothing of this program at all)."""
    if blob is None or len(blob) < OLD_HEADER or blob[0:2] != MAGIC:
        return None, 0, None
    found = _header(blob)
    if found is None:
        return None, 0, "saved game has format %d, expected %d: ignored" % (blob[2], FORMAT)
    size, seq, length, _ = found
    if size + length > len(blob):
        return None, seq, "saved game is cut short (%d of %d bytes): ignored" % (
            max(len(blob) - size, 0), length)
    data = bytes(blob[size:size + length])
    if not _valid(blob[:size], size, data):
        return None, seq, "saved game is corrupt (checksum): ignored"
    return data, seq, None


def unframe(blob):
    """``(data, error)`` of a record: ``(None, None)`` if nothing was ever saved."""
    data, _, error = parse(blob)
    return data, error


class FileStorage:
    """The game in a file, for boards without nvm and for Blinka. On CircuitPython the drive is
    read-only to code while it is mounted over USB: then ``save`` fails with ``error`` set and the
    game goes on unsaved (the app shows it). A file at ``path`` that is not a save of this program
    is left alone: ``load`` reports it and ``save`` refuses."""

    capacity = None

    def __init__(self, path="/rolit.sav"):
        self.path = path
        self.new_path = path + ".new"
        self.error = None
        self.writes = 0
        self._last = None       # the data of the newest good copy
        self._seq = 0
        self._in_new = False    # the newest good copy is PATH.new (a rename did not happen)
        self._foreign = None    # why the files must be left alone, or None
        self._loaded = False

    def load(self):
        self._loaded = True
        self._foreign = None
        self._in_new = False
        data, seq, problem = self._read(self.path)
        fresh, fresh_seq, fresh_problem = self._read(self.new_path)
        if self._foreign is not None:
            self.error = self._foreign
            self._last = None
            return None
        if fresh is not None and (data is None or newer(fresh_seq, seq)):
            data = fresh
            seq = fresh_seq
            self._in_new = True
        self._last = data
        self._seq = seq if data is not None else 0
        self.error = problem if data is None else None
        return data

    def _read(self, path):
        """``(data, seq, problem)`` of the record in ``path``; a file that is not a save of this
        program sets ``_foreign``."""
        try:
            handle = open(path, "rb")
        except OSError:
            if self._exists(path):
                self._foreign = "cannot read %s: left alone, not saving there" % path
            return None, 0, None
        try:
            head = handle.read(HEADER)
            if len(head) < 2 and MAGIC[:len(head)] == head:
                return None, 0, "saved game %s is cut short: ignored" % path
            if head[0:2] != MAGIC:
                if path == self.new_path:
                    return None, 0, None  # the start of a copy cut short: overwritten next
                self._foreign = ("%s is not a saved game of this program: left alone, not "
                                 "saving (delete it or set ROLIT_SAVE_FILE)" % path)
                return None, 0, None
            found = _header(head)
            if found is not None and found[0] + found[2] > len(head):
                head += handle.read(found[0] + found[2] - len(head))
            return parse(head)
        except OSError as error:
            if path == self.path:  # perhaps the last good copy: never saved over unread
                self._foreign = "cannot read %s (%s): left alone, not saving there" % (path,
                                                                                      error)
            return None, 0, "cannot read %s (%s): ignored" % (path, error)
        finally:
            handle.close()

    def _exists(self, path):
        try:
            os.stat(path)
            return True
        except OSError:
            return False

    def save(self, data):
        data = bytes(data)
        if not self._loaded:
            self.load()
        if self._foreign is not None:
            self.error = self._foreign
            return False
        if data == self._last:
            return True
        if self._in_new and not self._settle():
            return False  # the only good copy is PATH.new: it must not be overwritten
        seq = (self._seq + 1) & _SEQ_MASK
        record = frame(data, seq)
        try:
            with open(self.new_path, "wb") as handle:
                written = handle.write(record)
                if written is not None and written != len(record):
                    raise OSError("only %d of %d bytes written (drive full?)"
                                  % (written, len(record)))
                handle.flush()
                _sync_file(handle)
        except OSError as error:
            self.error = "cannot write %s (%s): not saved" % (self.new_path, error)
            try:
                os.remove(self.new_path)  # a partial copy; PATH still holds the last good one
            except OSError:
                pass
            return False
        self._last = data
        self._seq = seq
        self._in_new = True
        self.writes += 1
        self.error = None
        self._settle()  # if the rename fails, the new copy stays in PATH.new, where load finds it
        return True

    def _settle(self):
        """Rename PATH.new to PATH; False (and ``error``) if that fails."""
        try:
            os.rename(self.new_path, self.path)  # replaces PATH at once where the OS can
        except OSError:
            try:
                os.remove(self.path)  # FAT: no rename over a file
            except OSError:
                pass
            try:
                os.rename(self.new_path, self.path)
            except OSError as error:
                self.error = "cannot rename %s to %s (%s)" % (self.new_path, self.path, error)
                return False
        self._in_new = False
        return True

    def erase(self):
        """Forget the saved game: True, or False (and ``error``) if a copy could not be removed.
        The older copy goes first, so that a failure leaves the game or nothing, never an
        older copy."""
        if not self._loaded:
            self.load()
        if self._foreign is not None:
            self.error = self._foreign
            return False
        order = (self.path, self.new_path) if self._in_new else (self.new_path, self.path)
        self._loaded = False  # what is left is read again before the next save
        for path in order:
            try:
                os.remove(path)
            except OSError as error:
                if self._exists(path):
                    self.error = "cannot remove %s (%s): game not erased" % (path, error)
                    return False
        self.error = None
        return True


def _sync_file(handle):
    """Make the written bytes durable before the rename that makes them the good copy."""
    try:
        os.fsync(handle.fileno())          # CPython
    except (AttributeError, OSError, ValueError):
        sync = getattr(os, "sync", None)   # CircuitPython: flush the drive's cache
        if sync is not None:
            try:
                sync()
            except OSError:
                pass


