"""`python -m sim.deploy`: what it writes, what it leaves alone; and the deployed folder booting
code.py under MicroPython with device doubles, playing a whole scripted game."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

from deploy_drives import one_line_error
from device_doubles import DOUBLES, library_path
from sim import deploy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read(path):
    with open(path, "rb") as handle:
        return handle.read()


def test_dry_run_lists_everything_and_writes_nothing(tmp_path, capsys):
    dest = tmp_path / "CIRCUITPY"
    assert deploy.main([str(dest), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert not dest.exists()
    for name in ("code.py", "rolit_core/app.py", "hardware/matrix.py", "lib/neopixel.py",
                 "settings.toml"):
        assert re.search(r"^write\s+%s " % re.escape(name), out, re.M), name
    assert "adafruit-circuitpython-neopixel 6.4.2" in out
    assert "dry run" in out


def test_deploy_copies_the_game_and_the_pinned_library(tmp_path):
    dest = tmp_path / "CIRCUITPY"
    assert deploy.main([str(dest), "--preset", "feather_rp2040"]) == 0
    assert read(dest / "code.py") == read(os.path.join(ROOT, "code.py"))
    for package in ("rolit_core", "hardware"):
        names = sorted(n for n in os.listdir(os.path.join(ROOT, package)) if n.endswith(".py"))
        if package == "rolit_core":
            names = sorted(names + ["book.bin"])  # the opening book, as it is
        assert sorted(os.listdir(dest / package)) == names
    assert read(dest / "rolit_core" / "book.bin") == read(
        os.path.join(ROOT, "rolit_core", "book.bin"))
    assert not (dest / "hardware" / "settings").exists()
    assert read(dest / "lib" / "neopixel.py") == read(library_path("neopixel"))
    assert sorted(os.listdir(dest / "lib")) == ["neopixel.py"]  # pixelbuf is built in
    assert read(dest / "settings.toml") == read(
        os.path.join(ROOT, "hardware", "settings", "feather_rp2040.toml"))


def test_second_deploy_writes_nothing_and_keeps_settings(tmp_path, capsys):
    dest = tmp_path / "CIRCUITPY"
    deploy.main([str(dest)])
    (dest / "settings.toml").write_text('ROLIT_BRIGHTNESS = 12\n')
    (dest / "hardware" / "old_driver.py").write_text("x = 1\n")
    (dest / "rolit_core" / "board.mpy").write_bytes(b"M")
    (dest / "lib" / "other_library.py").write_text("y = 2\n")
    capsys.readouterr()
    deploy.main([str(dest)])
    out = capsys.readouterr().out
    assert not re.search(r"^write", out, re.M)
    assert re.search(r"^keep\s+settings.toml", out, re.M)
    assert (dest / "settings.toml").read_text() == 'ROLIT_BRIGHTNESS = 12\n'
    # files the deploy did not write are the user's: listed, never deleted
    assert (dest / "hardware" / "old_driver.py").read_text() == "x = 1\n"
    assert (dest / "rolit_core" / "board.mpy").read_bytes() == b"M"
    assert re.search(r"^keep\s+hardware/old_driver.py .*not written by the deploy", out, re.M)
    assert (dest / "lib" / "other_library.py").exists()      # lib/ is shared: left alone
    assert "done: 0 change(s)" in out


def test_settings_without_rolit_keys_get_the_starter_appended(tmp_path):
    dest = tmp_path / "CIRCUITPY"
    dest.mkdir()
    (dest / "settings.toml").write_text('CIRCUITPY_WIFI_SSID = "school"')
    deploy.main([str(dest)])
    text = (dest / "settings.toml").read_text()
    assert text.startswith('CIRCUITPY_WIFI_SSID = "school"\n\n# Rolit Handheld')
    assert 'ROLIT_PRESET = "pico"' in text


def test_warnings_for_code_txt_and_old_circuitpython(tmp_path, capsys):
    dest = tmp_path / "CIRCUITPY"
    dest.mkdir()
    (dest / "code.txt").write_text("print(1)")
    (dest / "boot_out.txt").write_text("Adafruit CircuitPython 7.3.3 on 2022-08-29; Raspberry Pi"
                                       " Pico with rp2040\n")
    deploy.main([str(dest), "--dry-run"])
    out = capsys.readouterr().out
    assert "runs code.txt instead of code.py" in out
    assert "7.3 is too old" in out
    (dest / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi"
                                       " Pico W with rp2040\n")
    assert deploy.circuitpython_version(str(dest)) == (9, 2)


def test_missing_drive_is_an_error(tmp_path, capsys):
    assert deploy.main([str(tmp_path / "not" / "mounted")]) == 1
    assert "is the CIRCUITPY drive mounted?" in capsys.readouterr().err


def tree(folder):
    """Every file and link under ``folder`` with its bytes (or link target)."""
    found = {}
    for base, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(base, name)
            if os.path.islink(path):
                found[path] = "-> " + os.readlink(path)
            elif os.path.isfile(path):
                found[path] = read(path)
    return found


def test_a_linked_code_py_is_refused_and_its_target_untouched(tmp_path, capsys):
    outside = tmp_path / "precious.py"
    outside.write_text("my own work\n")
    dest = tmp_path / "CIRCUITPY"
    dest.mkdir()
    os.symlink(str(outside), str(dest / "code.py"))
    before = tree(str(tmp_path))
    for args in ([str(dest), "--dry-run"], [str(dest)]):
        assert deploy.main(args) == 1
        assert "code.py is a link" in one_line_error(capsys)
        assert tree(str(tmp_path)) == before   # nothing written, not even in DEST


def test_a_linked_folder_is_refused(tmp_path, capsys):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    dest = tmp_path / "CIRCUITPY"
    dest.mkdir()
    os.symlink(str(outside), str(dest / "hardware"))
    assert deploy.main([str(dest)]) == 1
    assert "hardware is a link" in one_line_error(capsys)
    assert os.listdir(str(outside)) == [] and os.listdir(str(dest)) == ["hardware"]


def test_only_unchanged_files_the_deploy_wrote_are_removed(tmp_path, capsys):
    dest = tmp_path / "CIRCUITPY"
    assert deploy.main([str(dest)]) == 0
    manifest = (dest / deploy.MANIFEST).read_text()
    assert " hardware/matrix.py\n" in manifest and "settings.toml" not in manifest
    # Pretend an earlier version of the game also had two more modules (both in the manifest);
    # the user then edited one of them and wrote a module of their own.
    for name, text in (("gone.py", "old = 1\n"), ("edited.py", "old = 2\n")):
        (dest / "hardware" / name).write_text(text)
        manifest += "%s hardware/%s\n" % (deploy._digest(text.encode()), name)
    manifest += "%s ../outside.py\n" % deploy._digest(b"x = 1\n")  # never outside DEST
    (tmp_path / "outside.py").write_text("x = 1\n")
    (dest / deploy.MANIFEST).write_text(manifest)
    (dest / "hardware" / "edited.py").write_text("mine = 3\n")
    (dest / "hardware" / "mine.py").write_text("mine = 4\n")
    capsys.readouterr()
    assert deploy.main([str(dest)]) == 0
    out = capsys.readouterr().out
    assert not (dest / "hardware" / "gone.py").exists()
    assert re.search(r"^remove\s+hardware/gone.py", out, re.M)
    assert (dest / "hardware" / "edited.py").read_text() == "mine = 3\n"
    assert (dest / "hardware" / "mine.py").read_text() == "mine = 4\n"
    assert (tmp_path / "outside.py").read_text() == "x = 1\n"
    assert "gone.py" not in (dest / deploy.MANIFEST).read_text()


@pytest.mark.parametrize("make, words", [
    (lambda dest: dest.write_text("not a drive"), "is a file, not a folder"),
    (lambda dest: (dest.mkdir(), (dest / "settings.toml").mkdir()),
     "settings.toml is a folder"),
    (lambda dest: (dest.mkdir(), (dest / "lib").write_text("")), "lib is a file"),
    (lambda dest: (dest.mkdir(), (dest / "rolit_core").write_text("")), "rolit_core is a file"),
])
def test_impossible_drives_are_one_line_errors_in_the_dry_run_too(tmp_path, capsys, make, words):
    dest = tmp_path / "CIRCUITPY"
    make(dest)
    before = tree(str(tmp_path))
    for args in ([str(dest), "--dry-run"], [str(dest)]):
        assert deploy.main(args) == 1
        assert words in one_line_error(capsys)
        assert tree(str(tmp_path)) == before


def test_read_only_drive_is_a_one_line_error(capsys):
    base = tempfile.mkdtemp()
    os.chmod(base, 0o755)
    dest = os.path.join(base, "CIRCUITPY")
    os.mkdir(dest)
    os.chmod(dest, 0o555)
    try:
        for extra in (["--dry-run"], []):
            if os.access(dest, os.W_OK):  # root writes anyway: run the deploy as nobody
                python = _python_for_nobody()
                if python is None:
                    pytest.skip("cannot make a folder read-only for this user")
                result = subprocess.run([python, "-m", "sim.deploy", dest] + extra,
                                        cwd=ROOT, capture_output=True, text=True,
                                        preexec_fn=_as_nobody)
                status, err = result.returncode, result.stderr
            else:
                status = deploy.main([dest] + extra)
                err = capsys.readouterr().err
            assert status == 1
            lines = err.strip().splitlines()
            assert len(lines) == 1 and "read-only" in lines[0], err
        assert os.listdir(dest) == []
    finally:
        os.chmod(dest, 0o755)
        shutil.rmtree(base)


def _as_nobody():
    os.setgid(65534)
    os.setgroups([])
    os.setuid(65534)


def _python_for_nobody():
    """A Python that the user nobody may run (root's own may sit in a private folder); the
    deploy checks the drive with the standard library only."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    for python in (sys.executable, "/usr/bin/python3", shutil.which("python3")):
        try:
            if python and subprocess.run([python, "-c", "pass"], cwd=ROOT,
                                         preexec_fn=_as_nobody).returncode == 0:
                return python
        except OSError:
            continue
    return None


def test_a_failed_write_keeps_the_old_file_and_says_so_in_one_line(tmp_path, capsys,
                                                                   monkeypatch):
    """A drive that fills up (or is unplugged) in the middle of a write: the old code.py is
    still whole, no temporary file is left, and the error is one line."""
    dest = tmp_path / "CIRCUITPY"
    dest.mkdir()
    (dest / "code.py").write_text("print('the last good copy')\n")
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, handle, mode):
            self.file = real_fdopen(handle, mode)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.file.close()

        def write(self, data):
            self.file.write(data[:10])
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(deploy.os, "fdopen", Full)
    assert deploy.main([str(dest)]) == 1
    assert "No space left on device" in one_line_error(capsys)
    assert (dest / "code.py").read_text() == "print('the last good copy')\n"
    assert [name for name in os.listdir(str(dest)) if name.endswith(deploy.TEMPORARY)] == []


