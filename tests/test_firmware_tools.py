"""The emulator's Python side without booting anything: the FAT12 drive, UF2 parsing, settings,
the bootrom, firmware lookup, and the frame check of the CPython mirror."""

import os
import struct
import subprocess
import sys

import pytest

from sim import emulate
from sim.emulate import (DRIVE_SIZE, EmulatorError, Frame, bootrom_words, deployed_files,
                         find_firmware, uf2_flash, with_settings)
from sim.rp2040 import fat
from sim.rp2040.mirror import (FrameMismatch, HARNESS, Lockstep, Mirror, parse_update,
                               with_harness)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_drive_keeps_every_deployed_file_and_name():
    files = deployed_files()
    image = fat.build_image(files)
    assert len(image) == DRIVE_SIZE
    assert fat.read_files(image) == files
    # Names past 8.3 (onebutton.py, settings.toml) keep their long names; the rest stay lower case.
    assert "hardware/onebutton.py" in files and "settings.toml" in files


def test_fat12_layout_is_what_fatfs_expects():
    image = fat.build_image({"a.txt": b"x" * 1500, "dir/sub/b.bin": bytes(range(256)) * 9})
    sector, per_cluster, reserved, fats, roots, total, media, fat_sectors = struct.unpack_from(
        "<HBHBHHBH", image, 11)
    assert (sector, per_cluster, reserved, fats, roots, total, media) == (
        512, 1, 1, 1, 512, 2048, 0xF8)
    data_start = reserved + fats * fat_sectors + roots * 32 // 512
    assert total - data_start <= 4084  # FAT12 by cluster count, as FatFs decides
    assert image[54:62] == b"FAT12   " and image[510:512] == b"\x55\xaa"
    files = fat.read_files(image)
    assert files["a.txt"] == b"x" * 1500
    assert files["dir/sub/b.bin"] == bytes(range(256)) * 9


def test_fat12_refuses_what_does_not_fit():
    with pytest.raises(fat.FatError):
        fat.build_image({"big.bin": b"\0" * DRIVE_SIZE})
    with pytest.raises(fat.FatError):
        fat.read_files(b"\0" * 1024)


def test_long_and_clashing_names_get_distinct_short_names():
    files = {"settings.toml": b"1", "settings.tomb": b"2", "Mixed.Py": b"3", "a.b.c": b"4"}
    assert fat.read_files(fat.build_image(files)) == files


def _uf2_block(address, payload, number, total, flags=0x2000):
    block = struct.pack("<IIIIIIII", 0x0A324655, 0x9E5D5157, flags, address, len(payload),
                        number, total, 0xE48BFF56)
    block += payload.ljust(476, b"\0") + struct.pack("<I", 0x0AB16F30)
    return block


def test_uf2_blocks_land_at_their_flash_offsets():
    data = _uf2_block(0x10000000, b"\x01" * 256, 0, 2) + _uf2_block(0x10000200, b"\x02" * 16, 1, 2)
    image = uf2_flash(data)
    assert image[:256] == b"\x01" * 256
    assert image[256:512] == b"\xff" * 256  # the gap stays erased
    assert image[512:528] == b"\x02" * 16


def test_a_file_that_is_not_uf2_is_refused():
    with pytest.raises(EmulatorError):
        uf2_flash(b"\0" * 512)
    with pytest.raises(EmulatorError):  # would overwrite nvm and CIRCUITPY
        uf2_flash(_uf2_block(0x100FF000, b"\0" * 256, 0, 1))


def test_settings_are_set_or_added():
    text = b'ROLIT_PRESET = "pico"\nROLIT_SEED = -1\n'
    out = with_settings(text, {"ROLIT_SEED": 7, "ROLIT_INPUT": "buttons"}).decode()
    assert "ROLIT_SEED = 7" in out and "ROLIT_SEED = -1" not in out
    assert 'ROLIT_INPUT = "buttons"' in out


def test_the_bootrom_comes_from_the_pinned_package():
    words = bootrom_words()
    assert len(words) == 4096
    assert words[0] == 0x20041F00  # initial stack pointer of the B1 bootrom
    assert words[1] == 0x000000EF  # its reset vector


