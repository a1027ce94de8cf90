"""Sound: the device's buzzer driver playing the App's cues through a stand-in PWM output."""

import os

os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest  # noqa: E402

from sim.sound import speaker  # noqa: E402


def test_cue_notes_reach_the_pwm_in_order():
    out = speaker(volume=40)
    if out is None:
        pytest.skip("no audio driver")
    try:
        pwm = out.buzzer._pwm
        out.play(["capture"], 0)          # 880, 1320, 1760 Hz: 50, 50, 70 ms
        heard = [(pwm.frequency, pwm.duty_cycle > 0)]
        for now in (50, 100, 170):
            out.play([], now)
            heard.append((pwm.frequency, pwm.duty_cycle > 0))
        assert heard == [(880, True), (1320, True), (1760, True), (1760, False)]
        assert pwm.duty_cycle == 0 and out.buzzer.playing is None
    finally:
        out.close()
