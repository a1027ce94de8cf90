"""The wiring self-test: the matrix sweep and colours, then a key test, and with a link the
handhelds on the ring. A :class:`rolit_core.screen.Screen` of the app's session, loaded for one
showing (``App.show_once``) like the title: a session that never runs it compiles none of it.
"""

from .events import BACK, CUE_TICK, SELECT
from .screen import SELFTEST_EXIT_MS, Screen

SELFTEST_SWEEP_MS = 30   # per pixel of the walk through the matrix
SELFTEST_COLOUR_MS = 600  # per full-matrix colour
SELFTEST_LEVEL = 48      # the self-test's fixed low level (the brightness setting is ignored)
SELFTEST_KEYS_AT = 64 * SELFTEST_SWEEP_MS + 4 * SELFTEST_COLOUR_MS  # then the key test
_ST_COLOURS = ((SELFTEST_LEVEL, 0, 0), (0, SELFTEST_LEVEL, 0), (0, 0, SELFTEST_LEVEL),
               (SELFTEST_LEVEL, SELFTEST_LEVEL, SELFTEST_LEVEL))
_ST_OUTLINE = (4, 4, 4)
# Self-test regions per key (UP, DOWN, LEFT, RIGHT, SELECT, BACK): (x0, y0, x1, y1), end
# exclusive
_ST_REGIONS = (
    ((2, 0, 6, 2),),                                            # UP: top middle
    ((2, 6, 6, 8),),                                            # DOWN: bottom middle
    ((0, 2, 2, 6),),                                            # LEFT: left middle
    ((6, 2, 8, 6),),                                            # RIGHT: right middle
    ((3, 3, 5, 5),),                                            # SELECT: centre
    ((0, 0, 2, 2), (6, 0, 8, 2), (0, 6, 2, 8), (6, 6, 8, 8)),   # BACK: corners
)
_ST_KEY_COLOURS = ((48, 0, 0), (0, 48, 0), (0, 0, 48), (48, 36, 0), (48, 48, 48), (36, 0, 48))
# The link test, when the app has a link (``app.link``, a rolit_core.link.Link): a probe goes
# round the ring every RING_PROBE_MS and comes back after as many handhelds as the ring has
# (its Message.distance); in the key test, x 2-5 of row RING_ROW (free there) show one dot per
# handheld on the ring.
RING_PROBE_MS = 250
RING_FRESH_MS = 1500  # what was heard longer ago no longer counts (as a match says "lost")
RING_ROW = 5
RING_SOURCE = 3       # the probe's source number: every link passes it on but node 3's (a host
                      # is node 0; a handheld not yet seated, or in this test, has no number)
RING_ON = (0, 40, 40)      # cyan: a handheld on the ring (a loopback jumper: just this one)
RING_OPEN = (48, 16, 0)    # orange: heard from this far upstream, but the probes do not come
                           # back (the ring is open after this handheld's TX)
RING_NONE = (48, 0, 0)     # red: nothing heard


