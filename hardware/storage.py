"""Where the game is saved: ``microcontroller.nvm``, a file (``hardware.filestore``), or nowhere.

Each has ``load() -> bytes or None`` and ``save(data) -> bool`` (what ``rolit_core.app.App``
expects), ``error`` (the last problem, for the console, or None), ``writes`` and ``capacity`` (the
most bytes one save may have; None: no limit). A failed or interrupted save never destroys the
last good copy: each save is a *record* (``frame``: b"RL", format 2, sequence number, length,
CRC-16, data) and the newest record whose checksum holds is loaded. nvm keeps records in two
halves (appended in one; when full, the other is started), a file goes through ``PATH.new`` and a
rename. Format 1 records (written before) still load. Details: docs/app.md.

>>> import microcontroller
>>> from hardware.storage import NvmStorage
>>> store = NvmStorage(microcontroller.nvm)
>>> store.save(b"hello")
True
>>> store.load()
b'hello'
"""

# The place to import them from; the device imports each from where it is defined (a board
# saving to nvm never loads the file store's code for long: code.py drops it with the start).
from .filestore import FileStorage, parse, unframe  # noqa: F401
from .nvmstore import HALF_MAX, NoStorage, NvmStorage  # noqa: F401
from .parts import open_storage  # noqa: F401
from .saverecord import (FORMAT, HEADER, MAGIC, OLD_HEADER, checksum, frame,  # noqa: F401
                         newer)