def test_firmware_is_found_through_the_environment(tmp_path, monkeypatch):
    uf2 = tmp_path / "pico.uf2"
    uf2.write_bytes(b"")
    monkeypatch.setenv("ROLIT_FIRMWARE", str(uf2))
    assert find_firmware() == str(uf2)
    monkeypatch.setenv("ROLIT_FIRMWARE", str(tmp_path / "missing.uf2"))
    assert find_firmware() is None
    reason = emulate.missing_reason()
    assert "circuitpython.org/board/raspberry_pi_pico" in reason and "\n" not in reason


def test_firmware_is_looked_for_beside_the_repository(tmp_path, monkeypatch):
    monkeypatch.delenv("ROLIT_FIRMWARE", raising=False)
    repo = tmp_path / "clone"
    (repo / "sim").mkdir(parents=True)
    assert find_firmware(str(repo)) is None
    firmware = tmp_path / "shared" / "firmware"
    firmware.mkdir(parents=True)
    (firmware / "circuitpython.uf2").write_bytes(b"")
    assert find_firmware(str(repo)) == str(firmware / "circuitpython.uf2")
    # A git worktree looks beside its main checkout too.
    (tmp_path / "wt").mkdir()
    (tmp_path / "wt" / ".git").write_text("gitdir: %s/.git/worktrees/wt\n" % (tmp_path / "main"))
    assert emulate.firmware_folders(str(tmp_path / "wt"))[1] == str(firmware)


def test_missing_firmware_fails_when_it_is_required():
    env = dict(os.environ, ROLIT_FIRMWARE="/nonexistent/pico.uf2", ROLIT_REQUIRE_FIRMWARE="1")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         os.path.join(ROOT, "tests", "test_firmware.py"), "-k", "deployed_files"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "ROLIT_REQUIRE_FIRMWARE=1" in result.stdout
    env.pop("ROLIT_REQUIRE_FIRMWARE")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
         os.path.join(ROOT, "tests", "test_firmware.py"), "-k", "deployed_files"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0
    assert "1 skipped" in result.stdout and "circuitpython.org" in result.stdout


def test_frames_decode_in_the_panels_order():
    data = bytearray(192)
    data[0:3] = bytes((10, 20, 30))    # strip LED 0, GRB: g=10 r=20 b=30
    data[9 * 3:9 * 3 + 3] = bytes((1, 2, 3))
    frame = Frame(0, 1000, 125, 0, bytes(data))
    assert frame.strip()[0] == (20, 10, 30)
    assert frame.rgb()[0] == (20, 10, 30)
    assert frame.rgb(layout="serpentine")[14] == (2, 1, 3)  # row 1 runs right to left
    assert frame.rgb()[9] == (2, 1, 3)


def test_harness_lines_parse():
    assert parse_update("@U 536811448 4+ 4-") == (536811448, [(4, True), (4, False)])
    assert parse_update("@U 12") == (12, [])
    assert parse_update("  1. R b4") is None
    files = with_harness({"code.py": b"real", "settings.toml": b""})
    assert files["rolit_main.py"] == b"real" and files["code.py"] == HARNESS.encode()
    compile(HARNESS, "code.py", "exec")


class _FakePico:
    """What Lockstep needs of an Emulator: a console, frames, nvm, run."""

    def __init__(self, script):
        self.console = ""
        self.frames = []
        self.ms = 0
        self.script = script

    def nvm(self):
        return b"\xff" * 4096

    def run(self, ms):
        self.ms += ms
        while self.script and self.script[0][0] <= self.ms:
            _, line, frame = self.script.pop(0)
            self.console += line + "\r\n"
            if frame is not None:
                self.frames.append(Frame(0, self.ms * 1e6, 0, 0, frame))


def _expected_frames(settings, updates):
    mirror = Mirror(settings, b"\xff" * 4096)
    for now, events in updates:
        mirror.update(now, events)
    return mirror.expected