class SelfTestScreen(Screen):
    """The matrix sweep and colours, then each key held lights its region; BACK held for
    ``SELFTEST_EXIT_MS`` leaves. With a link (``app.link``), the key test also shows who is on
    the ring (:func:`draw_ring`).

    While it is shown the test has the link to itself: the link has no node number (it passes
    every frame on, and sends nothing of a match), and gets its number back when the test
    ends."""

    name = "selftest"
    _link = None

    def enter(self):
        link = getattr(self.app, "link", None)
        self._link = link
        if link is None:
            return
        self._node = link.node
        link.node = None
        link.receive()  # what came before the test is no probe of it
        # tells this handheld's probes from the others'
        self._token = self.app.rng.below(1 << 16)
        self._count = 0
        self._clock = 0            # ms since the test began (t jumps on SELECT)
        self._next_probe = 0
        never = -RING_FRESH_MS - 1
        self._back = [never] * 4   # when a probe of ours came back after 1-4 handhelds
        self._heard = [never] * 4  # when a handheld 1-4 places upstream was heard

    def hide(self):
        link = self._link
        if link is not None:
            link.node = self._node
            self._link = None

    def advance(self, dt):
        app = self.app
        if self._link is not None:
            self._clock += dt
            self._listen(self._link)
        if app.keys_down[BACK] and app.held_ms[BACK] >= SELFTEST_EXIT_MS:
            app.keys_down[BACK] = False  # its release is not a key press in the menu
            app.show(app.menu_screen)

    def _listen(self, link):
        from .link import MAX_NODES, RING_KIND

        now = self._clock
        for message in link.receive():
            distance = message.distance
            if not 1 <= distance <= MAX_NODES:
                continue
            payload = message.payload
            if (message.kind == RING_KIND and len(payload) == 3
                    and payload[0] << 8 | payload[1] == self._token):
                # ours, back: after once round the ring, and again after each time more
                self._back[distance - 1] = now
            else:
                self._heard[distance - 1] = now
        if now >= self._next_probe:
            self._next_probe = now + RING_PROBE_MS
            self._count = (self._count + 1) & 255
            token = self._token
            link.node = RING_SOURCE  # a broadcast needs a source; the link stays without one
            try:
                link.broadcast(RING_KIND, bytes((token >> 8, token & 255, self._count)))
            finally:
                link.node = None

    def ring(self):
        """``(size, heard)``: how many handhelds the probes went through to come back (1 with a
        loopback jumper; 0 if they do not come back), and the places upstream (1-4) a handheld
        was heard from lately, bit ``place - 1`` of ``heard``. ``(0, 0)`` without a link."""
        if self._link is None:
            return 0, 0
        now = self._clock
        size = 0
        heard = 0
        for i in range(3, -1, -1):
            if now - self._back[i] <= RING_FRESH_MS:
                size = i + 1  # the shortest way back is once round
            if now - self._heard[i] <= RING_FRESH_MS:
                heard |= 1 << i
        return size, heard

    def press(self, key):
        if self.t < SELFTEST_KEYS_AT:
            if key == SELECT:
                self.t = SELFTEST_KEYS_AT
        else:
            self.app.cues.append(CUE_TICK)  # the buzzer answers every key

    def draw(self, frame):
        draw_selftest(frame, self.t, self.app.keys_down)
        if self._link is not None and self.t >= SELFTEST_KEYS_AT:
            size, heard = self.ring()
            draw_ring(frame, size, heard)


def draw_selftest(frame, t, down):
    """A white pixel walks the matrix in frame order, then the whole matrix shows red, green,
    blue and white; then each key held (``down[key]``) lights its own region."""
    sweep = 64 * SELFTEST_SWEEP_MS
    if t < sweep:
        frame[t // SELFTEST_SWEEP_MS] = _ST_COLOURS[3]
        return
    t -= sweep
    if t < 4 * SELFTEST_COLOUR_MS:
        colour = _ST_COLOURS[t // SELFTEST_COLOUR_MS]
        for i in range(64):
            frame[i] = colour
        return
    for key in range(6):
        colour = _ST_KEY_COLOURS[key] if down[key] else _ST_OUTLINE
        for x0, y0, x1, y1 in _ST_REGIONS[key]:
            for y in range(y0, y1):
                for x in range(x0, x1):
                    frame[y * 8 + x] = colour


def draw_ring(frame, size, heard):
    """Who is on the ring, in row ``RING_ROW``, x 2-5: ``size`` cyan dots when the probes come
    back after ``size`` handhelds; else an orange dot for each place upstream a handheld was
    ``heard`` from (a bit each, as :meth:`SelfTestScreen.ring` gives; the ring is open); else
    four red dots: nothing heard."""
    at = RING_ROW * 8 + 2
    for i in range(4):
        if size:
            colour = RING_ON if i < size else _ST_OUTLINE
        elif heard:
            colour = RING_OPEN if heard >> i & 1 else _ST_OUTLINE
        else:
            colour = RING_NONE
        frame[at + i] = colour
