"""`python -m sim.deploy` onto a drive that is nearly full, fills up, or is cut off part-way:
refused before the first write with the figures, or left booting the game it had, or finished by
the next deploy. The drive is a real 1 MiB file system (tests/deploy_drives.py)."""

import errno
import os
import re
import shutil
import subprocess

import pytest

from deploy_drives import files, fill, one_line_error, small_drive
from sim import deploy


@pytest.fixture
def drive(tmp_path):
    mount_point = str(tmp_path / "CIRCUITPY")
    with small_drive(mount_point, str(tmp_path / "drive.img")):
        yield mount_point


def deploy_older_game(dest, monkeypatch=None):
    """What an earlier version of the game left on ``dest``: every file a little different
    from today's (so that today's deploy replaces them all), listed in its manifest."""
    assert deploy.main([dest]) == 0
    manifest = os.path.join(dest, deploy.MANIFEST)
    with open(manifest) as handle:
        lines = handle.read().splitlines()
    for i, line in enumerate(lines):
        digest, _, relative = line.partition(" ")
        if len(digest) == 64:
            path = os.path.join(dest, relative)
            with open(path, "ab") as handle:
                handle.write(b"\n# the version before\n")
            with open(path, "rb") as handle:
                lines[i] = "%s %s" % (deploy._digest(handle.read()), relative)
    with open(manifest, "w") as handle:
        handle.write("\n".join(lines) + "\n")
    return files(dest)


def the_game_is_whole(dest, game):
    """Every file of ``game`` (relative path -> bytes) is on ``dest`` as it was, and nothing the
    deploy writes for a moment is left."""
    now = files(dest)
    for relative, data in game.items():
        if relative != deploy.MANIFEST:
            assert now.get(relative) == data, relative
    assert [name for name in now if deploy.TEMPORARY in name] == []


def test_a_drive_without_room_is_refused_before_the_first_write(drive, capsys, monkeypatch):
    """An earlier deploy on a 1 MiB drive with ~24 KB free: the dry run and the deploy refuse in
    one line with the figures, and the drive is exactly as it was."""
    deploy_older_game(drive, monkeypatch)
    fill(drive, 24 * 1024)
    before = files(drive)
    for args in ([drive, "--dry-run"], [drive]):
        assert deploy.main(args) == 1
        line = one_line_error(capsys)
        found = re.search(r"needs (\d+) KB, the drive has (\d+) KB free", line)
        assert found, line
        needed, free = int(found.group(1)), int(found.group(2))
        assert 20 <= free <= 28 and needed > 200
        assert files(drive) == before


def test_the_room_the_deploy_says_it_needs_is_enough(drive, capsys, monkeypatch):
    """Left with just the room the dry run names, the deploy goes through: the figure counts
    every temporary copy, the drive's allocation units and the folders' entries."""
    deploy_older_game(drive, monkeypatch)
    capsys.readouterr()
    assert deploy.main([drive, "--dry-run"]) == 0
    found = re.search(r"^room\s+needs (\d+) KB", capsys.readouterr().out, re.M)
    assert found
    filler = fill(drive, int(found.group(1)) * 1024)
    assert deploy.main([drive]) == 0, capsys.readouterr().err
    os.remove(filler)
    fresh = os.path.join(os.path.dirname(drive), "fresh")
    assert deploy.main([fresh]) == 0
    assert files(drive) == files(fresh)


def test_a_drive_that_fills_up_part_way_keeps_the_game_it_had(drive, capsys, monkeypatch):
    """Another program fills the drive while the deploy writes its sixth file: the deploy stops
    in one line, and the old game is on the drive, whole (every module code.py imports, as the
    earlier deploy wrote it). With room again, the next deploy goes through."""
    old = deploy_older_game(drive, monkeypatch)
    real_fsync = os.fsync
    calls = []
    filler = []

    def fsync(handle):
        calls.append(handle)
        if len(calls) == 6:
            filler.append(fill(drive, 0))
        real_fsync(handle)

    capsys.readouterr()
    monkeypatch.setattr(deploy.os, "fsync", fsync)
    assert deploy.main([drive]) == 1
    monkeypatch.setattr(deploy.os, "fsync", real_fsync)
    line = one_line_error(capsys)
    assert "No space left on device" in line and "the drive has what it had" in line
    os.remove(filler[0])
    the_game_is_whole(drive, old)
    assert deploy.main([drive]) == 0
    out = capsys.readouterr().out
    assert not re.search(r"^rename", out, re.M)  # every file there was known as the deploy's


