"""A small FAT12 writer and reader for the CIRCUITPY drive of an emulated board.

>>> image = build_image({"code.py": b"print('hi')\\n", "lib/neopixel.py": b"..."})
>>> len(image)
1048576
>>> read_files(image)["code.py"]
b"print('hi')\\n"

The layout is the one CircuitPython formats a 1 MiB drive with: 512-byte sectors, one sector per
cluster, no partition table. Names that are not plain lower-case 8.3 get long-name entries, so
``onebutton.py`` and ``settings.toml`` keep their names. Only what the emulator needs: no
timestamps (all zero), no fragmentation when writing (the reader follows any cluster chain).
"""

import struct

SECTOR = 512
ROOT_ENTRIES = 512
ENTRY = 32
ATTR_DIR = 0x10
ATTR_ARCHIVE = 0x20
ATTR_VOLUME = 0x08
ATTR_LFN = 0x0F
LOWER_BASE = 0x08  # NTRes flags: FatFs shows the 8.3 name in lower case
LOWER_EXT = 0x10
END = 0xFFF
DATE = (2026 - 1980) << 9 | 1 << 5 | 1
SHORT_CHARS = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789$%'-_@~`!(){}^#&")


class FatError(ValueError):
    """The image is not a FAT12 volume this module can read, or the files do not fit."""


def _layout(size):
    """(sectors, fat_sectors, first_data_sector, clusters) for an image of ``size`` bytes."""
    sectors = size // SECTOR
    root = ROOT_ENTRIES * ENTRY // SECTOR
    fat_sectors = 1
    while True:
        clusters = sectors - 1 - fat_sectors - root
        if (clusters + 2) * 3 // 2 + 1 <= fat_sectors * SECTOR:
            break
        fat_sectors += 1
    if clusters > 4084:
        raise FatError("%d bytes is too large for FAT12 with one sector per cluster" % size)
    return sectors, fat_sectors, 1 + fat_sectors + root, clusters


def _boot_sector(sectors, fat_sectors, label):
    boot = bytearray(SECTOR)
    boot[0:3] = b"\xEB\x3C\x90"
    boot[3:11] = b"MSWIN4.1"
    struct.pack_into("<HBHBHHBHHHII", boot, 11, SECTOR, 1, 1, 1, ROOT_ENTRIES, sectors, 0xF8,
                     fat_sectors, 63, 255, 0, 0)
    struct.pack_into("<BBBI11s8s", boot, 36, 0x80, 0, 0x29, 0x524F4C54,
                     label.upper().encode("ascii")[:11].ljust(11), b"FAT12   ")
    boot[510:512] = b"\x55\xAA"
    return boot


def _short_name(name, taken):
    """The 11-byte 8.3 name, the NTRes case flags, and whether a long name is needed."""
    base, dot, ext = name.rpartition(".")
    if not dot:
        base, ext = name, ""
    raw_base = base.encode("ascii", "replace").upper()
    raw_ext = ext.encode("ascii", "replace").upper()
    fits = (0 < len(raw_base) <= 8 and len(raw_ext) <= 3 and name.count(".") <= 1
            and all(c in SHORT_CHARS for c in raw_base + raw_ext))
    case_ok = (base == base.lower() or base == base.upper()) and (ext == ext.lower()
                                                                   or ext == ext.upper())
    if fits and case_ok:
        short = raw_base.ljust(8) + raw_ext.ljust(3)
        if short not in taken:
            flags = (LOWER_BASE if base != base.upper() else 0) | (
                LOWER_EXT if ext != ext.upper() else 0)
            return short, flags, False
    clean = bytes(c for c in raw_base if c in SHORT_CHARS) or b"_"
    clean_ext = bytes(c for c in raw_ext if c in SHORT_CHARS)[:3]
    for number in range(1, 1000000):
        tail = b"~%d" % number
        short = (clean[:8 - len(tail)] + tail).ljust(8) + clean_ext.ljust(3)
        if short not in taken:
            return short, 0, True
    raise FatError("no short name left for %r" % name)


def _checksum(short):
    total = 0
    for byte in short:
        total = (((total & 1) << 7) + (total >> 1) + byte) & 0xFF
    return total


