"""The page links to a handheld over Web Serial (web/net.js ``SerialLink``, the "Link a handheld
over USB" button) in headless Chromium. There is no serial device here, so ``navigator.serial``
is a stub whose one port is a loopback into a Python link host: the port's bytes go over a
WebSocket to the hub of a hosting simulator (sim.net.NetHost, as tests/test_web_linked.py runs
it), whose App hosts a 4x4 game with a 'link' seat. To the page it is a serial line like any
other: it opens the port, raises DTR, reads and writes bytes; no greeting reaches it (the stub
drops the hub's text line, as a cable has none). The page's player joins from the menu's last
page with the keys, and both play the round to the end on the same board. Then the port is
unplugged: the page says so, opens it again and goes on.

What cannot be tested here: the browser's own port chooser (a real ``requestPort`` needs a
person's click in a dialog) and a real USB device's bytes (tests/test_hardware_usblink.py has
the handheld's end with a double of usb_cdc)."""

import os
import time

import pytest

from rolit_core.rng import Random
from test_web_linked import HostingSim, host_a_game, play_on, same_board
from web import browser, build
from web_tab import ARTEFACTS, Tab

pytestmark = pytest.mark.slow

# One SerialPort whose far end is ws://HOST/link (the hub); window.__serial counts what the page
# did with it, and __serial.unplug() ends its readable stream as a pulled USB cable does.
STUB = r"""
(() => {
  const log = { opens: 0, closes: 0, signals: [], requested: 0, written: 0, read: 0 };
  let socket = null, controller = null, node = null;
  const port = {
    async open(options) {
      if (socket) throw new DOMException("The port is already open.", "InvalidStateError");
      log.opens++;
      log.baudRate = options.baudRate;
      const url = new URL("link", location.href);
      url.protocol = "ws:";
      if (node !== null) url.search = "?node=" + node;
      socket = new WebSocket(url.href);
      socket.binaryType = "arraybuffer";
      const mine = socket;
      await new Promise((resolve, reject) => {
        mine.onopen = resolve;
        mine.onerror = () => reject(new DOMException("Failed to open serial port.", "NetworkError"));
      });
      mine.onmessage = (event) => {
        if (typeof event.data === "string") {   // the hub's greeting: no part of a serial line
          const words = event.data.trim().split(" ");
          if (words[2] === "node") node = words[3];
          return;
        }
        const bytes = new Uint8Array(event.data);
        log.read += bytes.length;
        if (controller) controller.enqueue(bytes);
      };
      mine.onclose = () => { if (socket === mine) port.unplug(); };
      port.readable = new ReadableStream({ start(c) { controller = c; } });
      port.writable = new WritableStream({
        write(chunk) {
          if (!socket || socket.readyState !== WebSocket.OPEN)
            throw new DOMException("The device has been lost.", "NetworkError");
          log.written += chunk.length;
          socket.send(chunk);
        },
      });
    },
    async setSignals(signals) { log.signals.push(signals); },
    async close() {
      log.closes++;
      const was = socket;
      socket = null;
      if (was) was.close();
    },
    unplug() {
      const was = socket;
      socket = null;
      if (was) was.close();
      if (controller) {
        try { controller.error(new DOMException("The device has been lost.", "NetworkError")); }
        catch (error) {}
        controller = null;
      }
    },
    getInfo() { return { usbVendorId: 0x239a, usbProductId: 0x80f4 }; },
  };
  const serial = {
    async requestPort() { log.requested++; return port; },
    async getPorts() { return [port]; },
    addEventListener() {}, removeEventListener() {},
  };
  Object.defineProperty(Navigator.prototype, "serial", { get: () => serial, configurable: true });
  window.__serial = { log, port };
})();
"""


@pytest.fixture(scope="module")
def site():
    reason = browser.missing()
    if reason:
        if os.environ.get("ROLIT_BROWSER_TESTS") == "required":
            pytest.fail("the browser tests are required here, but " + reason)
        pytest.skip(reason)
    return build.build(os.path.join(ARTEFACTS, "serial-site"))


@pytest.fixture
def hosting(site):
    sim = HostingSim(site)
    yield sim
    sim.close()


@pytest.fixture(scope="module")
def chromium(site):
    with browser.launch() as instance:
        yield instance


def serial(tab):
    return tab.page.evaluate("window.__serial.log")


