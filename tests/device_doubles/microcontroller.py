"""Double of ``microcontroller``: ``nvm`` is 4 KiB of flash (erased to 0xFF) that counts writes."""


class Pin:
    pass


class NVM:
    def __init__(self, size=4096):
        self._data = bytearray(b"\xff" * size)
        self.writes = 0       # slice or item assignments (each one an erase/write on a board)
        self.written = 0      # bytes written

    def __len__(self):
        return len(self._data)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return bytearray(self._data[index])
        return self._data[index]

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            start = index.start or 0
            stop = len(self._data) if index.stop is None else index.stop
            if stop > len(self._data) or stop - start != len(value):
                raise ValueError("nvm slice assignment must keep the size")
            self._data[start:stop] = value
            self.written += len(value)
        else:
            self._data[index] = value
            self.written += 1
        self.writes += 1


nvm = NVM()


def reset():
    raise RuntimeError("microcontroller.reset() called")
