"""Whether the real-firmware tests can run: skip with the reason, or fail under
``ROLIT_REQUIRE_FIRMWARE=1`` (set by .ci/run) so that CI never skips them."""

import os

import pytest


def require_emulator():
    """Skip (or fail when required) unless the emulator and a UF2 are there."""
    try:
        from sim.emulate import missing_reason
    except ImportError:  # a tree from before the emulator was merged
        reason = "this tree has no emulator (sim.emulate, bench.device)"
    else:
        reason = missing_reason()
    if reason is None:
        return
    if os.environ.get("ROLIT_REQUIRE_FIRMWARE") == "1":
        pytest.fail("ROLIT_REQUIRE_FIRMWARE=1 but the emulator cannot run: " + reason)
    pytest.skip(reason)


def what_ran(pico):
    """One line naming what an emulated boot ran on: the UF2, Node.js, rp2040js and the drive,
    each by a digest, so that a failure seen on another machine says whether its inputs
    were the ones that pass here."""
    import hashlib
    import json
    import subprocess

    from sim.emulate import ROOT

    def digest(data):
        return hashlib.sha256(data).hexdigest()[:16]

    try:
        with open(pico.firmware, "rb") as handle:
            firmware = "%s (sha256 %s)" % (os.path.basename(pico.firmware), digest(handle.read()))
    except (OSError, TypeError):
        firmware = repr(pico.firmware)
    try:
        node = subprocess.run([pico.node, "--version"], capture_output=True, text=True,
                              timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        node = "?"
    try:
        with open(os.path.join(ROOT, "node_modules", "rp2040js", "package.json")) as handle:
            rp2040js = json.load(handle).get("version", "?")
    except (OSError, ValueError):
        rp2040js = "?"
    files = pico._files or {}
    drive = digest(b"".join(b"%s\0%d\0%s" % (name.encode(), len(data), data)
                            for name, data in sorted(files.items())))
    return "firmware %s; node %s; rp2040js %s; drive of %d files (sha256 %s)" % (
        firmware, node, rp2040js, len(files), drive)


def boot(pico, text, timeout_ms):
    """``pico.run_until_text(text, timeout_ms)``; a failure also says :func:`what_ran`."""
    from sim.emulate import EmulatorError

    try:
        pico.run_until_text(text, timeout_ms)
    except EmulatorError as error:
        raise EmulatorError("%s\n(ran on: %s)" % (error, what_ran(pico))) from None
