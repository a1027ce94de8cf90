"""Build the browser edition into a folder: ``python web/build.py [OUT]`` (default build/web).

The folder holds the page (index.html, style.css, the ES modules), the pinned MicroPython
WebAssembly interpreter from node_modules, and sources.js: the ``rolit_core`` sources of this
checkout and its opening book (``rolit_core/book.bin``, base64), the two small modules it shares with the simulator window (sim/clicks.py, sim/howto.py)
and the page's Python side (web/page.py), which the page copies into the interpreter's
file system. Nothing is fetched from anywhere else, so the folder works from any static host.

It also writes rolit.html, the same page in one file (modules, interpreter and sources inlined
as data: URLs), for browsers that refuse ES modules from ``file://`` (Chromium does).
"""

import base64
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PACKAGE = os.path.join(ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript")
PAGE_FILES = ("index.html", "style.css", "main.js", "panel.js", "input.js", "words.js", "link.js",
              "net.js")
MODULES = ("panel.js", "input.js", "words.js", "link.js", "net.js", "sources.js", "micropython.mjs")
INTERPRETER = ("micropython.mjs", "micropython.wasm")
# Every name a build writes in its folder.
BUILT = PAGE_FILES + INTERPRETER + ("sources.js", "rolit.html")
# rolit_core's data files, the same as the device's (sim/deploy.py DATA_FILES): the opening book.
DATA_FILES = ("rolit_core/book.bin",)
# What the page's Python shares with the simulator window (clicks on the board, the how-to).
SIM_FILES = ("__init__.py", "clicks.py", "howto.py")


class BuildError(Exception):
    """Something the build needs is missing."""


def python_sources():
    """{path in the interpreter's file system: text} for rolit_core and the page's glue."""
    sources = {}
    core = os.path.join(ROOT, "rolit_core")
    for name in sorted(os.listdir(core)):
        if name.endswith(".py"):
            with open(os.path.join(core, name), encoding="utf-8") as handle:
                sources["rolit_core/" + name] = handle.read()
    if "rolit_core/app.py" not in sources:
        raise BuildError("no rolit_core/app.py in %s" % ROOT)
    for name in SIM_FILES:
        with open(os.path.join(ROOT, "sim", name), encoding="utf-8") as handle:
            sources["sim/" + name] = handle.read()
    with open(os.path.join(HERE, "page.py"), encoding="utf-8") as handle:
        sources["page.py"] = handle.read()
    return sources


def data_files():
    """{path in the interpreter's file system: base64 text} for the data files of rolit_core
    that the device gets too (the opening book, sim.deploy.DATA_FILES)."""
    found = {}
    for relative in DATA_FILES:
        path = os.path.join(ROOT, *relative.split("/"))
        if os.path.isfile(path):
            found[relative] = base64.b64encode(_read(path, True)).decode("ascii")
    return found


def sources_module(sources, data=None):
    """sources.js: the Python sources (and the data files, base64) as one ES module."""
    lines = ["// Made by web/build.py: the Python the page copies into MicroPython's file system.",
             "export const SOURCES = %s;" % json.dumps(sources, indent=0, sort_keys=True),
             "export const DATA = %s;" % json.dumps(data or {}, indent=0, sort_keys=True), ""]
    return "\n".join(lines)


def _read(path, binary=False):
    with open(path, "rb" if binary else "r", **({} if binary else {"encoding": "utf-8"})) as f:
        return f.read()


def _data_url(kind, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    return "data:%s;base64,%s" % (kind, base64.b64encode(data).decode("ascii"))


def single_file(out):
    """rolit.html: index.html with the style, the modules and the interpreter inside it."""
    html = _read(os.path.join(out, "index.html"))
    css = _read(os.path.join(out, "style.css"))
    imports = {"./" + name: _data_url("text/javascript", _read(os.path.join(out, name)))
               for name in MODULES}
    wasm = _data_url("application/wasm", _read(os.path.join(out, "micropython.wasm"), True))
    head = ('<style>\n%s</style>\n<script type="importmap">%s</script>\n'
            '<script>window.ROLIT_WASM = "%s";</script>\n'
            % (css, json.dumps({"imports": imports}), wasm))
    link = '<link rel="stylesheet" href="style.css">'
    script = '<script type="module" src="main.js"></script>'
    if link not in html or script not in html:
        raise BuildError("index.html lacks the stylesheet link or the main.js script tag")
    main = _read(os.path.join(out, "main.js"))
    html = html.replace(link, head).replace(
        script, '<script type="module">\n%s</script>' % main.replace("</script", "<\\/script"))
    return html


def build(out=None):
    """Write the page into ``out`` (default build/web); returns the folder."""
    out = out or os.path.join(ROOT, "build", "web")
    for name in INTERPRETER:
        if not os.path.exists(os.path.join(PACKAGE, name)):
            raise BuildError("%s is missing: run `make setup` (npm ci) first" % name)
    if os.path.isdir(out):
        # Only an earlier build is replaced: `python web/build.py ~/Documents` must not
        # delete a folder of someone's files.
        foreign = sorted(set(os.listdir(out)) - set(BUILT))
        if foreign:
            raise BuildError("%s is not a build of the page (it holds %s): left untouched, "
                             "give a new folder" % (out, ", ".join(foreign[:3])))
        shutil.rmtree(out)
    elif os.path.lexists(out):
        raise BuildError("%s is a file, not a folder: left untouched" % out)
    os.makedirs(out)
    for name in PAGE_FILES:
        shutil.copyfile(os.path.join(HERE, name), os.path.join(out, name))
    for name in INTERPRETER:
        shutil.copyfile(os.path.join(PACKAGE, name), os.path.join(out, name))
    with open(os.path.join(out, "sources.js"), "w", encoding="utf-8") as handle:
        handle.write(sources_module(python_sources(), data_files()))
    with open(os.path.join(out, "rolit.html"), "w", encoding="utf-8") as handle:
        handle.write(single_file(out))
    return out


def main(argv):
    try:
        out = build(argv[0] if argv else None)
    except BuildError as error:
        print("web build: %s" % error, file=sys.stderr)
        return 1
    print("built %s" % os.path.relpath(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
