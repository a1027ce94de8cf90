"""Draw the wiring diagrams of docs/hardware.md as SVG files, from the presets in hardware/config.py.

    python tools/wiring.py            # writes docs/wiring-<preset>.svg
    python tools/wiring.py --check    # exit 1 if a file is missing or out of date

Each diagram shows the board with the pins used (name and physical pin number), every wire in a
colour by its job (red 5 V, orange 3.3 V, black ground, green data, blue buttons, purple analog),
the board's GND feeding the GND rail that every part returns to, the 470 ohm resistor in the data
line, the 1000 uF capacitor across the matrix supply with its polarity, and the arrow buttons and
the joystick as the either/or choice that ``ROLIT_INPUT`` in settings.toml makes.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from hardware.config import PRESETS  # noqa: E402
from generated import update  # noqa: E402

# Physical pin numbers (or the label printed on the board) of every pin name a preset uses.
PHYSICAL = {
    "pico": {"GP0": 1, "GP2": 4, "GP3": 5, "GP4": 6, "GP5": 7, "GP6": 9, "GP7": 10,
             "GP15": 20, "GP22": 29, "GP26": 31, "GP27": 32, "VBUS": 40, "3V3": 36, "GND": 38},
    "feather_rp2040": {},
    "blinka_pi": {"D18": 12, "D5": 29, "D6": 31, "D13": 33, "D19": 35, "D26": 37, "D21": 40,
                  "5V": 2, "3V3": 1, "GND": 39},
}
PHYSICAL["pico_w"] = PHYSICAL["pico"]
TITLES = {
    "pico": "Raspberry Pi Pico (CircuitPython)",
    "pico_w": "Raspberry Pi Pico W (CircuitPython)",
    "feather_rp2040": "Adafruit Feather RP2040 (CircuitPython)",
    "blinka_pi": "Raspberry Pi with Blinka (Python 3)",
}
POWER = {"pico": ("VBUS", "3V3"), "pico_w": ("VBUS", "3V3"), "feather_rp2040": ("USB", "3V"),
         "blinka_pi": ("5V", "3V3")}
RED, ORANGE, BLACK, GREEN, BLUE, PURPLE = ("#d62728", "#ff9f1c", "#222222", "#2ca02c",
                                           "#1f77b4", "#8e44ad")
ROW = 34


def label(name, preset):
    number = PHYSICAL[preset].get(name)
    return name if number is None else "%s (pin %d)" % (name, number)


def rows(preset):
    """The diagram from top to bottom: ``("wire", board pin or None, wire colour, part,
    terminal)`` (no board pin: the part's terminal goes to the GND rail) and ``("group", kind,
    title)`` headings for the buttons and the joystick."""
    (matrix, up, down, left, right, select, back, joy_x, joy_y, joy_press,
     buzzer) = PRESETS[preset]
    five, three = POWER[preset]
    out = [("wire", "GND", BLACK, "rail", "GND"),
           ("wire", matrix, GREEN, "matrix", "DIN"), ("wire", five, RED, "matrix", "5V"),
           ("gap",), ("wire", None, BLACK, "matrix", "GND")]
    if joy_x:
        out.append(("group", "either", 'EITHER four arrow buttons: ROLIT_INPUT = "buttons" '
                                        "(the default)"))
    else:
        out.append(("group", "only", "four arrow buttons (a Raspberry Pi has no analog inputs "
                                     "for a joystick)"))
    for name, pin in (("UP", up), ("DOWN", down), ("LEFT", left), ("RIGHT", right)):
        out.append(("wire", pin, BLUE, "button", name))
    if joy_x:
        out += [("group", "or", 'OR the joystick: set ROLIT_INPUT = "joystick" in settings.toml'),
                ("wire", joy_x, PURPLE, "joystick", "VRx"), ("wire", joy_y, PURPLE, "joystick", "VRy"),
                ("wire", joy_press, BLUE, "joystick", "SW"),
                ("wire", three, ORANGE, "joystick", "+3.3V"),
                ("wire", None, BLACK, "joystick", "GND")]
    out.append(("group", "always", "SELECT and BACK, with either choice" if joy_x else
                "SELECT and BACK"))
    for name, pin in (("SELECT", select), ("BACK", back)):
        out.append(("wire", pin, BLUE, "button", name))
    if buzzer:
        out.append(("wire", buzzer, GREEN, "buzzer", "+"))
    return out


def text(x, y, words, size=13, anchor="start", weight="normal", colour=BLACK):
    words = words.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return ('<text x="%d" y="%d" font-family="Helvetica, Arial, sans-serif" font-size="%d" '
            'text-anchor="%s" font-weight="%s" fill="%s">%s</text>'
            % (x, y, size, anchor, weight, colour, words))


def line(points, colour, width=3, extra=""):
    path = " ".join(["%d,%d" % p for p in points])
    return ('<polyline%s points="%s" fill="none" stroke="%s" stroke-width="%d" '
            'stroke-linejoin="round"/>' % (extra, path, colour, width))


def dot(x, y):
    # A junction: the wires that meet here are connected.
    return '<circle cx="%d" cy="%d" r="4" fill="%s"/>' % (x, y, BLACK)


def capacitor(cx, top, bottom):
    """The electrolytic capacitor standing between the 5 V wire (``top``) and the GND wire
    (``bottom``): + to 5 V, the striped - leg to GND."""
    body_top, body_bottom = top + 7, bottom - 7
    mid = (body_top + body_bottom) // 2
    return "\n".join([
        '<g id="capacitor">',
        line(((cx, top), (cx, body_top)), RED, 2),
        '<rect x="%d" y="%d" width="18" height="%d" rx="3" fill="#2e5fa8" stroke="%s"/>'
        % (cx - 9, body_top, body_bottom - body_top, BLACK),
        # the stripe printed on the negative side of the can
        '<rect id="capacitor-stripe" x="%d" y="%d" width="18" height="%d" fill="#dddddd" '
        'stroke="%s"/>' % (cx - 9, mid, body_bottom - mid, BLACK),
        line(((cx, body_bottom), (cx, bottom)), BLACK, 2),
        text(cx + 13, body_top + 8, "+", 13, "start", "bold", RED),
        text(cx + 13, body_bottom, "\u2212", 13, "start", "bold"),
        text(cx - 14, body_top + 8, "1000 \u00b5F", 11, "end"),
        text(cx - 14, body_bottom, "stripe = \u2212 leg", 11, "end"),
        "</g>"])


def svg(preset):
    items = rows(preset)
    width = 960
    board_x, board_w = 30, 250
    pin_x = board_x + board_w
    part_x, part_w = 620, 250
    gnd_x = 930
    top = 140
    bottom = top + ROW * len(items)
    notes = ("The board's GND goes to the GND rail (the breadboard's blue - row); every part's "
             "GND joins that rail.",
             "Matrix power: from the board's %s pin (the game caps the matrix at 500 mA); with a "
             "separate 5 V supply, join its GND to the rail too." % POWER[preset][0],
             "Capacitor: its long leg (+) to 5 V, the leg on the striped side (-) to GND, at the "
             "matrix. Backwards it can burst.",
             "Buttons connect a pin to GND (internal pull-ups). Any can be left out; with "
             "ROLIT_INPUT = \"onebutton\" one button on SELECT is enough.",
             "Data line: 470 \u03a9 close to the matrix's DIN. If the first LED flickers, add a "
             "74AHCT125 level shifter (see docs/hardware.md).")
    height = bottom + 30 + 22 * len(notes) + 10
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
           % (width, height, width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           text(width // 2, 30, "Rolit Handheld - " + TITLES[preset], 20, "middle", "bold"),
           text(width // 2, 52, "preset \"%s\" in settings.toml; pins as named by CircuitPython's"
                " board module" % preset, 12, "middle")]
    out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="10" fill="#0b6e4f" '
               'stroke="%s" stroke-width="2"/>' % (board_x, top - 50, board_w, bottom - top + 60,
                                                  BLACK))
    out.append(text(board_x + 16, top - 28, TITLES[preset].split(" (")[0], 14, "start", "bold",
                    "white"))
    supply = ("its own 5 V 3 A supply" if preset == "blinka_pi" else
              "USB: computer or 5 V supply")
    out.append(text(board_x + 16, top - 12, supply, 11, "start", "normal", "white"))
    header = len(out)  # the part boxes and choice frames go here, behind the wires
    # The GND rail on the right: the board's GND feeds it (first row), every part returns to it.
    rail_top, rail_bottom = top + ROW // 2, bottom - ROW // 2
    out.append(line(((gnd_x, rail_top), (gnd_x, rail_bottom)), BLACK, 4, ' id="gnd-rail"'))
    out.append(text(gnd_x, top - 4, "GND rail", 12, "middle", "bold"))
    boxes = {}      # part: [first y, last y]
    groups = []     # [kind, title, first y, last y]
    y = top
    for item in items:
        y += ROW
        wy = y - ROW // 2
        if item[0] == "group":
            groups.append([item[1], item[2], wy, wy])
            continue
        if item[0] == "gap":
            continue
        _, pin, colour, part, terminal = item
        if groups and part in ("button", "joystick"):
            groups[-1][3] = wy
        if pin:
            out.append('<rect data-pin="%s" x="%d" y="%d" width="12" height="12" fill="#f1c40f" '
                       'stroke="%s"/>' % (pin, pin_x - 6, wy - 6, BLACK))
            out.append(text(pin_x - 12, wy + 4, label(pin, preset), 12, "end", "bold", "white"))
        if part == "rail":
            out.append(line(((pin_x + 6, wy), (gnd_x, wy)), colour))
            out.append(dot(gnd_x, wy))
            out.append(text(pin_x + 40, wy - 6, "board GND to the GND rail", 12))
            continue
        if part == "button":
            out.append(line(((pin_x + 6, wy), (part_x, wy)), colour))
            out.append('<circle cx="%d" cy="%d" r="9" fill="#555" stroke="%s"/>'
                       % (part_x + 14, wy, BLACK))
            out.append(line(((part_x + 23, wy), (gnd_x, wy)), BLACK, 2))
            out.append(dot(gnd_x, wy))
            out.append(text(part_x + 32, wy - 5, "button " + terminal, 12))
            continue
        if pin and part == "matrix" and terminal == "DIN":
            out.append(line(((pin_x + 6, wy), (400, wy)), colour))
            out.append('<rect x="400" y="%d" width="60" height="16" fill="#f5deb3" stroke="%s"/>'
                       % (wy - 8, BLACK))
            out.append(text(430, wy + 5, "470 \u03a9", 11, "middle"))
            out.append(line(((460, wy), (part_x, wy)), colour))
        elif pin:
            out.append(line(((pin_x + 6, wy), (part_x, wy)), colour))
        else:
            # no wire to the board: this terminal goes to the GND rail
            out.append(line(((part_x + part_w, wy), (gnd_x, wy)), colour))
            out.append(dot(gnd_x, wy))
        boxes.setdefault(part, [wy, wy])[1] = wy
        out.append(text(part_x + 8, wy + 4, terminal, 12))
        if part == "buzzer":
            out.append(line(((part_x + part_w, wy), (gnd_x, wy)), BLACK, 2))
            out.append(dot(gnd_x, wy))
        if part == "matrix" and terminal == "5V":
            cx = 560
            out.append(capacitor(cx, wy, wy + 2 * ROW))
            out.append(dot(cx, wy))
        if part == "matrix" and terminal == "GND":
            out.append(line(((cx, wy), (part_x, wy)), colour, 2))
    behind = []
    names = {"matrix": "8x8 NeoPixel matrix", "joystick": "analog joystick",
             "buzzer": "piezo buzzer (- to GND)"}
    for part in ("matrix", "joystick", "buzzer"):
        if part in boxes:
            first, last = boxes[part]
            behind.append('<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="#eeeeee" '
                       'stroke="%s" stroke-width="2"/>'
                       % (part_x, first - ROW // 2 + 3, part_w, last - first + ROW - 6, BLACK))
            behind.append(text(part_x + part_w - 8, first + 4, names[part], 12, "end", "bold"))
    for kind, title, first, last in groups:
        # a dashed frame round each either/or choice, its title on the heading row
        behind.append('<rect class="choice" data-choice="%s" x="%d" y="%d" width="%d" height="%d" '
                   'rx="8" fill="none" stroke="#888888" stroke-width="1.5" '
                   'stroke-dasharray="6,4"/>' % (kind, 300, first - ROW // 2 + 2,
                                                 gnd_x - 20 - 300, last - first + ROW - 4))
        behind.append(text(310, first + 5, title, 13, "start", "bold", "#444444"))
    out[header:header] = behind
    out += note_lines(notes, 30, bottom + 30)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def note_lines(notes, x, y):
    """The notes under a drawing, one text line each from ``y`` down."""
    return [text(x, y + 22 * i, note, 12) for i, note in enumerate(notes)]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    stale = 0
    for preset in ("pico", "feather_rp2040", "blinka_pi"):
        path = os.path.join(ROOT, "docs", "wiring-%s.svg" % preset)
        stale += update(path, svg(preset), "--check" in argv, ROOT)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
