"""Put the game on a CircuitPython board (or into any folder).

    python -m sim.deploy PATH [--preset pico|pico_w|feather_rp2040|blinka_pi] [--dry-run]
    make deploy DEST=PATH

PATH is the mounted CIRCUITPY drive (``/media/$USER/CIRCUITPY``, ``/Volumes/CIRCUITPY``, ``E:\\``)
or any folder. Copied: ``code.py``, the ``rolit_core/`` and ``hardware/`` packages (Python files
only), a starter ``settings.toml`` for the preset (never over an existing one: a file without any
``ROLIT_`` line gets the starter appended, one with them is left alone), and into ``PATH/lib/`` the
CircuitPython libraries the game needs, taken from the pinned pip packages installed with
``make setup`` (nothing of theirs is kept in this repository). Files that are already identical
are not written again (every write to CIRCUITPY restarts the board).

The drive is the user's: the deploy never writes through a link nor outside PATH, and never
deletes a file it did not write. What it wrote is listed, with a checksum, in ``PATH/`` +
``MANIFEST``; a later deploy removes a file of that list the game no longer has only if it is
unchanged. Every file is written to a temporary name and renamed over the old one, so a write
that fails (a full drive, an unplugged board) leaves the last good copy. Everything is checked
before the first write, and ``--dry-run`` runs the same checks: a problem is one line on stderr
and exit status 1, with nothing written.

Libraries built into CircuitPython (``adafruit_pixelbuf``, ``keypad``, ``analogio``, ``pwmio``,
``microcontroller``, ``supervisor``) are not copied. The other route, with compiled ``.mpy``
files matched to the board's CircuitPython version: ``pip install circup`` then
``circup install neopixel``.
"""

import argparse
import hashlib
import importlib.metadata
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("rolit_core", "hardware")
PRESETS = ("pico", "pico_w", "feather_rp2040", "blinka_pi")
# Pip distribution -> the modules of it the device imports (lib/ on the board).
LIBRARIES = (("adafruit-circuitpython-neopixel", ("neopixel.py",)),)
RUN_FIRST = ("code.txt",)  # CircuitPython runs these instead of code.py if present
MANIFEST = ".rolit-deploy"  # what the deploy wrote: "sha256 relative/path" per line
TEMPORARY = ".deploy-tmp"  # suffix of a file being written


class DeployError(Exception):
    """Something that stops the deploy (no such folder, a library not installed, a link)."""


def _read(path):
    with open(path, "rb") as handle:
        return handle.read()


def _same(path, data):
    try:
        return _read(path) == data
    except OSError:
        return False


def _digest(data):
    return hashlib.sha256(data).hexdigest()


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


