"""The device path under the real Adafruit Blinka, in a process of its own.

    BLINKA_OS_AGNOSTIC=1 python tests/blinka_harness.py handheld|code RESULT.json

``tests/test_blinka.py`` starts it with a clean environment (no PYTHONPATH) in a folder holding
``settings.toml`` and ``script.json``, so that ``board``, ``digitalio``, ``pwmio``,
``neopixel_write``, ``microcontroller`` are Blinka's and ``neopixel`` / ``adafruit_pixelbuf``
the pinned pip packages; nothing of ``tests/`` is importable here (``tests/micropython.py``
would shadow the name ``micropython``). ``App.update`` is wrapped to record what the game drew,
and three things are hooked, each at its own boundary:

- ``neopixel_write.neopixel_write`` (Blinka's, wrapped before ``neopixel`` imports it): every
  buffer that would go out on the wire is recorded;
- the clock: ``time.monotonic_ns`` reads a counter that ``time.sleep`` advances (``handheld``
  mode sets it each frame), so a run is the same every time and never waits;
- the level of the pins named in ``script.json`` (``{"low": {pin name: [[from_ms, to_ms], ...]},
  "frames": N, "seed": S}``): Blinka's OS-agnostic ``Pin.read``, where a real board reads the
  GPIO line, returns low inside those spans; ``"analog": {pin name: {"rest": value, "spans":
  [[from_ms, to_ms, value], ...]}}`` sets what an analog pin reads (``analogio.AnalogIn``).
  Other pins keep Blinka's own behaviour (always high, always low, toggling at every read, a
  fixed number or a wave).

``handheld`` runs ``Handheld`` and ``App`` for ``frames`` frames of 20 ms; ``code`` runs
``code.py`` (its ``ROLIT_MAX_FRAMES`` ends it). RESULT.json gets what was recorded.
"""

import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[0] = ROOT  # the game's folder, as on a Pi; not tests/

FRAME_MS = 20
BLINKA_MODULES = ("board", "digitalio", "pwmio", "neopixel_write", "microcontroller",
                  "neopixel", "adafruit_pixelbuf", "keypad", "supervisor", "analogio", "busio")

_now_ns = [0]


def _sleep(seconds):
    _now_ns[0] += int(seconds * 1000000000)


def clock_ms():
    return _now_ns[0] // 1000000


time.monotonic_ns = lambda: _now_ns[0]
time.sleep = _sleep

import neopixel_write  # noqa: E402  (Blinka's, after the clock and before neopixel)

SENT = []
_blinka_write = neopixel_write.neopixel_write


def _recording_write(pin, buffer):
    SENT.append(bytes(buffer).hex())
    return _blinka_write(pin, buffer)


neopixel_write.neopixel_write = _recording_write


def script_pins(script):
    """Make the pins of ``script["low"]`` read low inside their spans."""
    import board
    from adafruit_blinka.microcontroller.generic_agnostic_board import pin as agnostic

    spans = {}
    for name, low in script.get("low", {}).items():
        spans[getattr(board, name).id] = low
    analog = {}
    for name, levels in script.get("analog", {}).items():
        analog[getattr(board, name).id] = levels
    blinka_read = agnostic.Pin.read

    def read(pin):
        levels = analog.get(pin.id)
        if levels is not None:
            now = clock_ms()
            value = levels["rest"]
            for start, end, level in levels["spans"]:
                if start <= now < end:
                    value = level
            pin.previous_value = pin.current_value
            pin.current_value = value
            return value
        low = spans.get(pin.id)
        if low is None:
            return blinka_read(pin)
        now = clock_ms()
        level = not [1 for start, end in low if start <= now < end]
        pin.previous_value = pin.current_value
        pin.current_value = level
        return level

    agnostic.Pin.read = read


def record_app():
    """Every ``App.update``: its clock, events and frame."""
    from rolit_core import app as app_module

    updates = []
    update = app_module.App.update

    def recording_update(app, now_ms, events=()):
        frame = update(app, now_ms, events)
        updates.append([now_ms, [list(event) for event in events], [list(c) for c in frame]])
        return frame

    app_module.App.update = recording_update
    return updates


def origins():
    found = {}
    for name in BLINKA_MODULES:
        module = sys.modules.get(name)
        found[name] = None if module is None else getattr(module, "__file__", "built in")
    found["tests"] = sorted([name for name, module in list(sys.modules.items())
                             if name != "__main__" and os.path.dirname(str(getattr(
                                 module, "__file__", ""))).startswith(os.path.join(ROOT, "tests"))])
    import hardware
    found["hardware"] = hardware.__file__
    return found


def run_handheld(script, result):
    from hardware import config
    from hardware.handheld import Handheld
    from rolit_core.app import BACK, DOWN, LEFT, RIGHT, SELECT, UP, App

    handheld = Handheld(config.load(), (UP, DOWN, LEFT, RIGHT, SELECT, BACK))
    result["errors"] = handheld.errors
    result["storage"] = type(handheld.storage).__name__
    result["scanners"] = [type(getattr(source, "_scanner", source)).__module__
                          for source in handheld.inputs]
    result["cable"] = None if handheld.cable is None else type(handheld.cable._uart).__module__
    app = App(storage=handheld.storage, seed=script.get("seed", 1))
    tones = []
    for number in range(script["frames"]):
        now = number * FRAME_MS
        _now_ns[0] = now * 1000000
        handheld.show(app.update(now, handheld.poll(now, app)))
        handheld.sound(app.cues, now)
        if handheld.buzzer is not None:
            pwm = handheld.buzzer._pwm  # Blinka's PWMOut: what a piezo on the pin would play
            tones.append([pwm.frequency, pwm.duty_cycle])
    result["tones"] = tones
    result["saves"] = handheld.storage.writes
    started = time.perf_counter()
    for source in handheld.inputs:
        source.deinit()  # Blinka's keypad would wait here for ever
    result["deinit_s"] = time.perf_counter() - started


def run_code(script, result):
    import runpy

    runpy.run_path(os.path.join(ROOT, "code.py"), run_name="__main__")


def main(argv):
    mode, out = argv[1], argv[2]
    with open("script.json") as handle:
        script = json.load(handle)
    script_pins(script)
    result = {"updates": record_app()}
    try:
        (run_handheld if mode == "handheld" else run_code)(script, result)
    finally:
        result["sent"] = SENT
        result["modules"] = origins()
        with open(out, "w") as handle:
            json.dump(result, handle)


if __name__ == "__main__":
    main(sys.argv)
