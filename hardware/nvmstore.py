"""The game in ``microcontroller.nvm`` (``NvmStorage``), or nowhere (``NoStorage``); both are
also ``hardware.storage``'s. Records as :mod:`hardware.saverecord` writes them.
"""

from .saverecord import (_SEQ_MASK, FORMAT, HEADER, MAGIC, OLD_HEADER, _header, _valid,
                         _write_record, newer)

HALF_MAX = 512      # nvm halves are at most this big: a new half is written as one heap block


class NvmStorage:
    """The game in ``microcontroller.nvm`` (a bytearray-like of a few KiB that survives power-off).

    ``offset`` leaves room for other programs' data; the area from there is split into two halves
    of ``half`` bytes (default: half the area, at most ``HALF_MAX``). Every save is one slice
    assignment (each is one flash erase/write cycle on a board; on the RP2040 an assignment to
    still-erased bytes needs no erase, so appending records spares the flash), and an unchanged
    game writes nothing.
    """

    def __init__(self, nvm, offset=0, half=None):
        if nvm is None:
            raise ValueError("this board has no microcontroller.nvm")
        size = len(nvm)
        if half is None:
            half = (size - offset) // 2
            if half > HALF_MAX:
                half = HALF_MAX
        if not 0 <= offset or half <= HEADER or offset + 2 * half > size:
            raise ValueError("nvm has %d bytes: offset %d leaves no room for two copies"
                             % (size, offset))
        self.nvm = nvm
        self.offset = offset
        self.half = half
        self.capacity = half - HEADER
        self.error = None
        self.writes = 0
        self._scanned = False
        self._seq = 0
        self._current = 0      # the half of the newest record
        self._end = None       # where the next record goes in that half (None: start the other)
        self._newest = None    # (position, header size, length) of the newest record

    def load(self):
        self._scan()
        if self._newest is None:
            return None
        at, size, length = self._newest
        return bytes(self.nvm[at + size:at + size + length])

    def _scan(self):
        """Find the newest valid record in both halves."""
        nvm = self.nvm
        best = None
        cut = None        # the sequence number of a damaged record
        problem = None    # what was wrong with it
        for index in (0, 1):
            start = self.offset + index * self.half
            limit = start + self.half
            at = start
            last = None
            while at + HEADER <= limit:
                head = nvm[at:at + HEADER]
                found = _header(head)
                if found is None:
                    if head[0:2] == MAGIC and problem is None:
                        problem = "saved game has format %d, expected %d: ignored" % (head[2],
                                                                                     FORMAT)
                    break
                size, seq, length, _ = found
                if size == OLD_HEADER and (at != self.offset or last is not None):
                    break  # format 1 was only ever written alone at the start
                if last is not None and seq != (last[0] + 1) & _SEQ_MASK:
                    break  # an older record left from before this half was restarted
                if at + size + length > limit or not _valid(
                        head[:size], size, nvm[at + size:at + size + length]):
                    cut = seq
                    problem = problem or "saved game is corrupt (checksum): ignored"
                    break
                last = (seq, at, size, length)
                at += size + length
                if size == OLD_HEADER:
                    at = limit  # nothing is appended after a format 1 record
            if last is not None and (best is None or newer(last[0], best[0])):
                best = last
                self._current = index
                self._end = at if at < limit else None
        self._scanned = True
        self.error = None
        if best is None:
            self._newest = None
            self._seq = 0
            self._end = None
            self.error = problem  # something of ours was there, and none of it is good
            return
        self._seq = best[0]
        self._newest = best[1:]
        if cut is not None and cut == (best[0] + 1) & _SEQ_MASK:
            self.error = "the last save was cut short: the one before it was loaded"

    def save(self, data):
        """Store ``data``; False (and ``error``) if it does not fit or the write fails."""
        if len(data) > self.capacity:
            self.error = "game of %d bytes does not fit in nvm (%d bytes free): not saved" % (
                len(data), self.capacity)
            return False
        if not self._scanned:
            self._scan()
        nvm = self.nvm
        if self._newest is not None:
            at, size, length = self._newest
            if length == len(data) and _same(nvm, at + size, data):
                return True
        seq = (self._seq + 1) & _SEQ_MASK
        count = HEADER + len(data)
        index = self._current
        end = self._end
        try:
            if self._newest is None:
                # Nothing good here, but old records may lie behind cleared or damaged bytes:
                # a record cut two bytes in would write "RL" back over one of them. Erased
                # first, both halves take plain appends from then on.
                self._wipe(0)
                index = 0
                end = self.offset
                block = bytearray(count)
            elif end is None or end + count > self.offset + (index + 1) * self.half:
                # Start the other half, erasing what it held after the record, so that later
                # records are appended to erased bytes. One block of heap.
                index = 1 - index
                end = self.offset + index * self.half
                block = bytearray(self.half)
                for i in range(count, self.half):
                    block[i] = 0xFF  # (MicroPython has no bytearray * n)
            else:
                block = bytearray(count)
            _write_record(block, data, seq)
            nvm[end:end + len(block)] = block
        except Exception as error:  # the write may have stopped part-way: look again next time
            self._scanned = False
            self.error = "nvm write failed (%s): not saved" % (error,)
            return False
        self.writes += 1
        self._seq = seq
        self._current = index
        self._newest = (end, HEADER, len(data))
        self._end = end + count
        self.error = None
        return True

    def erase(self):
        """Forget the saved game: True, or False (and ``error``) if the write fails. Both halves
        are erased to 0xFF, the one without the newest record first, so that an erase cut short
        leaves the game or nothing (never an older copy), and no later save cut short can make
        an erased record whole again."""
        if not self._scanned:
            self._scan()
        self._scanned = False
        try:
            self._wipe(0 if self._newest is None else 1 - self._current)
        except Exception as error:
            self.error = "nvm write failed (%s): game not erased" % (error,)
            return False
        self.error = None
        return True

    def _wipe(self, first):
        """Erase both halves to 0xFF (half ``first`` first); a blank half is not written."""
        block = None
        for index in (first, 1 - first):
            at = self.offset + index * self.half
            if _blank(self.nvm, at, at + self.half):
                continue
            if block is None:
                block = bytearray(self.half)
                for i in range(self.half):
                    block[i] = 0xFF
            self.nvm[at:at + self.half] = block
            self.writes += 1


def _blank(nvm, start, stop):
    # True if every byte from start to stop is erased (0xFF), read in place.
    for i in range(start, stop):
        if nvm[i] != 0xFF:
            return False
    return True


def _same(nvm, at, data):
    # True if nvm holds data from at: compared in place (a slice would be another heap block,
    # and saves differ early, in their length).
    for i in range(len(data)):
        if nvm[at + i] != data[i]:
            return False
    return True


class NoStorage:
    """Nothing is kept (``ROLIT_STORAGE = "none"``)."""

    error = None
    writes = 0
    capacity = None

    def load(self):
        return None

    def save(self, data):
        return True

    def erase(self):
        return True
