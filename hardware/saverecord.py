"""The record every save is written as, in nvm and in a file: magic b"RL", format 2, sequence
number, length, CRC-16, then the data. Format 1 records (no sequence number) still load.
"""

from rolit_core.save import crc16

MAGIC = b"RL"
FORMAT = 2
HEADER = 9          # magic, format, sequence, length, checksum
OLD_HEADER = 7      # format 1: magic, format, length, checksum
_SEQ_MASK = 0xFFFF


# CRC-16/CCITT-FALSE of ``data`` (polynomial 0x1021, start 0xFFFF), an int below 65536; ``crc``
# continues an earlier sum. Unlike a simple sum it catches a byte erased to 0xFF or cleared to
# 0x00. The save format's own sum: one function in the heap, not two.
checksum = crc16


def newer(seq, than):
    """True if sequence number ``seq`` comes after ``than`` (they wrap at 65536)."""
    return 0 < (seq - than) & _SEQ_MASK < 0x8000


def frame(data, seq=0):
    """The record of ``data`` with sequence number ``seq``."""
    record = bytearray(HEADER + len(data))
    _write_record(record, data, seq)
    return bytes(record)


def _write_record(buffer, data, seq):
    # The record of data into the start of buffer, without building it from pieces (each piece
    # would be another block of heap).
    size = len(data)
    if size > 65535:
        raise ValueError("saved data too large: %d bytes" % size)
    seq &= _SEQ_MASK
    buffer[0:2] = MAGIC
    buffer[2:7] = bytes((FORMAT, seq >> 8, seq & 255, size >> 8, size & 255))
    buffer[HEADER:HEADER + size] = data
    total = checksum(data, checksum(buffer[2:7]))
    buffer[7] = total >> 8
    buffer[8] = total & 255


def _header(head):
    """``(header size, seq, length, stored crc)`` of a record's first bytes, or None if they are
    not the start of a record of a known format."""
    if len(head) < OLD_HEADER or head[0:2] != MAGIC:
        return None
    if head[2] == 1:
        return OLD_HEADER, 0, head[3] << 8 | head[4], head[5] << 8 | head[6]
    if head[2] != FORMAT or len(head) < HEADER:
        return None
    return HEADER, head[3] << 8 | head[4], head[5] << 8 | head[6], head[7] << 8 | head[8]


def _valid(head, size, data):
    """True if ``data`` matches the checksum of the header ``head`` (``size`` bytes long)."""
    crc = _header(head)[3]
    if size == OLD_HEADER:
        return checksum(data) == crc
    return checksum(data, checksum(head[2:7])) == crc
