"""Double of ``pwmio``: ``PWMOut`` records each change as ``(frequency, duty_cycle)`` in ``LOG``."""

LOG = []


class PWMOut:
    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        self.pin = pin
        self._duty = duty_cycle
        self._frequency = frequency
        self.variable_frequency = variable_frequency

    @property
    def duty_cycle(self):
        return self._duty

    @duty_cycle.setter
    def duty_cycle(self, value):
        if not 0 <= value <= 65535:
            raise ValueError("duty_cycle must be 0-65535")
        self._duty = value
        LOG.append((self._frequency, value))

    @property
    def frequency(self):
        return self._frequency

    @frequency.setter
    def frequency(self, value):
        if not self.variable_frequency:
            raise ValueError("frequency is fixed")
        self._frequency = value

    def deinit(self):
        pass
