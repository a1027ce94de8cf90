"""Double of ``supervisor``: a fake millisecond clock that wraps at 2**29 like the real one.

Each ``ticks_ms()`` call moves the clock on by ``STEP`` ms, so a loop that reads the clock once per
frame sees frames ``STEP`` ms apart: the first call returns ``START``, the next ``START + STEP``...
``elapsed`` is the time since the start of the value returned last (what ``keypad.SCRIPT`` times
refer to). Once ``elapsed`` would pass ``STOP_AT``, the call raises ``KeyboardInterrupt``, as Ctrl-C
on the serial console does on a real board.
"""

STEP = 20
START = 0
STOP_AT = None
elapsed = -STEP
_WRAP = (1 << 29) - 1


def ticks_ms():
    global elapsed
    if STOP_AT is not None and elapsed + STEP > STOP_AT:
        raise KeyboardInterrupt("test clock stopped")
    elapsed += STEP
    return (START + elapsed) & _WRAP


class _Runtime:
    serial_connected = True
    usb_connected = True


runtime = _Runtime()
reloads = 0


def reload():
    global reloads
    reloads += 1