def test_a_deploy_cut_off_during_the_renames_is_finished_by_the_next(drive, capsys,
                                                                      monkeypatch):
    """The board unplugged after some of the new files took their place: the deploy says to run
    it again, and that run leaves exactly what a deploy onto an empty drive leaves."""
    deploy_older_game(drive, monkeypatch)
    real_replace = os.replace
    calls = []

    def replace(source, target):
        calls.append(target)
        if len(calls) == 12:
            raise OSError(errno.EIO, "Input/output error")
        real_replace(source, target)

    capsys.readouterr()
    monkeypatch.setattr(deploy.os, "replace", replace)
    assert deploy.main([drive]) == 1
    monkeypatch.setattr(deploy.os, "replace", real_replace)
    assert "run the deploy again to finish it" in one_line_error(capsys)
    assert deploy.main([drive]) == 0
    assert not re.search(r"^rename", capsys.readouterr().out, re.M)
    fresh = os.path.join(os.path.dirname(drive), "fresh")
    assert deploy.main([fresh]) == 0
    assert files(drive) == files(fresh)


def test_temporary_files_of_a_deploy_cut_off_while_writing_are_cleared(tmp_path, capsys,
                                                                       monkeypatch):
    """Unplugged while writing: the temporary copies stay on the drive (nothing could remove
    them). The next deploy knows them as its own from the manifest and removes them."""
    dest = str(tmp_path / "CIRCUITPY")
    old = deploy_older_game(dest, monkeypatch)
    real_fsync = os.fsync
    calls = []

    def fsync(handle):
        calls.append(handle)
        if len(calls) == 8:
            raise OSError(errno.EIO, "Input/output error")
        real_fsync(handle)

    def unplugged(path):
        raise OSError(errno.ENODEV, "No such device")

    capsys.readouterr()
    monkeypatch.setattr(deploy.os, "fsync", fsync)
    monkeypatch.setattr(deploy.os, "remove", unplugged)
    assert deploy.main([dest]) == 1
    monkeypatch.undo()
    one_line_error(capsys)
    left = [name for name in files(dest) if deploy.TEMPORARY in name]
    assert left
    assert deploy.main([dest]) == 0
    out = capsys.readouterr().out
    for name in left:
        assert re.search(r"^remove\s+%s .*interrupted deploy" % re.escape(name), out, re.M)
    assert not re.search(r"^rename", out, re.M)
    fresh = str(tmp_path / "fresh")
    assert deploy.main([fresh]) == 0
    assert files(dest) == files(fresh)
    assert old  # the older game was there to replace


# -- the room figure on a FAT12 drive of 512-byte clusters, as CircuitPython formats it --------