def read_manifest(dest):
    """``{relative path: sha256}`` of the files an earlier deploy wrote (empty if none)."""
    path = os.path.join(dest, MANIFEST)
    if os.path.islink(path) or os.path.isdir(path):
        raise DeployError("%s is not the deploy's own list (a link or a folder): move it away"
                          % path)
    try:
        text = _read(path).decode("utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeError) as error:
        raise DeployError("cannot read %s: %s" % (path, error))
    found = {}
    for line in text.splitlines():
        digest, _, relative = line.strip().partition(" ")
        if len(digest) == 64 and relative and not line.startswith("#"):
            found[relative] = digest
    return found


def _check_place(dest, relative, folder=False):
    """Refuse a target that is, or lies under, a link, or that is the wrong kind of entry
    (a folder where a file goes, or a file where a folder goes)."""
    parts = relative.split("/")
    path = dest
    for i, part in enumerate(parts):
        path = os.path.join(path, part)
        last = i == len(parts) - 1
        if os.path.islink(path):
            raise DeployError("%s is a link (to %s): the deploy never writes through links; "
                              "remove it first" % (path, os.readlink(path)))
        if not os.path.exists(path):
            return
        if (not last or folder) and not os.path.isdir(path):
            raise DeployError("%s is a file, but the game needs a folder there: move it away"
                              % path)
        if last and not folder and os.path.isdir(path):
            raise DeployError("%s is a folder, but the game needs a file there: move it away"
                              % path)
        if last and not folder and not os.path.isfile(path):
            raise DeployError("%s is not a regular file (a device, a pipe...): move it away"
                              % path)


def _inside(relative):
    """Whether a manifest's path names a place inside DEST (a hand-edited or foreign manifest
    must not make the deploy delete anything elsewhere)."""
    parts = relative.split("/")
    return not (os.path.isabs(relative) or "\\" in relative or ":" in relative
                or any([part in ("", ".", "..") for part in parts]))


def _check_dest(dest):
    if os.path.exists(dest) and not os.path.isdir(dest):
        raise DeployError("%s is a file, not a folder or a CIRCUITPY drive" % dest)
    if os.path.isdir(dest):
        if not os.access(dest, os.W_OK | os.X_OK):
            raise DeployError("%s is read-only (a drive mounted read-only, or a boot.py that "
                              "keeps CIRCUITPY for the board)" % dest)
        return
    parent = os.path.dirname(os.path.abspath(dest))
    if not os.path.isdir(parent):
        raise DeployError("%s does not exist (is the CIRCUITPY drive mounted?)" % dest)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise DeployError("cannot create %s: %s is read-only" % (dest, parent))


def plan(dest, preset="pico"):
    """The actions that deploy to ``dest``: a list of ``(action, target path, data, note)``
    with action ``"write"``, ``"same"``, ``"keep"``, ``"append"``, ``"remove"`` or ``"warn"``.
    Raises ``DeployError`` for anything that would make the deploy fail or harm the drive."""
    if preset not in PRESETS:
        raise DeployError("unknown preset %r (use %s)" % (preset, ", ".join(PRESETS)))
    _check_dest(dest)
    for folder in ("lib",) + PACKAGES:
        _check_place(dest, folder, folder=True)
    manifest = read_manifest(dest)
    actions = []
    wanted = set()

    def put(relative, data, note=""):
        _check_place(dest, relative)
        wanted.add(relative)
        target = os.path.join(dest, relative)
        actions.append(("same" if _same(target, data) else "write", target, data, note))

    put("code.py", _read(os.path.join(ROOT, "code.py")))
    for package in PACKAGES:
        for relative, source in _sources(package):
            put(relative, _read(source))
    for dist_name, version, name, source in library_files():
        put("lib/" + name, _read(source), "%s %s" % (dist_name, version))
    if preset == "blinka_pi":
        for relative, data, note in blinka_pi_files(dest):
            put(relative, data, note)
    # What an earlier deploy wrote and the game no longer has: removed if unchanged.
    for relative in sorted(manifest):
        if relative in wanted or not _inside(relative):
            continue
        path = os.path.join(dest, relative)
        try:
            _check_place(dest, relative)
        except DeployError:
            actions.append(("keep", path, None, "a link or a folder now: left as it is"))
            continue
        if not os.path.isfile(path):
            continue  # already gone
        if _digest(_read(path)) != manifest[relative]:
            actions.append(("keep", path, None, "changed since the deploy wrote it: left as "
                            "it is"))
        else:
            actions.append(("remove", path, None, "stale: the game no longer has it"))
    # Modules in the game's folders that the deploy never wrote: the user's, never deleted.
    for package in PACKAGES:
        folder = os.path.join(dest, package)
        if os.path.isdir(folder):
            for name in sorted(os.listdir(folder)):
                relative = package + "/" + name
                if (name.endswith(".py") or name.endswith(".mpy")) and \
                        relative not in wanted and relative not in manifest:
                    actions.append(("keep", os.path.join(folder, name), None,
                                    "not written by the deploy: left as it is (delete it if it "
                                    "is an old copy of the game's)"))

    _check_place(dest, "settings.toml")
    starter = _read(os.path.join(ROOT, "hardware", "settings", preset + ".toml"))
    settings = os.path.join(dest, "settings.toml")
    if os.path.exists(settings):
        try:
            text = _read(settings)
        except OSError as error:
            raise DeployError("cannot read %s: %s" % (settings, error.strerror or error))
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
    for action, target, _, _ in actions:
        if action in ("write", "append"):
            _check_place(dest, os.path.relpath(target, dest).replace(os.sep, "/") + TEMPORARY)
    _check_place(dest, MANIFEST)
    return actions


def blinka_pi_files(dest):
    """The Raspberry Pi's own files for ``--preset blinka_pi``: ``(relative path, data, note)``
    for the systemd unit ``rolit-handheld.service``, which starts the game in ``dest`` at boot
    and after a crash; its note lists the commands that install it (docs/hardware.md)."""
    folder = os.path.abspath(dest)
    for char in " \t\n\"'\\%$;":
        if char in folder:
            raise DeployError("a systemd unit cannot run the game from %r (it has %r): deploy "
                              "to a plain folder such as ~/rolit" % (folder, char))
    unit = _read(os.path.join(ROOT, "hardware", "systemd", "rolit-handheld.service"))
    pins = []
    for name in ("Adafruit-Blinka", "adafruit-circuitpython-neopixel",
                 "adafruit-circuitpython-pixelbuf"):
        try:
            pins.append("%s==%s" % (name, importlib.metadata.version(name)))
        except importlib.metadata.PackageNotFoundError:
            raise DeployError("%s is not installed: run `make setup` first" % name)
    # What Blinka asks for on a Pi (adafruit_blinka/platform_dependencies.py).
    pi = '"gpiod>=2.2.2,<3" "Adafruit-Blinka-Raspberry-Pi-PWM>=1.0.2"'
    steps = ("the systemd unit; on the Pi, once (docs/hardware.md):",
             "python3 -m venv %s/.venv" % folder,
             "%s/.venv/bin/pip install %s %s" % (folder, " ".join(pins), pi),
             "%s/.venv/bin/pip install \"rpi_ws281x>=4.0.0\"    # Pi 1-4" % folder,
             "%s/.venv/bin/pip install Adafruit-Blinka-Raspberry-Pi5-Neopixel    # Pi 5" % folder,
             "sudo cp %s/rolit-handheld.service /etc/systemd/system/" % folder,
             "sudo systemctl daemon-reload && sudo systemctl enable --now rolit-handheld",
             "stop it: sudo systemctl stop rolit-handheld; its log: journalctl -u "
             "rolit-handheld -f")
    return [("rolit-handheld.service", unit.replace(b"{folder}", folder.encode()),
             "\n          ".join(steps))]


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


def _write(target, data):
    """``data`` into ``target`` through a temporary file renamed over it: a failed write
    leaves the old file as it was. Never follows a link."""
    temporary = target + TEMPORARY
    if os.path.lexists(temporary):
        os.remove(temporary)  # left by an interrupted deploy (a link is removed, not followed)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | \
        getattr(os, "O_BINARY", 0)
    handle = os.open(temporary, flags, 0o644)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException:
        try:
            os.remove(temporary)
        except OSError:
            pass
        raise


def apply(actions, dest=None):
    """Carry out a plan; returns the number of bytes written. With ``dest``, the manifest of
    what the deploy wrote is kept in ``dest`` (the files of this plan that are the game's)."""
    written = 0
    for action, target, data, _ in actions:
        try:
            if action in ("write", "append"):
                folder = os.path.dirname(target)
                if not os.path.isdir(folder):
                    os.makedirs(folder)
                _write(target, data)
                written += len(data)
            elif action == "remove":
                os.remove(target)
        except OSError as error:
            raise DeployError("cannot %s %s: %s" % ("remove" if action == "remove" else "write",
                                                    target, error.strerror or error))
    if dest is not None:
        lines = ["# Files python -m sim.deploy wrote (Rolit Handheld); it removes only these,"
                 " and only unchanged."]
        for action, target, data, _ in actions:
            relative = os.path.relpath(target, dest).replace(os.sep, "/")
            if action in ("write", "same") and relative != "settings.toml":
                lines.append("%s %s" % (_digest(data), relative))
        text = ("\n".join(lines) + "\n").encode()
        if not _same(os.path.join(dest, MANIFEST), text):
            try:
                _write(os.path.join(dest, MANIFEST), text)
            except OSError as error:
                raise DeployError("cannot write %s: %s" % (os.path.join(dest, MANIFEST),
                                                           error.strerror or error))
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


class _Parser(argparse.ArgumentParser):
    """Argument errors in one line (argparse's default puts the whole usage before it)."""

    def error(self, message):
        self.exit(2, "%s: error: %s (--help lists the options)\n" % (self.prog, message))


def main(argv=None):
    parser = _Parser(prog="python -m sim.deploy",
                     description="Copy Rolit Handheld onto a CircuitPython drive.")
    parser.add_argument("path", help="the mounted CIRCUITPY drive, or any folder")
    parser.add_argument("--preset", default="pico", choices=PRESETS,
                        help="board for a new settings.toml (default: pico)")
    parser.add_argument("--dry-run", action="store_true", help="only list what would be done")
    args = parser.parse_args(argv)
    try:
        actions = plan(args.path, args.preset)
        for line in describe(actions, args.path):
            print(line)
        changes = [a for a in actions if a[0] in ("write", "append", "remove")]
        if args.dry_run:
            print("dry run: %d change(s) not made" % len(changes))
            return 0
        written = apply(actions, args.path)
    except DeployError as error:
        print("deploy: %s" % error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C: every file is whole (old or new), no traceback
        print("\ndeploy: stopped; run it again to finish", file=sys.stderr)
        return 130
    print("done: %d change(s), %d bytes written to %s" % (len(changes), written, args.path))
    if changes:
        print("The board restarts by itself; open the serial console (e.g. `tio /dev/ttyACM0`)"
              " to see the game log.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
