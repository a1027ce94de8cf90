"""Double of ``supervisor``: a fake millisecond clock that wraps at 2**29 like the real one.

Each ``ticks_ms()`` call returns the time and then moves it on by ``STEP`` ms, so a loop that
reads the clock once per frame sees frames ``STEP`` ms apart. Once the time passes ``STOP_AT``
the call raises ``KeyboardInterrupt``, as Ctrl-C on the serial console does on a real board.
"""

STEP = 20
STOP_AT = None
now = 0
elapsed = 0
_WRAP = (1 << 29) - 1


def ticks_ms():
    global now, elapsed
    if STOP_AT is not None and elapsed > STOP_AT:
        raise KeyboardInterrupt("test clock stopped")
    value = now
    now = (now + STEP) & _WRAP
    elapsed += STEP
    return value


class _Runtime:
    serial_connected = True
    usb_connected = True


runtime = _Runtime()
reloads = 0


def reload():
    global reloads
    reloads += 1
