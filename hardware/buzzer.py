"""Sound cues on a piezo buzzer through ``pwmio``, without ever blocking the game loop.

>>> import board
>>> from hardware.buzzer import Buzzer
>>> buzzer = Buzzer(board.GP15, volume=40)
>>> buzzer.play("capture", now_ms)
>>> buzzer.update(now_ms)   # every frame: starts and stops the notes on time

Off by default: ``code.py`` only makes a ``Buzzer`` when a pin is set and the volume is above 0.
The volume (percent) sets the PWM duty cycle; 100 is a square wave (50 % duty), the loudest a
piezo gets. A new cue replaces the one playing.
"""

from rolit_core.vocab import TICKS_MASK, ticks_diff

# Each cue: (frequency in Hz, duration in ms) pairs; frequency 0 is a rest.
CUES = {
    "tick": ((2000, 15),),
    "place": ((1320, 40),),
    "start": ((660, 80), (990, 120)),
    "undo": ((990, 60), (660, 80)),
    "timeout": ((440, 100), (0, 50), (440, 100)),
    "error": ((220, 200), (0, 80), (220, 200)),
    "capture": ((880, 50), (1320, 50), (1760, 70)),
    "illegal": ((196, 160),),
    "win": ((523, 120), (659, 120), (784, 120), (1047, 300)),
}


class Buzzer:
    """A piezo on ``pin``. ``volume`` is 0-100 percent (0 is silent)."""

    def __init__(self, pin, volume=50, pwmio=None):
        if pwmio is None:
            import pwmio
        if not isinstance(volume, int) or not 0 <= volume <= 100:
            raise ValueError("volume must be 0-100, not %r" % (volume,))
        self._pwm = pwmio.PWMOut(pin, frequency=440, duty_cycle=0, variable_frequency=True)
        self.volume = volume
        self._notes = ()
        self._next = 0
        self._until = 0
        self.playing = None

    @property
    def duty(self):
        """The duty cycle while a note sounds (0-32768)."""
        return 32768 * self.volume // 100

    def play(self, cue, now_ms):
        """Start cue ``cue`` (a name from ``CUES``); unknown names are ignored."""
        notes = CUES.get(cue)
        if notes is None or not self.volume:
            return
        self._notes = notes
        self._next = 0
        self.playing = cue
        self._start(now_ms)

    def _start(self, now_ms):
        frequency, duration = self._notes[self._next]
        self._next += 1
        if frequency:
            self._pwm.frequency = frequency
            self._pwm.duty_cycle = self.duty
        else:
            self._pwm.duty_cycle = 0
        self._until = (now_ms + duration) & TICKS_MASK

    def update(self, now_ms):
        """Move on to the next note when the current one is over; silence at the end."""
        if self.playing is None or ticks_diff(now_ms, self._until) < 0:
            return
        if self._next < len(self._notes):
            self._start(now_ms)
        else:
            self._pwm.duty_cycle = 0
            self.playing = None

    def stop(self):
        self._pwm.duty_cycle = 0
        self.playing = None

    def deinit(self):
        self._pwm.deinit()
