"""Put the game on a CircuitPython board (or into any folder).

    python -m sim.deploy PATH [--preset pico|pico_w|feather_rp2040|blinka_pi] [--dry-run]
                              [--mpy-cross MPY_CROSS] [--usb-link]
    make deploy DEST=PATH [ARGS=...] [MPY_CROSS=PATH]

PATH is the mounted CIRCUITPY drive (``/media/$USER/CIRCUITPY``, ``/Volumes/CIRCUITPY``, ``E:\\``)
or any folder. Copied: ``code.py``, the ``rolit_core/`` and ``hardware/`` packages (Python
files, and the opening book ``rolit_core/book.bin``), a starter ``settings.toml`` for the preset
(never over an existing one: a file without any ``ROLIT_`` line gets the starter appended, one
with them is left alone), and into ``PATH/lib/`` the
CircuitPython libraries the game needs, taken from the pinned pip packages installed with
``make setup`` (nothing of theirs is kept in this repository). Files that are already identical
are not written again (every write to CIRCUITPY restarts the board).

With ``--usb-link`` it also writes a ``boot.py`` that enables the USB data channel
(``usb_cdc.enable(console=True, data=True)``: a second serial port the game links over when
settings.toml names no link pins, docs/network.md); a deploy without the flag removes that
``boot.py`` if unchanged. A ``boot.py`` of the user's is kept as every file of the user's is.

With ``--mpy-cross PATH`` (or ``$MPY_CROSS``) every module but ``code.py``, the libraries in
``lib/`` too, is compiled to ``.mpy`` by CircuitPython's own mpy-cross, which must be of the
board's major version (read from the drive's ``boot_out.txt``; a mismatch is refused). Adafruit
publishes it per CircuitPython version, for Linux, macOS and Windows, at
:data:`MPY_CROSS_DOWNLOADS`.
CircuitPython imports ``X.py`` before ``X.mpy``, so a compiled deploy removes the ``.py`` of each
module it compiles (a source deploy removes the ``.mpy`` files it wrote in the same way): switching
between the two kinds works both ways.

The drive is the user's. The deploy never writes through a link nor outside PATH, never deletes
a file it did not write, and never writes over one (but for adding its lines after the user's in
``settings.toml``, as above): what it wrote is listed, with a checksum, in
``PATH/`` + ``MANIFEST``, and a file in its way that is not listed there with the checksum it has
now (the user's own ``code.py``, a module edited on the board) is kept under a free name beside
it, ``code-before-rolit.py``, ``app-before-rolit.py``, ``...-before-rolit-2.py``: said in the
output and in the dry run, and never refused, so that a deploy needs no extra flag and loses
nothing. CircuitPython's stock ``code.py`` (``print("Hello World!")``) is replaced. A file the
deploy wrote and the game no longer has is removed only if it is unchanged.

Everything is checked before the first write, and ``--dry-run`` runs the same checks: the
destination, links, folders, the room on the drive, the compiler. A problem is one line on stderr
and exit status 1, with nothing written. The room needed counts the allocation unit of the drive
(512-byte clusters on CIRCUITPY), the new copy of each file while the old one still exists, the
folders' entries, and the manifest.

The order of the writes keeps the drive booting the game it had until the new one is whole:
first every new file is written in full under a temporary name beside its place, with the old
files untouched; a failure then (a full drive, an unplugged board) removes the temporary files
and leaves the old game as it was. Then each one is renamed into place (kept files moved aside
just before), the files to remove go, and ``code.py`` comes last. A deploy stopped during the
renames says so; running it again finishes it, because the manifest lists the new files before the
first rename.
"""

import argparse
import hashlib
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("rolit_core", "hardware")
# Data files of the packages, copied as they are (never compiled): the opening book.
DATA_FILES = ("rolit_core/book.bin",)
PRESETS = ("pico", "pico_w", "feather_rp2040", "blinka_pi")
# Pip distribution -> the modules of it the device imports (lib/ on the board).
LIBRARIES = (("adafruit-circuitpython-neopixel", ("neopixel.py",)),)
RUN_FIRST = ("code.txt",)  # CircuitPython runs these instead of code.py if present
MANIFEST = ".rolit-deploy"  # what the deploy wrote: "sha256 relative/path" per line
MANIFEST_HEADER = "# Files python -m sim.deploy wrote (Rolit Handheld)"
MANIFEST_LIMIT = 1 << 20  # bytes: the deploy's list is a few KB
TEMPORARY = ".deploy-tmp"  # suffix of a file being written
KEPT = "-before-rolit"  # inserted before the extension of a user's file moved aside
# What CircuitPython writes into a fresh drive's code.py (an empty file on small builds).
STOCK_CODE = (b"", b'print("Hello World!")', b'print("Hello World!")\n',
              b'print("Hello World!")\r\n')