def mtools(*command):
    """Run an mtools command on an image; the error text, or None."""
    result = subprocess.run(command, capture_output=True, text=True, timeout=60,
                            env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
    return None if result.returncode == 0 else (result.stderr or result.stdout).strip()


def fat_free(image):
    listing = subprocess.run(["mdir", "-i", image, "::"], capture_output=True, text=True,
                             env=dict(os.environ, MTOOLS_SKIP_CHECK="1")).stdout
    return int(re.search(r"([\d ]+) bytes free", listing).group(1).replace(" ", ""))


class Recorder:
    """Every change the deploy makes to a folder, as a path relative to it, in order."""

    def __init__(self, folder, monkeypatch):
        self.folder = folder
        self.steps = []
        for name in ("replace", "rename", "remove", "makedirs"):
            real = getattr(os, name)
            monkeypatch.setattr(deploy.os, name, self._wrap(name, real))
        real_write = deploy._write_new
        monkeypatch.setattr(deploy, "_write_new", lambda path, data: (
            self.steps.append(("write", self.relative(path), data)), real_write(path, data)))

    def relative(self, path):
        return os.path.relpath(path, self.folder).replace(os.sep, "/")

    def _wrap(self, name, real):
        def step(*paths, **options):
            self.steps.append((name,) + tuple(self.relative(path) for path in paths))
            return real(*paths, **options)
        return step


def replay(steps, image, work):
    """Make the recorded changes on the FAT image with mtools; the first error, or None."""
    for step in steps:
        kind, path = step[0], "::/" + step[1]
        if kind == "write":
            host = os.path.join(work, "data")
            with open(host, "wb") as handle:
                handle.write(step[2])
            failed = mtools("mcopy", "-o", "-i", image, host, path)
        elif kind == "makedirs":
            failed = mtools("mmd", "-i", image, path)
        elif kind == "remove":
            failed = mtools("mdel", "-i", image, path)
        else:  # replace or rename: the old file at the new name goes first, as vfat does
            mtools("mdel", "-i", image, "::/" + step[2])
            failed = mtools("mren", "-i", image, path, "::/" + step[2])
        if failed:
            return "%s %s: %s" % (kind, step[1], failed)
    return None


@pytest.mark.parametrize("short_by", [0, 8192])
def test_the_room_figure_holds_on_a_fat12_drive(tmp_path, monkeypatch, short_by):
    """The older game on a 1 MiB FAT12 image with 512-byte clusters, filled to leave just the
    room the deploy says it needs: every change of the deploy, made on the image by mtools,
    fits. With 8 KB less, the drive fills up (the figure is not a loose guess)."""
    if shutil.which("mcopy") is None or shutil.which("mkfs.fat") is None:
        pytest.skip("mtools or dosfstools is missing (apt-get install mtools dosfstools)")
    folder = str(tmp_path / "CIRCUITPY")
    deploy_older_game(folder)
    image = str(tmp_path / "drive.img")
    with open(image, "wb") as handle:
        handle.truncate(1024 * 1024)
    assert mtools("mkfs.fat", "-F", "12", "-S", "512", "-s", "1", "-n", "CIRCUITPY", image) is None
    for base, dirs, names in os.walk(folder):
        for name in sorted(dirs):
            assert mtools("mmd", "-i", image, "::/" + os.path.relpath(
                os.path.join(base, name), folder).replace(os.sep, "/")) is None
        for name in sorted(names):
            path = os.path.join(base, name)
            assert mtools("mcopy", "-i", image, path, "::/" + os.path.relpath(
                path, folder).replace(os.sep, "/")) is None
    free = fat_free(image)
    monkeypatch.setattr(deploy, "drive_space", lambda path: (free, 512))
    plan = deploy.plan(folder)
    filler = str(tmp_path / "filler")
    with open(filler, "wb") as handle:
        handle.write(b"\0" * (free - plan.needed + short_by))
    assert mtools("mcopy", "-i", image, filler, "::/filler.bin") is None
    assert fat_free(image) == plan.needed - short_by
    recorder = Recorder(folder, monkeypatch)
    deploy.apply(plan, folder)
    monkeypatch.undo()
    failed = replay(recorder.steps, image, str(tmp_path))
    if short_by:
        assert failed and "Disk full" in failed
    else:
        assert failed is None


def test_ctrl_c_while_writing_leaves_the_game_it_had(tmp_path, capsys, monkeypatch):
    dest = str(tmp_path / "CIRCUITPY")
    old = deploy_older_game(dest)
    real_fsync = os.fsync
    calls = []

    def fsync(handle):
        calls.append(handle)
        if len(calls) == 10:
            raise KeyboardInterrupt
        real_fsync(handle)

    capsys.readouterr()
    monkeypatch.setattr(deploy.os, "fsync", fsync)
    assert deploy.main([dest]) == 130
    monkeypatch.undo()
    assert "stopped; nothing was replaced" in capsys.readouterr().err
    the_game_is_whole(dest, old)