def _long_entries(name, short):
    """The long-name entries for ``name``, in the order they are stored (last part first)."""
    units = name.encode("utf-16-le")
    chars = [units[i:i + 2] for i in range(0, len(units), 2)]
    parts = [chars[i:i + 13] for i in range(0, len(chars), 13)]
    check = _checksum(short)
    entries = []
    for number, part in enumerate(parts, 1):
        padded = list(part)
        if len(padded) < 13:
            padded.append(b"\x00\x00")
        padded += [b"\xFF\xFF"] * (13 - len(padded))
        entry = bytearray(ENTRY)
        entry[0] = number | (0x40 if number == len(parts) else 0)
        entry[1:11] = b"".join(padded[0:5])
        entry[11] = ATTR_LFN
        entry[13] = check
        entry[14:26] = b"".join(padded[5:11])
        entry[28:32] = b"".join(padded[11:13])
        entries.append(bytes(entry))
    entries.reverse()
    return entries


def _entry(short, attr, flags, cluster, size):
    entry = bytearray(ENTRY)
    entry[0:11] = short
    entry[11] = attr
    entry[12] = flags
    # 2026-01-01 00:00: a valid date for tools that check (FatFs does not).
    struct.pack_into("<HHHHHHHI", entry, 14, 0, DATE, DATE, 0, 0, DATE, cluster, size)
    return bytes(entry)