MPY_CROSS_DOWNLOADS = ("https://adafruit-circuit-python.s3.amazonaws.com/index.html"
                       "?prefix=bin/mpy-cross/")
AUTOMOUNT_ROOTS = ("/media", "/run/media", "/Volumes")
# boot.py for --usb-link: CircuitPython runs it once at power-on or reset (not on the reload
# after a file changes), before USB starts, the only time usb_cdc.enable can act.
BOOT_USB_LINK = b"""# Written by python -m sim.deploy --usb-link (Rolit Handheld). It adds a second USB serial
# port, the data channel (usb_cdc.data), which the game then uses as its link to a PC:
# python -m sim --join serial:PORT, or a page's "Link over USB". The REPL console stays on the
# first port. It acts after a reset or power-on. A deploy without --usb-link removes this file
# (if unchanged).
import usb_cdc

usb_cdc.enable(console=True, data=True)
"""


class DeployError(Exception):
    """Something that stops the deploy (no such folder, a library not installed, a link, no
    room)."""


class Action:
    """One step of a deploy.

    ``kind``: ``"write"`` (``data`` into ``path`` through ``temporary``), ``"append"`` (the
    same, for a file of the user's that keeps its lines), ``"same"``, ``"rename"`` (``path`` to
    ``to``: a file of the user's moved out of the way), ``"remove"``, ``"keep"`` or ``"warn"``
    (nothing done, a note for the user)."""

    __slots__ = ("kind", "path", "data", "note", "to", "temporary", "early")

    def __init__(self, kind, path, data=None, note="", to=None, early=False):
        self.kind = kind
        self.path = path
        self.data = data
        self.note = note
        self.to = to
        self.temporary = None
        self.early = early  # a removal made before anything is written


class Plan:
    """What a deploy to ``dest`` does, in order (the order of the renames in :func:`apply`),
    with the room it needs on the drive and the manifest texts it writes."""

    def __init__(self, dest, actions, compiler=None):
        self.dest = dest
        self.actions = actions
        self.compiler = compiler  # the MpyCross used, or None
        self.needed = 0           # bytes the deploy adds at most, in whole allocation units
        self.free = 0             # bytes free on the drive before the deploy
        self.intent = None        # the manifest while it runs: old and new files both listed
        self.final = None         # the manifest after it (None: no manifest to write)
        self.manifest_temporary = None

    def __iter__(self):
        return iter(self.actions)


def _read(path, limit=-1):
    with open(path, "rb") as handle:
        return handle.read(limit)


def _read_or_none(path):
    try:
        return _read(path)
    except OSError:
        return None


def _same(path, data):
    return _read_or_none(path) == data


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


# -- the compiler ------------------------------------------------------------------------------


class MpyCross:
    """CircuitPython's mpy-cross at ``path``; ``version`` is its (major, minor)."""

    def __init__(self, path):
        # Absolute: the compiles run in a folder of their own.
        self.path = shutil.which(path) or path if os.path.basename(path) == path else \
            os.path.abspath(path)
        try:
            result = subprocess.run([path, "--version"], capture_output=True, text=True,
                                    timeout=60)
        except (OSError, subprocess.SubprocessError) as error:
            raise DeployError("cannot run mpy-cross %s: %s" % (
                path, getattr(error, "strerror", None) or error))
        said = (result.stdout + result.stderr).strip().splitlines()
        self.banner = said[0] if said else ""
        found = re.search(r"CircuitPython (\d+)\.(\d+)", self.banner)
        if found is None:
            raise DeployError("%s is not CircuitPython's mpy-cross (it says %r), and CircuitPython "
                              "loads only the .mpy files of its own: download the one for the "
                              "board's version from %s" % (path, self.banner[:80],
                                                           MPY_CROSS_DOWNLOADS))
        self.version = (int(found.group(1)), int(found.group(2)))

    def compile(self, relative, source):
        """The ``.mpy`` bytes of ``source``, the file ``relative`` on the drive (the name its
        tracebacks and compile errors give)."""
        work = tempfile.mkdtemp(prefix="rolit-mpy-")
        try:
            source_path = os.path.join(work, *relative.split("/"))
            os.makedirs(os.path.dirname(source_path), exist_ok=True)
            output = os.path.join(work, "out.mpy")
            with open(source_path, "wb") as handle:
                handle.write(source)
            try:
                result = subprocess.run([self.path, "-o", output, relative], cwd=work,
                                        capture_output=True, text=True, timeout=120)
            except (OSError, subprocess.SubprocessError) as error:
                raise DeployError("cannot run mpy-cross %s: %s" % (
                    self.path, getattr(error, "strerror", None) or error))
            said = [line.strip() for line in (result.stderr + result.stdout).splitlines()
                    if line.strip() and not line.startswith("Traceback")]
            if result.returncode != 0 or not os.path.isfile(output):
                raise DeployError("mpy-cross cannot compile %s: %s" % (
                    relative, " ".join(said)[-200:] or "status %d" % result.returncode))
            return _read(output)
        finally:
            shutil.rmtree(work, ignore_errors=True)


