"""An analog thumbstick as four direction keys (see ``hardware.inputs`` for ``poll``).

>>> import board
>>> from hardware.joystick import Joystick
>>> stick = Joystick(board.GP26, board.GP27, (UP, DOWN, LEFT, RIGHT), dead_zone=30)
>>> stick.poll(now_ms, [])
[(RIGHT, True)]
"""


class Joystick:
    """A two-axis analog thumbstick as four direction keys (``keys`` = up, down, left, right).

    At start the resting position of each axis is measured (``samples`` readings averaged): that is
    the centre. A direction is pressed when the stick leaves the centre by more than
    ``dead_zone`` percent of the travel on that side, and released when it comes back within two
    thirds of that (hysteresis: no chatter at the edge). Only the axis pushed further counts, so
    there are no diagonals. ``invert_x``/``invert_y`` flip an axis, ``swap`` exchanges them (a stick
    mounted sideways). A held direction is one press (the game repeats it).
    """

    def __init__(self, x_pin, y_pin, keys, dead_zone=30, invert_x=False, invert_y=False,
                 swap=False, samples=16, analogio=None):
        if analogio is None:
            import analogio
        if swap:
            x_pin, y_pin = y_pin, x_pin
        self._x = analogio.AnalogIn(x_pin)
        self._y = analogio.AnalogIn(y_pin)
        self.up, self.down, self.left, self.right = keys
        if not 5 <= dead_zone <= 90:
            raise ValueError("dead_zone must be 5-90 percent, not %r" % (dead_zone,))
        self.dead_zone = dead_zone
        self.invert_x = invert_x
        self.invert_y = invert_y
        self.held = None
        self.warning = None
        self.calibrate(samples)

    def calibrate(self, samples=16):
        """Measure the resting position. A stick that reads far off the middle (held while
        starting, or not connected) is noted in ``warning`` and the middle is used instead."""
        sx = 0
        sy = 0
        for _ in range(samples):
            sx += self._x.value
            sy += self._y.value
        self.centre_x = sx // samples
        self.centre_y = sy // samples
        self.warning = None
        for axis in ("x", "y"):
            centre = self.centre_x if axis == "x" else self.centre_y
            if not 16384 <= centre <= 49152:
                self.warning = ("joystick %s axis rests at %d, far from the middle (32768): "
                                "not connected, or touched while starting?" % (axis, centre))
                if axis == "x":
                    self.centre_x = 32768
                else:
                    self.centre_y = 32768

    @staticmethod
    def _deflection(value, centre):
        """How far ``value`` is from ``centre``, in percent of the travel on that side (-100..100)."""
        if value >= centre:
            span = 65535 - centre
            return (value - centre) * 100 // span if span > 0 else 0
        return -((centre - value) * 100 // centre) if centre > 0 else 0

    def direction(self):
        """The direction key the stick points at now (with hysteresis), or None."""
        dx = self._deflection(self._x.value, self.centre_x)
        dy = self._deflection(self._y.value, self.centre_y)
        if self.invert_x:
            dx = -dx
        if self.invert_y:
            dy = -dy
        ax = dx if dx >= 0 else -dx
        ay = dy if dy >= 0 else -dy
        zone = self.dead_zone
        if self.held is not None:
            # Stay in the held direction until the stick comes back well inside the zone.
            stay = zone * 2 // 3
            if self.held == self.right and dx > stay and ax >= ay:
                return self.held
            if self.held == self.left and -dx > stay and ax >= ay:
                return self.held
            if self.held == self.down and dy > stay and ay >= ax:
                return self.held
            if self.held == self.up and -dy > stay and ay >= ax:
                return self.held
        if ax <= zone and ay <= zone:
            return None
        if ax >= ay:
            return self.right if dx > 0 else self.left
        return self.down if dy > 0 else self.up

    def poll(self, now_ms, events):
        now = self.direction()
        if now != self.held:
            if self.held is not None:
                events.append((self.held, False))
            if now is not None:
                events.append((now, True))
            self.held = now
        return events

    def deinit(self):
        self._x.deinit()
        self._y.deinit()
