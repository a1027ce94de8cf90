"""``python web/build.py OUT`` replaces an earlier build in OUT and nothing else: a folder of
someone's files, or a file, is left untouched with a one-line refusal."""

import os
import subprocess
import sys

import pytest

from web import build

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def needs_interpreter():
    for name in build.INTERPRETER:
        if not os.path.exists(os.path.join(build.PACKAGE, name)):
            pytest.skip("%s is missing: run `make setup` (npm ci) first" % name)


def run_build(out):
    done = subprocess.run([sys.executable, os.path.join(ROOT, "web", "build.py"), str(out)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    return done.returncode, done.stderr


def test_an_earlier_build_is_replaced(tmp_path):
    needs_interpreter()
    out = tmp_path / "site"
    assert build.build(str(out)) == str(out)
    (out / "rolit.html").write_text("an older page")
    assert build.build(str(out)) == str(out)
    assert sorted(os.listdir(str(out))) == sorted(build.BUILT)
    assert (out / "rolit.html").read_text() != "an older page"


def test_a_folder_of_other_files_is_refused_and_kept(tmp_path):
    needs_interpreter()
    out = tmp_path / "Documents"
    out.mkdir()
    (out / "essay.txt").write_text("my essay")
    (out / "index.html").write_text("my home page")
    status, err = run_build(out)
    assert status == 1 and len(err.strip().splitlines()) == 1, err
    assert "is not a build of the page (it holds essay.txt)" in err and "untouched" in err
    assert (out / "essay.txt").read_text() == "my essay"
    assert (out / "index.html").read_text() == "my home page"


def test_a_file_as_the_folder_is_refused_and_kept(tmp_path):
    needs_interpreter()
    out = tmp_path / "notes.txt"
    out.write_text("notes")
    status, err = run_build(out)
    assert status == 1 and "is a file, not a folder" in err
    assert out.read_text() == "notes"


def test_the_page_gets_the_same_opening_book_as_the_device(tmp_path):
    import base64
    import json

    from sim import deploy

    assert build.DATA_FILES == deploy.DATA_FILES
    text = build.sources_module(build.python_sources(), build.data_files())
    data = json.loads(text.split("export const DATA = ", 1)[1].rsplit(";", 1)[0])
    with open(os.path.join(ROOT, "rolit_core", "book.bin"), "rb") as handle:
        assert base64.b64decode(data["rolit_core/book.bin"]) == handle.read()
    main = open(os.path.join(ROOT, "web", "main.js")).read()
    assert "Object.entries(DATA)" in main and "Uint8Array" in main
