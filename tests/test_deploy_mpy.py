"""`python -m sim.deploy PATH --mpy-cross PATH`: the compiled deploy, switching between source and
compiled deploys both ways, and the compiler checked against the board's CircuitPython."""

import os
import re
import stat

import pytest

from deploy_drives import files, mpy_cross, one_line_error
from sim import deploy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOOT_OUT = "Adafruit CircuitPython %s on 2026-12-01; Raspberry Pi Pico with rp2040\n"


def modules():
    """The game's modules as the source deploy names them on the drive (code.py aside)."""
    found = []
    for package in deploy.PACKAGES:
        found += ["%s/%s" % (package, name) for name in os.listdir(os.path.join(ROOT, package))
                  if name.endswith(".py")]
    return sorted(found + ["lib/neopixel.py"])


def fake_compiler(tmp_path, banner, fails=False):
    """A stand-in for mpy-cross that says ``banner`` to --version and writes a small .mpy (or
    fails as a syntax error does)."""
    path = tmp_path / "mpy-cross"
    body = '''printf 'Traceback (most recent call last):\\n  File "%s", line 2\\nSyntaxError: ''' \
        '''invalid syntax\\n' "$1" >&2; exit 1''' if fails else \
        'printf "C\\006fake" > "$out"'
    path.write_text('#!/bin/sh\nif [ "$1" = "--version" ]; then echo "%s"; exit 0; fi\n'
                    'if [ "$1" = "-o" ]; then out="$2"; shift 2; fi\n'
                    '%s\n' % (banner, body))
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


CIRCUITPY_10 = "CircuitPython 10.3.0 on 2026-12-01; mpy-cross emitting mpy v6.3"


