"""Draw the link's wiring diagrams of docs/hardware.md as SVG files, from the link pins of the
presets in hardware/presets.py (``LINK_PINS``).

    python tools/linkwiring.py            # writes docs/link-<preset>.svg
    python tools/linkwiring.py --check    # exit 1 if a file is missing or out of date

One drawing per board that has a link by default (the Pico W is wired as the Pico, a
Raspberry Pi has none): two handhelds crossed (each TX to the other's RX, GND to GND), three
or four in a ring (each TX to the next one's RX, every GND joined), and the self-test's loopback
jumper (TX to its own RX). Every TX goes out through a 470 ohm resistor. Each pin is a
``data-board``/``data-role`` square and each wire a polyline, so a test can follow every
connection from pin to pin through the resistors and the junctions.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from hardware.presets import LINK_PINS  # noqa: E402
from generated import update  # noqa: E402
from wiring import BLACK, TITLES, dot, line, note_lines, text  # noqa: E402

DRAWN = ("pico", "feather_rp2040")  # the Pico W's pins are the Pico's
# Physical pin numbers: on the Pico, GP12, GP13 and a GND are pins 16, 17 and 18, side by side.
PHYSICAL = {"pico": {"GP12": 16, "GP13": 17, "GND": 18}, "feather_rp2040": {}}
TX_COLOUR = "#0e9aa7"   # a handheld's TX to the next one's RX
BACK_COLOUR = "#c2185b"  # the second wire of two handhelds, back the other way
BOARD_W, BOARD_H = 150, 120
PIN_GAP = 26


def pin_label(preset, role):
    name = {"TX": LINK_PINS[preset][0], "RX": LINK_PINS[preset][1], "GND": "GND"}[role]
    number = PHYSICAL[preset].get(name)
    label = name if name == role else "%s %s" % (name, role)
    return label if number is None else "%s (pin %d)" % (label, number)


def board(out, preset, x, y, name, side, section):
    """A handheld at (``x``, ``y``) with its TX, RX and GND pins on its ``side`` ("right",
    "left" or "bottom"), in drawing ``section``; returns {role: (x, y)} of the pins' centres."""
    out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="#0b6e4f" stroke="%s" '
               'stroke-width="2"/>' % (x, y, BOARD_W, BOARD_H, BLACK))
    out.append(text(x + 10, y + 20, name, 13, "start", "bold", "white"))
    pins = {}
    # along the bottom RX comes first, so that each TX's wire to the next board's RX runs
    # clear of the next board's own wire
    roles = ("RX", "TX", "GND") if side == "bottom" else ("TX", "RX", "GND")
    for i, role in enumerate(roles):
        if side == "right":
            cx, cy = x + BOARD_W, y + 45 + i * PIN_GAP
        elif side == "left":
            cx, cy = x, y + 45 + i * PIN_GAP
        else:
            cx, cy = x + 30 + i * 45, y + BOARD_H
        pins[role] = (cx, cy)
        out.append('<rect data-section="%s" data-board="%s" data-role="%s" x="%d" y="%d" '
                   'width="12" height="12" fill="#f1c40f" stroke="%s"/>'
                   % (section, name, role, cx - 6, cy - 6, BLACK))
        label = pin_label(preset, role)
        if side == "right":
            out.append(text(cx - 12, cy + 4, label, 11, "end", "bold", "white"))
        elif side == "left":
            out.append(text(cx + 12, cy + 4, label, 11, "start", "bold", "white"))
        else:
            out.append(text(cx, cy - 12, role, 11, "middle", "bold", "white"))
    if side == "bottom":  # no room for the names beside the pins: they go above
        for i, role in enumerate(("TX", "RX", "GND")):
            out.append(text(x + 10, y + 42 + 15 * i, "%s: %s" % (role, where(preset, role)), 11,
                            "start", "normal", "white"))
    return pins


def where(preset, role):
    """The pin of ``role`` as a short phrase: "GP12 (pin 16)", "the pin marked TX"."""
    name = {"TX": LINK_PINS[preset][0], "RX": LINK_PINS[preset][1], "GND": "GND"}[role]
    number = PHYSICAL[preset].get(name)
    if number is not None:
        return "pin %d" % number if name == role else "%s (pin %d)" % (name, number)
    return "the pin marked %s" % name


