"""Double of ``neopixel_write``: keeps the bytes of the last frames sent.

``FAIL_AT``: the number of a write (1, 2, ...) that raises ``RuntimeError`` instead, once: a glitch
for the tests of recovery.
"""

FRAMES = []  # (pin name, bytes) per show(), the last KEEP of them
KEEP = 4
FAIL_AT = None
count = 0


def neopixel_write(pin, buf):
    global count, FAIL_AT
    count += 1
    if FAIL_AT is not None and count == FAIL_AT:
        FAIL_AT = None
        raise RuntimeError("test glitch on the LED data line")
    FRAMES.append((pin.pin.name if hasattr(pin, "pin") else str(pin), bytes(buf)))
    if len(FRAMES) > KEEP:
        FRAMES.pop(0)
