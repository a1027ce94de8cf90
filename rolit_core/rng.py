"""A small seedable random generator that gives the same numbers on CPython and CircuitPython.

The built-in ``random`` differs between interpreters, and a seeded game must be the same game
everywhere. Two multiply-with-carry generators on 15-bit halves keep every intermediate value
below 2**30, so nothing here becomes a big integer on a microcontroller.
"""


class Random:
    """``Random(seed)``: deterministic numbers for a seed (an int; ``None`` means 0)."""

    def __init__(self, seed=None):
        self.seed(seed)

    def seed(self, seed=None):
        seed = 0 if seed is None else int(seed)
        # Fold any int into two 30-bit states; both depend on every part of the seed.
        low = 0
        high = 0
        seed = seed if seed >= 0 else -seed * 2 + 1
        while True:
            low = (low * 31 + (seed & 0x7FFF)) & 0x7FFF
            high = (high * 17 + ((seed >> 15) & 0x7FFF)) & 0x7FFF
            seed >>= 30
            if not seed:
                break
        self._z = (low * 20021 + high + 0x2545) & 0x3FFFFFFF or 1
        self._w = (high * 17231 + low * 3 + 0x1F3B) & 0x3FFFFFFF or 1
        for _ in range(8):
            self.bits()

    def bits(self):
        """The next 30 random bits, as an int in [0, 2**30)."""
        z = 30903 * (self._z & 0x7FFF) + (self._z >> 15)
        w = 18000 * (self._w & 0x7FFF) + (self._w >> 15)
        self._z = z
        self._w = w
        return ((z & 0x7FFF) << 15 ^ w ^ z >> 15) & 0x3FFFFFFF

    def below(self, n):
        """A random int in [0, n) for 0 < n <= 2**30."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return self.bits() % n

    def choice(self, items):
        """A random item of a non-empty sequence."""
        return items[self.bits() % len(items)]


def fresh_seed():
    """A seed from the platform's randomness, for games nobody asked to repeat."""
    try:
        import os
        data = os.urandom(4)
        return (data[0] << 22 | data[1] << 14 | data[2] << 6 | data[3] >> 2) & 0x3FFFFFFF
    except (ImportError, AttributeError, OSError, RuntimeError):
        pass  # boards without a hardware generator raise a RuntimeError subclass
    try:
        import random
        return random.getrandbits(30)
    except (ImportError, AttributeError):
        pass
    import time
    return int(time.time()) & 0x3FFFFFFF
