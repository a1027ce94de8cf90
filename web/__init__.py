"""The browser edition: the page (HTML, CSS, ES modules), its Python side (page.py), the build
(build.py), a static server (serve.py) and the headless Chromium the tests and figures use
(browser.py). docs/web.md describes it."""
