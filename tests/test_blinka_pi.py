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


def pi_steps():
    """The commands of docs/hardware.md's Pi "Step by step", as typed (comments dropped)."""
    with open(os.path.join(ROOT, "docs", "hardware.md")) as handle:
        guide = handle.read()
    start = guide.index("### Step by step", guide.index("## A Raspberry Pi as the handheld"))
    section = guide[start:guide.index("\n### ", start + 1)]
    commands = [line.split("   #")[0].strip() for line in section.splitlines()
                if line.startswith("       ") and line.strip()]
    return section, commands


def test_the_docs_pi_steps_are_the_commands_the_deploy_prints_and_they_run(tmp_path):
    """Every command the deploy prints for the Pi is in the guide's steps, for ~/rolit; the
    guide's own deploy command (step 4) and its "try it" (step 5, less sudo) run as typed."""
    home = tmp_path / "home"
    home.mkdir()
    folder = home / "rolit"
    section, commands = pi_steps()
    assert "~/rolit/.venv/bin/python -m sim.deploy ~/rolit --preset blinka_pi" in commands
    fake_venv(folder)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home),
           "LANG": "C.UTF-8", "PYTHONPATH": ROOT}
    typed = "cd %s && %s" % (shlex.quote(ROOT), "~/rolit/.venv/bin/python -m sim.deploy ~/rolit "
                             "--preset blinka_pi")
    done = subprocess.run(["sh", "-c", typed], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert (folder / UNIT).exists() and (folder / "settings.toml").exists()
    printed = [line.strip() for line in done.stdout.split("the systemd unit; on the Pi, once")[1]
               .split("\nwrite")[0].splitlines()[1:]]
    assert len(printed) == 7
    stop, log = printed.pop().split("stop it: ")[1].split("; its log: ")
    for step in printed + [stop, log]:
        step = step.split("    #")[0].strip().replace(str(folder), "~/rolit")
        assert step in commands, step
    # What the guide says of the unit is what the deploy wrote.
    unit = sections((folder / UNIT).read_text())
    service = unit["Service"]
    words = " ".join(section.split())
    assert "runs `~/rolit/.venv/bin/python ~/rolit/code.py` in `~/rolit` as root" in words
    assert service["ExecStart"] == "%s/.venv/bin/python %s/code.py" % (folder, folder)
    assert service["WorkingDirectory"] == str(folder) and "User" not in service
    assert "restarts it 2 s after it dies" in words and service["RestartSec"] == "2"
    assert "five failed starts in a minute" in words
    assert (unit["Unit"]["StartLimitBurst"], unit["Unit"]["StartLimitIntervalSec"]) == ("5", "60")
    assert "stopped like Ctrl-C" in words and service["KillSignal"] == "SIGINT"
    # Step 5, as typed but for sudo: the game starts from the folder's settings.toml.
    try_it = [command for command in commands if command.endswith("python code.py")]
    assert try_it == ["cd ~/rolit && sudo .venv/bin/python code.py"]
    env.update(BLINKA_OS_AGNOSTIC="1", ROLIT_MAX_FRAMES="3", ROLIT_FRAME_MS="0")
    del env["PYTHONPATH"]
    done = subprocess.run(["sh", "-c", try_it[0].replace("sudo ", "")], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "ROLIT HANDHELD" in done.stdout and "saving: FileStorage" in done.stdout