def find_mpy_cross(argument):
    """The mpy-cross to use: ``argument`` (``--mpy-cross``), else ``$MPY_CROSS``, else None (a
    source deploy)."""
    return argument or os.environ.get("MPY_CROSS") or None


def _compiled(relative):
    return relative[:-3] + ".mpy"


def game_files(compiler=None):
    """``(relative path on the drive, bytes, note)`` of every file of the game, ``code.py``
    last; with a :class:`MpyCross`, every module but ``code.py`` compiled."""
    found = []
    for package in PACKAGES:
        for relative, source in _sources(package):
            found.append((relative, _read(source), ""))
    for dist_name, version, name, source in library_files():
        found.append(("lib/" + name, _read(source), "%s %s" % (dist_name, version)))
    if compiler is not None:
        found = [(_compiled(relative), compiler.compile(relative, data),
                  (note + ", " if note else "") + "compiled") for relative, data, note in found]
    for relative in DATA_FILES:
        path = os.path.join(ROOT, *relative.split("/"))
        if os.path.isfile(path):
            found.append((relative, _read(path), ""))
    found.append(("code.py", _read(os.path.join(ROOT, "code.py")), ""))
    return found


# -- what is on the drive ----------------------------------------------------------------------


class Manifest:
    """What earlier deploys wrote: ``digests`` maps a relative path to the checksums it may
    have (two while a deploy runs: the old file's and the new one's), ``temporaries`` the
    temporary files a deploy was writing."""

    def __init__(self, digests=None, temporaries=()):
        self.digests = digests or {}
        self.temporaries = set(temporaries)

    def lists(self, relative, data):
        return _digest(data) in self.digests.get(relative, ())

    def text(self, entries, temporaries=()):
        """The manifest file listing ``entries`` (``(digest, relative)``) and temporaries."""
        lines = [MANIFEST_HEADER + "; it removes only these, and only unchanged."]
        for digest, relative in entries:
            lines.append("%s %s" % (digest, relative))
        for relative in sorted(temporaries):
            lines.append("temporary %s" % relative)
        return ("\n".join(lines) + "\n").encode()


def read_manifest(dest):
    """The :class:`Manifest` of what earlier deploys wrote (empty if none). A file of that name
    that is not the deploy's own list is refused, never written over."""
    path = os.path.join(dest, MANIFEST)
    if os.path.islink(path) or os.path.isdir(path):
        raise DeployError("%s is not the deploy's own list (a link or a folder): move it away"
                          % path)
    try:
        data = _read(path, MANIFEST_LIMIT + 1)
        if len(data) > MANIFEST_LIMIT:
            raise DeployError("%s is over %d bytes, not the deploy's own list: move it away"
                              % (path, MANIFEST_LIMIT))
        text = data.decode("utf-8")
    except FileNotFoundError:
        return Manifest()
    except (OSError, UnicodeError) as error:
        raise DeployError("cannot read %s: %s" % (path, getattr(error, "strerror", None) or error))
    if text and not text.startswith(MANIFEST_HEADER):
        raise DeployError("%s is not the deploy's own list (it does not begin with %r): move it "
                          "away" % (path, MANIFEST_HEADER))
    manifest = Manifest()
    for line in text.splitlines():
        word, _, relative = line.strip().partition(" ")
        if not relative or line.startswith("#"):
            continue
        if word == "temporary":
            manifest.temporaries.add(relative)
        elif len(word) == 64:
            manifest.digests.setdefault(relative, set()).add(word)
    return manifest


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


def _unmounted_drive(dest):
    """Whether ``dest`` names a CIRCUITPY drive's mount point that is not there: creating that
    folder would put the game on this computer and make the drive mount elsewhere."""
    path = os.path.abspath(dest)
    if os.path.basename(path).upper() != "CIRCUITPY":
        return False
    parent = os.path.dirname(path)
    return parent in AUTOMOUNT_ROOTS or os.path.dirname(parent) in AUTOMOUNT_ROOTS


