"""The matrix driver on the real adafruit_pixelbuf / neopixel library code, byte for byte."""

import pytest

from device_doubles import Device
from hardware.matrix import Matrix
from hardware.wiring import gamma_table, strip_map


@pytest.fixture
def device():
    dev = Device()
    yield dev
    dev.close()


def make_strip(device, order="GRB", n=64):
    """A real PixelBuf whose transmit keeps the bytes, like a NeoPixel's wire."""

    class Capture(device.adafruit_pixelbuf.PixelBuf):
        def __init__(self):
            super().__init__(n, byteorder=order, auto_write=False)
            self.sent = []

        @property
        def n(self):
            return len(self)

        def _transmit(self, buffer):
            self.sent.append(bytes(buffer))

    return Capture()


def plain(strip, **options):
    """A matrix that passes values straight through (no gamma, full brightness, no cap)."""
    settings = dict(gamma=10, brightness=100, max_current_ma=10000)
    settings.update(options)
    return Matrix(strip, **settings)


def rgb_at(data, index, order="GRB"):
    """(r, g, b) of strip pixel ``index`` in transmitted bytes."""
    chunk = data[3 * index:3 * index + 3]
    return (chunk[order.index("R")], chunk[order.index("G")], chunk[order.index("B")])


def marker_frame():
    """Each cell's colour encodes its position: (x + 1, y + 1, 100)."""
    return [((p % 8) + 1, (p // 8) + 1, 100) for p in range(64)]


def test_rows_layout_sends_row_by_row_in_grb(device):
    strip = make_strip(device)
    plain(strip, layout="rows").show(marker_frame())
    data = strip.sent[-1]
    assert len(data) == 192
    # Pixel 0 is a1 (x=0, y=0): GRB bytes are green=1, red=1, blue=100.
    assert data[0:3] == bytes((1, 1, 100))
    assert rgb_at(data, 9) == (2, 2, 100)     # x=1, y=1
    assert rgb_at(data, 63) == (8, 8, 100)


def test_serpentine_reverses_odd_rows(device):
    strip = make_strip(device)
    plain(strip, layout="serpentine").show(marker_frame())
    data = strip.sent[-1]
    assert rgb_at(data, 7) == (8, 1, 100)     # row 0 left to right
    assert rgb_at(data, 8) == (8, 2, 100)     # row 1 starts at the right
    assert rgb_at(data, 15) == (1, 2, 100)
    assert rgb_at(data, 16) == (1, 3, 100)    # row 2 left to right again


@pytest.mark.parametrize("rotation, mirror, expected", [
    # Where the frame's top-left (a1) and its right neighbour (b1) land on a row-wired panel.
    (0, False, (0, 1)),
    (90, False, (7, 15)),      # a quarter turn clockwise: a1 to the top-right, b1 below it
    (180, False, (63, 62)),
    (270, False, (56, 48)),
    (0, True, (7, 6)),
    (90, True, (63, 55)),
])
def test_rotation_and_mirror(device, rotation, mirror, expected):
    strip = make_strip(device)
    frame = [(0, 0, 0)] * 64
    frame[0] = (50, 0, 0)
    frame[1] = (0, 0, 60)
    plain(strip, rotation=rotation, mirror=mirror).show(frame)
    data = strip.sent[-1]
    lit = [i for i in range(64) if data[3 * i:3 * i + 3] != b"\x00\x00\x00"]
    assert sorted(lit) == sorted(expected)
    assert rgb_at(data, expected[0]) == (50, 0, 0)
    assert rgb_at(data, expected[1]) == (0, 0, 60)


def test_every_rotation_is_a_permutation():
    for layout in ("rows", "serpentine"):
        for rotation in (0, 90, 180, 270):
            for mirror in (False, True):
                assert sorted(strip_map(8, 8, layout, rotation, mirror)) == list(range(64))


@pytest.mark.parametrize("order, wire", [
    ("RGB", (10, 20, 30)), ("GRB", (20, 10, 30)), ("BRG", (30, 10, 20)), ("BGR", (30, 20, 10))])
def test_pixel_order_on_the_wire(device, order, wire):
    strip = make_strip(device, order)
    plain(strip).fill((10, 20, 30))
    assert strip.sent[-1] == bytes(wire) * 64


def test_real_neopixel_class_over_neopixel_write(device):
    pixels = device.neopixel.NeoPixel(device.board.GP0, 64, auto_write=False,
                                      pixel_order=device.neopixel.GRB)
    matrix = plain(pixels, layout="serpentine")
    frame = [(0, 0, 0)] * 64
    frame[8] = 0x0A141E  # packed ints work as well as tuples
    matrix.show(frame)
    pin, data = device.neopixel_write.FRAMES[-1]
    assert pin == "GP0"
    assert data[3 * 15:3 * 16] == bytes((20, 10, 30))
    assert data.count(0) == 189


def test_gamma_table_points():
    table = gamma_table(22)
    assert (table[0], table[1], table[64], table[128], table[255]) == (0, 1, 12, 56, 255)
    assert list(gamma_table(10)) == list(range(256))
    assert all(table[i] <= table[i + 1] for i in range(255))
    with pytest.raises(ValueError):
        gamma_table(5)


def test_gamma_and_brightness_bytes(device):
    strip = make_strip(device, "RGB")
    matrix = Matrix(strip, gamma=22, brightness=50, max_current_ma=10000)
    frame = [(128, 255, 1)] + [(0, 0, 0)] * 63
    matrix.show(frame)
    # 128 -> 56 -> 28; 255 -> 255 -> 128 (rounded); 1 -> 1 -> 1 (lit stays lit).
    assert strip.sent[-1][0:3] == bytes((28, 128, 1))
    matrix.brightness = 10
    matrix.show(frame)
    assert strip.sent[-1][0:3] == bytes((6, 26, 1))
    with pytest.raises(ValueError):
        matrix.brightness = 101


def test_strip_brightness_is_left_at_full(device):
    strip = make_strip(device)
    strip.brightness = 0.5
    Matrix(strip)
    assert strip.brightness == 1.0


def test_current_cap_full_white(device):
    strip = make_strip(device)
    matrix = plain(strip, max_current_ma=500)
    matrix.fill((255, 255, 255))
    # Budget for the channels: (500 - 64 idle) mA = 5559 in value units (20 mA per 255);
    # 64 * 765 = 48960 asked, so every value becomes 255 * 5559 // 48960 = 28.
    assert strip.sent[-1] == bytes((28,)) * 192
    assert matrix.limited
    assert matrix.current_ma == 486
    assert matrix.current_ma <= 500


def test_current_cap_keeps_proportions(device):
    strip = make_strip(device, "RGB")
    matrix = plain(strip, max_current_ma=200)
    frame = [(255, 100, 0)] * 32 + [(0, 0, 40)] * 32
    matrix.show(frame)
    limit = (200 - 64) * 255 // 20        # 1734
    total = 32 * 355 + 32 * 40            # 12640
    data = strip.sent[-1]
    assert data[0:3] == bytes((255 * limit // total, 100 * limit // total, 0))
    assert data[189:192] == bytes((0, 0, 40 * limit // total))
    assert matrix.current_ma <= 200


def test_no_cap_below_budget(device):
    strip = make_strip(device, "RGB")
    matrix = plain(strip, max_current_ma=500)
    frame = [(0, 0, 0)] * 64
    frame[5] = (255, 255, 255)
    matrix.show(frame)
    assert not matrix.limited
    assert strip.sent[-1][15:18] == b"\xff\xff\xff"
    assert matrix.current_ma == 64 + 60


def test_bad_options_are_refused(device):
    strip = make_strip(device)
    for options in ({"layout": "zigzag"}, {"rotation": 45}, {"max_current_ma": 0},
                    {"gamma": 2.2}, {"brightness": -1}):
        with pytest.raises(ValueError):
            Matrix(strip, **options)
    with pytest.raises(ValueError):
        Matrix(make_strip(device, n=60))


MPY_ALLOC = """
import gc
from hardware.matrix import Matrix

class Strip(list):
    n = 64
    def show(self):
        pass

strip = Strip([0] * 64)
matrix = Matrix(strip, layout="serpentine", rotation=90, max_current_ma=200)
frame = [((p * 37) & 255, (p * 11) & 255, 200) for p in range(64)]
matrix.show(frame)
before = gc.mem_alloc()
for _ in range(10):
    matrix.show(frame)
print((gc.mem_alloc() - before) // 10, matrix.limited, strip[0])
"""


@pytest.mark.micropython
def test_show_allocates_almost_nothing_under_micropython():
    from micropython import run_micropython

    per_frame, limited, first = run_micropython(MPY_ALLOC, trees=("hardware",)).split()
    assert limited == "True"  # the capping path ran too
    assert int(first) != 0
    assert int(per_frame) <= 64  # bytes per frame: no tuple or list per pixel


def test_a_frame_shows_the_same_bytes_whatever_was_shown_before(device):
    """The matrix skips positions holding the very colour object it showed there last time; a
    tuple put back, a changed int, a list changed in place, the budget coming and going and a
    new brightness all still give what a fresh matrix shows for that frame."""
    import random

    rng = random.Random(4)
    options = dict(layout="serpentine", rotation=90, max_current_ma=300, brightness=60)
    strip = make_strip(device)
    matrix = Matrix(strip, **options)
    shades = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(6)]
    shades.append((0, 0, 0))
    frame = [shades[-1]] * 64
    for step in range(60):
        for _ in range(rng.randrange(1, 20)):
            p = rng.randrange(64)
            kind = rng.randrange(4)
            if kind == 0:
                frame[p] = rng.choice(shades)        # a cached tuple, maybe the same one again
            elif kind == 1:
                frame[p] = rng.randrange(1 << 24)    # a packed int
            elif kind == 2:
                frame[p] = [rng.randrange(256), 0, 0]
            elif isinstance(frame[p], list):
                frame[p][1] = rng.randrange(256)     # the same list, changed in place
        if step % 4 == 0:
            frame[0] = frame[1] = (255, 255, 255) if step % 8 else (0, 0, 0)  # budget on/off
        if step == 30:
            matrix.brightness = options["brightness"] = 25
        matrix.show(frame)
        fresh_strip = make_strip(device)
        fresh = Matrix(fresh_strip, **options)
        fresh.show(frame)
        assert strip.sent[-1] == fresh_strip.sent[-1], "step %d" % step
        assert (matrix.limited, matrix.current_ma) == (fresh.limited, fresh.current_ma)
