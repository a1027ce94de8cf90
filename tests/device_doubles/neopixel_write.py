"""Double of ``neopixel_write``: keeps the bytes of every frame sent."""

FRAMES = []  # (pin name, bytes) per show()
KEEP = 4     # how many frames to keep (the last ones)
count = 0


def neopixel_write(pin, buf):
    global count
    count += 1
    FRAMES.append((pin.pin.name if hasattr(pin, "pin") else str(pin), bytes(buf)))
    if len(FRAMES) > KEEP:
        FRAMES.pop(0)
