"""The colour-blind palette keeps the four ball colours apart under simulated red-green colour
blindness (Machado, Oliveira & Fernandes 2009, severity 1.0, on linear sRGB), measured as
CIEDE2000 distances in CIELAB (D65). Floats are fine here: this runs on CPython only; the
palette itself is integers."""

import math

from rolit_core import palette
from rolit_core.app import App
from rolit_core.board import BLUE, GREEN, RED, YELLOW

IDENTITY = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
PROTANOPIA = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
              (-0.003882, -0.048116, 1.051998))
DEUTERANOPIA = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                (-0.011820, 0.042940, 0.968881))
CLEARLY_APART = 20.0  # CIEDE2000; about 2 is a just-noticeable difference


def linear(value):
    value /= 255.0
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def simulate(rgb, matrix):
    lin = [linear(v) for v in rgb]
    out = [sum([matrix[i][j] * lin[j] for j in range(3)]) for i in range(3)]
    return [min(1.0, max(0.0, v)) for v in out]


def lab(lin):
    r, g, b = lin
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def ciede2000(lab1, lab2):
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar ** 7 / (cbar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp, dcp = L2 - L1, c2p - c1p
    dhp = 0.0
    if c1p * c2p:
        dhp = h2p - h1p
        if dhp > 180:
            dhp -= 360
        elif dhp < -180:
            dhp += 360
    dHp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lbp, cbp = (L1 + L2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbp = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hbp = (h1p + h2p + 360) / 2
    else:
        hbp = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbp - 30)) + 0.24 * math.cos(math.radians(2 * hbp))
         + 0.32 * math.cos(math.radians(3 * hbp + 6)) - 0.20 * math.cos(math.radians(4 * hbp - 63)))
    dtheta = 30 * math.exp(-(((hbp - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbp ** 7 / (cbp ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lbp - 50) ** 2 / math.sqrt(20 + (lbp - 50) ** 2)
    sc = 1 + 0.045 * cbp
    sh = 1 + 0.015 * cbp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dHp / sh) ** 2
                     + rt * (dcp / sc) * (dHp / sh))


def closest_pair(colours, matrix):
    labs = [lab(simulate(c, matrix)) for c in colours]
    return min([ciede2000(labs[i], labs[j]) for i in range(4) for j in range(i + 1, 4)])


def test_ciede2000_matches_published_test_data():
    # Sharma, Wu & Dalal (2005), pairs 1, 7 and 17
    assert abs(ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) - 2.0425) < 1e-4
    assert abs(ciede2000((50, 0, 0), (50, -1, 2)) - 2.3669) < 1e-4
    assert abs(ciede2000((50, 2.5, 0), (73, 25, -18)) - 27.1492) < 1e-4


def test_colour_blind_palette_stays_apart_under_deuteranopia_and_protanopia():
    balls = [palette.COLOUR_BLIND[c] for c in (RED, YELLOW, GREEN, BLUE)]
    for matrix in (IDENTITY, PROTANOPIA, DEUTERANOPIA):
        assert closest_pair(balls, matrix) > CLEARLY_APART
    # and they differ in lightness alone, without any hue: yellow > green > red > blue
    lightness = [lab(simulate(c, DEUTERANOPIA))[0] for c in balls]
    assert lightness[1] > lightness[2] > lightness[0] > lightness[3]
    assert min([abs(a - b) for a in lightness for b in lightness if a != b]) > 10


def test_the_normal_palette_is_what_the_option_is_for():
    # the check bites: the normal palette's yellow and green merge for a deuteranope
    balls = [palette.NORMAL[c] for c in (RED, YELLOW, GREEN, BLUE)]
    assert closest_pair(balls, IDENTITY) > CLEARLY_APART
    assert closest_pair(balls, DEUTERANOPIA) < 10


def test_the_palette_is_integers_and_used_by_the_app():
    for colour in palette.COLOUR_BLIND + palette.NORMAL:
        for value in colour:
            assert isinstance(value, int) and 0 <= value <= 255
    app = App(seed=1)
    app.settings.colour_blind = True
    app.brightness = 5
    app.start(seats=("human", "human"), first="red")
    frame = app.update(0, [])
    assert frame[27] == palette.COLOUR_BLIND[RED] and frame[36] == palette.COLOUR_BLIND[GREEN]
