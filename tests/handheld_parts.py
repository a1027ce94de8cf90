"""A fresh ``hardware.handheld`` on the device doubles, and a Handheld built from settings
values (the tests of the handheld's parts share them)."""

import sys

import pytest

from device_doubles import Device
from hardware import config

KEYS = (0, 1, 2, 3, 4, 5)


@pytest.fixture
def device():
    dev = Device()
    saved = sys.modules.pop("hardware.handheld", None)
    import hardware.handheld as handheld
    dev.handheld = handheld
    yield dev
    sys.modules.pop("hardware.handheld", None)
    if saved is not None:
        sys.modules["hardware.handheld"] = saved
    dev.close()


def build(device, **values):
    settings = config.load(values.get, path="/nonexistent/settings.toml")
    return device.handheld.Handheld(settings, KEYS)