def test_every_module_but_code_py_is_compiled(tmp_path, capsys):
    compiler = mpy_cross()
    dest = tmp_path / "CIRCUITPY"
    dest.mkdir()
    (dest / "boot_out.txt").write_text(BOOT_OUT % "10.3.0")
    assert deploy.main([str(dest), "--mpy-cross", compiler]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^compiling with CircuitPython 10\.", out, re.M)
    on_drive = files(dest)
    compiled = sorted(name for name in on_drive if name.endswith(".mpy"))
    assert compiled == sorted(name[:-3] + ".mpy" for name in modules())
    assert [name for name in on_drive if name.endswith(".py")] == ["code.py"]
    assert on_drive["code.py"] == open(os.path.join(ROOT, "code.py"), "rb").read()
    for name in compiled:
        assert on_drive[name][:1] == b"C", name  # CircuitPython's .mpy header, not MicroPython's
    manifest = on_drive[deploy.MANIFEST].decode()
    assert " rolit_core/app.mpy\n" in manifest and " lib/neopixel.mpy\n" in manifest


def test_switching_between_source_and_compiled_deploys_works_both_ways(tmp_path, capsys):
    """Source, then compiled: each .py the deploy wrote goes (CircuitPython would import it
    before the .mpy); one the user edited is kept aside; the user's own module stays. Compiled,
    then source: the .mpy files go. The drive ends as a fresh source deploy plus the user's."""
    compiler = mpy_cross()
    dest = tmp_path / "CIRCUITPY"
    assert deploy.main([str(dest)]) == 0
    (dest / "rolit_core" / "app.py").write_text("# my changes\n")
    (dest / "hardware" / "mine.py").write_text("mine = 1\n")
    capsys.readouterr()
    assert deploy.main([str(dest), "--mpy-cross", compiler]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^remove\s+rolit_core/board.py .*import it instead of board.mpy", out, re.M)
    assert re.search(r"^rename\s+rolit_core/app.py -> rolit_core/app-before-rolit.py", out, re.M)
    on_drive = files(dest)
    assert sorted(name for name in on_drive if name.endswith(".py")) == [
        "code.py", "hardware/mine.py", "rolit_core/app-before-rolit.py"]
    assert "rolit_core/board.mpy" in on_drive
    assert deploy.main([str(dest)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^remove\s+rolit_core/board.mpy", out, re.M)
    fresh = tmp_path / "fresh"
    assert deploy.main([str(fresh)]) == 0
    expected = files(fresh)
    expected["hardware/mine.py"] = b"mine = 1\n"
    expected["rolit_core/app-before-rolit.py"] = b"# my changes\n"
    assert files(dest) == expected
    # And back to compiled once more: only the deploy's own files change.
    assert deploy.main([str(dest), "--mpy-cross", compiler]) == 0
    assert not re.search(r"^rename", capsys.readouterr().out, re.M)


def test_the_compiler_of_another_circuitpython_version_is_refused(tmp_path, capsys):
    compiler = fake_compiler(tmp_path, CIRCUITPY_10)
    dest = tmp_path / "CIRCUITPY"
    dest.mkdir()
    (dest / "boot_out.txt").write_text(BOOT_OUT % "9.2.1")
    for args in ([str(dest), "--dry-run"], [str(dest)]):
        assert deploy.main(args + ["--mpy-cross", compiler]) == 1
        line = one_line_error(capsys)
        assert "CircuitPython 9.2" in line and "10.3" in line and "would not load" in line
        assert deploy.MPY_CROSS_DOWNLOADS in line
    assert os.listdir(str(dest)) == ["boot_out.txt"]


@pytest.mark.parametrize("banner, words", [
    ("MicroPython v1.27.0 on 2025-12-09; mpy-cross emitting mpy v6.3",
     "is not CircuitPython's mpy-cross"),
    ("", "is not CircuitPython's mpy-cross"),
])
def test_a_compiler_that_is_not_circuitpythons_is_refused(tmp_path, capsys, banner, words):
    compiler = fake_compiler(tmp_path, banner)
    dest = tmp_path / "CIRCUITPY"
    for args in ([str(dest), "--dry-run"], [str(dest)]):
        assert deploy.main(args + ["--mpy-cross", compiler]) == 1
        line = one_line_error(capsys)
        assert words in line and deploy.MPY_CROSS_DOWNLOADS in line
    assert not dest.exists()


def test_a_missing_compiler_or_a_failed_compile_is_one_line(tmp_path, capsys):
    dest = tmp_path / "CIRCUITPY"
    assert deploy.main([str(dest), "--mpy-cross", str(tmp_path / "nope")]) == 1
    assert "cannot run mpy-cross" in one_line_error(capsys)
    broken = fake_compiler(tmp_path, CIRCUITPY_10, fails=True)
    assert deploy.main([str(dest), "--mpy-cross", broken]) == 1
    line = one_line_error(capsys)
    assert line.endswith('cannot compile rolit_core/__init__.py: File "rolit_core/__init__.py", '
                         'line 2 SyntaxError: invalid syntax'), line
    assert not dest.exists()


def test_mpy_cross_from_the_environment_and_a_drive_without_boot_out(tmp_path, capsys,
                                                                     monkeypatch):
    monkeypatch.setenv("MPY_CROSS", fake_compiler(tmp_path, CIRCUITPY_10))
    dest = tmp_path / "CIRCUITPY"
    assert deploy.main([str(dest), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^write\s+rolit_core/app.mpy ", out, re.M)
    assert re.search(r"^warn\s+boot_out.txt .*the .mpy files load only on CircuitPython 10\.x",
                     out, re.M), out


def test_a_relative_compiler_path_and_a_pi_preset(tmp_path, capsys, monkeypatch):
    """``--mpy-cross tools/mpy-cross`` from the current folder works (the compiles run
    elsewhere); a compiled deploy for the Raspberry Pi preset, whose CPython needs the .py files,
    is refused rather than done without a word."""
    (tmp_path / "tools").mkdir()
    fake_compiler(tmp_path / "tools", CIRCUITPY_10)
    monkeypatch.chdir(tmp_path)
    dest = tmp_path / "CIRCUITPY"
    assert deploy.main([str(dest), "--mpy-cross", os.path.join("tools", "mpy-cross")]) == 0
    assert (dest / "rolit_core" / "app.mpy").read_bytes() == b"C\x06fake"
    for args in ([str(dest), "--dry-run"], [str(dest)]):
        assert deploy.main(args + ["--preset", "blinka_pi", "--mpy-cross",
                                   os.path.join("tools", "mpy-cross")]) == 1
        assert "blinka_pi runs the game on CPython" in one_line_error(capsys)
