"""Saved settings with one byte out of range (and nothing else wrong) are refused, each field at
both ends; the last values in range are taken. Directly and through a whole save whose checksum
holds, as a board would read it."""

import pytest

from rolit_core import load
from rolit_core.app import App
from rolit_core.menu import Settings
from test_app_support import Storage

# (field, byte index in Settings.to_bytes(), values in range at both ends, values just outside)
FIELDS = [
    ("players", 0, (1, 4), (0, 5)),
    # seat kinds: human, the four levels, and 5, a seat played on a linked handheld
    ("seat 1", 1, (0, 5), (6, 255)),
    ("seat 4", 4, (0, 5), (6,)),
    ("size", 5, (4, 8), (0, 3, 5, 7, 9)),
    ("teams", 6, (0, 1), (2,)),
    ("rounds", 7, (1, 7), (0, 8)),
    ("time", 8, (0, 2), (3,)),
    ("tie", 9, (0, 1), (2,)),
    ("first", 10, (0, 4), (5,)),
    ("hints", 11, (0, 1), (2,)),
    ("brightness", 12, (1, 5), (0, 6)),
    ("colour blind", 13, (0, 1), (2,)),
]


def good_bytes():
    return bytearray(Settings().to_bytes())


def with_byte(index, value):
    data = good_bytes()
    data[index] = value
    return bytes(data)


@pytest.mark.parametrize("field, index, good, bad", FIELDS, ids=[f[0] for f in FIELDS])
def test_one_field_out_of_range_is_refused_and_changes_nothing(field, index, good, bad):
    for value in bad:
        settings = Settings()
        settings.brightness = 2
        before = settings.to_bytes()
        with pytest.raises(ValueError):
            settings.from_bytes(with_byte(index, value))
        assert settings.to_bytes() == before, (field, value)


@pytest.mark.parametrize("field, index, good, bad", FIELDS, ids=[f[0] for f in FIELDS])
def test_the_ends_of_each_range_are_taken(field, index, good, bad):
    for value in good:
        data = with_byte(index, value)
        settings = Settings()
        settings.from_bytes(data)
        if field in ("players", "rounds", "brightness", "size"):
            assert getattr(settings, field) == value
        # teams and a first colour the players do not use are fixed up, the rest comes back
        if field not in ("teams", "first"):
            assert settings.to_bytes()[index] == value, (field, value)


@pytest.mark.parametrize("field, index, good, bad", FIELDS, ids=[f[0] for f in FIELDS])
def test_a_saved_game_with_one_setting_out_of_range_is_reported_not_loaded(field, index, good,
                                                                           bad):
    for value in bad:
        blob = load.pack(with_byte(index, value) + b"\x00")   # checksum holds; no match
        app = App(storage=Storage(blob), seed=1)
        assert app.error is not None, (field, value)
        assert app.mode != "play"
    for value in good:
        blob = load.pack(with_byte(index, value) + b"\x00")
        app = App(storage=Storage(blob), seed=1)
        assert app.error is None, (field, value, app.error)
