"""tests/conftest.py: the deploys of a run read the game's files as the run found them, and the
run's summary names each file that changed in the checkout meanwhile."""

import os
import subprocess
import sys

from tree_copy import copy_parts

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CHANGES_A_FILE = '''
import os

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_1_another_tool_empties_a_module():
    with open(os.path.join(HERE, "hardware", "nvmstore.py"), "w"):
        pass


def test_2_the_deploy_still_has_it():
    from sim import deploy

    files = dict((relative, data) for relative, data, _ in deploy.game_files())
    assert b"class NoStorage" in files["hardware/nvmstore.py"]
    assert files["code.py"] == open(os.path.join(HERE, "code.py"), "rb").read()
'''


def checkout(folder):
    """A checkout of the game, its simulator and the suite's conftest in ``folder``."""
    copy_parts(ROOT, ("rolit_core", "hardware", "sim", "code.py", "tests/conftest.py",
                      "tests/tree_copy.py"), folder)


def pytest_in(folder, test_file):
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           test_file], cwd=str(folder), capture_output=True, text=True,
                          timeout=300)


def test_a_module_emptied_mid_run_is_deployed_whole_and_named(tmp_path):
    checkout(tmp_path)
    (tmp_path / "tests" / "test_changes.py").write_text(CHANGES_A_FILE)
    size = os.path.getsize(os.path.join(ROOT, "hardware", "nvmstore.py"))
    done = pytest_in(tmp_path, "tests/test_changes.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "game files changed during the run" in done.stdout
    assert ("hardware/nvmstore.py: %d B at the start, 0 B now (first seen after "
            "tests/test_changes.py::test_1_another_tool_empties_a_module)" % size) in done.stdout
    assert "code.py:" not in done.stdout.replace("nvmstore.py:", "")


def test_an_unchanged_checkout_says_nothing(tmp_path):
    checkout(tmp_path)
    (tmp_path / "tests" / "test_reads.py").write_text(
        "def test_reads():\n    from sim import deploy\n    assert deploy.game_files()\n")
    done = pytest_in(tmp_path, "tests/test_reads.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "changed during the run" not in done.stdout
