"""What the deploy tests need beyond a folder: a real small file system, CircuitPython's mpy-cross.

``small_drive(path, size)`` mounts, at ``path``, a FAT12 image made with Debian's dosfstools
(as CIRCUITPY is formatted: 512-byte sectors, one per cluster), loop-mounted; where the kernel
cannot (no loop devices, no vfat, not root) a tmpfs a quarter bigger than ``size`` (its 4 KB
pages hold fewer files than FAT's 512-byte clusters). Either way a file
system that really runs out of room. ``mpy_cross()`` finds CircuitPython's own mpy-cross.
"""

import contextlib
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(command):
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as error:
        return str(error)
    if result.returncode != 0:
        said = (result.stderr or result.stdout).strip().splitlines()
        return said[-1] if said else "status %d" % result.returncode
    return None


@contextlib.contextmanager
def small_drive(mount_point, image, size=1024 * 1024):
    """Mount a file system of ``size`` bytes at ``mount_point``; yields its kind ("vfat" or
    "tmpfs"). Skips the test with the reasons when neither can be mounted."""
    os.makedirs(mount_point)
    reasons = []
    kind = None
    if shutil.which("mkfs.fat") is None:
        reasons.append("mkfs.fat is missing (apt-get install dosfstools mtools)")
    else:
        with open(image, "wb") as handle:
            handle.truncate(size)
        failed = _run(["mkfs.fat", "-F", "12", "-S", "512", "-s", "1", "-n", "CIRCUITPY",
                       image]) or _run(["mount", "-o", "loop", image, mount_point])
        if failed:
            reasons.append("cannot loop-mount a FAT image: " + failed)
        else:
            kind = "vfat"
    if kind is None:
        # tmpfs rounds every file up to a 4 KB page where CIRCUITPY's FAT12 rounds to 512 B:
        # the game's files take about a quarter more room there, so a tmpfs a quarter bigger
        # holds the two copies a deploy makes for a moment as the 1 MiB FAT does (the FAT12
        # image test in test_deploy_drive.py holds the figure to the real allocation).
        failed = _run(["mount", "-t", "tmpfs", "-o", "size=%d" % (size * 5 // 4),
                       "rolit-deploy", mount_point])
        if failed:
            reasons.append("cannot mount a tmpfs: " + failed)
        else:
            kind = "tmpfs"
    if kind is None:
        pytest.skip("no small file system to deploy to: " + "; ".join(reasons))
    try:
        yield kind
    finally:
        _run(["umount", mount_point])


def files(folder):
    """Every file under ``folder``: relative path -> bytes."""
    found = {}
    for base, _, names in os.walk(str(folder)):
        for name in names:
            path = os.path.join(base, name)
            with open(path, "rb") as handle:
                found[os.path.relpath(path, str(folder)).replace(os.sep, "/")] = handle.read()
    return found


def one_line_error(capsys):
    """The deploy's error: one line on stderr, no traceback anywhere."""
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("deploy: "), captured.err
    assert "Traceback" not in captured.err + captured.out
    return lines[0]


def fill(folder, leave):
    """Write a file into ``folder`` that leaves about ``leave`` bytes free; returns its path."""
    path = os.path.join(folder, "filler.bin")
    found = os.statvfs(folder)
    free = found.f_bavail * found.f_frsize
    with open(path, "wb") as handle:
        handle.write(b"\0" * max(0, free - leave))
    return path


def _missing(reason):
    if os.environ.get("ROLIT_REQUIRE_FIRMWARE") == "1":  # CI, with the shared folder beside it
        pytest.fail("ROLIT_REQUIRE_FIRMWARE=1 but " + reason)
    pytest.skip(reason)


def mpy_cross():
    """CircuitPython's mpy-cross: ``$ROLIT_MPY_CROSS``, else ``tools/mpy-cross-cp`` in the
    shared folder beside the repository (or beside the main checkout of a worktree). Skips the
    test with the reason when there is none (fails under ``ROLIT_REQUIRE_FIRMWARE=1``)."""
    path = os.environ.get("ROLIT_MPY_CROSS")
    if path:
        if not os.access(path, os.X_OK):
            _missing("ROLIT_MPY_CROSS=%s is not an executable file" % path)
        return path
    from sim.emulate import firmware_folders

    tried = []
    for folder in firmware_folders(ROOT):
        candidate = os.path.join(os.path.dirname(folder), "tools", "mpy-cross-cp")
        if os.access(candidate, os.X_OK):
            return candidate
        tried.append(candidate)
    _missing("no CircuitPython mpy-cross (set ROLIT_MPY_CROSS, or put it at %s)"
             % " or ".join(tried))