class _Writer:
    def __init__(self, size, label):
        self.sectors, self.fat_sectors, self.data_start, self.clusters = _layout(size)
        self.image = bytearray(size)
        self.image[0:SECTOR] = _boot_sector(self.sectors, self.fat_sectors, label)
        self.fat = [0] * (self.clusters + 2)
        self.fat[0] = 0xFF8
        self.fat[1] = END
        self.next_free = 2

    def allocate(self, data):
        """Store ``data`` in consecutive clusters; the first cluster (0 for no data)."""
        count = (len(data) + SECTOR - 1) // SECTOR
        if count == 0:
            return 0
        first = self.next_free
        if first + count > self.clusters + 2:
            raise FatError("the files do not fit in the %d KiB drive" % (len(self.image) // 1024))
        for i in range(count):
            cluster = first + i
            self.fat[cluster] = cluster + 1 if i < count - 1 else END
            at = (self.data_start + cluster - 2) * SECTOR
            chunk = data[i * SECTOR:(i + 1) * SECTOR]
            self.image[at:at + len(chunk)] = chunk
        self.next_free = first + count
        return first

    def entries(self, tree, own=0, parent=0):
        """The directory entries for ``tree`` (name -> bytes or dict), its files and
        subdirectories stored; ``own`` is the directory's first cluster (0: the root)."""
        out = bytearray()
        if own:
            out += _entry(b".          ", ATTR_DIR, 0, own, 0)
            out += _entry(b"..         ", ATTR_DIR, 0, parent, 0)
        taken = set()
        for name in sorted(tree):
            short, flags, long_name = _short_name(name, taken)
            taken.add(short)
            if long_name:
                out += b"".join(_long_entries(name, short))
            value = tree[name]
            if isinstance(value, dict):
                # Reserve the subdirectory's clusters first: its entries need its number.
                count = 2 + sum(2 + len(n) // 13 for n in value)
                first = self.allocate(b"\x00" * (count * ENTRY))
                self.fill(first, self.entries(value, first, own))
                out += _entry(short, ATTR_DIR, flags, first, 0)
            else:
                out += _entry(short, ATTR_ARCHIVE, flags, self.allocate(value), len(value))
        return bytes(out)

    def fill(self, cluster, blob):
        """Write ``blob`` along the cluster chain starting at ``cluster``."""
        for at in range(0, len(blob), SECTOR):
            if not 2 <= cluster < END:
                raise FatError("a directory outgrew its clusters")
            where = (self.data_start + cluster - 2) * SECTOR
            chunk = blob[at:at + SECTOR]
            self.image[where:where + len(chunk)] = chunk
            cluster = self.fat[cluster]

    def finish(self, root):
        if len(root) > ROOT_ENTRIES * ENTRY:
            raise FatError("too many names in the root directory")
        at = (1 + self.fat_sectors) * SECTOR
        self.image[at:at + len(root)] = root
        fat = bytearray(self.fat_sectors * SECTOR)
        for cluster, value in enumerate(self.fat):
            offset = cluster * 3 // 2
            if cluster & 1:
                fat[offset] = (fat[offset] & 0x0F) | ((value << 4) & 0xF0)
                fat[offset + 1] = (value >> 4) & 0xFF
            else:
                fat[offset] = value & 0xFF
                fat[offset + 1] = (fat[offset + 1] & 0xF0) | ((value >> 8) & 0x0F)
        self.image[SECTOR:SECTOR + len(fat)] = fat
        return bytes(self.image)


def _tree(files):
    tree = {}
    for path in sorted(files):
        parts = [p for p in path.replace("\\", "/").split("/") if p]
        if not parts:
            raise FatError("empty file name")
        node = tree
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise FatError("%s is both a file and a folder" % part)
        node[parts[-1]] = bytes(files[path])
    return tree


def build_image(files, size=1024 * 1024, label="CIRCUITPY"):
    """A FAT12 image holding ``files`` (a dict of ``"folder/name"`` -> bytes)."""
    writer = _Writer(size, label)
    volume = _entry(label.upper().encode("ascii")[:11].ljust(11), ATTR_VOLUME, 0, 0, 0)
    return writer.finish(volume + writer.entries(_tree(files)))


def _parse_boot(image):
    if len(image) < SECTOR or image[510:512] != b"\x55\xAA":
        raise FatError("no FAT boot sector (no 55 AA signature)")
    (sector, per_cluster, reserved, fats, root_entries, total16, _media, fat_sectors
     ) = struct.unpack_from("<HBHBHHBH", image, 11)
    total = total16 or struct.unpack_from("<I", image, 32)[0]
    if sector != SECTOR or not per_cluster or not fats or not fat_sectors:
        raise FatError("unsupported FAT geometry (sector %d, cluster %d)" % (sector, per_cluster))
    root_start = reserved + fats * fat_sectors
    data_start = root_start + (root_entries * ENTRY + SECTOR - 1) // SECTOR
    clusters = (total - data_start) // per_cluster
    if clusters > 4084:
        raise FatError("not FAT12 (%d clusters)" % clusters)
    return per_cluster, reserved, root_start, root_entries, data_start, clusters


class _Reader:
    def __init__(self, image):
        self.image = bytes(image)
        (self.per_cluster, reserved, self.root_start, self.root_entries, self.data_start,
         self.clusters) = _parse_boot(self.image)
        self.fat_at = reserved * SECTOR

    def next_cluster(self, cluster):
        offset = self.fat_at + cluster * 3 // 2
        pair = self.image[offset] | self.image[offset + 1] << 8
        return pair >> 4 if cluster & 1 else pair & 0xFFF

    def chain(self, first, size=None):
        out = bytearray()
        cluster = first
        seen = 0
        span = self.per_cluster * SECTOR
        while 2 <= cluster < 0xFF8:
            seen += 1
            if seen > self.clusters:
                raise FatError("cluster chain loops")
            at = (self.data_start + (cluster - 2) * self.per_cluster) * SECTOR
            out += self.image[at:at + span]
            if size is not None and len(out) >= size:
                break
            cluster = self.next_cluster(cluster)
        return bytes(out if size is None else out[:size])

    def walk(self, raw, prefix, found):
        long_parts = []
        for at in range(0, len(raw) - ENTRY + 1, ENTRY):
            entry = raw[at:at + ENTRY]
            if entry[0] == 0:
                break
            if entry[0] == 0xE5:
                long_parts = []
                continue
            attr = entry[11]
            if attr == ATTR_LFN:
                units = entry[1:11] + entry[14:26] + entry[28:32]
                long_parts.insert(0, units)
                continue
            if attr & ATTR_VOLUME:
                long_parts = []
                continue
            name = None
            if long_parts:
                text = b"".join(long_parts).decode("utf-16-le", "replace")
                name = text.split("\x00")[0]
            long_parts = []
            if not name:
                base = entry[0:8].rstrip().decode("ascii", "replace")
                ext = entry[8:11].rstrip().decode("ascii", "replace")
                if entry[12] & LOWER_BASE:
                    base = base.lower()
                if entry[12] & LOWER_EXT:
                    ext = ext.lower()
                name = base + ("." + ext if ext else "")
            if name in (".", ".."):
                continue
            cluster, size = struct.unpack_from("<HI", entry, 26)
            if attr & ATTR_DIR:
                self.walk(self.chain(cluster), prefix + name + "/", found)
            else:
                found[prefix + name] = self.chain(cluster, size) if size else b""
        return found


def read_files(image):
    """Every file of a FAT12 image: a dict of ``"folder/name"`` -> bytes."""
    reader = _Reader(image)
    start = reader.root_start * SECTOR
    root = reader.image[start:start + reader.root_entries * ENTRY]
    return reader.walk(root, "", {})