def test_the_users_own_code_py_is_kept_under_a_free_name(tmp_path, capsys):
    """A teacher's Pico with last term's project in code.py (and already a copy of an older
    one): the dry run says what happens to it and writes nothing; the deploy keeps it as the
    next free ``code-before-rolit`` name, byte for byte."""
    dest = tmp_path / "CIRCUITPY"
    dest.mkdir()
    (dest / "code.py").write_bytes(b"import board\r\nprint('last term')\r\n")
    (dest / "code-before-rolit.py").write_text("print('the term before')\n")
    before = tree(str(dest))
    assert deploy.main([str(dest), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^rename\s+code.py -> code-before-rolit-2.py .*yours", out, re.M), out
    assert tree(str(dest)) == before
    assert deploy.main([str(dest)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^rename\s+code.py -> code-before-rolit-2.py", out, re.M)
    assert read(dest / "code-before-rolit-2.py") == b"import board\r\nprint('last term')\r\n"
    assert (dest / "code-before-rolit.py").read_text() == "print('the term before')\n"
    assert read(dest / "code.py") == read(os.path.join(ROOT, "code.py"))
    # The kept copies are the user's: a later deploy leaves them alone.
    assert deploy.main([str(dest)]) == 0
    assert "done: 0 change(s)" in capsys.readouterr().out
    assert sorted(n for n in os.listdir(str(dest)) if n.startswith("code")) == [
        "code-before-rolit-2.py", "code-before-rolit.py", "code.py"]


# What CircuitPython writes into a fresh drive (supervisor/shared/filesystem.c): the line, or
# an empty file on small builds; as an editor on Windows may have saved it.
@pytest.mark.parametrize("stock", [b'print("Hello World!")\n', b'print("Hello World!")\r\n',
                                   b'print("Hello World!")', b""])
def test_circuitpythons_stock_code_py_is_replaced(tmp_path, capsys, stock):
    dest = tmp_path / "CIRCUITPY"
    dest.mkdir()
    (dest / "code.py").write_bytes(stock)
    assert deploy.main([str(dest)]) == 0
    assert "rename" not in capsys.readouterr().out
    assert read(dest / "code.py") == read(os.path.join(ROOT, "code.py"))
    assert sorted(os.listdir(str(dest))) == [deploy.MANIFEST, "code.py", "hardware", "lib",
                                             "rolit_core", "settings.toml"]


def test_any_file_in_the_games_way_that_the_deploy_did_not_write_is_kept(tmp_path, capsys):
    """Not only code.py: a library of the user's at lib/neopixel.py, a module of the game the
    user edited on the board (listed in the manifest, with another checksum), a module copied
    by hand before the deploy existed. Each is kept under a free name and said so."""
    dest = tmp_path / "CIRCUITPY"
    assert deploy.main([str(dest)]) == 0
    (dest / "rolit_core" / "app.py").write_text("# my changes\n")
    (dest / "lib" / "neopixel.py").write_text("# my own neopixel\n")
    os.remove(str(dest / "hardware" / "matrix.py"))
    manifest = (dest / deploy.MANIFEST).read_text()
    (dest / deploy.MANIFEST).write_text("\n".join(
        line for line in manifest.splitlines() if not line.endswith(" hardware/matrix.py")) + "\n")
    (dest / "hardware" / "matrix.py").write_text("# copied by hand, an old version\n")
    capsys.readouterr()
    assert deploy.main([str(dest)]) == 0
    out = capsys.readouterr().out
    for relative, kept, text in (
            ("rolit_core/app.py", "rolit_core/app-before-rolit.py", "# my changes\n"),
            ("lib/neopixel.py", "lib/neopixel-before-rolit.py", "# my own neopixel\n"),
            ("hardware/matrix.py", "hardware/matrix-before-rolit.py",
             "# copied by hand, an old version\n")):
        assert re.search(r"^rename\s+%s -> %s" % (re.escape(relative), re.escape(kept)), out,
                         re.M), relative
        assert (dest / kept).read_text() == text
    assert read(dest / "rolit_core" / "app.py") == read(os.path.join(ROOT, "rolit_core",
                                                                     "app.py"))
    assert "done: 6 change(s)" in out  # three files kept aside, three written


def test_a_foreign_file_at_the_manifests_name_is_refused(tmp_path, capsys):
    dest = tmp_path / "CIRCUITPY"
    dest.mkdir()
    (dest / deploy.MANIFEST).write_text("my notes\n")
    for args in ([str(dest), "--dry-run"], [str(dest)]):
        assert deploy.main(args) == 1
        assert "is not the deploy's own list" in one_line_error(capsys)
    assert os.listdir(str(dest)) == [deploy.MANIFEST]
    assert (dest / deploy.MANIFEST).read_text() == "my notes\n"


def test_a_huge_manifest_or_boot_out_is_not_read_whole(tmp_path, capsys):
    dest = tmp_path / "CIRCUITPY"
    dest.mkdir()
    (dest / "boot_out.txt").write_bytes(b"Adafruit CircuitPython 9.2.1 on 2024-11-20" +
                                        b"x" * (4 << 20))
    assert deploy.circuitpython_version(str(dest)) == (9, 2)  # from its first 512 bytes
    (dest / deploy.MANIFEST).write_bytes(deploy.MANIFEST_HEADER.encode() + b"\n" +
                                         b"#" * (2 << 20))
    assert deploy.main([str(dest), "--dry-run"]) == 1
    assert "not the deploy's own list" in one_line_error(capsys)


def test_a_file_at_a_temporary_name_is_not_the_deploys(tmp_path):
    """A file that happens to have the name of the deploy's temporary copy, not listed by it:
    left alone, another temporary name is used."""
    dest = tmp_path / "CIRCUITPY"
    dest.mkdir()
    (dest / ("code.py" + deploy.TEMPORARY)).write_text("mine\n")
    assert deploy.main([str(dest)]) == 0
    assert (dest / ("code.py" + deploy.TEMPORARY)).read_text() == "mine\n"
    assert read(dest / "code.py") == read(os.path.join(ROOT, "code.py"))
    assert [n for n in os.listdir(str(dest)) if deploy.TEMPORARY in n] == [
        "code.py" + deploy.TEMPORARY]


def test_the_manifest_keeps_every_file_so_a_stale_one_goes_on_the_third_deploy(tmp_path,
                                                                               monkeypatch):
    """The game had a module; a second deploy finds every file unchanged (writes nothing); the
    game then drops the module: the third deploy still knows it wrote it and removes it."""
    dest = tmp_path / "CIRCUITPY"
    real = deploy.game_files
    with monkeypatch.context() as patch:
        patch.setattr(deploy, "game_files", lambda compiler=None: [
            ("rolit_core/dropped.py", b"old = 1\n", "")] + real(compiler))
        assert deploy.main([str(dest)]) == 0
        assert deploy.main([str(dest)]) == 0
    assert (dest / "rolit_core" / "dropped.py").exists()
    assert deploy.main([str(dest)]) == 0
    assert not (dest / "rolit_core" / "dropped.py").exists()
    assert "dropped.py" not in (dest / deploy.MANIFEST).read_text()


def test_a_dry_run_to_a_drive_that_is_not_mounted_fails_as_the_deploy_does(tmp_path, capsys,
                                                                            monkeypatch):
    """``make deploy DEST=/media/me/CIRCUITPY ARGS=--dry-run`` with the board unplugged: both
    the dry run and the deploy say the drive is not mounted, and neither creates the folder
    (which would put the game on this computer and make the drive mount elsewhere)."""
    monkeypatch.setattr(deploy, "AUTOMOUNT_ROOTS", (str(tmp_path / "media"),))
    (tmp_path / "media" / "me").mkdir(parents=True)
    for dest in (tmp_path / "media" / "me" / "CIRCUITPY", tmp_path / "not" / "there"):
        for args in ([str(dest), "--dry-run"], [str(dest)]):
            assert deploy.main(args) == 1
            assert "is the CIRCUITPY drive mounted?" in one_line_error(capsys)
            assert not dest.exists()
    other = tmp_path / "media" / "me" / "rolit"  # any other new folder is made
    assert deploy.main([str(other)]) == 0 and (other / "code.py").exists()


def test_a_read_only_folder_of_the_game_is_found_by_the_dry_run(tmp_path, capsys, monkeypatch):
    """A writable drive whose rolit_core/ is read-only (as the OS says: root writes anyway, so
    the answer is the OS's, given by the test): the dry run fails as the deploy would, in one
    line, before anything is written."""
    dest = tmp_path / "CIRCUITPY"
    assert deploy.main([str(dest)]) == 0
    with open(str(dest / "rolit_core" / "board.py"), "a") as handle:
        handle.write("# changed\n")
    locked = str(dest / "rolit_core")
    real_access = os.access
    monkeypatch.setattr(deploy.os, "access", lambda path, mode: (
        os.path.abspath(path) != locked or not mode & os.W_OK) and real_access(path, mode))
    before = tree(str(dest))
    capsys.readouterr()
    for args in ([str(dest), "--dry-run"], [str(dest)]):
        assert deploy.main(args) == 1
        assert "rolit_core is read-only" in one_line_error(capsys)
        assert tree(str(dest)) == before


def test_a_preset_that_the_kept_settings_toml_is_not_for_is_said(tmp_path, capsys):
    """``--preset feather_rp2040`` onto a drive whose settings.toml is the user's, for the pico:
    the file is kept, and the output says that the preset changed nothing."""
    dest = tmp_path / "CIRCUITPY"
    assert deploy.main([str(dest)]) == 0
    capsys.readouterr()
    assert deploy.main([str(dest), "--preset", "feather_rp2040", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^keep\s+settings.toml .*--preset feather_rp2040 changes nothing \(it is "
                     r"for pico\)", out, re.M), out
    assert deploy.main([str(dest), "--preset", "pico", "--dry-run"]) == 0
    assert "changes nothing" not in capsys.readouterr().out


def test_settings_toml_is_never_removed_even_if_a_manifest_lists_it(tmp_path):
    dest = tmp_path / "CIRCUITPY"
    assert deploy.main([str(dest)]) == 0
    settings = read(dest / "settings.toml")
    with open(str(dest / deploy.MANIFEST), "a") as handle:
        handle.write("%s settings.toml\n" % deploy._digest(settings))
    assert deploy.main([str(dest)]) == 0
    assert read(dest / "settings.toml") == settings


def test_a_deploy_into_a_new_folder_that_fails_leaves_no_folder(tmp_path, capsys, monkeypatch):
    real_fsync = os.fsync
    calls = []

    def fsync(handle):
        calls.append(handle)
        if len(calls) == 4:
            raise OSError(28, "No space left on device")
        real_fsync(handle)

    monkeypatch.setattr(deploy.os, "fsync", fsync)
    assert deploy.main([str(tmp_path / "rolit")]) == 1
    assert "No space left on device" in one_line_error(capsys)
    assert os.listdir(str(tmp_path)) == []


def test_a_module_at_the_top_that_hides_a_library_is_warned_about(tmp_path, capsys):
    dest = tmp_path / "CIRCUITPY"
    dest.mkdir()
    (dest / "neopixel.mpy").write_bytes(b"C\x06")
    assert deploy.main([str(dest), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^warn\s+neopixel.mpy .*instead of lib/neopixel.py", out, re.M)


# -- the deployed folder on a MicroPython-family interpreter ---------------------------------

STEP = 20
START = (1 << 29) - 30000   # the clock wraps 30 s into the game, as boards do after 6 days
PINS = ("GP2", "GP3", "GP4", "GP5", "GP6", "GP7")   # up, down, left, right, select, back (pico)
TEST_SETTINGS = b"\n# test run\nROLIT_FRAME_MS = 0\nROLIT_SEED = %d\n"

RUNNER = """
import sys, os
sys.path.insert(0, %(doubles)r)
sys.path.insert(0, %(builtins)r)
os.chdir(%(dest)r)
sys.path.insert(0, %(dest)r + "/lib")
sys.path.insert(0, %(dest)r)
import supervisor, keypad, neopixel_write, microcontroller
supervisor.STEP = %(step)d
supervisor.START = %(start)d
supervisor.STOP_AT = %(stop)d
keypad.SCRIPT[:] = %(script)r
neopixel_write.FAIL_AT = %(fail)r
if %(nvm)r:
    microcontroller.nvm._data[0:4096] = bytes.fromhex(%(nvm)r)
try:
    exec(open("code.py").read(), {"__name__": "__main__"})
    print("code.py returned")
except KeyboardInterrupt:
    pass
print("FRAMES", neopixel_write.count)
print("LAST", neopixel_write.FRAMES[-1][1].hex())
print("NVM", bytes(microcontroller.nvm[0:4096]).hex())
print("NVM-WRITES", microcontroller.nvm.writes)
"""


def deployed(tmp_path, seed):
    """Deploy to a folder, add the test settings, and put the pip pixelbuf beside it (it is
    built into CircuitPython)."""
    dest = tmp_path / "CIRCUITPY"
    assert deploy.main([str(dest)]) == 0
    with open(dest / "settings.toml", "ab") as handle:
        handle.write(TEST_SETTINGS % seed)
    builtins = tmp_path / "builtins"
    builtins.mkdir()
    shutil.copy(library_path("adafruit_pixelbuf"), builtins / "adafruit_pixelbuf.py")
    return dest, builtins


def wasm_path(host):
    """Where tools/mpy_run.mjs puts a --tree folder inside the interpreter's file system."""
    return os.path.normpath(os.path.join("/work", os.path.relpath(str(host), ROOT)))


def run_device(dest, builtins, script, stop, fail=None, nvm=""):
    from micropython import run_micropython

    source = RUNNER % {"doubles": wasm_path(DOUBLES), "builtins": wasm_path(builtins),
                       "dest": wasm_path(dest),
                       "step": STEP, "start": START, "stop": stop, "script": script,
                       "fail": fail, "nvm": nvm}
    out = run_micropython(source, trees=(str(dest), str(builtins), DOUBLES))
    values = {}
    for line in out.splitlines():
        for name in ("FRAMES", "LAST", "NVM", "NVM-WRITES"):
            if line.startswith(name + " "):
                values[name] = line.split(" ", 1)[1]
    return out, values


def taps(keys, pins=PINS):
    entries = []
    for key in keys:
        entries.append((pins[key], True))
        entries.append((pins[key], False))
    return entries


def script_game(seed, app_class):
    """Play a whole game on the desktop with the same App, clock and keys the device will see,
    choosing each human move by a fixed rule; returns the key script (in device pins), the
    game log lines, the last frame and the app."""
    from hardware.gamelog import GameLog
    from rolit_core.app import DOWN, LEFT, RIGHT, SELECT, UP

    app = app_class(storage=None, seed=seed)
    lines = []
    log = GameLog(lines.append)
    script = []
    frame = None
    over_at = None
    k = 0
    while over_at is None or k < over_at + 60:
        keys = []
        mode = app.mode
        if mode in ("title", "menu") and k % 10 == 5:
            keys = [SELECT]   # the title goes to the menu, whose first page is "play"
        elif mode == "play" and app.phase == "input":
            game = app.game
            moves = game.legal_moves()
            target = moves[(len(game.moves) * 7) % len(moves)]
            size = game.size
            row, col = divmod(app.cursor, size)
            down = (target // size - row) % size
            right = (target % size - col) % size
            keys = [DOWN] * down if down <= size // 2 else [UP] * (size - down)
            keys += [RIGHT] * right if right <= size // 2 else [LEFT] * (size - right)
            keys.append(SELECT)
        events = []
        for key in keys:
            events += [(key, True), (key, False)]
        for pin, pressed in taps(keys):
            script.append((k * STEP, pin, pressed))
        frame = tuple(app.update((START + k * STEP) & ((1 << 29) - 1), events))
        log.update(app)
        if app.game is not None and app.game.over and over_at is None:
            over_at = k
        k += 1
        assert k < 20000, "the scripted game did not finish"
    return script, lines, frame, app, k


def expected_bytes(frame):
    """What the default matrix (pico preset) sends for ``frame``, via the real pixelbuf."""
    from device_doubles import Device
    from hardware import config
    from hardware.matrix import Matrix

    device = Device()
    try:
        pixels = device.neopixel.NeoPixel(device.board.GP0, 64, auto_write=False)
        Matrix.from_settings(pixels, config.load({}.get, "/none")).show(frame)
        return device.neopixel_write.FRAMES[-1][1]
    finally:
        device.close()


@pytest.mark.micropython
@pytest.mark.slow
def test_deployed_code_plays_a_scripted_game_under_micropython(tmp_path):
    from hardware.storage import NvmStorage
    from rolit_core.app import App

    seed = 11
    script, lines, frame, app, frames = script_game(seed, App)
    assert app.game.over and len(app.game.moves) == 60
    dest, builtins = deployed(tmp_path, seed)
    out, values = run_device(dest, builtins, script, stop=(frames - 1) * STEP)

    assert "ROLIT HANDHELD" in out and "controls: buttons" in out
    assert "settings:" not in out and "error in frame" not in out
    device_log = [line for line in out.splitlines()
                  if re.match(r"(game \d|\s+\d+\. |round over)", line)]
    assert device_log == lines
    assert lines[-1].startswith("round over: ")
    assert len([line for line in lines if re.match(r"\s+\d+\. ", line)]) == 60
    # The LEDs got the very bytes the driver makes of the last frame on the desktop.
    assert bytes.fromhex(values["LAST"]) == expected_bytes(frame)
    # The nvm holds the game as the app would save it, written sparingly.
    nvm = bytearray(bytes.fromhex(values["NVM"]))
    assert NvmStorage(nvm).load() == app.state_bytes()
    assert int(values["NVM-WRITES"]) <= 62


@pytest.mark.micropython
def test_a_crash_in_a_frame_restarts_from_the_saved_game(tmp_path):
    from rolit_core.app import App

    seed = 5
    script, lines, frame, app, frames = script_game(seed, App)
    dest, builtins = deployed(tmp_path, seed)
    # The 150th LED write raises (some moves in); stop 20 s in.
    out, values = run_device(dest, builtins, script, stop=20000, fail=150)
    assert "error in frame" in out and "test glitch on the LED data line" in out
    assert "restarting the game from the saved state" in out
    before = out.split("error in frame")[0]
    after = out.split("restarting the game from the saved state")[1]
    played = re.findall(r"^\s+(\d+)\. ", before, re.M)
    assert played, out
    resumed = re.search(r"\(resumed after move (\d+)\)", after)
    # The save may be one move ahead of the log (a move is logged when its ball lands).
    assert resumed and int(resumed.group(1)) in (int(played[-1]), int(played[-1]) + 1)


@pytest.mark.micropython
def test_the_game_survives_a_power_cycle(tmp_path):
    from rolit_core.app import App

    seed = 8
    script, lines, frame, app, frames = script_game(seed, App)
    dest, builtins = deployed(tmp_path, seed)
    first, values = run_device(dest, builtins, script, stop=9000)
    played = re.findall(r"^\s+(\d+)\. ", first, re.M)
    assert played
    # What the nvm holds, read on the desktop (the log prints a move when its ball lands, so
    # the save may be one move ahead of it).
    from hardware.storage import NvmStorage

    saved = App(storage=NvmStorage(bytearray(bytes.fromhex(values["NVM"]))))
    count = len(saved.match.game.moves)
    assert count in (int(played[-1]), int(played[-1]) + 1)
    # Power off and on: a fresh interpreter, only the nvm bytes carried over.
    second, _ = run_device(dest, builtins, [], stop=2000, nvm=values["NVM"])
    assert "(resumed after move %d)" % count in second
    assert "saved game:" not in second