def test_a_page_links_to_a_handheld_over_web_serial_and_plays_a_round_to_the_end(chromium,
                                                                                hosting):
    host_a_game(hosting)
    tab = Tab(chromium, "http://127.0.0.1:%d/" % hosting.hub.port)
    tab.page.add_init_script(STUB)
    try:
        tab.open("?journal=1&seed=4")
        button = tab.page.locator("#serial")
        tab.wait_for("!document.getElementById('serial').hidden", 30000)
        assert button.inner_text() == "Link a handheld over USB"
        button.click()
        tab.wait_for("window.rolit.net() && window.rolit.net().state === 'linked'", 30000)
        assert tab.page.evaluate("window.rolit.net().stats.kind") == "serial"
        log = serial(tab)
        assert log["requested"] == 1 and log["opens"] == 1 and log["baudRate"] == 115200
        assert log["signals"] == [{"dataTerminalReady": True}]
        assert button.inner_text() == "Linked over USB"
        assert tab.page.locator("#join").is_disabled()  # one transport at a time
        # The page's own menu joins, as a handheld's: the title, the menu, its last page, SELECT.
        tab.wait_for("window.rolit.info().mode === 'menu' || window.rolit.info().mode === 'title'")
        if tab.info()["mode"] == "title":
            tab.page.keyboard.press("Enter")
            tab.wait_for("window.rolit.info().mode === 'menu'")
        tab.page.keyboard.press("ArrowUp")
        tab.page.keyboard.press("Enter")
        tab.wait_for("window.rolit.info().mode === 'play'", 60000)
        assert hosting.wait(lambda app: app.mode == "play")
        assert [kind for _, _, kind in hosting.hub.joiners()] == ["ws"]
        rng = Random(6)
        assert play_on(hosting, tab, rng, moves=4) == 4
        # the USB cable pulled: the page says so, opens the port again and the game goes on
        tab.page.evaluate("window.__serial.port.unplug()")
        tab.wait_for("window.rolit.net().state === 'lost'", 10000)
        assert "The USB link dropped" in tab.message()
        tab.wait_for("window.rolit.net().state === 'linked'", 30000)
        assert serial(tab)["opens"] >= 2
        deadline = time.monotonic() + 60
        while not (same_board(hosting, tab) and tab.info()["mode"] == "play"):
            assert time.monotonic() < deadline, (tab.info(), hosting.hub.take_log())
            time.sleep(0.05)
        play_on(hosting, tab, rng)
        deadline = time.monotonic() + 60
        while not (same_board(hosting, tab) and tab.info()["game"]["over"]):
            assert time.monotonic() < deadline, tab.info()
            time.sleep(0.05)
        with hosting.lock:
            assert hosting.app.game.over
        log = serial(tab)
        assert log["written"] > 0 and log["read"] > 0
        tab.assert_pixels_match()  # the journal, the port's bytes in it, replayed on CPython
        assert not tab.errors, tab.errors
    finally:
        tab.close()


def test_no_port_chosen_is_said_and_the_page_plays_on(chromium, site):
    from web.serve import serve_in_background
    server, base = serve_in_background(site)
    tab = Tab(chromium, base)
    tab.page.add_init_script(STUB + """
        navigator.serial.requestPort = async () => {
          throw new DOMException("No port selected by the user.", "NotFoundError");
        };""")
    try:
        tab.open("?seed=4#players=human,human")
        tab.page.click("#serial")
        tab.wait_for("document.getElementById('message').textContent.includes('No serial port')",
                     10000)
        assert tab.page.evaluate("window.rolit.net()") is None
        assert not tab.page.locator("#serial").is_disabled()
        assert tab.info()["mode"] == "play" and tab.info()["link"] is None
    finally:
        tab.close()
        server.shutdown()
        server.server_close()


def test_without_web_serial_the_button_is_not_offered(chromium, site):
    from web.serve import serve_in_background
    server, base = serve_in_background(site)
    tab = Tab(chromium, base)
    tab.page.add_init_script(
        'Object.defineProperty(Navigator.prototype, "serial", {get: () => undefined, '
        'configurable: true});')
    try:
        tab.open("?seed=4")
        tab.frames(5)
        assert tab.page.locator("#serial").is_hidden()
    finally:
        tab.close()
        server.shutdown()
        server.server_close()