def _check_dest(dest):
    if os.path.exists(dest) and not os.path.isdir(dest):
        raise DeployError("%s is a file, not a folder or a CIRCUITPY drive" % dest)
    if os.path.isdir(dest):
        if not os.access(dest, os.W_OK | os.X_OK):
            raise DeployError("%s is read-only (a drive mounted read-only, or a boot.py that "
                              "keeps CIRCUITPY for the board)" % dest)
        return
    parent = os.path.dirname(os.path.abspath(dest))
    if not os.path.isdir(parent) or _unmounted_drive(dest):
        raise DeployError("%s does not exist (is the CIRCUITPY drive mounted?)" % dest)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise DeployError("cannot create %s: %s is read-only" % (dest, parent))


def _check_writable(actions):
    """Every existing folder the deploy changes something in can be written."""
    for action in plan_changes(actions):
        folder = os.path.dirname(action.path)
        if os.path.isdir(folder) and not os.access(folder, os.W_OK | os.X_OK):
            raise DeployError("%s is read-only: the deploy cannot write into it" % folder)


def drive_space(path):
    """``(free bytes, allocation unit)`` of the file system that holds ``path``."""
    if hasattr(os, "statvfs"):
        found = os.statvfs(path)
        unit = found.f_frsize or found.f_bsize
        return found.f_bavail * unit, unit
    unit = 4096  # Windows: ask for the cluster size, or assume a large one
    try:
        import ctypes

        sectors, size, free_clusters, total = (ctypes.c_ulong(), ctypes.c_ulong(),
                                               ctypes.c_ulong(), ctypes.c_ulong())
        if ctypes.windll.kernel32.GetDiskFreeSpaceW(ctypes.c_wchar_p(path), ctypes.byref(sectors),
                                                    ctypes.byref(size), ctypes.byref(free_clusters),
                                                    ctypes.byref(total)):
            unit = sectors.value * size.value
    except (ImportError, AttributeError, OSError):
        pass
    return shutil.disk_usage(path).free, unit


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
        first = _read(os.path.join(dest, "boot_out.txt"), 512).split(b"\n")[0].decode()
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


# -- the plan ----------------------------------------------------------------------------------


class _Drive:
    """The names on the drive and the ones the plan will create (compared without case, as FAT
    does), to pick free names for kept and temporary files."""

    def __init__(self, dest, manifest):
        self.dest = dest
        self.manifest = manifest
        self.taken = set()

    def path(self, relative):
        return os.path.join(self.dest, *relative.split("/"))

    def take(self, relative):
        self.taken.add(relative.lower())
        return relative

    def free(self, relative, ours_too=()):
        return relative.lower() not in self.taken and (
            relative in ours_too or not os.path.lexists(self.path(relative)))

    def kept_name(self, relative):
        """A free name beside ``relative`` for the user's file that is in the game's way."""
        base, ext = os.path.splitext(relative)
        number = 1
        while True:
            name = "%s%s%s%s" % (base, KEPT, "" if number == 1 else "-%d" % number, ext)
            if self.free(name):
                return self.take(name)
            number += 1

    def temporary_name(self, relative):
        """A free name for the new copy of ``relative`` while it is written (one an interrupted
        deploy left and listed is reused)."""
        number = 1
        while True:
            name = relative + TEMPORARY + ("" if number == 1 else str(number))
            if self.free(name, self.manifest.temporaries):
                return self.take(name)
            number += 1


def _is_ours(manifest, relative, data, stock_ok=False):
    return manifest.lists(relative, data) or (stock_ok and data in STOCK_CODE)


def _place(drive, actions, relative, data, note, compiled):
    """The actions that put ``data`` at ``relative``: kept aside first if what is there is the
    user's; with ``compiled``, the ``.py`` CircuitPython would import instead goes too."""
    _check_place(drive.dest, relative)
    drive.take(relative)
    target = drive.path(relative)
    current = _read_or_none(target)
    if current == data:
        actions.append(Action("same", target, data, note))
    else:
        if current is not None and not _is_ours(drive.manifest, relative, current,
                                                stock_ok=relative == "code.py"):
            kept = drive.path(drive.kept_name(relative))
            actions.append(Action("rename", target, None, "yours (not written by the deploy): "
                                  "kept under a new name", to=kept))
        actions.append(Action("write", target, data, note))
    if compiled and relative.endswith(".mpy"):
        twin = relative[:-4] + ".py"
        _check_place(drive.dest, twin)
        path = drive.path(twin)
        drive.take(twin)
        existing = _read_or_none(path)
        if existing is None:
            return
        if drive.manifest.lists(twin, existing):
            actions.append(Action("remove", path, None, "CircuitPython would import it instead "
                                  "of %s" % os.path.basename(relative)))
        else:
            actions.append(Action("rename", path, None, "yours: CircuitPython would import it "
                                  "instead of %s; kept under a new name"
                                  % os.path.basename(relative),
                                  to=drive.path(drive.kept_name(twin))))


