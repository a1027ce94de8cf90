"""Where the game is saved: ``microcontroller.nvm``, a file, or nowhere.

All three have ``load() -> bytes or None`` and ``save(data) -> bool``, the interface
``rolit_core.app.App`` expects, plus ``error`` (the last problem, for the serial console, or None)
and ``writes`` (how many times the medium was actually written).

The saved bytes are framed so that a blank or corrupt store is recognised instead of being handed
to the game: ``b"RL"``, a format byte (1), the length (2 bytes, big-endian), a checksum (2 bytes:
CRC-16/CCITT of the data), then the data. A store that does not start with ``b"RL"`` holds no game
(``load()`` returns None quietly); a bad length or checksum also returns None, with ``error`` set.

>>> import microcontroller
>>> from hardware.storage import NvmStorage
>>> store = NvmStorage(microcontroller.nvm)
>>> store.save(b"hello")
True
>>> store.load()
b'hello'
"""

import os

MAGIC = b"RL"
FORMAT = 1
HEADER = 7


def checksum(data):
    """CRC-16/CCITT-FALSE of ``data`` (polynomial 0x1021, start 0xFFFF), an int below 65536.
    Unlike a simple sum it catches a byte erased to 0xFF or cleared to 0x00."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def frame(data):
    """``data`` with the header in front."""
    size = len(data)
    if size > 65535:
        raise ValueError("saved data too large: %d bytes" % size)
    total = checksum(data)
    return MAGIC + bytes((FORMAT, size >> 8, size & 255, total >> 8, total & 255)) + data


def unframe(blob):
    """``(data, error)`` from framed bytes: ``(None, None)`` if nothing was ever saved."""
    if blob is None or len(blob) < HEADER or blob[0:2] != MAGIC:
        return None, None
    if blob[2] != FORMAT:
        return None, "saved game has format %d, expected %d: ignored" % (blob[2], FORMAT)
    size = blob[3] << 8 | blob[4]
    if HEADER + size > len(blob):
        return None, "saved game is cut short (%d of %d bytes): ignored" % (
            len(blob) - HEADER, size)
    data = bytes(blob[HEADER:HEADER + size])
    if checksum(data) != (blob[5] << 8 | blob[6]):
        return None, "saved game is corrupt (checksum): ignored"
    return data, None


class NvmStorage:
    """The game in ``microcontroller.nvm`` (a bytearray-like of a few KiB that survives power-off).

    ``offset`` leaves room for other programs' data. Each ``save`` compares with what is stored and
    writes only the changed span, in one slice assignment (every assignment is one flash
    erase/write cycle); an unchanged game writes nothing.
    """

    def __init__(self, nvm, offset=0):
        if nvm is None:
            raise ValueError("this board has no microcontroller.nvm")
        if not 0 <= offset or offset + HEADER > len(nvm):
            raise ValueError("nvm has %d bytes: offset %d leaves no room" % (len(nvm), offset))
        self.nvm = nvm
        self.offset = offset
        self.capacity = len(nvm) - offset - HEADER
        self.error = None
        self.writes = 0

    def load(self):
        nvm = self.nvm
        start = self.offset
        head = nvm[start:start + HEADER]
        if len(head) < HEADER or head[0:2] != MAGIC:
            return None
        size = head[3] << 8 | head[4]
        if size > self.capacity:
            self.error = "saved game claims %d bytes, nvm holds %d: ignored" % (size,
                                                                             self.capacity)
            return None
        data, self.error = unframe(nvm[start:start + HEADER + size])
        return data

    def save(self, data):
        """Store ``data``; False (and ``error``) if it does not fit."""
        if len(data) > self.capacity:
            self.error = "game of %d bytes does not fit in nvm (%d bytes free): not saved" % (
                len(data), self.capacity)
            return False
        blob = frame(data)
        start = self.offset
        old = self.nvm[start:start + len(blob)]
        first = 0
        end = len(blob)
        while first < end and old[first] == blob[first]:
            first += 1
        if first == end:
            return True
        while old[end - 1] == blob[end - 1]:
            end -= 1
        self.nvm[start + first:start + end] = blob[first:end]
        self.writes += 1
        self.error = None
        return True

    def erase(self):
        """Forget the saved game (clears the magic bytes only)."""
        if self.nvm[self.offset:self.offset + 2] != b"\x00\x00":
            self.nvm[self.offset:self.offset + 2] = b"\x00\x00"
            self.writes += 1


class FileStorage:
    """The game in a file, for boards without nvm and for Blinka. On CircuitPython the drive is
    read-only to code while it is mounted over USB: then ``save`` fails with ``error`` set and the
    game goes on unsaved."""

    def __init__(self, path="/rolit.sav"):
        self.path = path
        self.error = None
        self.writes = 0
        self._last = None

    def load(self):
        try:
            with open(self.path, "rb") as handle:
                blob = handle.read()
        except OSError:
            return None
        data, self.error = unframe(blob)
        self._last = data
        return data

    def save(self, data):
        data = bytes(data)
        if data == self._last:
            return True
        try:
            with open(self.path, "wb") as handle:
                handle.write(frame(data))
        except OSError as error:
            self.error = "cannot write %s (%s): not saved" % (self.path, error)
            return False
        self._last = data
        self.writes += 1
        self.error = None
        return True

    def erase(self):
        try:
            os.remove(self.path)
        except OSError:
            pass
        self._last = None


class NoStorage:
    """Nothing is kept (``ROLIT_STORAGE = "none"``)."""

    error = None
    writes = 0

    def load(self):
        return None

    def save(self, data):
        return True

    def erase(self):
        pass


def open_storage(kind="nvm", path="/rolit.sav", offset=0, microcontroller=None):
    """The storage ``kind`` asks for, falling back from nvm to a file where the board has no nvm
    (or too little). Returns ``(storage, message)``; ``message`` says why it fell back, or None."""
    if kind == "none":
        return NoStorage(), None
    message = None
    if kind == "nvm":
        nvm = None
        try:
            if microcontroller is None:
                import microcontroller
            nvm = getattr(microcontroller, "nvm", None)
        except ImportError:
            pass
        if nvm is None:
            message = "no microcontroller.nvm here: saving to %s" % path
        else:
            try:
                store = NvmStorage(nvm, offset)
                if store.capacity >= 256:
                    return store, None
                message = "nvm too small (%d bytes free): saving to %s" % (store.capacity, path)
            except ValueError as error:
                message = "%s: saving to %s" % (error, path)
    return FileStorage(path), message
