"""Draw the wiring diagrams of docs/hardware.md as SVG files, from the presets in hardware/config.py.

    python tools/wiring.py            # writes docs/wiring-<preset>.svg
    python tools/wiring.py --check    # exit 1 if a file is missing or out of date

Each diagram shows the board with the pins used (name and physical pin number), every wire in a
colour by its job (red 5 V, orange 3.3 V, black ground, green data, blue buttons, purple analog),
the 470 ohm resistor in the data line and the 1000 uF capacitor across the matrix supply.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from hardware.config import PRESETS  # noqa: E402

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
    """(board pin, wire colour, part name, terminal) from top to bottom."""
    (matrix, up, down, left, right, select, back, joy_x, joy_y, joy_press,
     buzzer) = PRESETS[preset]
    five, three = POWER[preset]
    out = [(matrix, GREEN, "matrix", "DIN"), (five, RED, "matrix", "5V"),
           ("GND", BLACK, "matrix", "GND")]
    for name, pin in (("UP", up), ("DOWN", down), ("LEFT", left), ("RIGHT", right),
                      ("SELECT", select), ("BACK", back)):
        out.append((pin, BLUE, "button", name))
    if joy_x:
        out += [(joy_x, PURPLE, "joystick", "VRx"), (joy_y, PURPLE, "joystick", "VRy"),
                (joy_press, BLUE, "joystick", "SW"), (three, ORANGE, "joystick", "+3.3V"),
                ("GND", BLACK, "joystick", "GND")]
    if buzzer:
        out.append((buzzer, GREEN, "buzzer", "+"))
    return out


def text(x, y, words, size=13, anchor="start", weight="normal", colour=BLACK):
    words = words.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return ('<text x="%d" y="%d" font-family="Helvetica, Arial, sans-serif" font-size="%d" '
            'text-anchor="%s" font-weight="%s" fill="%s">%s</text>'
            % (x, y, size, anchor, weight, colour, words))


def line(points, colour, width=3):
    path = " ".join(["%d,%d" % p for p in points])
    return ('<polyline points="%s" fill="none" stroke="%s" stroke-width="%d" '
            'stroke-linejoin="round"/>' % (path, colour, width))


def svg(preset):
    wires = rows(preset)
    top = 80
    height = top + ROW * len(wires) + 160
    width = 940
    board_x, board_w = 30, 250
    pin_x = board_x + board_w
    part_x = 620
    part_w = 250
    gnd_x = 910
    parts = []
    top += 60
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
           % (width, height, width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           text(width // 2, 30, "Rolit Handheld - " + TITLES[preset], 20, "middle", "bold"),
           text(width // 2, 52, "preset \"%s\" in settings.toml; pins as named by CircuitPython's"
                " board module" % preset, 12, "middle")]
    bottom = top + ROW * len(wires)
    out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="10" fill="#0b6e4f" '
               'stroke="%s" stroke-width="2"/>' % (board_x, top - 50, board_w, bottom - top + 60,
                                                  BLACK))
    out.append(text(board_x + 16, top - 28, TITLES[preset].split(" (")[0], 14, "start", "bold",
                    "white"))
    supply = ("its own 5 V 3 A supply" if preset == "blinka_pi" else
              "USB: computer or 5 V supply")
    out.append(text(board_x + 16, top - 12, supply, 11, "start", "normal", "white"))
    # Ground bus on the right.
    out.append(line(((gnd_x, top - 10), (gnd_x, bottom + 10)), BLACK, 4))
    out.append(text(gnd_x, top - 16, "GND", 12, "middle", "bold"))
    y = top
    for pin, colour, part, terminal in wires:
        y += ROW
        wy = y - ROW // 2
        out.append('<rect x="%d" y="%d" width="12" height="12" fill="#f1c40f" stroke="%s"/>'
                   % (pin_x - 6, wy - 6, BLACK))
        out.append(text(pin_x - 12, wy + 4, label(pin, preset), 12, "end", "bold", "white"))
        if part == "matrix" and terminal == "DIN":
            out.append(line(((pin_x + 6, wy), (400, wy)), colour))
            out.append('<rect x="400" y="%d" width="60" height="16" fill="#f5deb3" stroke="%s"/>'
                       % (wy - 8, BLACK))
            out.append(text(430, wy + 5, "470 \u03a9", 11, "middle"))
            out.append(line(((460, wy), (part_x, wy)), colour))
        elif part == "button":
            out.append(line(((pin_x + 6, wy), (part_x, wy)), colour))
            out.append('<circle cx="%d" cy="%d" r="9" fill="#555" stroke="%s"/>'
                       % (part_x + 14, wy, BLACK))
            out.append(line(((part_x + 23, wy), (gnd_x, wy)), BLACK, 2))
            out.append(text(part_x + 32, wy - 5, "button " + terminal, 12))
            continue
        elif pin == "GND":
            out.append(line(((pin_x + 6, wy), (part_x, wy)), colour))
        else:
            out.append(line(((pin_x + 6, wy), (part_x, wy)), colour))
        if part not in parts:
            parts.append(part)
            count = len([w for w in wires if w[2] == part])
            out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="#eeeeee" '
                       'stroke="%s" stroke-width="2"/>' % (part_x, wy - ROW // 2 + 3, part_w,
                                                           ROW * count - 6, BLACK))
            name = {"matrix": "8x8 NeoPixel matrix", "joystick": "analog joystick",
                    "buzzer": "piezo buzzer (- to GND)"}[part]
            out.append(text(part_x + part_w - 8, wy + 4, name, 12, "end", "bold"))
        out.append(text(part_x + 8, wy + 4, terminal, 12))
        if part == "buzzer":
            out.append(line(((part_x + part_w, wy), (gnd_x, wy)), BLACK, 2))
        if part == "matrix" and terminal == "5V":
            # The capacitor across 5 V and GND, right at the matrix.
            cx = 560
            out.append(line(((cx, wy), (cx, wy + ROW - 14)), RED, 2))
            out.append('<rect x="%d" y="%d" width="24" height="8" fill="white" stroke="%s"/>'
                       % (cx - 12, wy + ROW - 14, BLACK))
            out.append(line(((cx, wy + ROW - 6), (cx, wy + ROW)), BLACK, 2))
            out.append(text(cx - 16, wy + 20, "1000 \u00b5F", 11, "end"))
    notes = ("Matrix power: from the board's %s pin (the game caps the matrix at 500 mA); with "
             "a separate 5 V supply, join its GND to the board's GND." % POWER[preset][0],
             "Buttons connect a pin to GND (the internal pull-ups are used). Any button can be "
             "left out; one button on SELECT is enough in one-button mode.",
             "Data line: 470 \u03a9 close to the matrix's DIN. If the first LED flickers, add a "
             "74AHCT125 level shifter (see docs/hardware.md).")
    y = bottom + 40
    for note in notes:
        out.append(text(30, y, note, 12))
        y += 22
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    check = "--check" in argv
    stale = []
    for preset in ("pico", "feather_rp2040", "blinka_pi"):
        path = os.path.join(ROOT, "docs", "wiring-%s.svg" % preset)
        data = svg(preset)
        try:
            with open(path, encoding="utf-8") as handle:
                current = handle.read()
        except OSError:
            current = None
        if current == data:
            continue
        if check:
            stale.append(path)
        else:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(data)
            print("wrote", os.path.relpath(path, ROOT))
    for path in stale:
        print("out of date:", os.path.relpath(path, ROOT))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
