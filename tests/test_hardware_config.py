"""settings.toml: presets, overrides, and every kind of bad value falling back with a message."""

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware import config
from hardware.matrix import Matrix


def load(values):
    return config.load(values.get, path="/nonexistent/settings.toml")


def test_defaults_are_the_pico_preset():
    settings = load({})
    assert settings.errors == []
    assert settings.preset == "pico"
    assert settings.matrix_pin == "GP0"
    assert (settings.pin_up, settings.pin_select, settings.joy_x) == ("GP2", "GP6", "GP26")
    assert settings.input == "buttons"
    assert settings.max_current_ma == 500
    assert settings.volume == 0            # buzzer off by default
    assert settings.storage == "nvm"


def test_presets_and_overrides():
    settings = load({"ROLIT_PRESET": "Feather_RP2040", "ROLIT_PIN_BACK": "", "ROLIT_ROTATION": 90,
                     "ROLIT_LAYOUT": "Serpentine", "ROLIT_PIXEL_ORDER": "rgb",
                     "ROLIT_MIRROR": 1, "ROLIT_BRIGHTNESS": "40"})
    assert settings.errors == []
    assert settings.preset == "feather_rp2040"
    assert settings.matrix_pin == "D5"
    assert settings.pin_back == ""
    assert settings.matrix_rotation == 90
    assert settings.matrix_layout == "serpentine"
    assert settings.pixel_order == "RGB"
    assert settings.matrix_mirror is True
    assert settings.brightness == 40
    pi = load({"ROLIT_PRESET": "blinka_pi"})
    assert pi.matrix_pin == "D18" and pi.joy_x == ""


@pytest.mark.parametrize("key, value, attr, default, words", [
    ("ROLIT_ROTATION", 45, "matrix_rotation", 0, "0, 90, 180, 270"),
    ("ROLIT_BRIGHTNESS", 400, "brightness", 30, "from 1 to 100"),
    ("ROLIT_BRIGHTNESS", "bright", "brightness", 30, "whole number"),
    ("ROLIT_MAX_MA", -5, "max_current_ma", 500, "from 100 to 10000"),
    ("ROLIT_LAYOUT", "spiral", "matrix_layout", "rows", "rows, serpentine"),
    ("ROLIT_INPUT", 3, "input", "buttons", "buttons, joystick, onebutton"),
    ("ROLIT_MIRROR", "maybe", "matrix_mirror", False, "0 or 1"),
    ("ROLIT_PIXEL_ORDER", "RGBX", "pixel_order", "GRB", "GRB"),
    ("ROLIT_SAVE_FILE", 5, "save_file", "/rolit.sav", "text"),
])
def test_bad_values_fall_back_with_a_message(key, value, attr, default, words):
    settings = load({key: value})
    assert getattr(settings, attr) == default
    assert len(settings.errors) == 1
    assert key in settings.errors[0] and words in settings.errors[0]
    assert "using" in settings.errors[0]


def test_bad_preset_and_pins():
    settings = load({"ROLIT_PRESET": "arduino", "ROLIT_MATRIX_PIN": 5, "ROLIT_PIN_UP": "GP 2"})
    assert settings.preset == "pico"
    assert settings.matrix_pin == "GP0" and settings.pin_up == "GP2"
    assert len(settings.errors) == 3
    assert "ROLIT_PRESET" in settings.errors[0]


def test_a_getenv_that_raises_is_reported():
    def getenv(key):
        if key == "ROLIT_LAYOUT":
            raise ValueError("invalid syntax")
        return None

    settings = config.load(getenv, path="/nonexistent/settings.toml")
    assert settings.matrix_layout == "rows"
    assert settings.errors == ["ROLIT_LAYOUT cannot be read (invalid syntax): put text in quotes;"
                               " using the default"]


def test_pin_lookup_reports_missing_pins():
    class FakeBoard:
        GP0 = "pin0"

    errors = []
    assert config.pin(FakeBoard, "GP0", "matrix", errors) == "pin0"
    assert config.pin(FakeBoard, "", "back button", errors) is None
    assert errors == []
    assert config.pin(FakeBoard, "D99", "up button", errors) is None
    assert errors == ["up button: this board has no pin 'D99' (check settings.toml)"]


