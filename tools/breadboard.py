"""Draw the breadboard layout of the solder-free class kit (docs/breadboard-pico.svg) from the
``pico`` preset in hardware/config.py: where every part and wire goes, hole by hole.

    python tools/breadboard.py            # writes docs/breadboard-pico.svg
    python tools/breadboard.py --check    # exit 1 if it is missing or out of date

A full-size breadboard (63 columns, rows a-j, a + and a - rail along each long side). The Pico H
straddles the centre gap with its pins in rows c and h, USB at column 1's end; the six 12 mm
buttons straddle it too, each with one leg wired to its pin and the diagonal leg to the GND rail.
Every wire and part names its holes (``data-from``, ``data-to``, ``data-legs``), so a test can
follow each connection through the breadboard's strips.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

from hardware.config import PRESETS  # noqa: E402
from generated import update  # noqa: E402
from wiring import BLACK, BLUE, GREEN, PHYSICAL, RED, line, note_lines, text  # noqa: E402

OUTPUT = os.path.join(ROOT, "docs", "breadboard-pico.svg")
COLUMNS = 63
PITCH = 16                      # px per 0.1 inch
LEFT = 60                       # x of column 1
TOP = 190                       # y of the top + rail
# y of each row of holes, as the breadboard's own labels name them
ROWS = {"+top": TOP, "-top": TOP + PITCH}
for _i, _name in enumerate("abcde"):
    ROWS[_name] = TOP + (3 + _i) * PITCH
for _i, _name in enumerate("fghij"):
    ROWS[_name] = TOP + (10 + _i) * PITCH
ROWS["-bottom"] = TOP + 16 * PITCH
ROWS["+bottom"] = TOP + 17 * PITCH
PICO_FIRST = 3                  # the column of pins 1 and 40 (the USB end)
RESISTOR = 25                   # the column where the 470 ohm resistor crosses the gap
MATRIX_5V, MATRIX_GND, CAPACITOR = 27, 28, 30
BUTTON_FIRST, BUTTON_STEP = 32, 5
# Left to right on the board, so that the wires from the Pico nest without crossing.
BUTTON_ORDER = ("BACK", "SELECT", "RIGHT", "LEFT", "DOWN", "UP")
BUTTON_PINS = ("UP", "DOWN", "LEFT", "RIGHT", "SELECT", "BACK")  # PRESETS order, from index 1


def x_of(column):
    return LEFT + (column - 1) * PITCH


def hole(name):
    """``"j25"`` or ``"-top:28"`` -> (x, y)."""
    if ":" in name:
        row, column = name.split(":")
    else:
        row, column = name[0], name[1:]
    return x_of(int(column)), ROWS[row]


def pico_hole(pin_number):
    """The hole of Pico pin 1-40: pins 1-20 along row h from the USB end, 40-21 along row c."""
    if pin_number <= 20:
        return "h%d" % (PICO_FIRST - 1 + pin_number)
    return "c%d" % (PICO_FIRST - 1 + 41 - pin_number)


def free_hole(pin_number, row):
    """A free hole in the strip of Pico pin ``pin_number``: rows a/b above it, i/j below."""
    return "%s%s" % (row, pico_hole(pin_number)[1:])


def wire(name, start, end, colour, dip=0, width=4):
    """A jumper wire between two holes; ``dip`` > 0 bows it below the board by that much."""
    (x1, y1), (x2, y2) = hole(start), hole(end)
    if dip:
        low = ROWS["+bottom"] + dip
        path = "M%d,%d C%d,%d %d,%d %d,%d" % (x1, y1, x1, low, x2, low, x2, y2)
    else:
        path = "M%d,%d L%d,%d" % (x1, y1, x2, y2)
    return ('<path id="wire-%s" data-from="%s" data-to="%s" d="%s" fill="none" stroke="%s" '
            'stroke-width="%d" stroke-linecap="round" opacity="0.9"/>'
            % (name, start, end, path, colour, width))


def breadboard():
    out = []
    x0, x1 = x_of(1) - 30, x_of(COLUMNS) + 30
    y0, y1 = ROWS["+top"] - 22, ROWS["+bottom"] + 22
    out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="8" fill="#f4f1e8" stroke="#999"/>'
               % (x0, y0, x1 - x0, y1 - y0))
    gap = (ROWS["e"] + ROWS["f"]) // 2
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#dcd6c4"/>'
               % (x0, gap - 6, x1 - x0, 12))
    for rail, colour in (("+top", RED), ("-top", BLUE), ("-bottom", BLUE), ("+bottom", RED)):
        y = ROWS[rail]
        off = -9 if rail in ("+top", "-bottom") else 9
        if rail == "-bottom":
            off = -9
        out.append(line(((x0 + 24, y + off), (x1 - 24, y + off)), colour, 2))
        sign = "+" if rail[0] == "+" else "\u2212"
        out.append(text(x0 + 10, y + 5, sign, 14, "middle", "bold", colour))
        out.append(text(x1 - 10, y + 5, sign, 14, "middle", "bold", colour))
    for row, y in ROWS.items():
        for column in range(1, COLUMNS + 1):
            out.append('<rect x="%d" y="%d" width="6" height="6" fill="#555"/>'
                       % (x_of(column) - 3, y - 3))
        if len(row) == 1:
            out.append(text(x0 + 12, y + 4, row, 11, "middle", "normal", "#777"))
            out.append(text(x1 - 12, y + 4, row, 11, "middle", "normal", "#777"))
    for column in [1] + list(range(5, COLUMNS + 1, 5)):
        out.append(text(x_of(column), ROWS["a"] - 12, str(column), 10, "middle", "normal",
                        "#777"))
        out.append(text(x_of(column), ROWS["j"] + 17, str(column), 10, "middle", "normal",
                        "#777"))
    return out


def pico(labels):
    """The Pico H body over rows c-h of columns 3-22, and the names of the pins in use."""
    left, right = x_of(PICO_FIRST) - 10, x_of(PICO_FIRST + 19) + 10
    top, bottom = ROWS["c"] - 10, ROWS["h"] + 10
    out = ['<g id="pico">',
           '<rect x="%d" y="%d" width="%d" height="%d" rx="4" fill="#0b6e4f" opacity="0.92" '
           'stroke="%s"/>' % (left, top, right - left, bottom - top, BLACK),
           '<rect x="%d" y="%d" width="22" height="30" rx="3" fill="#bbbbbb" stroke="%s"/>'
           % (left - 14, (top + bottom) // 2 - 15, BLACK),
           text(left - 20, (top + bottom) // 2 + 4, "USB", 11, "end", "bold"),
           text((left + right) // 2 + 30, (top + bottom) // 2 - 4, "Raspberry Pi Pico H", 14,
                "middle", "bold", "white"),
           text((left + right) // 2 + 30, (top + bottom) // 2 + 14, "pins in rows c and h", 11,
                "middle", "normal", "white")]
    for number in range(1, 41):
        x, y = hole(pico_hole(number))
        used = number in labels
        out.append('<rect x="%d" y="%d" width="8" height="8" fill="%s" stroke="%s"/>'
                   % (x - 4, y - 4, "#f1c40f" if used else "#c9b037", BLACK))
        if used:
            # the name inside the body, next to its pin, written upwards
            ty = y + 12 if number > 20 else y - 12
            anchor = "end" if number > 20 else "start"
            out.append('<text x="%d" y="%d" transform="rotate(-90 %d %d)" font-family="Helvetica, '
                       'Arial, sans-serif" font-size="10" text-anchor="%s" font-weight="bold" '
                       'fill="white">%s</text>' % (x + 4, ty, x + 4, ty, anchor, labels[number]))
    out.append("</g>")
    return out


def resistor(column):
    (x, y1), (_, y2) = hole("d%d" % column), hole("g%d" % column)
    return ['<g id="resistor" data-legs="d%d g%d">' % (column, column),
            line(((x, y1), (x, y2)), "#777777", 2),
            '<rect x="%d" y="%d" width="12" height="%d" rx="4" fill="#e8c99b" stroke="%s"/>'
            % (x - 6, y1 + 10, y2 - y1 - 20, BLACK),
            text(x + 10, (y1 + y2) // 2 + 4, "470 \u03a9", 11, "start", "bold"),
            "</g>"]


def capacitor(column):
    (x, plus), (_, minus) = hole("+top:%d" % column), hole("-top:%d" % column)
    return ['<g id="capacitor" data-legs="+top:%d -top:%d">' % (column, column),
            '<rect x="%d" y="%d" width="22" height="34" rx="4" fill="#2e5fa8" stroke="%s"/>'
            % (x - 11, plus - 52, BLACK),
            '<rect x="%d" y="%d" width="7" height="34" fill="#dddddd" stroke="%s"/>'
            % (x + 4, plus - 52, BLACK),
            line(((x - 4, plus - 18), (x - 4, plus)), RED, 2),
            line(((x + 7, plus - 18), (x + 7, minus)), BLACK, 2),
            text(x + 18, plus - 36, "1000 \u00b5F: long leg + to the + rail,", 11),
            text(x + 18, plus - 22, "striped leg \u2212 to the \u2212 rail", 11),
            "</g>"]


def button(name, column, pin):
    """A 12 mm button across the gap: legs d/g of ``column`` and ``column + 2``, named with the
    Pico pin its wire comes from (the nested wires are hard to follow by eye)."""
    legs = "g%d d%d" % (column, column + 2)
    x = (x_of(column) + x_of(column + 2)) // 2
    y = (ROWS["d"] + ROWS["g"]) // 2
    return ['<g id="button-%s" data-legs="%s">' % (name, legs),
            '<rect x="%d" y="%d" width="%d" height="%d" rx="3" fill="#333333" stroke="%s"/>'
            % (x - 38, y - 38, 76, 76, BLACK),
            '<circle cx="%d" cy="%d" r="24" fill="#666666" stroke="#111"/>' % (x, y),
            text(x, y + 4, name, 12, "middle", "bold", "white"),
            text(x, y + 35, pin, 10, "middle", "bold", "white")] + [
            '<circle cx="%d" cy="%d" r="4" fill="#d0d0d0" stroke="#111"/>' % hole(leg)
            for leg in ("d%d" % column, "d%d" % (column + 2), "g%d" % column,
                        "g%d" % (column + 2))] + ["</g>"]


def matrix_leads():
    """The matrix above the board, its three leads (a JST SM lead ending in jumper pins) coming
    down into the holes."""
    left, right = x_of(RESISTOR) - 40, x_of(CAPACITOR) + 520
    out = ['<g id="matrix">',
           '<rect x="%d" y="%d" width="%d" height="58" rx="6" fill="#222" stroke="%s"/>'
           % (left, 64, right - left, BLACK)]
    for i in range(8):
        out.append('<circle cx="%d" cy="93" r="6" fill="%s"/>'
                   % (right - 160 + i * 18, ("#ff3030", "#ffd400", "#30d030", "#3070ff")[i % 4]))
    out += [text(left + 10, 84, "8x8 NeoPixel matrix (flexible, wired, JST SM lead)", 12, "start",
                 "bold", "white"),
            text(left + 10, 102, 'its input end (DIN); settings.toml: ROLIT_LAYOUT = "serpentine"',
                 11, "start", "normal", "white"),
            "</g>"]
    return out


def svg():
    preset = PRESETS["pico"]
    physical = PHYSICAL["pico"]
    pins = dict(zip(BUTTON_PINS, preset[1:7]))
    labels = {physical[preset[0]]: preset[0], physical["VBUS"]: "VBUS", physical["GND"]: "GND"}
    for name in BUTTON_PINS:
        labels[physical[pins[name]]] = pins[name]
    width = x_of(COLUMNS) + 60
    height = ROWS["+bottom"] + 300
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
           % (width, height, width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           text(width // 2, 30, "Rolit Handheld - the solder-free kit on a full-size breadboard",
                20, "middle", "bold"),
           text(width // 2, 50, 'preset "pico" (the default); holes named as printed on the '
                'breadboard: column number, row letter', 12, "middle")]
    out += breadboard()
    out += matrix_leads()
    out += pico(labels)
    out += resistor(RESISTOR)
    for i, name in enumerate(BUTTON_ORDER):
        out += button(name, BUTTON_FIRST + i * BUTTON_STEP, pins[name])
    out += capacitor(CAPACITOR)
    # power: VBUS to the + rail, the Pico's GND to the - rail
    out.append(wire("VBUS", free_hole(physical["VBUS"], "a"), "+top:%d" % PICO_FIRST, RED))
    out.append(wire("GND", free_hole(physical["GND"], "a"), "-top:%d" % (PICO_FIRST + 2), BLACK))
    # the data line: the Pico's pin to the resistor's lower strip; the matrix's DIN lead above it
    out.append(wire("DIN", free_hole(physical[preset[0]], "j"), "j%d" % RESISTOR, GREEN, dip=6))
    lead_top = 122
    for name, end, colour in (("matrix-DIN", "a%d" % RESISTOR, GREEN),
                              ("matrix-5V", "+top:%d" % MATRIX_5V, RED),
                              ("matrix-GND", "-top:%d" % MATRIX_GND, BLACK)):
        x, y = hole(end)
        out.append('<path id="wire-%s" data-from="matrix" data-to="%s" d="M%d,%d L%d,%d" '
                   'fill="none" stroke="%s" stroke-width="4" stroke-linecap="round"/>'
                   % (name, end, x, lead_top, x, y, colour))
    # each button: its pin to the leg below the gap (nested bows), the diagonal leg to GND
    holes = []  # the button wires, hole by hole, for the notes
    for i, name in enumerate(BUTTON_ORDER):
        column = BUTTON_FIRST + i * BUTTON_STEP
        row = "j" if i % 2 == 0 else "i"
        start, end = free_hole(physical[pins[name]], row), "%s%d" % (row, column)
        out.append(wire(name, start, end, BLUE, dip=18 + 16 * i))
        out.append(wire(name + "-GND", "a%d" % (column + 2), "-top:%d" % (column + 2), BLACK))
        holes.append("%s (%s) %s to %s, a%d to \u2212" % (name, pins[name], start, end,
                                                           column + 2))
    vbus, gnd = free_hole(physical["VBUS"], "a"), free_hole(physical["GND"], "a")
    notes = ("Power: VBUS (pin 40, wire from %s) to the top + rail, GND (pin 38, from %s) to the "
             "top \u2212 rail: the matrix and every button return to that \u2212 rail."
             % (vbus, gnd),
             "Data: GP0 (pin 1) from %s to %s below the gap; the 470 \u03a9 resistor crosses the "
             "gap in column %d; the matrix's DIN lead goes in above it, at a%d."
             % (free_hole(physical[preset[0]], "j"), "j%d" % RESISTOR, RESISTOR, RESISTOR),
             "Buttons: one wire from the pin to the button's leg below the gap, one from the "
             "diagonal leg (above the gap) to the \u2212 rail. Hole by hole:",
             "; ".join(holes[:3]) + ";",
             "; ".join(holes[3:]) + ".",
             "The matrix's 5 V and GND leads go in the + and \u2212 rails, the capacitor across "
             "them beside the leads. Plug in USB only when everything is in place.",
             "Optional piezo buzzer: GP15 (pin 20) and the \u2212 rail (ROLIT_VOLUME in "
             "settings.toml); the joystick instead of the arrows: docs/hardware.md.")
    out += note_lines(notes, 40, ROWS["+bottom"] + 130)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    return update(OUTPUT, svg(), "--check" in argv, ROOT)


if __name__ == "__main__":
    sys.exit(main())
