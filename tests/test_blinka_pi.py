"""A Raspberry Pi as the handheld: what ``python -m sim.deploy DEST --preset blinka_pi`` writes
(the systemd unit, checked by ``systemd-analyze verify``, and the steps it prints), and the
unit's own command starting the deployed game under Blinka."""

import configparser
import os
import shlex
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNIT = "rolit-handheld.service"


def deploy(dest, *args):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "sim.deploy", str(dest)] + list(args),
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def fake_venv(dest):
    """``DEST/.venv/bin/python``, as the Pi's steps make it: here this Python."""
    python = dest / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text('#!/bin/sh\nexec %s "$@"\n' % shlex.quote(sys.executable))
    python.chmod(0o755)
    return python


def sections(text):
    parser = configparser.ConfigParser(strict=True, interpolation=None)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read_string(text)
    return parser


def test_deploy_writes_the_unit_for_the_folder_and_prints_the_steps(tmp_path):
    dest = tmp_path / "rolit"
    done = deploy(dest, "--preset", "blinka_pi")
    assert done.returncode == 0, done.stderr
    folder = str(dest)
    unit = sections((dest / UNIT).read_text())
    assert unit.sections() == ["Unit", "Service", "Install"]
    service = unit["Service"]
    assert service["WorkingDirectory"] == folder
    assert service["ExecStart"] == "%s/.venv/bin/python %s/code.py" % (folder, folder)
    assert service["Restart"] == "on-failure"
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    out = done.stdout
    for step in ("python3 -m venv %s/.venv" % folder,
                 "%s/.venv/bin/pip install Adafruit-Blinka==10.0.0 "
                 "adafruit-circuitpython-neopixel==6.4.2 adafruit-circuitpython-pixelbuf==2.1.0"
                 % folder,
                 '"rpi_ws281x>=4.0.0"    # Pi 1-4',
                 "Adafruit-Blinka-Raspberry-Pi5-Neopixel    # Pi 5",
                 "sudo cp %s/%s /etc/systemd/system/" % (folder, UNIT),
                 "sudo systemctl daemon-reload && sudo systemctl enable --now rolit-handheld",
                 "sudo systemctl stop rolit-handheld"):
        assert step in out, step
    assert "serial console" not in out and "`.venv/bin/python code.py`" in out  # a Pi, not a board
    assert " %s\n" % UNIT in (dest / ".rolit-deploy").read_text()  # a later deploy updates it
    assert 'ROLIT_PRESET = "blinka_pi"' in (dest / "settings.toml").read_text()
    # The other presets are CircuitPython boards: no unit.
    other = tmp_path / "pico"
    assert deploy(other, "--preset", "pico").returncode == 0
    assert not (other / UNIT).exists()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_the_unit_passes_systemd_analyze_verify(tmp_path):
    dest = tmp_path / "rolit"
    assert deploy(dest, "--preset", "blinka_pi").returncode == 0
    fake_venv(dest)
    done = subprocess.run(["systemd-analyze", "verify", str(dest / UNIT)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    # and it does catch a broken one
    broken = tmp_path / UNIT
    broken.write_text((dest / UNIT).read_text().replace("Restart=on-failure", "Restart=often"))
    done = subprocess.run(["systemd-analyze", "verify", str(broken)], capture_output=True,
                          text=True, timeout=60)
    assert "Failed to parse service restart" in done.stderr


def test_the_units_command_starts_the_deployed_game_in_its_folder(tmp_path):
    """ExecStart, run as systemd would (in WorkingDirectory), under Blinka's OS-agnostic board:
    the game reads the folder's settings.toml (the blinka_pi pins, which that board lacks) and
    plays until ROLIT_MAX_FRAMES."""
    dest = tmp_path / "rolit"
    assert deploy(dest, "--preset", "blinka_pi").returncode == 0
    fake_venv(dest)
    service = sections((dest / UNIT).read_text())["Service"]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "LANG": "C.UTF-8", "BLINKA_OS_AGNOSTIC": "1", "ROLIT_MAX_FRAMES": "5",
           "ROLIT_FRAME_MS": "0"}
    done = subprocess.run(shlex.split(service["ExecStart"]), cwd=service["WorkingDirectory"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "ROLIT HANDHELD" in done.stdout
    assert "settings: matrix: this board has no pin 'D18' (check settings.toml)" in done.stdout
    assert "saving: FileStorage" in done.stdout


def test_deploy_refuses_a_folder_a_unit_cannot_name(tmp_path):
    dest = tmp_path / "my games"
    done = deploy(dest, "--preset", "blinka_pi")
    assert done.returncode == 1
    assert done.stderr.startswith("deploy: a systemd unit cannot run the game from ")
    assert len(done.stderr.splitlines()) == 1
    assert not dest.exists()