def test_settings_toml_file_is_read_without_getenv(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text('# comment\nROLIT_PRESET = "pico_w"\nROLIT_BRIGHTNESS = 55  # percent\n'
                    'ROLIT_PIN_BACK = ""\nROLIT_MAX_MA = 0x3e8\nCIRCUITPY_WIFI_SSID = "x"\n'
                    '[section]\nnot a setting\n')
    table = config.read_toml(str(path))
    assert table["ROLIT_PRESET"] == "pico_w" and table["ROLIT_BRIGHTNESS"] == 55
    assert table["ROLIT_MAX_MA"] == 1000
    settings = config.load(lambda key: None, path=str(path))
    assert settings.errors == []
    assert (settings.preset, settings.brightness, settings.max_current_ma) == ("pico_w", 55, 1000)
    assert settings.pin_back == ""
    # Values from the environment (os.getenv) win over the file.
    settings = config.load({"ROLIT_PRESET": "pico", "ROLIT_BRIGHTNESS": "20"}.get, str(path))
    assert (settings.preset, settings.brightness) == ("pico", 20)


def test_starter_settings_file_is_valid():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for name in sorted(os.listdir(os.path.join(root, "hardware", "settings"))):
        settings = config.load(lambda key: None, os.path.join(root, "hardware", "settings", name))
        assert settings.errors == [], name
        assert settings.preset == name[:-5] or name == "settings.toml"


def test_matrix_from_settings():
    settings = load({"ROLIT_LAYOUT": "serpentine", "ROLIT_ROTATION": "180", "ROLIT_MAX_MA": 300})
    strip = [0] * 64
    matrix = Matrix.from_settings(strip, settings)
    assert (matrix.layout, matrix.rotation, matrix.max_current_ma) == ("serpentine", 180, 300)
    assert matrix.strip_index(0, 0) == 56   # 180 degrees: top-left goes to the last row


def test_no_getenv_and_no_file_gives_the_defaults(monkeypatch):
    monkeypatch.delattr(config.os, "getenv")
    settings = config.load(path="/nonexistent/settings.toml")
    assert settings.errors == [] and settings.preset == "pico"


KEY_NAMES = [key for key, _, _, _, _, _ in config.KEYS] + list(config.PIN_KEYS) + ["ROLIT_PRESET"]
ODD_VALUES = st.one_of(st.integers(-2 ** 40, 2 ** 40), st.text(max_size=12), st.floats(),
                       st.booleans(), st.binary(max_size=4), st.none(),
                       st.sampled_from(["GP0", "rows", "90", "0x10", "-1", "GRB", " pico ", ""]))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(KEY_NAMES), ODD_VALUES, max_size=8))
def test_any_values_load_to_valid_settings(values):
    loaded = load(values)
    for key, attr, kind, default, low, high in config.KEYS:
        value = getattr(loaded, attr)
        if kind == "int":
            assert type(value) is int and low <= value <= high
        elif kind == "bool":
            assert type(value) is bool
        elif kind == "str":
            assert isinstance(value, str) and value
        else:
            assert value in kind and type(value) is type(kind[0])
    for attr in config.PIN_ATTRS:
        assert isinstance(getattr(loaded, attr), str)
    # Every value that was not taken as given is explained.
    assert len(loaded.errors) <= len(values)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200).map(lambda t: t.encode("utf-8")))
