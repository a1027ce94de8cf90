"""Put the game on a CircuitPython board (or into any folder).

    python -m sim.deploy PATH [--preset pico|pico_w|feather_rp2040|blinka_pi] [--dry-run]
    make deploy DEST=PATH

PATH is the mounted CIRCUITPY drive (``/media/$USER/CIRCUITPY``, ``/Volumes/CIRCUITPY``, ``E:\\``)
or any folder. Copied: ``code.py``, the ``rolit_core/`` and ``hardware/`` packages (Python files
only), a starter ``settings.toml`` for the preset (never over an existing one: a file without any
``ROLIT_`` line gets the starter appended, one with them is left alone), and into ``PATH/lib/`` the
CircuitPython libraries the game needs, taken from the pinned pip packages installed with
``make setup`` (nothing of theirs is kept in this repository). Files that are already identical
are not written again (every write to CIRCUITPY restarts the board); stale ``.py``/``.mpy`` files
in the game's own folders are removed. ``--dry-run`` only prints what would be done.

Libraries built into CircuitPython (``adafruit_pixelbuf``, ``keypad``, ``analogio``, ``pwmio``,
``microcontroller``, ``supervisor``) are not copied. The other route, with compiled ``.mpy``
files matched to the board's CircuitPython version: ``pip install circup`` then
``circup install neopixel``.
"""

import argparse
import importlib.metadata
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("rolit_core", "hardware")
PRESETS = ("pico", "pico_w", "feather_rp2040", "blinka_pi")
# Pip distribution -> the modules of it the device imports (lib/ on the board).
LIBRARIES = (("adafruit-circuitpython-neopixel", ("neopixel.py",)),)
RUN_FIRST = ("code.txt",)  # CircuitPython runs these instead of code.py if present


class DeployError(Exception):
    """Something that stops the deploy (no such folder, a library not installed)."""


def _read(path):
    with open(path, "rb") as handle:
        return handle.read()


def _same(path, data):
    try:
        return _read(path) == data
    except OSError:
        return False


def library_files():
    """``(distribution, version, file name, source path)`` for every library the device needs,
    from the installed (pinned) pip packages."""
    found = []
    for dist_name, names in LIBRARIES:
        try:
            dist = importlib.metadata.distribution(dist_name)
        except importlib.metadata.PackageNotFoundError:
            raise DeployError("%s is not installed: run `make setup` first" % dist_name)
        files = {}
        for entry in dist.files or ():
            files[str(entry)] = entry
        for name in names:
            if name not in files:
                raise DeployError("%s %s has no %s" % (dist_name, dist.version, name))
            found.append((dist_name, dist.version, name, str(files[name].locate())))
    return found


def _sources(package):
    """The Python files of one of our packages: (relative path, absolute path)."""
    base = os.path.join(ROOT, package)
    found = []
    for name in sorted(os.listdir(base)):
        if name.endswith(".py"):
            found.append((package + "/" + name, os.path.join(base, name)))
    return found


