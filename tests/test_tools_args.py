"""``python -m bench`` and ``python -m sim.arena``: a wrong name or player is one line that says
what would be right, never a silent nothing or a traceback."""

import os
import subprocess
import sys

import pytest

from bench import __main__ as bench_main
from sim import arena

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_an_unknown_benchmark_names_the_benchmarks(capsys):
    assert bench_main.main(["cor"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "'cor'" in err[0] and "core, ai, app, hardware, sim, memory" in err[0]


def test_make_bench_with_a_wrong_name_fails():
    result = subprocess.run([sys.executable, "-m", "bench", "foo"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert "no benchmark 'foo'" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("players, words", [
    ("..x:f,easy", "cannot import '..x'"),
    (":f,easy", "cannot import ''"),
    ("no_such_module:f,easy", "cannot import 'no_such_module'"),
    ("examples.greedy_bot:nothing,easy", "has no function 'nothing'"),
    ("wizard,easy", "neither a level"),
    ("easy", "give 2, 3 or 4 players"),
])
def test_arena_players_that_cannot_load_are_one_line_errors(capsys, players, words):
    with pytest.raises(SystemExit) as stop:
        arena.main(["--players", players, "--games", "1"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0], err


@pytest.mark.parametrize("argv, words", [
    (["--games", "0"], "--games must be 1-1000000"),
    (["--jobs", "0"], "--jobs must be 1-64"),
    (["--games", "x"], "invalid int value"),
])
def test_arena_numbers_out_of_range(capsys, argv, words):
    with pytest.raises(SystemExit):
        arena.main(["--players", "easy,easy"] + argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0], err


def test_the_device_bench_puts_set_lines_on_every_drive(capsys):
    from bench import device

    assert device.main(["--set", "ROLIT LINK"]) is None
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("device bench: --set ROLIT LINK: give KEY=VALUE")
    try:
        device.SETTINGS.update({"ROLIT_LINK_TX": "GP12", "ROLIT_LINK_RX": "GP13"})
        text = device.deployed_files(settings={"ROLIT_SEED": 4})["settings.toml"].decode()
    finally:
        device.SETTINGS.clear()
    lines = text.splitlines()
    assert 'ROLIT_LINK_TX = "GP12"' in lines and 'ROLIT_LINK_RX = "GP13"' in lines
    assert "ROLIT_SEED = 4" in lines