def test_any_settings_file_loads(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("toml") / "settings.toml"
    path.write_bytes(b"ROLIT_LAYOUT = " + data + b"\nROLIT_ROTATION = " + data[:3] + b"\n")
    loaded = config.load(lambda key: None, path=str(path))
    assert loaded.matrix_layout in ("rows", "serpentine")
    assert loaded.matrix_rotation in (0, 90, 180, 270)


# -- text from other editors (issue 12 item 11) -------------------------------------------------

def test_a_byte_order_mark_does_not_drop_the_first_key(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_bytes(b"\xef\xbb\xbfROLIT_PRESET = \"feather_rp2040\"\r\nROLIT_BRIGHTNESS = 40\r\n")
    settings = config.load(lambda key: None, path=str(path))
    assert settings.errors == []
    assert settings.preset == "feather_rp2040" and settings.brightness == 40


def test_a_line_that_is_not_utf8_is_reported_and_the_rest_kept(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_bytes(b'ROLIT_PRESET = "pico_w"\n# caf\xe9 wiring\nROLIT_BRIGHTNESS = 45\n'
                     b'ROLIT_LAYOUT = "serp\xe9ntine"\n')
    settings = config.load(lambda key: None, path=str(path))
    assert settings.preset == "pico_w" and settings.brightness == 45
    assert settings.errors == [
        "%s line 2 is not UTF-8 text (save the file as UTF-8): line ignored" % path,
        "%s line 4 is not UTF-8 text (save the file as UTF-8): line ignored" % path]


def test_misspelt_keys_are_reported_with_their_line(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text('ROLIT_PRESET = "pico"\nROLIT_BRIGHTNES = 40\nCIRCUITPY_WIFI_SSID = "x"\n'
                    'ROLIT_VOLUME = 10\n')
    settings = config.load(lambda key: None, path=str(path))
    assert settings.errors == ["%s line 2: ROLIT_BRIGHTNES is not a setting "
                               "(misspelt?): ignored" % path]
    assert settings.brightness == 30 and settings.volume == 10
    # also where os.getenv gives the values (CircuitPython): the file is looked through
    values = {"ROLIT_PRESET": "pico", "ROLIT_VOLUME": 10}
    assert config.load(values.get, str(path)).errors == settings.errors


# -- pin clashes (issue 12 item 14) ---------------------------------------------------------

@pytest.mark.parametrize("values, key, other, attr", [
    ({"ROLIT_PIN_UP": "GP0"}, "ROLIT_PIN_UP", "ROLIT_MATRIX_PIN", "pin_up"),
    ({"ROLIT_MATRIX_PIN": "GP6"}, "ROLIT_PIN_SELECT", "ROLIT_MATRIX_PIN", "pin_select"),
    ({"ROLIT_BUZZER_PIN": "GP0", "ROLIT_VOLUME": 50}, "ROLIT_BUZZER_PIN", "ROLIT_MATRIX_PIN",
     "buzzer_pin"),
    ({"ROLIT_BUZZER_PIN": "GP7", "ROLIT_VOLUME": 50}, "ROLIT_BUZZER_PIN", "ROLIT_PIN_BACK",
     "buzzer_pin"),
    ({"ROLIT_PIN_DOWN": "GP2"}, "ROLIT_PIN_DOWN", "ROLIT_PIN_UP", "pin_down"),
    ({"ROLIT_INPUT": "joystick", "ROLIT_JOY_PRESS": "GP0"}, "ROLIT_JOY_PRESS",
     "ROLIT_MATRIX_PIN", "joy_press"),
    ({"ROLIT_INPUT": "joystick", "ROLIT_JOY_Y": "GP26"}, "ROLIT_JOY_Y", "ROLIT_JOY_X", "joy_y"),
    ({"ROLIT_INPUT": "onebutton", "ROLIT_MATRIX_PIN": "GP6"}, "ROLIT_PIN_SELECT",
     "ROLIT_MATRIX_PIN", "pin_select"),
])
def test_pin_clashes_are_refused_by_name(values, key, other, attr):
    settings = load(values)
    assert len(settings.errors) == 1
    message = settings.errors[0]
    assert message.startswith(key) and other in message and "left out" in message
    assert getattr(settings, attr) == ""
    assert settings.matrix_pin == values.get("ROLIT_MATRIX_PIN", "GP0")


def test_pins_of_parts_not_in_use_may_overlap():
    # the joystick's pins are free for buttons when there is no joystick, and the buzzer's
    # when it is silent
    settings = load({"ROLIT_PIN_UP": "GP26", "ROLIT_BUZZER_PIN": "GP2"})
    assert settings.errors == [] and settings.pin_up == "GP26"


def test_a_clash_never_reaches_the_board(tmp_path, monkeypatch):
    from device_doubles import Device
    from hardware.handheld import Handheld

    dev = Device()
    try:
        monkeypatch.chdir(tmp_path)
        settings = load({"ROLIT_PIN_UP": "GP0", "ROLIT_STORAGE": "none"})
        handheld = Handheld(settings, (0, 1, 2, 3, 4, 5))
        assert handheld.matrix is not None and handheld.inputs
        assert handheld.errors == settings.errors and "ROLIT_PIN_UP" in handheld.errors[0]
    finally:
        dev.close()


@pytest.mark.parametrize("chunk", [1, 2, 7, 64, 512])
def test_the_file_read_in_chunks_gives_the_same_lines(tmp_path, monkeypatch, chunk):
    # Lines longer than a chunk, a character cut by a chunk's end, no newline at the end.
    path = tmp_path / "settings.toml"
    path.write_bytes(b'\xef\xbb\xbfROLIT_PRESET = "pico_w"\r\n# caf\xc3\xa9 wiring\n\n'
                     b'ROLIT_SAVE_FILE = "/\xc3\xa9t\xc3\xa9.sav"\nROLIT_LAYOUT = "s\xe9"\n'
                     b'ROLIT_BRIGHTNES = 40\nROLIT_BRIGHTNESS = 45  # percent')
    monkeypatch.setattr(config, "CHUNK", chunk)
    errors, keys, firmware = [], [], {}
    table = config.read_toml(str(path), errors, keys, firmware)
    assert table == {"ROLIT_PRESET": "pico_w", "ROLIT_SAVE_FILE": "/\xe9t\xe9.sav",
                     "ROLIT_BRIGHTNES": 40, "ROLIT_BRIGHTNESS": 45}
    assert keys == [(1, "ROLIT_PRESET"), (4, "ROLIT_SAVE_FILE"), (6, "ROLIT_BRIGHTNES"),
                    (7, "ROLIT_BRIGHTNESS")]
    assert errors == ["%s line 5 is not UTF-8 text (save the file as UTF-8): line ignored"
                      % path]
    # os.getenv does not skip the byte-order mark: for it the first key is another name.
    assert "ROLIT_PRESET" not in firmware and firmware["ROLIT_BRIGHTNESS"] == "45"
    assert firmware["ROLIT_SAVE_FILE"] == "/\xe9t\xe9.sav"


def test_on_a_board_os_getenv_is_asked_only_for_what_the_reading_leaves(tmp_path, monkeypatch):
    class Implementation:
        name = "circuitpython"

    class FakeSys:
        implementation = Implementation

    asked = []
    answers = {"ROLIT_SAVE_FILE": "/tab\there.sav"}

    def getenv(key):
        asked.append(key)
        return answers.get(key)

    monkeypatch.setattr(config, "sys", FakeSys)
    monkeypatch.setattr(config.os, "getenv", getenv)
    monkeypatch.chdir(tmp_path)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "hardware", "settings", "pico.toml"), "rb") as handle:
        starter = handle.read()
    (tmp_path / "settings.toml").write_bytes(starter)
    settings = config.load()
    assert asked == [] and settings.errors == [] and settings.brightness == 30
    (tmp_path / "settings.toml").write_bytes(starter + b'ROLIT_SAVE_FILE = "/tab\\there.sav"\n'
                                             b"ROLIT_VOLUME = 5\n")
    settings = config.load()
    # Keys given twice: os.getenv takes the first line of each (the starter's), as the reading
    # does, so the escape on the later line is never read.
    assert (settings.volume, settings.save_file) == (0, "/rolit.sav")
    assert asked == []
    (tmp_path / "settings.toml").write_bytes(b'ROLIT_PRESET = "pico"\n'
                                             b'ROLIT_SAVE_FILE = "/tab\\there.sav"\n')
    settings = config.load()
    assert asked == ["ROLIT_SAVE_FILE"] and settings.save_file == "/tab\there.sav"
