"""settings.toml's link keys (ROLIT_LINK_TX, ROLIT_LINK_RX, ROLIT_LINK_BAUD): the preset's pins,
overrides, and every bad value reported in words with the game going on without a link."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware import config, linkpins


def load(values):
    return config.load(values.get, path="/nonexistent/settings.toml")


PICO = {"ROLIT_LINK_TX": "GP12", "ROLIT_LINK_RX": "GP13"}


@pytest.mark.parametrize("preset", config.PRESET_NAMES)
def test_no_link_until_settings_toml_names_its_pins(preset):
    loaded = load({"ROLIT_PRESET": preset})
    assert loaded.errors == []
    assert (loaded.link_tx, loaded.link_rx, loaded.link_baud) == (None, None, None)
    assert config.Settings().link_tx is None


@pytest.mark.parametrize("preset, tx, rx", [
    ("pico", "GP12", "GP13"), ("pico_w", "GP12", "GP13"), ("feather_rp2040", "TX", "RX")])
def test_the_pins_each_microcontroller_preset_leaves_for_the_link(preset, tx, rx):
    assert config.LINK_PINS[preset] == (tx, rx)
    loaded = load({"ROLIT_PRESET": preset, "ROLIT_LINK_TX": tx, "ROLIT_LINK_RX": rx})
    assert loaded.errors == []
    assert (loaded.link_tx, loaded.link_rx, loaded.link_baud) == (tx, rx, 115200)


def test_a_raspberry_pi_has_no_pins_for_the_link_but_may_name_some():
    assert config.LINK_PINS["blinka_pi"] == ("", "")
    # no pair check off the RP2040: Blinka's busio.UART says what it takes
    loaded = load({"ROLIT_PRESET": "blinka_pi", "ROLIT_LINK_TX": "TX", "ROLIT_LINK_RX": "RX"})
    assert loaded.errors == [] and (loaded.link_tx, loaded.link_rx) == ("TX", "RX")


def test_the_preset_pins_are_a_uart_pair_that_the_preset_leaves_free():
    for preset in config.PRESET_NAMES:
        tx, rx = config.LINK_PINS[preset]
        if not tx:
            continue
        assert tx not in config.PRESETS[preset] and rx not in config.PRESETS[preset], preset
        assert linkpins._uart_pair_problem(preset, tx, rx) is None, preset
        tx_gpio, rx_gpio = linkpins._gpio(preset, tx), linkpins._gpio(preset, rx)
        assert (tx_gpio % 4, rx_gpio % 4) == (0, 1) and rx_gpio == tx_gpio + 1, preset


def test_overrides_and_the_baud_rate():
    loaded = load({"ROLIT_LINK_TX": "GP16", "ROLIT_LINK_RX": "GP17", "ROLIT_LINK_BAUD": "57600"})
    assert loaded.errors == []
    assert (loaded.link_tx, loaded.link_rx, loaded.link_baud) == ("GP16", "GP17", 57600)
    for baud in (1200, 1000000, "0x1c200"):
        assert load(dict(PICO, ROLIT_LINK_BAUD=baud)).link_baud == config._to_int(str(baud))
    # a speed alone is no link
    assert load({"ROLIT_LINK_BAUD": 9600}).link_baud is None


def test_both_pins_empty_is_no_link_without_a_word():
    loaded = load({"ROLIT_LINK_TX": "", "ROLIT_LINK_RX": " "})
    assert loaded.errors == []
    assert (loaded.link_tx, loaded.link_rx, loaded.link_baud) == (None, None, None)


FEATHER = {"ROLIT_PRESET": "feather_rp2040", "ROLIT_LINK_TX": "TX", "ROLIT_LINK_RX": "RX"}


@pytest.mark.parametrize("values, words", [
    ({"ROLIT_LINK_TX": 12}, "ROLIT_LINK_TX = 12 is not a pin name like 'GP12'"),
    ({"ROLIT_LINK_RX": "GP 13"}, "ROLIT_LINK_RX = 'GP 13' is not a pin name"),
    ({"ROLIT_LINK_BAUD": 2000000}, "ROLIT_LINK_BAUD = 2000000 should be a whole number from "
                                   "1200 to 1000000"),
    ({"ROLIT_LINK_BAUD": "fast"}, "ROLIT_LINK_BAUD = 'fast' should be a whole number"),
    ({"ROLIT_LINK_BAUD": 300}, "from 1200 to 1000000"),
    ({"ROLIT_LINK_TX": ""}, "ROLIT_LINK_RX = 'GP13' but ROLIT_LINK_TX is not set: the link needs "
                            "both pins (on the pico preset: ROLIT_LINK_TX = \"GP12\", "
                            "ROLIT_LINK_RX = \"GP13\")"),
    ({"ROLIT_LINK_RX": "GP12"}, "ROLIT_LINK_TX and ROLIT_LINK_RX are both 'GP12'"),
    ({"ROLIT_LINK_TX": "GP14"}, "ROLIT_LINK_TX = 'GP14' is not a UART TX pin of the RP2040 "
                                "(GP0, GP4, GP8, GP12, GP16, GP20, GP28)"),
    ({"ROLIT_LINK_RX": "GP15"}, "ROLIT_LINK_RX = 'GP15' is not a UART RX pin of the RP2040 "
                                "(GP1, GP5, GP9, GP13, GP17, GP21)"),
    ({"ROLIT_LINK_TX": "GP8"}, "ROLIT_LINK_TX = 'GP8' is UART1's TX but ROLIT_LINK_RX = 'GP13' "
                               "is UART0's RX: the two pins must be one UART's"),
    (dict(FEATHER, ROLIT_LINK_TX="D13"),
     "ROLIT_LINK_TX = 'D13' is not a UART TX pin of the RP2040 (TX, D1, D6, D12, MISO"),
    (dict(FEATHER, ROLIT_LINK_TX="D6"),
     "ROLIT_LINK_TX = 'D6' is UART1's TX but ROLIT_LINK_RX = 'RX' is UART0's RX"),
    ({"ROLIT_PRESET": "blinka_pi", "ROLIT_LINK_TX": "TX"},
     "ROLIT_LINK_TX = 'TX' but ROLIT_LINK_RX is not set: the link needs both pins; no link"),
])
def test_a_bad_value_is_reported_and_there_is_no_link(values, words):
    if "ROLIT_PRESET" not in values:  # the Pico with its pair, and the one wrong value
        values = dict(PICO, **values)
    loaded = load(values)
    assert len(loaded.errors) == 1
    assert words in loaded.errors[0] and loaded.errors[0].endswith("; no link")
    assert (loaded.link_tx, loaded.link_rx, loaded.link_baud) == (None, None, None)
    # the rest of the settings are as without the link keys
    plain = load({key: value for key, value in values.items() if "LINK" not in key})
    assert loaded.matrix_pin == plain.matrix_pin and loaded.pin_up == plain.pin_up


@pytest.mark.parametrize("values, key, other", [
    ({"ROLIT_LINK_TX": "GP0", "ROLIT_LINK_RX": "GP1"}, "ROLIT_LINK_TX", "ROLIT_MATRIX_PIN"),
    (dict(PICO, ROLIT_PIN_UP="GP13"), "ROLIT_LINK_RX", "ROLIT_PIN_UP"),
    (dict(PICO, ROLIT_BUZZER_PIN="GP12", ROLIT_VOLUME=20), "ROLIT_LINK_TX", "ROLIT_BUZZER_PIN"),
    (dict(PICO, ROLIT_INPUT="joystick", ROLIT_JOY_PRESS="GP12"), "ROLIT_LINK_TX",
     "ROLIT_JOY_PRESS"),
    ({"ROLIT_LINK_TX": "GP4", "ROLIT_LINK_RX": "GP5"}, "ROLIT_LINK_TX", "ROLIT_PIN_LEFT"),
    (dict(FEATHER, ROLIT_LINK_TX="D12", ROLIT_LINK_RX="D13"), "ROLIT_LINK_TX", "ROLIT_PIN_RIGHT"),
])
def test_a_link_pin_the_preset_already_uses_is_refused_by_name(values, key, other):
    loaded = load(values)
    assert len(loaded.errors) == 1
    message = loaded.errors[0]
    assert message.startswith(key) and ("is also %s: a pin does one job" % other) in message
    tx, rx = config.LINK_PINS[loaded.preset]
    assert 'ROLIT_LINK_TX = "%s", ROLIT_LINK_RX = "%s")' % (tx, rx) in message  # what is free
    assert message.endswith("; no link") and loaded.link_tx is None
    # the pin keeps its other job
    assert other not in [error.split(" ")[0] for error in loaded.errors]


def test_link_pins_may_use_the_pins_of_parts_not_in_use():
    # the buzzer's pin while it is silent, the arrow buttons' pins in joystick mode
    loaded = load(dict(PICO, ROLIT_BUZZER_PIN="GP12"))
    assert loaded.errors == [] and loaded.link_tx == "GP12"
    loaded = load({"ROLIT_INPUT": "joystick", "ROLIT_LINK_TX": "GP4", "ROLIT_LINK_RX": "GP5"})
    assert loaded.errors == [] and (loaded.link_tx, loaded.link_rx) == ("GP4", "GP5")


def test_the_link_keys_are_settings_not_misspellings(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text('ROLIT_LINK_TX = "GP16"\nROLIT_LINK_RX = "GP17"\nROLIT_LINK_BAUD = 9600\n'
                    'ROLIT_LINK_BAUDS = 9600\n')
    loaded = config.load(lambda key: None, path=str(path))
    assert (loaded.link_tx, loaded.link_rx, loaded.link_baud) == ("GP16", "GP17", 9600)
    assert loaded.errors == ["%s line 4: ROLIT_LINK_BAUDS is not a setting (misspelt?): "
                             "ignored" % path]


LINK_VALUES = st.one_of(st.integers(-2 ** 40, 2 ** 40), st.text(max_size=8), st.booleans(),
                        st.none(), st.sampled_from(["GP12", "GP13", "GP0", "GP16", "GP17", "TX",
                                                    "RX", "D6", "", "115200", "0x10"]))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(config.PRESET_NAMES),
       st.dictionaries(st.sampled_from(config.LINK_KEYS + (config.LINK_BAUD_KEY,
                                                           "ROLIT_PIN_UP", "ROLIT_VOLUME")),
                       LINK_VALUES, max_size=5))
def test_any_link_values_give_a_link_or_none_and_a_reason(preset, values):
    values = dict(values, ROLIT_PRESET=preset)
    loaded = load(values)
    link = (loaded.link_tx, loaded.link_rx, loaded.link_baud)
    if link == (None, None, None):
        asked = ["" if values.get(key) is None else values[key] for key in config.LINK_KEYS]
        quiet = all(isinstance(pin, str) and not pin.strip() for pin in asked)
        assert quiet or [e for e in loaded.errors if e.endswith("; no link")]
    else:
        tx, rx, baud = link
        assert isinstance(tx, str) and isinstance(rx, str) and tx and rx and tx != rx
        assert type(baud) is int and 1200 <= baud <= 1000000
        used = [getattr(loaded, config.PIN_ATTRS[i]) for i in config._used_pins(loaded)]
        assert tx not in used and rx not in used
