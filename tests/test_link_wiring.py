"""The link's wiring diagrams (docs/link-<preset>.svg, drawn by tools/linkwiring.py) and its
part of docs/hardware.md: every wire is followed from pin to pin through the resistors and the
junctions, as a multimeter would."""

import os
import sys
import xml.etree.ElementTree as ElementTree

import pytest

from hardware import config

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SVG = "{http://www.w3.org/2000/svg}"
DRAWN = [preset for preset in config.PRESET_NAMES if config.LINK_PINS[preset][0]
         and preset != "pico_w"]  # the Pico W is wired as the Pico


def read(relative):
    with open(os.path.join(ROOT, relative), encoding="utf-8") as handle:
        return handle.read()


def tool():
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        return __import__("linkwiring")
    finally:
        sys.path.pop(0)


def on_segment(point, start, end):
    (x, y), (x0, y0), (x1, y1) = point, start, end
    if (x1 - x0) * (y - y0) != (y1 - y0) * (x - x0):
        return False
    return min(x0, x1) <= x <= max(x0, x1) and min(y0, y1) <= y <= max(y0, y1)


def nets(preset, section, resistors=True):
    """The pins of ``section`` that are joined, as a set of frozensets of (board, role)."""
    root = ElementTree.fromstring(read("docs/link-%s.svg" % preset))
    pins = {}
    for rect in root.iter(SVG + "rect"):
        if rect.get("data-section") == section:
            pins[(rect.get("data-board"), rect.get("data-role"))] = (
                int(rect.get("x")) + 6, int(rect.get("y")) + 6)
    parts = []  # each a list of points along it
    for polyline in root.iter(SVG + "polyline"):
        if polyline.get("class") == "wire":
            parts.append([tuple(int(v) for v in pair.split(","))
                          for pair in polyline.get("points").split()])
    for rect in root.iter(SVG + "rect"):
        if rect.get("class") == "resistor" and resistors:
            parts.append([tuple(int(v) for v in rect.get(end).split(","))
                          for end in ("data-from", "data-to")])

    def touches(point, part):
        return any(on_segment(point, part[i], part[i + 1]) for i in range(len(part) - 1))

    group = list(range(len(parts)))

    def find(i):
        while group[i] != i:
            i = group[i]
        return i

    for i, one in enumerate(parts):
        for j, other in enumerate(parts):
            if i != j and (touches(one[0], other) or touches(one[-1], other)):
                group[find(i)] = find(j)
    joined = {}
    for pin, point in pins.items():
        owners = {find(i) for i, part in enumerate(parts) if point in (part[0], part[-1])}
        assert len(owners) <= 1
        key = owners.pop() if owners else ("alone", pin)
        joined.setdefault(key, set()).add(pin)
    assert pins, section
    return {frozenset(pins) for pins in joined.values()}


def test_the_diagrams_are_up_to_date_and_in_the_guide():
    assert tool().main(["--check"]) == 0, "run: python tools/linkwiring.py"
    assert tool().DRAWN == tuple(DRAWN)
    guide = read("docs/hardware.md")
    for preset in DRAWN:
        assert "(link-%s.svg)" % preset in guide, preset


@pytest.mark.parametrize("preset", DRAWN)
def test_the_diagram_names_the_presets_link_pins(preset):
    root = ElementTree.fromstring(read("docs/link-%s.svg" % preset))
    words = " ".join(t.text or "" for t in root.iter(SVG + "text"))
    tx, rx = config.LINK_PINS[preset]
    assert 'ROLIT_LINK_TX = "%s", ROLIT_LINK_RX = "%s"' % (tx, rx) in words
    assert tx in words and rx in words and "GND" in words


@pytest.mark.parametrize("preset", DRAWN)
def test_two_handhelds_cross_tx_and_rx(preset):
    one, two = "handheld 1", "handheld 2"
    assert nets(preset, "two") == {frozenset({(one, "TX"), (two, "RX")}),
                                   frozenset({(two, "TX"), (one, "RX")}),
                                   frozenset({(one, "GND"), (two, "GND")})}


