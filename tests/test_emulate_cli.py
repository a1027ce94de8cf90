"""``python -m sim.emulate`` refuses what it cannot use before the chip starts, in one line:
firmware files (missing, cut short, damaged, for another chip), flash files (not a flash image,
a UF2 given by mistake, a missing or unwritable folder), settings and option ranges, options a
mode would ignore. None of these tests boots a chip: each run must end within seconds, before
Node.js is started. Saving and loading flash files is checked on the files themselves."""

import glob
import os
import struct
import subprocess
import sys

import pytest

from sim.emulate import (FLASH_SIZE, NVM_OFFSET, EmulatedDevice, EmulatorError, Frame,
                         deployed_files, uf2_flash)
from sim.rp2040 import images
from sim.rp2040.mirror import load_settings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UF2 = sorted(glob.glob(os.path.join(os.path.dirname(ROOT), "shared", "firmware", "*.uf2")) +
             glob.glob("/work/shared/firmware/*.uf2"))
NO_CHIP_S = 60  # a refusal comes before the chip starts: seconds, not a boot's minutes


def emulate(*args, env=None, timeout=NO_CHIP_S, cwd=ROOT):
    """Run ``python -m sim.emulate`` with ``args``; (status, stdout, stderr)."""
    environment = dict(os.environ, PYTHONPATH=cwd, **(env or {}))
    result = subprocess.run([sys.executable, "-m", "sim.emulate"] + list(args), cwd=cwd,
                            env=environment, capture_output=True, text=True, timeout=timeout,
                            stdin=subprocess.DEVNULL)
    return result.returncode, result.stdout, result.stderr


def refused(status, out, err, *words, code=None):
    """The run was refused in one line on stderr that says ``words``."""
    assert "Traceback" not in err and "Traceback" not in out, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0], lines[0]
    assert status != 0
    if code is not None:
        assert status == code, (status, err)
    return lines[0]


@pytest.fixture
def firmware():
    if not UF2:
        pytest.skip("no UF2 in ../shared/firmware/")
    return UF2[-1]


def _block(address, payload, number, total, flags=0x2000, family=images.RP2040_FAMILY):
    block = struct.pack("<IIIIIIII", images.UF2_MAGIC_START0, images.UF2_MAGIC_START1, flags,
                        address, len(payload), number, total, family)
    return block + payload.ljust(476, b"\0") + struct.pack("<I", images.UF2_MAGIC_END)


def _uf2(count=3):
    return b"".join(_block(0x10000000 + 256 * i, bytes([i + 1]) * 256, i, count)
                    for i in range(count))


# -- UF2 files -------------------------------------------------------------------------------


def test_a_whole_uf2_programs_every_block():
    image = uf2_flash(_uf2(3))
    assert image == b"\x01" * 256 + b"\x02" * 256 + b"\x03" * 256


@pytest.mark.parametrize("cut", [512, 1000, 1536 - 4])
def test_a_uf2_cut_short_is_refused(cut):
    with pytest.raises(EmulatorError, match="cut short"):
        uf2_flash(_uf2(3)[:cut])


@pytest.mark.parametrize("damage, words", [
    (lambda blocks: blocks[0] + blocks[2] + blocks[1], "block 2 of 3 where block 1"),
    (lambda blocks: blocks[0] + blocks[1] + blocks[1], "block 1 of 3 where block 2"),
    (lambda blocks: blocks[0] + _block(0x10000100, b"\2" * 256, 1, 4) + blocks[2], "of 4"),
    (lambda blocks: blocks[0] + blocks[1][:-4] + b"\0\0\0\0" + blocks[2], "magic"),
    (lambda blocks: blocks[0] + _block(0x10000100, b"\2" * 256, 1, 3, family=0xE48BFF59)
     + blocks[2], "not for the RP2040"),
    (lambda blocks: blocks[0] + _block(0x10000100, b"", 1, 3) + blocks[2], "payload of 0"),
    (lambda blocks: blocks[0] + _block(0x20000000, b"\2" * 256, 1, 3) + blocks[2],
     "outside the Pico's flash"),
    (lambda blocks: blocks[0] + _block(0x101FFF80, b"\2" * 256, 1, 3) + blocks[2],
     "outside the Pico's flash"),
])
def test_every_uf2_block_is_checked(damage, words):
    data = _uf2(3)
    blocks = [data[i:i + 512] for i in range(0, len(data), 512)]
    with pytest.raises(EmulatorError, match=words):
        uf2_flash(damage(blocks))