def resistor(out, start, dx, dy):
    """A 470 ohm resistor from ``start`` to ``start`` + (``dx``, ``dy``), one of them 0;
    returns its far end."""
    x, y = start
    end = (x + dx, y + dy)
    left, top = min(x, end[0]), min(y, end[1])
    width, height = (abs(dx), 12) if dx else (12, abs(dy))
    out.append('<rect class="resistor" data-from="%d,%d" data-to="%d,%d" x="%d" y="%d" '
               'width="%d" height="%d" fill="#f5deb3" stroke="%s"/>'
               % (x, y, end[0], end[1], left - (6 if not dx else 0), top - (6 if dx else 0),
                  width, height, BLACK))
    if dx:
        out.append(text(left + width // 2, y - 9, "470 \u03a9", 10, "middle"))
    else:
        out.append(text(x + 10, top + height // 2 + 4, "470 \u03a9", 10))
    return end


def wire(out, points, colour, width=3):
    out.append(line(points, colour, width, ' class="wire"'))


def two(out, preset, top):
    """Two handhelds side by side, TX and RX crossed."""
    out.append(text(30, top, "Two handhelds: each TX to the other one's RX, GND to GND", 15,
                    "start", "bold"))
    a = board(out, preset, 60, top + 20, "handheld 1", "right", "two")
    b = board(out, preset, 750, top + 20, "handheld 2", "left", "two")
    tx_y, rx_y = a["TX"][1], a["RX"][1]
    # the two wires cross between the boards (an X, not joined)
    wire(out, (a["TX"], (a["TX"][0] + 20, tx_y)), TX_COLOUR)
    end = resistor(out, (a["TX"][0] + 20, tx_y), 40, 0)
    wire(out, (end, (400, tx_y), (560, rx_y), b["RX"]), TX_COLOUR)
    wire(out, (b["TX"], (b["TX"][0] - 20, tx_y)), BACK_COLOUR)
    end = resistor(out, (b["TX"][0] - 20, tx_y), -40, 0)
    wire(out, (end, (560, tx_y), (400, rx_y), a["RX"]), BACK_COLOUR)
    wire(out, (a["GND"], b["GND"]), BLACK)
    out.append(text(480, a["GND"][1] + 18, "GND", 11, "middle", "bold"))
    return top + 20 + BOARD_H + 40


def ring(out, preset, top):
    """Four handhelds in a row, each TX to the next one's RX, the last one's back to the first;
    every GND on one shared wire."""
    out.append(text(30, top, "Three or four handhelds: a ring, each TX to the next one's RX, "
                    "every GND joined", 15, "start", "bold"))
    boards = []
    for i in range(4):
        boards.append(board(out, preset, 40 + i * 230, top + 20, "handheld %d" % (i + 1),
                            "bottom", "ring"))
    bottom = top + 20 + BOARD_H
    onward, back, ground = bottom + 70, bottom + 95, bottom + 120  # the wires' lanes
    for i in range(4):
        tx, rx = boards[i]["TX"], boards[(i + 1) % 4]["RX"]
        wire(out, (tx, (tx[0], tx[1] + 6)), TX_COLOUR)
        end = resistor(out, (tx[0], tx[1] + 6), 0, 40)
        # the last one's TX goes back to the first one's RX, below the others
        lane = onward if i < 3 else back
        wire(out, (end, (end[0], lane), (rx[0], lane), rx), TX_COLOUR)
    first, last = boards[0]["GND"][0], boards[3]["GND"][0]
    wire(out, ((first, ground), (last, ground)), BLACK)
    for i in range(4):
        g = boards[i]["GND"]
        wire(out, (g, (g[0], ground)), BLACK)
        if 0 < i < 3:
            out.append(dot(g[0], ground))
    out.append(text(last + 10, ground + 4, "GND", 11, "start", "bold"))
    out.append(text(30, ground + 30, "With three handhelds, leave out handheld 4: handheld 3's "
                    "TX goes back to handheld 1's RX.", 12))
    return ground + 50


def loopback(out, preset, top):
    """One handheld, its TX joined to its own RX: the self-test's loopback."""
    out.append(text(30, top, "The self-test on one handheld: a jumper from its TX (through the "
                    "resistor) to its own RX", 15, "start", "bold"))
    a = board(out, preset, 60, top + 20, "handheld", "right", "loopback")
    wire(out, (a["TX"], (a["TX"][0] + 20, a["TX"][1])), TX_COLOUR)
    end = resistor(out, (a["TX"][0] + 20, a["TX"][1]), 40, 0)
    wire(out, (end, (end[0] + 40, end[1]), (end[0] + 40, a["RX"][1]), a["RX"]), TX_COLOUR)
    out.append(text(end[0] + 60, end[1] + 18, "jumper wire", 12))
    return top + 20 + BOARD_H + 30


def svg(preset):
    width = 960
    out = [None,  # the <svg> line, once the height is known
           '<rect width="100%" height="100%" fill="white"/>',
           text(width // 2, 30, "Rolit Handheld - the link cable - " + TITLES[preset], 20,
                "middle", "bold"),
           text(width // 2, 52, 'preset "%s": ROLIT_LINK_TX = "%s", ROLIT_LINK_RX = "%s" in '
                "settings.toml switch the link on" % ((preset,) + LINK_PINS[preset]), 12,
                "middle")]
    y = two(out, preset, 95)
    y = ring(out, preset, y + 10)
    y = loopback(out, preset, y + 10)
    notes = ("TX is an output, RX an input: a TX always goes to an RX, never to another TX. "
             "Every handheld's TX goes through its own 470 \u03a9 resistor.",
             "The resistor keeps a TX wired to a TX, or to a handheld that is switched off, "
             "from drawing more than a few mA.",
             "Every GND is joined: the link's signals are measured against it. Keep the wires "
             "short, and twist each TX wire with a GND wire.",
             "Wires that cross without a dot are not joined. The self-test's key test shows one "
             "cyan dot per handheld on the ring.")
    out += note_lines(notes, 30, y + 10)
    height = y + 10 + 22 * len(notes) + 10
    out[0] = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d '
              '%d">' % (width, height, width, height))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    stale = 0
    for preset in DRAWN:
        path = os.path.join(ROOT, "docs", "link-%s.svg" % preset)
        stale += update(path, svg(preset), "--check" in argv, ROOT)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