def _settings(dest, preset, asked):
    """The action for settings.toml: a starter, the starter after the user's lines, or none
    (said with why, when ``asked`` for a preset the user's file is not for)."""
    _check_place(dest, "settings.toml")
    starter = _read(os.path.join(ROOT, "hardware", "settings", preset + ".toml"))
    settings = os.path.join(dest, "settings.toml")
    if not os.path.exists(settings):
        return Action("write", settings, starter, "starter for %s" % preset)
    try:
        text = _read(settings)
    except OSError as error:
        raise DeployError("cannot read %s: %s" % (settings, error.strerror or error))
    if b"ROLIT_" in text:
        found = re.search(rb'^\s*ROLIT_PRESET\s*=\s*"([^"]*)"', text, re.M)
        if asked and (found is None or found.group(1).decode("ascii", "replace") != preset):
            return Action("keep", settings, None, "yours: left as it is, so --preset %s changes "
                          "nothing (it is for %s): edit it, or move it away for the %s starter"
                          % (preset, found.group(1).decode("ascii", "replace") if found else
                             "no preset", preset))
        return Action("keep", settings, None, "yours: left as it is")
    joined = text if not text or text.endswith(b"\n") else text + b"\n"
    return Action("append", settings, joined + b"\n" + starter,
                  "adds the %s settings after yours" % preset)


def _stale(drive, actions):
    """Files an earlier deploy wrote that the game no longer has: removed if unchanged."""
    manifest = drive.manifest
    for relative in sorted(manifest.digests):
        if relative.lower() in drive.taken or not _inside(relative):
            continue
        path = drive.path(relative)
        try:
            _check_place(drive.dest, relative)
        except DeployError:
            actions.append(Action("keep", path, None, "a link or a folder now: left as it is"))
            continue
        data = _read_or_none(path)
        if data is None:
            continue  # already gone
        if manifest.lists(relative, data):
            actions.append(Action("remove", path, None, "stale: the game no longer has it"))
        else:
            actions.append(Action("keep", path, None, "changed since the deploy wrote it: left "
                                  "as it is"))


def _leftovers(drive, actions):
    """Temporary files an interrupted deploy left (and listed): removed first."""
    for relative in sorted(drive.manifest.temporaries):
        if not _inside(relative) or not re.search(re.escape(TEMPORARY) + r"\d*$", relative):
            continue
        path = drive.path(relative)
        if os.path.isfile(path) and not os.path.islink(path):
            actions.append(Action("remove", path, None, "left by an interrupted deploy",
                                  early=True))


