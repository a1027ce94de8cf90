"""The browser edition in headless Chromium: page weight, time to the first frame, frames per
second while a computer thinks, and time per move of each level, in the page.

``python -m bench web`` builds the page, serves it on 127.0.0.1 and drives Debian's Chromium
(web/browser.py). Wall times depend on the machine and on what else runs on it.

- Page weight: the bytes of every response the page loads (Resource Timing's encodedBodySize,
  no compression from this server), and what gzip -9 makes of the same files (what a host that
  compresses, like GitHub Pages, would send).
- First frame: ms from the start of navigation to the App's first frame on the canvas, and to
  the first status in the side panel (the words replacing "Loading the game…"), over fresh loads
  (each in a new browser context: nothing cached), with the part spent loading the interpreter
  and importing rolit_core. These are CPU-bound: on a shared machine they grow with its load,
  so the machine's load average and core count are printed before and after.
- Per level, a game of that level against itself on 8x8 (the first MOVES moves): per computer
  move, the wall time from its first thinking frame to its last (at least THINK_MIN_MS, 400 ms:
  the App shows "thinking" that long), the Python time spent in those frames, the search nodes,
  and the frame rate over the thinking frames.
"""

import gzip
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOADS = 5
MOVES = 16
LEVELS = ("easy", "medium", "hard", "expert")


def page_files(build):
    """The files the page loads (rolit.html, the one-file copy, apart)."""
    return list(build.PAGE_FILES) + ["sources.js"] + list(build.INTERPRETER)


def gzip_size(path):
    with open(path, "rb") as handle:
        return len(gzip.compress(handle.read(), 9))


def first_frames(chromium, base):
    runs = []
    weight = None
    for _ in range(LOADS):
        context = chromium.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(base)
        page.wait_for_function("window.rolit && window.rolit.stats.firstFrame !== null",
                               timeout=60000)
        stats = page.evaluate("window.rolit.stats")
        weight = page.evaluate(
            "performance.getEntriesByType('navigation').concat(performance.getEntriesByType"
            "('resource')).reduce((sum, e) => sum + (e.encodedBodySize || 0), 0)")
        runs.append((stats["firstFrame"], stats["interpreterMs"], stats["importMs"],
                     stats["firstStatus"]))
        context.close()
    return runs, weight


def machine_load():
    """The load averages (1, 5, 15 minutes) and the cores, in words."""
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "load average unknown, %d cores" % os.cpu_count()
    return "load average %.2f, %.2f, %.2f (1, 5, 15 min) on %d cores" % (one, five, fifteen,
                                                                        os.cpu_count())


def level_game(chromium, base, level):
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(base + "?seed=1#players=%s,%s" % (level, level))
    page.wait_for_function(
        "([n]) => window.rolit.stats.moves.length >= n || (window.rolit.info() && "
        "window.rolit.info().game && window.rolit.info().game.over)", arg=[MOVES],
        timeout=30 * 60 * 1000, polling=500)
    stats = page.evaluate("window.rolit.stats")
    context.close()
    moves = stats["moves"][:MOVES]
    log = stats["log"]
    gaps = [b[0] - a[0] for a, b in zip(log, log[1:]) if a[2] and b[2]]
    fps = 1000 * len(gaps) / sum(gaps) if gaps else float("nan")
    return moves, fps


def main():
    sys.path.insert(0, ROOT)
    from web import browser, build
    from web.serve import serve_in_background

    reason = browser.missing()
    if reason:
        print("skipped: %s" % reason)
        return
    folder = build.build(os.path.join(ROOT, "build", "web-bench"))
    server, base = serve_in_background(folder)
    try:
        print(browser.version())
        print("machine before: %s" % machine_load())
        files = page_files(build)
        raw = sum(os.path.getsize(os.path.join(folder, name)) for name in files)
        packed = sum(gzip_size(os.path.join(folder, name)) for name in files)
        wasm = os.path.getsize(os.path.join(folder, "micropython.wasm"))
        single = os.path.getsize(os.path.join(folder, "rolit.html"))
        with browser.launch() as chromium:
            runs, weight = first_frames(chromium, base)
            print("page weight: %d bytes loaded by the page (%d in its %d files; %d of them the "
                  "interpreter's wasm), %d with gzip -9; rolit.html (one file) %d bytes"
                  % (weight, raw, len(files), wasm, packed, single))
            first = [r[0] for r in runs]
            print("first frame: median %.0f ms (%.0f-%.0f) after navigation, over %d fresh loads;"
                  " of it loading the interpreter %.0f ms, importing rolit_core and making the App"
                  " %.0f ms"
                  % (statistics.median(first), min(first), max(first), len(runs),
                     statistics.median([r[1] for r in runs]),
                     statistics.median([r[2] for r in runs])))
            status = [r[3] for r in runs]
            print("first status: median %.0f ms (%.0f-%.0f) after navigation"
                  % (statistics.median(status), min(status), max(status)))
            print("machine after the loads: %s" % machine_load())
            for level in LEVELS:
                moves, fps = level_game(chromium, base, level)
                wall = [m["ms"] for m in moves]
                compute = [m["computeMs"] for m in moves]
                nodes = [m["nodes"] for m in moves]
                print("%-6s %2d moves: %4.0f ms a move (max %4.0f) from first to last thinking "
                      "frame; Python %5.0f ms a move (max %5.0f); %5.0f nodes a move; %4.1f fps "
                      "while thinking" % (level, len(moves), statistics.mean(wall), max(wall),
                                          statistics.mean(compute), max(compute),
                                          statistics.mean(nodes), fps))
            print("machine after the games: %s" % machine_load())
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