def plan(dest, preset="pico"):
    """The actions that deploy to ``dest``: a list of ``(action, target path, data, note)``
    with action ``"write"``, ``"same"``, ``"keep"``, ``"append"``, ``"remove"`` or ``"warn"``."""
    if preset not in PRESETS:
        raise DeployError("unknown preset %r (use %s)" % (preset, ", ".join(PRESETS)))
    if not os.path.isdir(dest):
        parent = os.path.dirname(os.path.abspath(dest))
        if not os.path.isdir(parent):
            raise DeployError("%s does not exist (is the CIRCUITPY drive mounted?)" % dest)
    actions = []

    def put(relative, data, note=""):
        target = os.path.join(dest, relative)
        actions.append(("same" if _same(target, data) else "write", target, data, note))

    put("code.py", _read(os.path.join(ROOT, "code.py")))
    for package in PACKAGES:
        wanted = set()
        for relative, source in _sources(package):
            wanted.add(os.path.basename(relative))
            put(relative, _read(source))
        folder = os.path.join(dest, package)
        if os.path.isdir(folder):
            for name in sorted(os.listdir(folder)):
                if (name.endswith(".py") or name.endswith(".mpy")) and name not in wanted:
                    actions.append(("remove", os.path.join(folder, name), None, "stale"))
    for dist_name, version, name, source in library_files():
        put("lib/" + name, _read(source), "%s %s" % (dist_name, version))

    starter = _read(os.path.join(ROOT, "hardware", "settings", preset + ".toml"))
    settings = os.path.join(dest, "settings.toml")
    if os.path.exists(settings):
        text = _read(settings)
        if b"ROLIT_" in text:
            actions.append(("keep", settings, None, "yours: left as it is"))
        else:
            joined = text if not text or text.endswith(b"\n") else text + b"\n"
            actions.append(("append", settings, joined + b"\n" + starter,
                            "adds the %s settings after yours" % preset))
    else:
        actions.append(("write", settings, starter, "starter for %s" % preset))

    for name in RUN_FIRST:
        if os.path.exists(os.path.join(dest, name)):
            actions.append(("warn", os.path.join(dest, name), None,
                            "CircuitPython runs %s instead of code.py: rename or delete it" % name))
    version = circuitpython_version(dest)
    if version is not None and version < (8, 0):
        actions.append(("warn", os.path.join(dest, "boot_out.txt"), None,
                        "CircuitPython %d.%d is too old: settings.toml needs 8.0 or later"
                        % version))
    return actions


def circuitpython_version(dest):
    """(major, minor) from the board's boot_out.txt, or None."""
    try:
        first = _read(os.path.join(dest, "boot_out.txt")).split(b"\n")[0].decode()
    except (OSError, UnicodeError):
        return None
    marker = "CircuitPython "
    at = first.find(marker)
    if at < 0:
        return None
    parts = first[at + len(marker):].split(" ")[0].split(".")
    try:
        return int(parts[0]), int(parts[1])
    except (ValueError, IndexError):
        return None


def apply(actions):
    """Carry out a plan; returns the number of bytes written."""
    written = 0
    for action, target, data, _ in actions:
        if action in ("write", "append"):
            folder = os.path.dirname(target)
            if not os.path.isdir(folder):
                os.makedirs(folder)
            with open(target, "wb") as handle:
                handle.write(data)
            written += len(data)
        elif action == "remove":
            os.remove(target)
    if written:
        try:
            os.sync()  # CIRCUITPY is FAT: flush before anyone unplugs the board
        except AttributeError:
            pass
    return written


def describe(actions, dest):
    lines = []
    for action, target, data, note in actions:
        relative = os.path.relpath(target, dest)
        size = "" if data is None else " (%d bytes)" % len(data)
        lines.append("%-7s %s%s%s" % (action, relative, size, "  - " + note if note else ""))
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sim.deploy",
                                     description="Copy Rolit Handheld onto a CircuitPython drive.")
    parser.add_argument("path", help="the mounted CIRCUITPY drive, or any folder")
    parser.add_argument("--preset", default="pico", choices=PRESETS,
                        help="board for a new settings.toml (default: pico)")
    parser.add_argument("--dry-run", action="store_true", help="only list what would be done")
    args = parser.parse_args(argv)
    try:
        actions = plan(args.path, args.preset)
    except DeployError as error:
        print("deploy: %s" % error, file=sys.stderr)
        return 1
    for line in describe(actions, args.path):
        print(line)
    changes = [a for a in actions if a[0] in ("write", "append", "remove")]
    if args.dry_run:
        print("dry run: %d change(s) not made" % len(changes))
        return 0
    written = apply(actions)
    print("done: %d change(s), %d bytes written to %s" % (len(changes), written, args.path))
    if changes:
        print("The board restarts by itself; open the serial console (e.g. `tio /dev/ttyACM0`)"
              " to see the game log.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
