"""Double of ``analogio``: readings come from ``VALUES[pin_name]`` (an int, or a function of
no arguments), 32768 (a centred stick) when not set."""

VALUES = {}


class AnalogIn:
    def __init__(self, pin):
        self.pin = pin
        self.reference_voltage = 3.3

    @property
    def value(self):
        source = VALUES.get(self.pin.name, 32768)
        return source() if callable(source) else source

    def deinit(self):
        pass