def test_lockstep_accepts_the_device_frames_and_names_the_first_wrong_one():
    settings = deployed_files()["settings.toml"]
    updates = [(1000 + 20 * i, []) for i in range(40)]
    good = _expected_frames(settings, updates)
    assert len(good) >= 3
    script = []
    shown = 0
    mirror = Mirror(settings, b"\xff" * 4096)
    for i, (now, events) in enumerate(updates):
        before = len(mirror.expected)
        mirror.update(now, events)
        frame = good[shown] if len(mirror.expected) > before else None
        shown += frame is not None
        script.append((10 * (i + 1), "@U %d" % now, frame))
    run = Lockstep(_FakePico(list(script)), settings)
    run.power_on()
    run.run(1000)
    assert run.checked == len(good)

    bad = [list(step) for step in script]
    for index, step in enumerate(bad):
        if step[2] is not None and index:
            step[2] = b"\x01" + step[2][1:]  # one byte of one LED off
            bad.insert(index, [step[0], "error in frame %d:" % index, None])
            break
    run = Lockstep(_FakePico([tuple(step) for step in bad]), settings)
    run.power_on()
    with pytest.raises(FrameMismatch, match="differs at strip LEDs \\[0\\]") as raised:
        run.run(1000)
    # The message ends with what the device printed, without the harness's own lines.
    tail = str(raised.value).split("console ends:\n")[1]
    assert tail.startswith("error in frame") and "@U" not in tail


def test_lockstep_stops_the_mirrors_search_where_the_devices_clock_stopped_it(no_book):
    # code.py ends a slice of thinking when the frame's time is up (hardware.pacing): the
    # harness says at which question of the search (@C), and the mirror must stop there too,
    # or the move shows in a different frame.
    settings = deployed_files(settings={"ROLIT_SEED": 7})["settings.toml"]
    device = Mirror(settings, b"\xff" * 4096)
    device.app.start(seats=("hard", "hard"), first="red")
    script = []
    shown = 0
    cuts = 0
    for i in range(400):
        now = 1000 + 20 * i
        asked = [0, False]

        def stop(asked=asked):
            asked[0] += 1
            asked[1] = asked[0] >= 3
            return asked[1]

        device.app.think_stop = stop
        before = len(device.expected)
        device.update(now, [])
        frame = device.expected[-1] if len(device.expected) > before else None
        script.append((10 * (i + 1), "@U %d" % now, frame))
        if asked[1]:
            cuts += 1
            script.append((10 * (i + 1), "@C %d" % asked[0], None))
    moves = list(device.app.game.board.moves)
    assert cuts > 20 and len(moves) >= 2

    def replay(lines):
        run = Lockstep(_FakePico(list(lines)), settings)
        run.power_on()
        run.mirror.app.start(seats=("hard", "hard"), first="red")
        run.run(10 * len(lines) + 100)
        return run

    run = replay(script)
    assert run.checked >= len(device.expected) - 1
    assert list(run.app.game.board.moves)[:len(moves) - 1] == moves[:len(moves) - 1]
    with pytest.raises(FrameMismatch):
        replay([step for step in script if not step[1].startswith("@C")])


class _KeyPico(_FakePico):
    def __init__(self):
        super().__init__([])
        self.pins = []

    def press(self, key):
        self.pins.append((key, False))

    def release(self, key):
        self.pins.append((key, True))


def test_the_window_device_presses_buttons_and_shows_the_last_frame():
    from sim.emulate import EmulatedDevice
    from sim.rp2040.mirror import load_settings

    pico = _KeyPico()
    device = EmulatedDevice(pico, load_settings(deployed_files()["settings.toml"]))
    device.update(0, [(4, True)])
    assert pico.pins == [("select", False)]
    assert device.colours == [(0, 0, 0)] * 64  # no frame yet
    data = bytearray(192)
    data[3 * 9:3 * 9 + 3] = bytes((255, 0, 0))  # strip LED 9, GRB: full green
    pico.frames.append(Frame(0, 1, 0, 0, bytes(data)))
    assert device.update(20, [(4, False)]) is True
    assert pico.pins == [("select", False)]  # held until the chip has seen it
    device.update(40, [])
    device.update(60, [])
    assert pico.pins[-1] == ("select", True)
    assert device.colours[9] == (0, 255, 0) and device.colours[8] == (0, 0, 0)
    assert device.info()["title"] == "Pico (emulated)"


def test_console_lines_drop_the_terminal_escapes_and_the_partial_line():
    from sim.emulate import Emulator

    pico = Emulator.__new__(Emulator)  # no chip needed to split text
    pico.console = ("\x1b]0;\U0001F40Dcode.py | 10.3\x1b\\\r\n=====\r\n  ROLIT\r\n"
                    "\x1b[2K\x1b[0GAuto-reload\r\npartial")
    assert pico.lines() == ["", "=====", "  ROLIT", "Auto-reload"]
