"""The device's buzzer on the PC speaker: ``hardware.buzzer.Buzzer`` driving a stand-in ``pwmio``.

The real buzzer driver sets a PWM output's ``frequency`` and ``duty_cycle``; :class:`PWMOut`
here turns those into a looping square wave on ``pygame.mixer`` (a 50 % duty, like a piezo at full
volume, scaled by the duty). Off unless ``--sound`` is given.

>>> speaker = Speaker(volume=40)      # None if there is no audio device
>>> speaker.play(app.cues, now_ms)    # after each App.update
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from hardware.buzzer import Buzzer  # noqa: E402

RATE = 22050


class PWMOut:
    """A ``pwmio.PWMOut`` whose output is a square wave on the sound card."""

    def __init__(self, pin, frequency=440, duty_cycle=0, variable_frequency=True):
        self._frequency = frequency
        self._duty = 0
        self._sounds = {}
        self._channel = None
        self.duty_cycle = duty_cycle

    @property
    def frequency(self):
        return self._frequency

    @frequency.setter
    def frequency(self, value):
        self._frequency = int(value)
        if self._duty:
            self._sound_on()

    @property
    def duty_cycle(self):
        return self._duty

    @duty_cycle.setter
    def duty_cycle(self, value):
        self._duty = int(value)
        if self._duty:
            self._sound_on()
        elif self._channel is not None:
            self._channel.stop()
            self._channel = None

    def _sound_on(self):
        key = (self._frequency, self._duty)
        sound = self._sounds.get(key)
        if sound is None:
            period = max(2, RATE // max(1, self._frequency))
            level = min(32767, self._duty) // 3  # a piezo is loud; keep speakers pleasant
            wave = bytearray()
            for i in range(period * max(1, 2000 // period)):
                value = level if i % period < period // 2 else -level
                wave += int(value).to_bytes(2, "little", signed=True)
            sound = pygame.mixer.Sound(buffer=bytes(wave))
            self._sounds[key] = sound
        if self._channel is not None:
            self._channel.stop()
        self._channel = sound.play(loops=-1)

    def deinit(self):
        self.duty_cycle = 0


class _PwmModule:
    PWMOut = PWMOut


class Speaker:
    """The App's sound cues through the device's buzzer driver."""

    def __init__(self, volume=50):
        pygame.mixer.init(frequency=RATE, size=-16, channels=1)
        self.buzzer = Buzzer(None, volume=volume, pwmio=_PwmModule)

    def play(self, cues, now_ms):
        for cue in cues:
            self.buzzer.play(cue, now_ms)
        self.buzzer.update(now_ms)

    def close(self):
        self.buzzer.stop()
        pygame.mixer.quit()


def speaker(volume=50):
    """A :class:`Speaker`, or None when no audio device can be opened."""
    try:
        return Speaker(volume)
    except pygame.error:
        return None
