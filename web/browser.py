"""Debian's Chromium, headless, through Playwright: what the browser tests and figures drive.

Never a downloaded browser: ``CHROMIUM`` (default /usr/bin/chromium, from ``apt-get install
chromium``; the Makefile's test setup installs it where it can).

>>> with launch() as chromium:                       # doctest: +SKIP
...     page = chromium.new_page()
"""

import contextlib
import os
import subprocess

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# As root in a container Chromium needs --no-sandbox; the rest keeps it off the network and quiet,
# and --force-color-profile makes canvas and screenshot pixels plain sRGB.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--force-color-profile=srgb")


def missing():
    """Why the browser cannot run here (one line), or None when it can."""
    if not os.access(CHROMIUM, os.X_OK):
        return "no Chromium at %s (apt-get install chromium, or set CHROMIUM)" % CHROMIUM
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (make setup)"
    return None


def version():
    """The Chromium version line, e.g. "Chromium 150.0.7871.100 built on Debian ..."."""
    try:
        done = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        return "unknown (%s)" % error
    return done.stdout.strip() or "unknown"


@contextlib.contextmanager
def launch():
    """A headless Chromium (a Playwright ``Browser``), closed afterwards. Playwright starts it
    with a fresh temporary profile (its own --user-data-dir) every time."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=list(FLAGS))
        try:
            yield browser
        finally:
            browser.close()
