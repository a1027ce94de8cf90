"""Serve a built page folder on 127.0.0.1: ``python web/serve.py [FOLDER] [PORT]``.

A plain static server (the page needs nothing else), with the types browsers insist on for ES
modules and WebAssembly, and no caching, so a rebuilt page is what the next reload shows.
"""

import functools
import http.server
import os
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_FOLDER = os.path.join(os.path.dirname(HERE), "build", "web")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".wasm": "application/wasm", ".png": "image/png", ".txt": "text/plain; charset=utf-8"}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES)

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    verbose = True


def serve(folder=DEFAULT_FOLDER, port=8000, verbose=True):
    """A server for ``folder`` on 127.0.0.1 (``port`` 0 picks a free one), not yet running."""
    handler = functools.partial(Handler, directory=folder)
    server = Server(("127.0.0.1", port), handler)
    server.verbose = verbose
    return server


def serve_in_background(folder, verbose=False):
    """Start serving ``folder`` on a free port in a thread; returns (server, base URL)."""
    server = serve(folder, 0, verbose)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, "http://127.0.0.1:%d/" % server.server_address[1]


def main(argv):
    folder = argv[0] if argv else DEFAULT_FOLDER
    port = int(argv[1]) if len(argv) > 1 else 8000
    if not os.path.exists(os.path.join(folder, "index.html")):
        print("no page in %s: build it first (make web)" % folder, file=sys.stderr)
        return 1
    server = serve(folder, port)
    print("Rolit in the browser: http://127.0.0.1:%d/  (Ctrl+C stops)" % port, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