def _room(plan, unit, manifest_path):
    """The most the deploy adds to the drive at any moment, in whole allocation units: the new
    copies while the old files exist, the manifests, and the folders' new entries."""
    def units(size):
        return -(-size // unit) * unit

    def size(path):
        try:
            return os.path.getsize(path) if os.path.isfile(path) else 0
        except OSError:
            return 0

    actions = plan.actions
    used = peak = 0
    for action in actions:
        if action.early:  # an interrupted deploy's leftovers go before anything is written
            used -= units(size(action.path))
    if plan.intent is not None:
        used += units(len(plan.intent))
        peak = max(peak, used)
        used -= units(size(manifest_path))
    writes = [a for a in actions if a.kind in ("write", "append")]
    for action in writes:
        used += units(len(action.data))
        peak = max(peak, used)
    moved = set(a.path for a in actions if a.kind == "rename")
    for action in writes:
        if action.path not in moved:
            used -= units(size(action.path))
    for action in actions:
        if action.kind == "remove" and not action.early:
            used -= units(size(action.path))
    if plan.final is not None:
        peak = max(peak, used + units(len(plan.final)))
    # Each new name takes a 32-byte entry, plus one per 13 characters of its long name, in its
    # folder (a new folder also has "." and "..").
    entries = {}
    for action in actions:
        for path in (action.temporary, action.to, action.path if action.kind == "write"
                     and not os.path.lexists(action.path) else None):
            if path:
                folder = os.path.dirname(path)
                start = 0 if os.path.isdir(folder) else 2
                entries[folder] = entries.get(folder, start) + 1 + -(-len(
                    os.path.basename(path)) // 13)
    if plan.manifest_temporary is not None:
        entries[plan.dest] = entries.get(plan.dest, 0) + 2 * (1 + -(-len(
            os.path.basename(plan.manifest_temporary)) // 13))
    for count in entries.values():
        peak += units(count * 32)
    return peak


def _manifests(plan, drive):
    """Set the plan's manifest texts: the one written before the first rename lists the old
    files and the new ones (and the temporary names), so that a deploy stopped half-way is
    finished by the next one; the last one lists only what the drive then holds."""
    dest = plan.dest
    final_entries = []
    for action in plan.actions:
        relative = os.path.relpath(action.path, dest).replace(os.sep, "/")
        if action.kind in ("write", "same") and relative != "settings.toml":
            final_entries.append((_digest(action.data), relative))
    old_entries = []
    manifest = drive.manifest
    for relative in sorted(manifest.digests):
        for digest in sorted(manifest.digests[relative]):
            if os.path.lexists(drive.path(relative)) and (digest, relative) not in final_entries:
                old_entries.append((digest, relative))
    final = manifest.text(final_entries)
    if not plan_changes(plan.actions) and _same(drive.path(MANIFEST), final):
        return
    plan.manifest_temporary = drive.path(drive.temporary_name(MANIFEST))
    temporaries = [os.path.relpath(a.temporary, dest).replace(os.sep, "/")
                   for a in plan.actions if a.temporary]
    temporaries.append(os.path.relpath(plan.manifest_temporary, dest).replace(os.sep, "/"))
    plan.intent = manifest.text(final_entries + old_entries, temporaries)
    plan.final = final


def plan(dest, preset=None, mpy_cross=None, usb_link=False):
    """The :class:`Plan` that deploys to ``dest``: every check made, nothing written. With
    ``mpy_cross`` (a path), the modules are compiled. With ``usb_link``, a ``boot.py`` that
    enables the USB data channel (:data:`BOOT_USB_LINK`; a user's own ``boot.py`` is kept under
    a free name, as every file of the user's); without, a ``boot.py`` an earlier deploy wrote
    is removed if unchanged, and any other is left alone. Raises ``DeployError`` for anything
    that would make the deploy fail or harm the drive, the lack of room included."""
    asked = preset is not None
    preset = preset or "pico"
    if preset not in PRESETS:
        raise DeployError("unknown preset %r (use %s)" % (preset, ", ".join(PRESETS)))
    if usb_link and preset == "blinka_pi":
        raise DeployError("--usb-link is for CircuitPython boards (usb_cdc): blinka_pi has no "
                          "USB data channel; link a Pi over its UART pins")
    _check_dest(dest)
    for folder in ("lib",) + PACKAGES:
        _check_place(dest, folder, folder=True)
    manifest = read_manifest(dest)
    drive = _Drive(dest, manifest)
    version = circuitpython_version(dest)
    compiler = None
    notes = []
    if mpy_cross and preset == "blinka_pi":
        raise DeployError("--mpy-cross (or $MPY_CROSS) is for CircuitPython boards: blinka_pi "
                          "runs the game on CPython, which needs the .py files")
    if mpy_cross:
        compiler = MpyCross(mpy_cross)
        if version is None:
            notes.append(Action("warn", os.path.join(dest, "boot_out.txt"), None, "not there, "
                                "so the board's version is unknown: the .mpy files load only on "
                                "CircuitPython %d.x" % compiler.version[0]))
        elif version[0] != compiler.version[0]:
            raise DeployError("the board runs CircuitPython %d.%d but mpy-cross %s is %d.%d's: "
                              "its .mpy files would not load; use the mpy-cross for %d.x from "
                              "%s, or deploy without --mpy-cross"
                              % (version[0], version[1], mpy_cross, compiler.version[0],
                                 compiler.version[1], version[0], MPY_CROSS_DOWNLOADS))
    actions = []
    _leftovers(drive, actions)
    files = game_files(compiler)
    if preset == "blinka_pi":
        files = files[:-1] + blinka_pi_files(dest) + files[-1:]  # code.py stays last
    boot = [("boot.py", BOOT_USB_LINK, "--usb-link: the USB data channel for the link")] \
        if usb_link else []
    for relative in [relative for relative, _, _ in files + boot] + ["settings.toml"]:
        drive.take(relative)  # never stale, never a free name for something else
    for relative, data, note in files[:-1]:
        _place(drive, actions, relative, data, note, compiler is not None)
    _stale(drive, actions)
    # Modules in the game's folders that the deploy never wrote: the user's, never deleted.
    for folder_name in PACKAGES:
        folder = drive.path(folder_name)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            relative = folder_name + "/" + name
            if (name.endswith(".py") or name.endswith(".mpy")) and \
                    relative.lower() not in drive.taken and relative not in manifest.digests:
                actions.append(Action("keep", os.path.join(folder, name), None,
                                      "not written by the deploy: left as it is (delete it if "
                                      "it is an old copy of the game's)"))
    actions.append(_settings(dest, preset, asked))
    for relative, data, note in boot:  # run from source by CircuitPython: never compiled
        _place(drive, actions, relative, data, note, False)
    relative, data, note = files[-1]
    _place(drive, actions, relative, data, note, False)  # code.py: last, once the rest is in

    for name in RUN_FIRST:
        if os.path.exists(drive.path(name)):
            notes.append(Action("warn", drive.path(name), None, "CircuitPython runs %s instead "
                                "of code.py: rename or delete it" % name))
    for relative, _, _ in files[:-1]:
        module = relative.split("/")[-1].rsplit(".", 1)[0]
        for top in (module + ".py", module + ".mpy") if relative.startswith("lib/") else ():
            if os.path.isfile(drive.path(top)):
                notes.append(Action("warn", drive.path(top), None, "CircuitPython imports it "
                                    "instead of %s: rename or delete it" % relative))
    if version is not None and version < (8, 0):
        notes.append(Action("warn", os.path.join(dest, "boot_out.txt"), None,
                            "CircuitPython %d.%d is too old: settings.toml needs 8.0 or later"
                            % version))
    actions += notes

    for action in actions:
        if action.kind in ("write", "append"):
            relative = os.path.relpath(action.path, dest).replace(os.sep, "/")
            action.temporary = drive.path(drive.temporary_name(relative))
    _check_place(dest, MANIFEST)
    _check_writable(actions)
    result = Plan(dest, actions, compiler)
    _manifests(result, drive)
    result.free, unit = drive_space(dest if os.path.isdir(dest) else os.path.dirname(
        os.path.abspath(dest)))
    result.needed = _room(result, unit, drive.path(MANIFEST))
    if result.needed > result.free:
        raise DeployError("not enough room on %s: the deploy needs %d KB, the drive has %d KB free "
                          "(delete what it does not need: old projects, copies kept as *%s*)"
                          % (dest, -(-result.needed // 1024), result.free // 1024, KEPT))
    return result


# -- carrying it out ---------------------------------------------------------------------------


def _write_new(path, data):
    """``data`` into a new file ``path`` (never through a link), flushed to the drive; the
    plan made sure that nothing of the user's is there."""
    if os.path.lexists(path):
        os.remove(path)  # a leftover of the deploy's own
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | \
        getattr(os, "O_BINARY", 0)
    handle = os.open(path, flags, 0o644)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
    except BaseException:
        try:
            os.remove(path)
        except OSError:
            pass
        raise


def _rename_aside(path, to):
    if os.path.lexists(to):  # taken since the plan was made: never over it
        raise OSError(17, "%s appeared since the deploy began" % to)
    os.rename(path, to)


def _reason(error):
    return getattr(error, "strerror", None) or str(error)


def _stage(plan, manifest):
    """Write the new files under their temporary names (and the manifest that lists them);
    returns the bytes written. A failure removes what it wrote: the drive has what it had."""
    staged = []
    created = []
    written = 0
    step = None
    try:
        if plan_changes(plan.actions) and not os.path.isdir(plan.dest):
            step = ("create", plan.dest)
            os.makedirs(plan.dest)
            created.append(plan.dest)
        for action in plan.actions:
            if action.early:
                step = ("remove", action.path)
                os.remove(action.path)
        if manifest is not None and plan.intent is not None:
            step = ("write", manifest)
            _write_new(plan.manifest_temporary, plan.intent)
            os.replace(plan.manifest_temporary, manifest)
        for action in plan.actions:
            if action.kind in ("write", "append"):
                step = ("write", action.path)
                folder = os.path.dirname(action.path)
                if not os.path.isdir(folder):
                    os.makedirs(folder)
                    created.append(folder)
                staged.append(action.temporary)
                _write_new(action.temporary, action.data)
                written += len(action.data)
    except BaseException as error:
        if manifest is not None and plan.dest in created:
            staged.append(manifest)  # a folder the deploy made: nothing of it stays
        for path in staged:
            try:
                os.remove(path)
            except OSError:
                pass
        for folder in reversed(created):
            try:
                os.rmdir(folder)  # only if it is empty
            except OSError:
                pass
        if isinstance(error, KeyboardInterrupt):
            raise KeyboardInterrupt("nothing was replaced: the drive has what it had")
        if not isinstance(error, OSError):
            raise
        raise DeployError("cannot %s %s: %s; nothing was replaced: the drive has what it had"
                          % (step[0], step[1], _reason(error)))
    return written


def _commit(plan, manifest):
    """Rename the new files into place in the plan's order (code.py is last), remove what
    goes, and write the last manifest."""
    step = None
    try:
        for action in plan.actions:
            step = (action.kind, action.path)
            if action.kind == "rename":
                _rename_aside(action.path, action.to)
            elif action.kind in ("write", "append"):
                os.replace(action.temporary, action.path)
            elif action.kind == "remove" and not action.early:
                os.remove(action.path)
        if manifest is not None and plan.final is not None:
            step = ("write", manifest)
            _write_new(plan.manifest_temporary, plan.final)
            os.replace(plan.manifest_temporary, manifest)
    except OSError as error:
        raise DeployError("cannot %s %s: %s; the drive holds part of the new game: run the "
                          "deploy again to finish it" % (step[0], step[1], _reason(error)))


def apply(plan, dest=None):
    """Carry out a :class:`Plan`; returns the number of bytes written. With ``dest``, the
    manifest of what the deploy wrote is kept in ``dest``.

    The new files are written in full under temporary names first (a failure then removes them
    and says that the drive has what it had), then renamed into place in the plan's order,
    ``code.py`` last (a failure then says to run the deploy again, which finishes it)."""
    manifest = None if dest is None else os.path.join(dest, MANIFEST)
    written = _stage(plan, manifest)
    _commit(plan, manifest)
    if plan_changes(plan.actions):
        try:
            os.sync()  # CIRCUITPY is FAT: flush before anyone unplugs the board
        except AttributeError:
            pass
    return written


def plan_changes(actions):
    """The actions of a plan that change the drive."""
    return [a for a in actions if a.kind in ("write", "append", "remove", "rename")]


def drive_files(preset="pico", mpy_cross=None):
    """What the deploy writes onto an empty drive, as a dict relative path -> bytes (without
    the manifest): the drive of an emulated board."""
    folder = tempfile.mkdtemp(prefix="rolit-drive-")
    try:
        apply(plan(folder, preset, mpy_cross))
        found = {}
        for base, _, names in os.walk(folder):
            for name in names:
                found[os.path.relpath(os.path.join(base, name), folder).replace(
                    os.sep, "/")] = _read(os.path.join(base, name))
        return found
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def describe(actions, dest):
    """One line per action, as the deploy prints them."""
    lines = []
    for action in actions:
        relative = os.path.relpath(action.path, dest)
        if action.kind == "rename":
            relative += " -> " + os.path.relpath(action.to, dest)
        size = "" if action.data is None else " (%d bytes)" % len(action.data)
        note = "  - " + action.note if action.note else ""
        lines.append("%-7s %s%s%s" % (action.kind, relative, size, note))
    if isinstance(actions, Plan) and actions.needed:
        lines.append("room    needs %d KB, the drive has %d KB free" % (
            -(-actions.needed // 1024), actions.free // 1024))
    return lines


class _Parser(argparse.ArgumentParser):
    """Argument errors in one line (argparse's default puts the whole usage before it)."""

    def error(self, message):
        self.exit(2, "%s: error: %s (--help lists the options)\n" % (self.prog, message))


def main(argv=None):
    parser = _Parser(prog="python -m sim.deploy",
                     description="Copy Rolit Handheld onto a CircuitPython drive.")
    parser.add_argument("path", help="the mounted CIRCUITPY drive, or any folder")
    parser.add_argument("--preset", choices=PRESETS,
                        help="board for a new settings.toml (default: pico)")
    parser.add_argument("--dry-run", action="store_true", help="only list what would be done")
    parser.add_argument("--mpy-cross", metavar="PATH",
                        help="compile the modules to .mpy with CircuitPython's mpy-cross of the "
                        "board's version (default: $MPY_CROSS; none: copy the source)")
    parser.add_argument("--usb-link", action="store_true",
                        help="also write a boot.py that enables the USB data channel, a second "
                        "serial port the game links over (python -m sim --join serial:PORT); "
                        "a deploy without it removes that boot.py")
    args = parser.parse_args(argv)
    try:
        actions = plan(args.path, args.preset, find_mpy_cross(args.mpy_cross), args.usb_link)
        if actions.compiler is not None:
            print("compiling with %s" % actions.compiler.banner)
        for line in describe(actions, args.path):
            print(line)
        changes = plan_changes(actions)
        if args.dry_run:
            print("dry run: %d change(s) not made" % len(changes))
            return 0
        written = apply(actions, args.path)
    except DeployError as error:
        print("deploy: %s" % error, file=sys.stderr)
        return 1
    except KeyboardInterrupt as error:  # Ctrl-C: every file is whole (old or new), no traceback
        print("\ndeploy: stopped; %s" % (error or "run it again to finish"), file=sys.stderr)
        return 130
    print("done: %d change(s), %d bytes written to %s" % (len(changes), written, args.path))
    if changes and args.preset == "blinka_pi":
        print("On the Pi: try it with `.venv/bin/python code.py` in %s, then install the unit "
              "as listed above." % args.path)
    elif changes:
        print("The board restarts by itself; open the serial console (e.g. `tio /dev/ttyACM0`)"
              " to see the game log.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
