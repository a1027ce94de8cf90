"""A tab of the built page in headless Chromium, for the browser tests: open it, wait for the
game, read the canvas, and replay what the page did on CPython (its "twin") to compare."""

import json
import os

from micropython import ROOT
from web import page as glue

ARTEFACTS = os.path.join(ROOT, "build", "web-test")
SAVE_KEY = "rolit-handheld.save"
PREFS_KEY = "rolit-handheld.page"
UNLIT = (24, 24, 28)  # an unlit LED under room light (web/panel.js, as sim/window.py)


def lens(colour):
    """The canvas colour at the centre of an LED showing ``colour``: the room's light plus its
    own, as the window draws it."""
    return [min(255, UNLIT[c] + colour[c]) for c in range(3)]


def led_centres(width):
    """Canvas pixels at the centre of each LED, row by row, for a square canvas ``width`` pixels
    wide: the panel's documented layout (a border of 7 % around 8 x 8 equal cells)."""
    border = max(3, width * 7 // 100)
    cell = (width - 2 * border) / 8
    return [(border + int((x + 0.5) * cell), border + int((y + 0.5) * cell))
            for y in range(8) for x in range(8)]


class Tab:
    """One page in its own browser context (fresh storage unless ``context`` is shared)."""

    def __init__(self, chromium, base, context=None, howto=False, **options):
        """``howto``: show the first visit's how-to-play (by default the tab is a returning
        visitor's, so keys and clicks go to the game)."""
        options.setdefault("viewport", {"width": 1280, "height": 800})
        self.own_context = context is None
        self.context = context or chromium.new_context(**options)
        self.page = self.context.new_page()
        self.page.set_default_timeout(120000)  # a loaded two-core machine: slow, not wrong
        if not howto:
            self.page.add_init_script("""
                try {
                    if (localStorage.getItem(%r) === null) {
                        localStorage.setItem(%r, JSON.stringify({ labels: true, pad: null, howto: true }));
                    }
                } catch (error) {}
            """ % (PREFS_KEY, PREFS_KEY))
        self.base = base
        self.errors = []
        self.requests = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append("page error: %s" % error))
        self.page.on("request", lambda request: self.requests.append(request.url))

    def _console(self, message):
        if message.type == "error":
            self.errors.append("console: %s" % message.text)

    def open(self, address="?journal=1&seed=7", wait=True):
        self.page.goto(self.base + address)
        if wait:
            self.wait_ready()
        return self

    def wait_ready(self, timeout=120000):
        self.page.wait_for_function("window.rolit && window.rolit.stats.firstFrame !== null",
                                    timeout=timeout)

    def close(self):
        if self.own_context:
            self.context.close()
        else:
            self.page.close()

    # -- state --------------------------------------------------------------------------

    def info(self):
        return self.page.evaluate("window.rolit.info()")

    def moves(self):
        game = self.info()["game"]
        return game["moves"] if game else []

    def wait_for(self, expression, timeout=60000, arg=None):
        self.page.wait_for_function(expression, arg=arg, timeout=timeout)

    def wait_moves(self, count, timeout=60000):
        """Until ``count`` moves are on the board and the game waits for a human (or is over)."""
        self.wait_for("([n]) => { const g = window.rolit.info().game; return g && g.moves.length >= n"
                      " && (g.phase === 'input' || g.over); }", timeout, [count])

    def frames(self, count=3):
        """Let ``count`` more frames pass."""
        start = self.page.evaluate("window.rolit.stats.frames")
        self.wait_for("([n]) => window.rolit.stats.frames >= n", 10000, [start + count])

    def message(self):
        box = self.page.locator("#message")
        return box.inner_text() if box.is_visible() else ""

    # -- the canvas and its twin on CPython ---------------------------------------------

    def snapshot(self):
        """The canvas pixel at every LED centre and the page's journal, read in one go (so
        no frame can come between them)."""
        width = self.page.evaluate("document.getElementById('board').width")
        return self.page.evaluate(
            """(points) => {
                const canvas = document.getElementById("board");
                const ctx = canvas.getContext("2d");
                const pixels = points.map(([x, y]) => Array.from(ctx.getImageData(x, y, 1, 1).data.slice(0, 3)));
                return { width: canvas.width, pixels, journal: window.rolit.journal() };
            }""", led_centres(width))

    def twin(self, journal):
        """A page on CPython that did the same: the same seed, stored save, steps and games."""
        stored = journal["stored"]
        twin = glue.Page(lambda: stored, lambda text: None, journal["seed"],
                         linked=journal.get("linked", False))
        twin.replay(journal["entries"])
        return twin

    def assert_pixels_match(self):
        """The canvas at every LED centre shows exactly the App's frame on CPython (on the room's
        light of an unlit LED)."""
        shot = self.snapshot()
        twin = self.twin(shot["journal"])
        expected = [lens(colour) for colour in twin.app.frame]
        assert shot["pixels"] == expected, "canvas %d px wide" % shot["width"]
        return twin

    def cursor_and_legal(self):
        twin = self.twin(self.snapshot()["journal"])
        game = twin.app.game
        return twin.app.cursor, game.legal_moves(), game.size, game

    def centre_on_screen(self, cell, size):
        """Where LED of board ``cell`` is, in CSS pixels of the viewport."""
        offset = (8 - size) // 2
        x, y = cell % size + offset, cell // size + offset
        box = self.page.evaluate("(() => { const b = document.getElementById('board')"
                                 ".getBoundingClientRect(); return [b.left, b.top, b.width]; })()")
        width = self.page.evaluate("document.getElementById('board').width")
        px, py = led_centres(width)[y * 8 + x]
        scale = box[2] / width
        return box[0] + (px + 0.5) * scale, box[1] + (py + 0.5) * scale

    def screenshot(self, name):
        os.makedirs(os.path.join(ARTEFACTS, "screenshots"), exist_ok=True)
        path = os.path.join(ARTEFACTS, "screenshots", name + ".png")
        self.page.screenshot(path=path)
        return path


def path_keys(cursor, target, size):
    """Arrow key names that walk the cursor from ``cursor`` to ``target``."""
    (cy, cx), (ty, tx) = divmod(cursor, size), divmod(target, size)
    keys = []
    keys += ["ArrowRight"] * max(0, tx - cx) + ["ArrowLeft"] * max(0, cx - tx)
    keys += ["ArrowDown"] * max(0, ty - cy) + ["ArrowUp"] * max(0, cy - ty)
    return keys


def save_figures(name, figures):
    """Keep measured figures of a test run under build/web-test/figures.json."""
    os.makedirs(ARTEFACTS, exist_ok=True)
    path = os.path.join(ARTEFACTS, "figures.json")
    try:
        with open(path) as handle:
            known = json.load(handle)
    except (OSError, ValueError):
        known = {}
    known[name] = figures
    with open(path + ".tmp", "w") as handle:
        json.dump(known, handle, indent=1, sort_keys=True)
    os.replace(path + ".tmp", path)
