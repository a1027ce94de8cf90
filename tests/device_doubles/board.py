"""Double of CircuitPython's ``board``: every pin name of the presets, as ``Pin`` objects."""


class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board." + self.name


board_id = "test_double"
_NAMES = ["GP%d" % i for i in range(30)] + ["D%d" % i for i in range(30)] + [
    "A0", "A1", "A2", "A3", "LED", "NEOPIXEL", "SCK", "MOSI", "MISO", "RX", "TX", "SDA", "SCL"]
for _name in _NAMES:
    globals()[_name] = Pin(_name)
