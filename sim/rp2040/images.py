"""The two files the emulated Pico boots from, checked before the chip starts.

- A **UF2** (the firmware, ``--firmware``): every 512-byte block must carry both start magic
  numbers and the end magic number, its number in the file and the file's block count (the same
  in every block, numbered from 0 without a gap; a file cut short is refused), an RP2040 family
  ID where it names one, a payload of 1-476 bytes and a target inside the firmware's part of
  the Pico's flash.
- A **flash file** (``--flash``): the chip's whole 2 MiB flash followed by a 16-byte trailer
  (``FLASH_MAGIC`` and the CRC-32 of the flash), which is how ``write_flash_file`` marks the
  files it writes. A bare 2 MiB image whose boot stage 2 carries its own valid checksum (what
  earlier versions wrote, or a dump of a real Pico) is read too. Anything else is refused, and
  ``write_flash_file`` never replaces it.

Every refusal is an :class:`ImageError` whose message is one line naming the file.
"""

import os
import struct
import tempfile
import zlib

FLASH_BASE = 0x10000000
FLASH_SIZE = 2 * 1024 * 1024
DRIVE_OFFSET = 0x100000          # CIRCUITPY: the second MiB of the Pico's flash
DRIVE_SIZE = 1024 * 1024
NVM_OFFSET = DRIVE_OFFSET - 4096  # microcontroller.nvm: the 4 KiB just below the drive
NVM_SIZE = 4096

UF2_BLOCK = 512
UF2_MAGIC_START0 = 0x0A324655
UF2_MAGIC_START1 = 0x9E5D5157
UF2_MAGIC_END = 0x0AB16F30
UF2_NOT_MAIN_FLASH = 0x1
UF2_FAMILY_PRESENT = 0x2000
RP2040_FAMILY = 0xE48BFF56
UF2_PAYLOAD_MAX = 476
# A UF2 of the whole 2 MiB at 256 bytes a block is 4 MiB; anything much bigger is no Pico's.
UF2_MAX_BYTES = 8 * 1024 * 1024

FLASH_MAGIC = b"ROLIT-FLASH\x01"  # 12 bytes: the name and the format's version
FLASH_TRAILER = 16                # FLASH_MAGIC, then the CRC-32 of the flash (little-endian)
FLASH_FILE_SIZE = FLASH_SIZE + FLASH_TRAILER
BOOT2_SIZE = 256                  # the RP2040 boot stage 2, CRC-checked by the bootrom


class ImageError(ValueError):
    """A UF2 or flash file that cannot be used; the message (one line) says why."""


