"""Load the device test doubles (the modules in this folder) and the real pip neopixel / pixelbuf
libraries into a CPython process for one test, and take them out again afterwards."""

import importlib.machinery
import importlib.util
import os
import sys

DOUBLES = os.path.dirname(os.path.abspath(__file__))
# In import order: keypad imports supervisor.
DOUBLE_NAMES = ("board", "digitalio", "neopixel_write", "supervisor", "keypad", "analogio",
                "pwmio", "microcontroller", "busio")
# Real library code from the pinned pip packages.
LIBRARY_NAMES = ("adafruit_pixelbuf", "neopixel")


def library_path(name):
    """Where the pip package installed module ``name`` (ignoring anything already imported)."""
    spec = importlib.machinery.PathFinder.find_spec(name)
    if spec is None or spec.origin is None:
        raise ImportError("%s is not installed: run make setup" % name)
    return spec.origin


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class Device:
    """The doubles as attributes (``device.keypad``...), installed in ``sys.modules``."""

    def __init__(self):
        self._saved = {}
        for name in DOUBLE_NAMES + LIBRARY_NAMES:
            self._saved[name] = sys.modules.get(name)
        for name in DOUBLE_NAMES:
            setattr(self, name, _load(name, os.path.join(DOUBLES, name + ".py")))
        for name in LIBRARY_NAMES:
            setattr(self, name, _load(name, library_path(name)))

    def close(self):
        for name, module in self._saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