@pytest.mark.parametrize("preset", DRAWN)
def test_a_ring_takes_each_tx_to_the_next_rx_and_joins_every_gnd(preset):
    name = "handheld %d"
    expected = {frozenset({(name % i, "TX"), (name % (i % 4 + 1), "RX")}) for i in range(1, 5)}
    expected.add(frozenset({(name % i, "GND") for i in range(1, 5)}))
    assert nets(preset, "ring") == expected


@pytest.mark.parametrize("preset", DRAWN)
def test_the_loopback_joins_tx_to_its_own_rx(preset):
    assert nets(preset, "loopback") == {frozenset({("handheld", "TX"), ("handheld", "RX")}),
                                        frozenset({("handheld", "GND")})}


@pytest.mark.parametrize("preset", DRAWN)
@pytest.mark.parametrize("section", ["two", "ring", "loopback"])
def test_every_tx_goes_out_through_a_resistor(preset, section):
    # without the resistors no TX reaches an RX
    for net in nets(preset, section, resistors=False):
        assert not [pin for pin in net if pin[1] == "TX"] or len(net) == 1, net


def link_section():
    guide = read("docs/hardware.md")
    start = guide.index("## The link: two to four handhelds, one game")
    return guide[start:guide.index("\n## ", start + 3)]


def test_the_guide_names_each_presets_link_pins_and_every_link_setting():
    section = link_section()
    table = section[section.index("| preset | TX | RX | GND |"):]
    for preset in config.PRESET_NAMES:
        row = [line for line in table.splitlines() if "`%s`" % preset in line]
        assert row, preset
        tx, rx = config.LINK_PINS[preset]
        if tx:
            assert tx in row[0] and rx in row[0], preset
        else:
            assert "no link" in row[0], preset
    reference = read("docs/hardware.md")
    reference = reference[reference.index("## settings.toml reference"):]
    for key in config.LINK_KEYS + (config.LINK_BAUD_KEY,):
        assert "`%s`" % key in reference and key in section, key


def test_every_starter_settings_file_offers_the_presets_link_pins_switched_off():
    for preset in config.PRESET_NAMES:
        text = read("hardware/settings/%s.toml" % preset)
        tx, rx = config.LINK_PINS[preset]
        assert "\nROLIT_LINK_TX" not in text and "\nROLIT_LINK_RX" not in text, preset
        if not tx:
            assert "LINK_TX" not in text and "docs/hardware.md" in text, preset
            continue
        # taking the two "# " away switches the link on, with no other change
        assert '\n# ROLIT_LINK_TX = "%s"\n# ROLIT_LINK_RX = "%s"\n' % (tx, rx) in text, preset
        assert "\nROLIT_LINK_BAUD = %d\n" % config.LINK_BAUD in text, preset
        on = text.replace("# ROLIT_LINK_", "ROLIT_LINK_")
        values = {}
        for line in on.splitlines():
            config._read_line(line.strip(), values)
        loaded = config.load(values.get, "/nonexistent/settings.toml")
        assert loaded.errors == [] and (loaded.link_tx, loaded.link_rx) == (tx, rx), preset


def test_the_guide_lists_the_link_parts_and_marks_the_prices_to_check():
    section = link_section()
    parts = section[section.index("### The link's parts"):section.index("### Wiring the link")]
    assert "list prices" in parts and "check them before you order" in parts
    for words in ("470 ohm", "jumper wires", "0.1\" male header", "female/female",
                  "crimp", "JST-SH", "Grove"):
        assert words in parts, words
    classroom = section[section.index("### A classroom: four handhelds, one game"):]
    for words in ("ring", "hosts", "join", "own colour", "link lost"):
        assert words in classroom, words