def _regular_file(path, what):
    """``path``'s size, or ImageError if it is missing or not a regular file."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ImageError("%s: no such file" % path)
    except OSError as error:
        raise ImageError("%s: cannot be read (%s)" % (path, error.strerror or error))
    if os.path.isdir(path):
        raise ImageError("%s is a folder, not %s" % (path, what))
    if not os.path.isfile(path):
        raise ImageError("%s is not a regular file (a device or a pipe), not %s" % (path, what))
    return info.st_size


def _read(path, limit):
    try:
        with open(path, "rb") as handle:
            return handle.read(limit + 1)
    except OSError as error:
        raise ImageError("%s: cannot be read (%s)" % (path, error.strerror or error))


# -- UF2 ---------------------------------------------------------------------------------------


def uf2_flash(data, name="the UF2 file"):
    """The flash contents a UF2 file's bytes program, from offset 0 (gaps are 0xff); ImageError
    naming ``name`` for anything a complete RP2040 UF2 would not be."""
    if len(data) < UF2_BLOCK:
        raise ImageError("%s is not a UF2 file (%d bytes, less than one block)"
                         % (name, len(data)))
    if len(data) % UF2_BLOCK:
        raise ImageError("%s is cut short: %d bytes is not a whole number of 512-byte UF2 "
                         "blocks" % (name, len(data)))
    image = bytearray()
    expected = total = 0
    for at in range(0, len(data), UF2_BLOCK):
        (magic0, magic1, flags, address, size, number, count,
         family) = struct.unpack_from("<8I", data, at)
        end, = struct.unpack_from("<I", data, at + UF2_BLOCK - 4)
        where = "%s, block at byte %d" % (name, at)
        if magic0 != UF2_MAGIC_START0 or magic1 != UF2_MAGIC_START1 or end != UF2_MAGIC_END:
            raise ImageError("%s is not a UF2 file (no UF2 magic numbers in the block at "
                             "byte %d)" % (name, at))
        if expected == total:  # a file may hold several UF2s one after the other
            expected, total = 0, count
            if not 0 < total <= UF2_MAX_BYTES // UF2_BLOCK:
                raise ImageError("%s: says the file has %d blocks" % (where, count))
        if count != total or number != expected:
            raise ImageError("%s is damaged: block %d of %d where block %d of %d was due"
                             % (name, number, count, expected, total))
        expected += 1
        if flags & UF2_FAMILY_PRESENT and family != RP2040_FAMILY:
            raise ImageError("%s is not for the RP2040 (family ID 0x%08x, not 0x%08x): get "
                             "the UF2 for the Raspberry Pi Pico" % (name, family, RP2040_FAMILY))
        if flags & UF2_NOT_MAIN_FLASH:
            continue
        if not 0 < size <= UF2_PAYLOAD_MAX:
            raise ImageError("%s: a payload of %d bytes (UF2 allows 1-%d)"
                             % (where, size, UF2_PAYLOAD_MAX))
        offset = address - FLASH_BASE
        if not 0 <= offset <= FLASH_SIZE - size:
            raise ImageError("%s: writes 0x%08x, outside the Pico's flash" % (where, address))
        if offset + size > NVM_OFFSET:
            raise ImageError("%s: writes 0x%08x, over the nvm and CIRCUITPY areas"
                             % (where, address))
        if len(image) < offset + size:
            image.extend(b"\xff" * (offset + size - len(image)))
        image[offset:offset + size] = data[at + 32:at + 32 + size]
    if expected != total:
        raise ImageError("%s is cut short: %d of its %d blocks" % (name, expected, total))
    if not image:
        raise ImageError("%s programs nothing into the flash" % name)
    return bytes(image)


def read_uf2(path):
    """The flash contents of the UF2 file at ``path`` (see :func:`uf2_flash`)."""
    size = _regular_file(path, "a UF2 file")
    if size > UF2_MAX_BYTES:
        raise ImageError("%s is not a Pico UF2 file (%d bytes; a whole 2 MiB flash is 4 MiB "
                         "of UF2)" % (path, size))
    return uf2_flash(_read(path, UF2_MAX_BYTES), path)


# -- flash files -------------------------------------------------------------------------------


def boot2_valid(flash):
    """True if ``flash`` starts with a boot stage 2 the RP2040 bootrom would run: its last
    word is the CRC-32 (MPEG-2: not reflected, no final xor) of the 252 bytes before it."""
    if len(flash) < BOOT2_SIZE:
        return False
    crc = 0xFFFFFFFF
    for byte in flash[:BOOT2_SIZE - 4]:
        crc ^= byte << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) & 0xFFFFFFFF if crc & 0x80000000 else \
                (crc << 1) & 0xFFFFFFFF
    return crc == struct.unpack_from("<I", flash, BOOT2_SIZE - 4)[0]


def flash_file_bytes(flash):
    """What :func:`write_flash_file` puts in the file for a 2 MiB ``flash``."""
    if len(flash) != FLASH_SIZE:
        raise ImageError("a flash image is %d bytes, not %d" % (FLASH_SIZE, len(flash)))
    return bytes(flash) + FLASH_MAGIC + struct.pack("<I", zlib.crc32(flash))


def flash_from_bytes(data, name="the flash file"):
    """The 2 MiB flash in a flash file's ``data``; ImageError naming ``name`` if it is not one."""
    if data[:4] == struct.pack("<I", UF2_MAGIC_START0):
        raise ImageError("%s is a UF2 file: give firmware with --firmware; --flash is the "
                         "chip's saved flash" % name)
    if len(data) == FLASH_FILE_SIZE and data[FLASH_SIZE:FLASH_SIZE + 12] == FLASH_MAGIC:
        flash = data[:FLASH_SIZE]
        if struct.unpack_from("<I", data, FLASH_SIZE + 12)[0] != zlib.crc32(flash):
            raise ImageError("%s is damaged (its checksum does not match): left untouched"
                             % name)
        return bytes(flash)
    if len(data) == FLASH_SIZE and boot2_valid(data):
        return bytes(data)
    raise ImageError("%s is not a Pico flash image (%d bytes; sim.emulate's are %d): left "
                     "untouched, give a new file name" % (name, len(data), FLASH_FILE_SIZE))


def read_flash_file(path):
    """The 2 MiB flash kept in the file at ``path`` (see :func:`flash_from_bytes`)."""
    size = _regular_file(path, "a flash file")
    if size not in (FLASH_SIZE, FLASH_FILE_SIZE):
        head = _read(path, 4)
        if head[:4] == struct.pack("<I", UF2_MAGIC_START0):
            flash_from_bytes(head, path)  # says it is a UF2
        raise ImageError("%s is not a Pico flash image (%d bytes; sim.emulate's are %d): left "
                         "untouched, give a new file name" % (path, size, FLASH_FILE_SIZE))
    return flash_from_bytes(_read(path, FLASH_FILE_SIZE), path)


def check_flash_target(path):
    """For ``--flash path``: the flash it holds (bytes), or None if it does not exist yet and
    can be written; ImageError if it cannot be used (checked before the chip starts)."""
    if not path:
        raise ImageError("--flash needs a file name")
    if os.path.lexists(path) and not os.path.exists(path):
        raise ImageError("%s is a link to nothing: give a new file name" % path)
    if os.path.exists(path):
        flash = read_flash_file(path)
    else:
        flash = None
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ImageError("%s: folder %s does not exist" % (path, folder))
    try:
        handle, probe = tempfile.mkstemp(dir=folder, prefix=".rolit-probe-")
        os.close(handle)
        os.remove(probe)
    except OSError as error:
        raise ImageError("%s: cannot write in %s (%s)" % (path, folder, error.strerror or error))
    if flash is not None and not os.access(path, os.W_OK):
        raise ImageError("%s is read-only: the flash could not be saved at the end" % path)
    return flash


def write_flash_file(path, flash):
    """Keep the 2 MiB ``flash`` in the file at ``path``: written beside it, flushed to the
    disk, then renamed over it, so an interrupted or failed write leaves the file as it was.
    A file there that is not a flash image is never replaced (ImageError)."""
    data = flash_file_bytes(flash)
    target = os.path.realpath(path)  # through a link to its file: the link stays
    if os.path.exists(target):
        read_flash_file(target)  # refuses what this module would not have written
    folder = os.path.dirname(target)
    temporary = None
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(target)
                                             + ".", suffix=".tmp")
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
        temporary = None
    except OSError as error:
        raise ImageError("the flash was not saved to %s (%s): the file is as it was"
                         % (path, error.strerror or error))
    finally:
        if temporary is not None:
            try:
                os.remove(temporary)
            except OSError:
                pass