def test_a_uf2_payload_longer_than_a_block_allows_is_refused():
    block = bytearray(_block(0x10000000, b"\1" * 256, 0, 1))
    struct.pack_into("<I", block, 16, 477)
    with pytest.raises(EmulatorError, match="payload of 477"):
        uf2_flash(bytes(block))


def test_firmware_typo_says_no_such_file():
    status, out, err = emulate("--firmware", "/tmp/nope-rolit.uf2", "--console", "1")
    refused(status, out, err, "/tmp/nope-rolit.uf2: no such file", code=1)


def test_firmware_that_is_a_folder_or_text_is_refused(tmp_path):
    refused(*emulate("--firmware", str(tmp_path), "--console", "1"), "is a folder")
    text = tmp_path / "notes.uf2"
    text.write_text("not firmware\n" * 100)
    refused(*emulate("--firmware", str(text), "--console", "1"), "cut short")


@pytest.mark.parametrize("cut", ["block", "mid-block"])
def test_the_real_uf2_cut_short_is_refused_before_the_chip_starts(firmware, tmp_path, cut):
    data = open(firmware, "rb").read()
    short = data[:len(data) // 2 // 512 * 512 + (0 if cut == "block" else 300)]
    path = tmp_path / "short.uf2"
    path.write_bytes(short)
    refused(*emulate("--firmware", str(path), "--console", "5"), str(path), "cut short",
            code=1)


# -- flash files -----------------------------------------------------------------------------


def _flash_file(path, code=b"print('hello')\n"):
    """A flash file as sim.emulate saves one, with the real firmware and a small drive."""
    from sim.emulate import Emulator

    image = Emulator(UF2[-1], {"code.py": code, "settings.toml": b"ROLIT_SEED = 3\n"}
                     ).flash_image()
    images.write_flash_file(str(path), image)
    return image


@pytest.mark.parametrize("content, words", [
    (b"my notes\n" * 10, "not a Pico flash image"),
    (b"\0" * FLASH_SIZE, "not a Pico flash image"),           # 2 MiB without boot stage 2
    (b"\xff" * (FLASH_SIZE + 100), "not a Pico flash image"),
    (_block(0x10000000, b"\1" * 256, 0, 1), "is a UF2 file"),
], ids=["text", "2 MiB of zeros", "wrong size", "a UF2 block"])
def test_a_flash_file_that_is_not_a_flash_image_is_refused_and_kept(firmware, tmp_path, content,
                                                                     words):
    path = tmp_path / "pico.bin"
    path.write_bytes(content)
    refused(*emulate("--flash", str(path), "--console", "1"), str(path), words, code=1)
    assert path.read_bytes() == content
    assert sorted(os.listdir(tmp_path)) == ["pico.bin"]


def test_the_firmware_uf2_given_as_flash_is_refused(firmware, tmp_path):
    copy = tmp_path / "firmware.uf2"
    copy.write_bytes(open(firmware, "rb").read())
    before = copy.read_bytes()
    refused(*emulate("--flash", str(copy), "--console", "1"), "is a UF2 file", "--firmware")
    assert copy.read_bytes() == before


def test_a_damaged_flash_file_is_refused(firmware, tmp_path):
    path = tmp_path / "pico.bin"
    _flash_file(path)
    data = bytearray(path.read_bytes())
    data[0x100000 + 700] ^= 0x10  # one bit of the drive
    path.write_bytes(bytes(data))
    refused(*emulate("--flash", str(path), "--console", "1"), "damaged", code=1)
    assert path.read_bytes() == bytes(data)


def test_flash_in_a_missing_or_unwritable_folder_is_refused_before_the_chip_starts(firmware,
                                                                                     tmp_path):
    missing = tmp_path / "no" / "such" / "pico.bin"
    refused(*emulate("--flash", str(missing), "--console", "1"), "does not exist", code=1)
    refused(*emulate("--flash", "/proc/rolit-pico.bin", "--console", "1"), "cannot write",
            code=1)
    refused(*emulate("--flash", str(tmp_path), "--console", "1"), "is a folder", code=1)


def test_a_flash_file_is_saved_whole_and_read_back(tmp_path):
    flash = bytes(range(256)) * (FLASH_SIZE // 256)
    path = tmp_path / "pico.bin"
    images.write_flash_file(str(path), flash)
    assert os.path.getsize(path) == images.FLASH_FILE_SIZE
    assert images.read_flash_file(str(path)) == flash
    assert images.check_flash_target(str(path)) == flash
    assert sorted(os.listdir(tmp_path)) == ["pico.bin"]  # no temporary left


def test_saving_never_replaces_a_file_that_is_not_a_flash_image(tmp_path):
    path = tmp_path / "pico.bin"
    path.write_bytes(b"a user's file\n")
    with pytest.raises(images.ImageError, match="not a Pico flash image"):
        images.write_flash_file(str(path), b"\xff" * FLASH_SIZE)
    assert path.read_bytes() == b"a user's file\n"


def test_a_failed_save_leaves_the_last_flash_file(tmp_path, monkeypatch):
    path = tmp_path / "pico.bin"
    old = b"\x11" * FLASH_SIZE
    images.write_flash_file(str(path), old)

    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(images.ImageError, match="No space left on device"):
        images.write_flash_file(str(path), b"\x22" * FLASH_SIZE)
    assert images.read_flash_file(str(path)) == old
    assert sorted(os.listdir(tmp_path)) == ["pico.bin"]


def test_a_bare_flash_dump_with_a_valid_boot_stage_2_is_read(firmware, tmp_path):
    image = bytearray(uf2_flash(open(firmware, "rb").read()))
    image.extend(b"\xff" * (FLASH_SIZE - len(image)))
    path = tmp_path / "dump.bin"
    path.write_bytes(bytes(image))
    assert images.read_flash_file(str(path)) == bytes(image)
    image[10] ^= 1  # boot stage 2's checksum no longer matches
    path.write_bytes(bytes(image))
    with pytest.raises(images.ImageError):
        images.read_flash_file(str(path))


# -- options and settings --------------------------------------------------------------------


@pytest.mark.parametrize("args, words", [
    (["--set", "ROLIT_SEED=\u00b2"], "ROLIT_SEED"),
    (["--set", "ROLIT_SEED=" + "9" * 5000], "ROLIT_SEED"),
    (["--set", "ROLIT_SEED=99999999999"], "ROLIT_SEED"),
    (["--set", "ROLIT_SEED=1000000000"], "whole number from -1"),
    (["--set", "ROLIT_SEDE=7"], "not a setting"),
    (["--set", "ROLIT_BRIGHTNESS=bright"], "ROLIT_BRIGHTNESS"),
    (["--set", "nonsense"], "KEY=VALUE"),
    (["--set", 'ROLIT_SAVE_FILE=a"b'], "quotes"),
    (["--set", "ROLIT_INPUT=joystick"], "buttons only"),
    (["--set", "ROLIT_BUTTONS_TO_GND=0"], "ground"),
    (["--set", "ROLIT_PIN_UP=D5"], "not a GPIO of the Pico"),
    (["--console", "inf"], "--console"),
    (["--console", "nan"], "--console"),
    (["--console", "0"], "--console"),
    (["--console", "-3"], "--console"),
    (["--console", "1e400"], "--console"),
    (["--terminal", "--fps", "0"], "--fps"),
    (["--terminal", "--fps", "100000"], "--fps"),
    (["--console", "2", "--fps", "20"], "--fps"),
])
def test_bad_options_are_refused_in_one_line(firmware, args, words):
    status, out, err = emulate(*args)
    refused(status, out, err, words, code=2)


def test_the_terminal_mode_needs_a_terminal(firmware):
    refused(*emulate("--terminal"), "needs a terminal", code=2)


def test_a_good_setting_passes_the_checks(tmp_path):
    from sim.emulate import _parser, prepare

    image, toml, keys = prepare(_parser().parse_args(["--set", "ROLIT_SEED=42", "--set",
                                                "ROLIT_INPUT=buttons"]))
    assert b"ROLIT_SEED = 42" in toml and b'ROLIT_INPUT = "buttons"' in toml
    assert len(image) == FLASH_SIZE
    assert load_settings(toml).seed == 42
    assert keys == {"up": 2, "down": 3, "left": 4, "right": 5, "select": 6, "back": 7}


def _prepare(*argv):
    from sim.emulate import _parser, prepare

    return prepare(_parser().parse_args(list(argv)))[:2]


def test_set_with_an_existing_flash_rewrites_its_settings(firmware, tmp_path, capsys):
    from sim.rp2040.fat import read_files

    path = tmp_path / "pico.bin"
    _flash_file(path, code=b"print('mine')\n")
    image, toml = _prepare("--flash", str(path), "--set", "ROLIT_SEED=9")
    drive = read_files(image[0x100000:0x200000])
    assert drive["code.py"] == b"print('mine')\n"  # the drive's own files stay
    assert b"ROLIT_SEED = 9" in drive["settings.toml"] and b"ROLIT_SEED = 3" not in toml
    assert "ROLIT_SEED = 9 set in its settings.toml" in capsys.readouterr().err


def test_firmware_with_an_existing_flash_replaces_only_the_firmware(firmware, tmp_path, capsys):
    path = tmp_path / "pico.bin"
    saved = bytearray(_flash_file(path))
    saved[NVM_OFFSET:NVM_OFFSET + 4] = b"SAVE"  # a saved game in nvm
    saved[:256] = b"\0" * 256                    # and an old firmware
    images.write_flash_file(str(path), bytes(saved))
    image, _ = _prepare("--flash", str(path), "--firmware", firmware)
    program = uf2_flash(open(firmware, "rb").read())
    assert image[:len(program)] == program
    assert image[NVM_OFFSET:] == bytes(saved[NVM_OFFSET:])
    assert "firmware" in capsys.readouterr().err
    image, _ = _prepare("--flash", str(path))  # no --firmware: the flash's own
    assert image == bytes(saved)


def test_the_buttons_are_pressed_on_the_pins_the_settings_name():
    from sim.emulate import _parser, prepare

    _, _, keys = prepare(_parser().parse_args(["--set", "ROLIT_PIN_SELECT=GP14"]))
    assert keys["select"] == 14 and keys["up"] == 2


def test_preset_with_an_existing_flash_is_refused(firmware, tmp_path):
    path = tmp_path / "pico.bin"
    _flash_file(path)
    refused(*emulate("--flash", str(path), "--preset", "pico", "--console", "1"),
            "--preset is for a new drive", code=2)


def test_a_missing_rp2040js_is_named_in_one_line(firmware, tmp_path):
    # A copy of the tree without node_modules, as after `make play` alone.
    from tree_copy import copy_parts

    copy_parts(ROOT, ("sim", "hardware", "rolit_core", "lib", "code.py"), tmp_path)
    status, out, err = emulate("--console", "1", cwd=str(tmp_path),
                               env={"ROLIT_FIRMWARE": firmware})
    refused(status, out, err, "rp2040js is not installed", "make emulate", code=1)


def test_a_missing_node_is_named_in_one_line(firmware):
    status, out, err = emulate("--console", "1", env={"PATH": "/nonexistent"})
    refused(status, out, err, "Node.js is not installed", code=1)


# -- the window's and terminal's device ------------------------------------------------------


class _SlowPico:
    """An Emulator stand-in: emulated time moves only as run() is told, frames as scripted."""

    def __init__(self):
        self.console = ""
        self.frames = []
        self.ms = 0.0
        self.busy = 1.0
        self.pins = []

    def run(self, ms):
        self.ms += ms

    def press(self, key):
        self.pins.append((round(self.ms), key, False))

    def release(self, key):
        self.pins.append((round(self.ms), key, True))


def _device(pico, clock=None):
    return EmulatedDevice(pico, load_settings(deployed_files()["settings.toml"]),
                          clock=clock or (lambda: 0.0))


def test_a_tap_during_a_stall_reaches_the_pin_and_is_held_long_enough():
    pico = _SlowPico()
    device = _device(pico)
    device.update(0, [(4, True), (4, False), (0, True), (0, False)])  # two taps in one frame
    for now in range(20, 2000, 20):
        device.update(now, [])
    assert [(key, high) for _, key, high in pico.pins] == [
        ("select", False), ("select", True), ("up", False), ("up", True)]
    times = [at for at, _, _ in pico.pins]
    assert all(later - earlier >= 50 for earlier, later in zip(times, times[1:])), times


def test_keys_wait_while_the_chip_does_not_advance():
    pico = _SlowPico()
    pico.run = lambda ms: None  # the emulated clock stands still (a stall)
    device = _device(pico)
    device.update(0, [(4, True), (4, False)])
    for now in range(20, 400, 20):
        device.update(now, [])
    assert pico.pins == [(0, "select", False)]  # the release waits for the chip
    assert any("1 key change waiting" in line for line in device.info()["status"])
    pico.run = _SlowPico.run.__get__(pico)
    for now in range(400, 800, 20):
        device.update(now, [])
    assert [high for _, _, high in pico.pins] == [False, True]
    assert not any("waiting for the chip" in line for line in device.info()["status"])


def test_the_panel_shows_live_counters_and_the_chips_state_before_the_first_frame():
    pico = _SlowPico()
    wall = [0.0]
    device = _device(pico, clock=lambda: wall[0])
    drawn = []
    for now in range(0, 2000, 20):
        wall[0] = now / 1000 * 5   # each 20 ms of the loop took 100 ms here
        drawn.append(device.update(now, []))
    status = device.info()["status"]
    assert status[0] == "booting CircuitPython"
    assert "2.0 s emulated in 10 s here, 0 frames" in status[1]
    assert 6 <= sum(drawn) <= 10  # the counters are drawn again about every 250 ms, no more
    pico.console = "code.py output:\r\n"
    assert device.info()["status"][0] == "starting code.py, no LED frame yet"
    pico.frames.append(Frame(6.2e9, 6.2e9, 0, 0, bytes(192)))
    wall[0] = 31.0
    device.update(2000, [])
    status = device.info()["status"]
    assert status[0] == "running code.py"
    assert "first LED frame at 6.2 s emulated, 31 s here" in status
    pico.busy = 0.0
    assert "asleep" in device.info()["status"][0]
    pico.console += "Code done running.\r\n"
    assert device.info()["status"][0].startswith("code.py has ended")


def test_emulated_device_settings_come_from_the_drive_it_boots(firmware, tmp_path):
    path = tmp_path / "pico.bin"
    from sim.emulate import Emulator

    image = Emulator(UF2[-1], dict(deployed_files(), **{
        "settings.toml": b'ROLIT_PRESET = "pico"\nROLIT_LAYOUT = "serpentine"\n'})).flash_image()
    images.write_flash_file(str(path), image)
    _, toml = _prepare("--flash", str(path))
    assert load_settings(toml).matrix_layout == "serpentine"


def test_make_emulate_sets_itself_up_and_passes_the_firmware():
    import shutil

    if shutil.which("make") is None:
        pytest.skip("no make here")
    # Under `make test` the outer make's MAKEFLAGS and MAKELEVEL would make this one print
    # "Entering directory" lines around the recipe.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    result = subprocess.run(["make", "-n", "--no-print-directory", "-W", "package-lock.json",
                             "-W", "requirements.txt", "emulate", "FIRMWARE=/tmp/my pico.uf2",
                             "ARGS=--terminal"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any("pip install" in line and "requirements.txt" in line for line in lines)
    assert any(line.startswith("npm ci") for line in lines)
    assert lines[-1] == '.venv/bin/python -m sim.emulate --firmware "/tmp/my pico.uf2" --terminal'
