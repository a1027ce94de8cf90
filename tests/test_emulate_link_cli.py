"""``python -m sim.emulate --link N`` without firmware: what it refuses before any chip starts,
the flash file of each chip, the cable's wiring, keys reaching the selected handheld only, the
boards side by side in the window and the terminal, and every chip saved and stopped on the way
out (Ctrl-C too). The chips are stand-ins; tests/test_firmware_link.py boots real ones."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import re  # noqa: E402
import time  # noqa: E402

import pytest  # noqa: E402

from rolit_core.app import BACK, SELECT, UP  # noqa: E402
from sim import emulink  # noqa: E402
from sim.emulate import FLASH_SIZE, INTERRUPTED, EmulatedDevice, deployed_files  # noqa: E402
from sim.rp2040 import images  # noqa: E402
from sim.rp2040.fat import read_files  # noqa: E402
from sim.rp2040.linked import Ring  # noqa: E402
from sim.rp2040.mirror import load_settings  # noqa: E402
from sim.terminal import BOARD_KEYS, NEXT_BOARD, UNLIT, decode  # noqa: E402
from test_emulate_cli import _flash_file, emulate, firmware, refused  # noqa: E402,F401


# -- refused before any chip starts -----------------------------------------------------------


@pytest.mark.parametrize("args, words, code", [
    (["--link", "5"], "2-4", 2),
    (["--link", "1"], "2-4", 2),
    (["--link", "two"], "--link", 2),
    (["--link", "2", "--set", "ROLIT_LINK_TX=GP0"], "the emulated cable is on", 2),
    (["--link", "2", "--set", "ROLIT_SEED=\u00b2"], "ROLIT_SEED", 2),
    (["--link", "3", "--terminal"], "needs a terminal", 2),
])
def test_bad_link_options_are_refused_in_one_line(firmware, args, words, code):
    refused(*emulate(*(args + ([] if "--terminal" in args else ["--console", "1"]))), words,
            code=code)


def test_a_missing_flash_folder_is_refused_before_any_chip_starts(firmware, tmp_path):
    missing = tmp_path / "picos"
    line = refused(*emulate("--link", "3", "--flash", str(missing), "--console", "1"),
                   str(missing), "no such folder", "pico-1.bin", code=1)
    assert "3 file names separated by commas" in line
    assert not missing.exists()


def test_flash_names_must_be_one_for_each_chip_and_each_its_own(firmware, tmp_path):
    a, b = str(tmp_path / "a.bin"), str(tmp_path / "b.bin")
    refused(*emulate("--link", "3", "--flash", a + "," + b, "--console", "1"), "2 names",
            code=2)
    refused(*emulate("--link", "2", "--flash", a + "," + a, "--console", "1"), "same file",
            code=2)
    refused(*emulate("--link", "2", "--flash", a + "," + str(tmp_path / "no" / "b.bin"),
                     "--console", "1"), "does not exist", code=1)
    assert os.listdir(tmp_path) == []


def test_one_flash_file_for_several_chips_is_refused_and_kept(firmware, tmp_path):
    path = tmp_path / "pico.bin"
    _flash_file(path)
    before = path.read_bytes()
    refused(*emulate("--link", "2", "--flash", str(path), "--console", "1"), "not one file",
            code=2)
    assert path.read_bytes() == before


def test_a_bad_flash_file_among_the_chips_is_refused_and_left_alone(firmware, tmp_path):
    (tmp_path / "pico-2.bin").write_bytes(b"my notes\n")
    refused(*emulate("--link", "2", "--flash", str(tmp_path), "--console", "1"), "pico-2.bin",
            "not a Pico flash image", code=1)
    assert sorted(os.listdir(tmp_path)) == ["pico-2.bin"]
    assert (tmp_path / "pico-2.bin").read_bytes() == b"my notes\n"


# -- each chip's flash and settings -----------------------------------------------------------


def test_a_folder_gives_each_chip_its_own_file(tmp_path):
    assert emulink.flash_paths(str(tmp_path), 3) == [
        str(tmp_path / "pico-1.bin"), str(tmp_path / "pico-2.bin"), str(tmp_path / "pico-3.bin")]
    assert emulink.flash_paths("x.bin,y.bin", 2) == ["x.bin", "y.bin"]
    assert emulink.flash_paths(None, 4) == [None] * 4
    with pytest.raises(ValueError, match="1 name; with --link 2"):
        emulink.flash_paths("x.bin,", 2)


def _args(*argv):
    from sim.emulate import _parser

    return _parser().parse_args(list(argv))


def test_new_drives_name_the_links_pins_once_the_game_knows_them(firmware, monkeypatch, capsys):
    monkeypatch.setattr(emulink, "link_settings_known", lambda: True)
    chips = emulink.prepare_link(_args("--link", "3", "--set", "ROLIT_SEED=5"))
    assert len(chips) == 3
    for path, image, toml, keys in chips:
        assert path is None and len(image) == FLASH_SIZE
        drive = read_files(image[0x100000:0x200000])
        assert drive["settings.toml"] == toml
        assert b'ROLIT_LINK_TX = "GP12"' in toml and b'ROLIT_LINK_RX = "GP13"' in toml
        assert b"ROLIT_SEED = 5" in toml
        assert keys["select"] == 6
    assert "do not know" not in capsys.readouterr().err


def test_an_existing_chips_settings_get_the_links_pins(firmware, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(emulink, "link_settings_known", lambda: True)
    mine = tmp_path / "pico-1.bin"
    _flash_file(mine, code=b"print('mine')\n")
    chips = emulink.prepare_link(_args("--link", "2", "--flash", str(tmp_path)))
    (path1, image1, toml1, _), (path2, image2, toml2, _) = chips
    assert path1 == str(mine) and path2 == str(tmp_path / "pico-2.bin")
    drive = read_files(image1[0x100000:0x200000])
    assert drive["code.py"] == b"print('mine')\n"            # its own files stay
    assert b"ROLIT_SEED = 3" in toml1 and b'ROLIT_LINK_RX = "GP13"' in toml1
    assert "pico-1.bin: ROLIT_LINK_TX = GP12, ROLIT_LINK_RX = GP13 set" in capsys.readouterr().err
    assert b"ROLIT_LINK_TX" in toml2 and "code.py" in read_files(image2[0x100000:0x200000])
    # Nothing is written before the chips run: the file is as it was.
    assert images.read_flash_file(str(mine))[0x100000:] != image1[0x100000:]


# -- the cable ------------------------------------------------------------------------------


class FakePico:
    """An Emulator stand-in: runs move its clock, sent bytes are kept, saves are recorded."""

    def __init__(self, name="pico", log=None):
        self.name = name
        self.log = log if log is not None else []
        self.console = ""
        self.frames = []
        self.ms = 0.0
        self.busy = 1.0
        self.pins = []
        self.uart_out = [bytearray(), bytearray()]
        self.received = []
        self._process = None
        self.on_serial = None

    def start(self):
        self.log.append(("start", self.name))
        self._process = object()
        return self

    def close(self):
        self.log.append(("close", self.name))
        self._process = None

    def save_flash(self, path):
        self.log.append(("save", self.name, path))

    def _run_start(self, ms):
        self.log.append(("run", self.name, ms))
        return ms

    def _run_end(self, ms):
        self.ms += ms
        return "time"

    def run(self, ms):
        self._run_end(self._run_start(ms))

    def uart_send(self, index, data, baud=None):
        self.received.append((index, bytes(data), baud))

    def press(self, key):
        self.pins.append((key, False))

    def release(self, key):
        self.pins.append((key, True))


@pytest.mark.parametrize("count, wiring", [
    (2, {0: 1, 1: 0}),            # crossed: TX to RX both ways
    (3, {0: 1, 1: 2, 2: 0}),      # a ring
    (4, {0: 1, 1: 2, 2: 3, 3: 0}),
])
def test_the_cable_wires_each_tx_to_the_next_rx(count, wiring):
    chips = [FakePico(str(i)) for i in range(count)]
    ring = Ring(chips, baud=115200)
    for index, chip in enumerate(chips):
        chip.uart_out[0].extend(b"from %d" % index)
        chip.uart_out[1].extend(b"UART1 is not wired")
    ring.carry(5)
    for source, target in wiring.items():
        assert chips[target].received == [(0, b"from %d" % source, 115200)]
    assert all(not chip.uart_out[0] and chip.uart_out[1] for chip in chips)
    assert ring.sent == ring.received == [6] * count


def test_damage_on_one_wire_reaches_only_the_next_chip():
    chips = [FakePico(str(i)) for i in range(3)]
    ring = Ring(chips, damage=lambda ms, index, data: b"" if index == 1 else data)
    for chip in chips:
        chip.uart_out[0].extend(b"abc")
    ring.carry(5)
    assert chips[2].received == [] and chips[1].received and chips[0].received
    assert ring.sent == [3, 3, 3] and ring.received == [3, 3, 0]
    with pytest.raises(ValueError, match="2-4"):
        Ring(chips * 2)


# -- keys to the selected handheld ------------------------------------------------------------


def _linked(count):
    picos = [FakePico(str(i)) for i in range(count)]
    settings = load_settings(deployed_files()["settings.toml"])
    devices = [EmulatedDevice(pico, settings, clock=lambda: 0.0) for pico in picos]
    return picos, emulink.LinkedDevice(devices, Ring(picos))


def test_keys_go_to_the_selected_chip_only_and_all_chips_run_in_step():
    picos, device = _linked(3)
    device.update(0, [(SELECT, True)])
    for now in range(20, 200, 20):
        device.update(now, [])
    assert picos[0].pins == [("select", False)] and picos[1].pins == picos[2].pins == []
    assert len({pico.ms for pico in picos}) == 1 and picos[0].ms > 0
    # Choosing another handheld lets go of what the first one held; keys then go there.
    device.choose(NEXT_BOARD, [(UP, True)])
    assert device.selected == 1
    device.update(200, [(BACK, True), (BACK, False)])
    for now in range(220, 600, 20):
        device.update(now, [])
    assert picos[0].pins == [("select", False), ("up", False), ("up", True),
                             ("select", True)]
    assert picos[1].pins == [("back", False), ("back", True)] and picos[2].pins == []
    assert device.choose(BOARD_KEYS["3"]) == 2 and device.choose(NEXT_BOARD) == 0
    assert device.choose(("board", 4)) == 0  # no fourth chip: the choice stays
    assert device.choose(3) == 0 and device.choose(1) == 1


def test_each_board_says_its_chips_state_and_the_cable():
    picos, device = _linked(2)
    picos[1].console = "code.py output:\r\nhello from two\r\n"
    picos[0].uart_out[0].extend(b"12345")
    device.update(0, [])
    panels = device.panels()
    assert [label for _, label, _, _ in panels] == ["Pico 1", "Pico 2"]
    assert [selected for _, _, _, selected in panels] == [True, False]
    assert panels[0][2][0] == "booting CircuitPython"
    assert panels[1][2][0] == "starting code.py, no LED frame yet"
    assert "link: 5 bytes out, 0 in (115200 baud)" in panels[0][2]
    assert "link: 0 bytes out, 5 in (115200 baud)" in panels[1][2]
    assert panels[1][2][-1] == "hello from two"
    assert device.wiring() == "1 TX -> 2 RX, 2 TX -> 1 RX"


# -- the window and the terminal --------------------------------------------------------------


def _lit(device, index, colour):
    device.devices[index].colours = [colour] * 64


@pytest.mark.parametrize("count, size", [(2, (900, 560)), (4, (1280, 640)), (4, (640, 400))])
def test_the_window_shows_every_board_side_by_side_and_the_selected_one(count, size):
    import pygame

    picos, device = _linked(count)
    colours = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)]
    for index in range(count):
        _lit(device, index, colours[index])
    win = emulink._window(device, 30, count, size=size)
    try:
        win.draw()
        surface = win.surface
        columns = win.renderer.columns
        assert len(columns) == count
        for (x, y, w, h), (x2, _, _, _) in zip(columns, columns[1:]):
            assert x + w <= x2  # side by side, no overlap
        assert columns[-1][0] + columns[-1][2] <= size[0]
        for index, board in enumerate(win.renderer.boards):
            # The board of each chip sits in its column and shows that chip's LEDs.
            x, y, w, h = columns[index]
            centre = board.centre(3, 3)
            area = win.renderer.areas[index]
            point = (centre[0] + area.x, centre[1] + area.y)
            assert x <= point[0] < x + w
            got = surface.get_at(point)[:3]
            want = colours[index]
            assert all((got[c] > 200) == bool(want[c]) for c in range(3)), (index, got)
        # The selected column is framed in orange; the others are not.
        x, y, w, h = columns[0]
        assert tuple(surface.get_at((x + w // 2, y + 1)))[:3] == emulink.SELECTED
        x, y, w, h = columns[1]
        assert tuple(surface.get_at((x + w // 2, y + 1)))[:3] != emulink.SELECTED
        # Tab, then 1-4, choose; a click on a board chooses it.
        for key, chosen in ((pygame.K_TAB, 1), (pygame.K_1, 0), (pygame.K_2, 1)):
            win.handle(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""), 0)
            assert device.selected == chosen
        x, y, w, h = columns[count - 1]
        win.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1,
                                      pos=(x + w // 2, y + h // 2)), 0)
        assert device.selected == count - 1
        win.draw()
        x, y, w, h = columns[count - 1]
        assert tuple(surface.get_at((x + w // 2, y + 1)))[:3] == emulink.SELECTED
    finally:
        win.close()


@pytest.mark.parametrize("size", [(160, 120), (300, 900), (2400, 300)])
def test_the_window_draws_four_boards_at_any_size_it_allows(size):
    picos, device = _linked(4)
    win = emulink._window(device, 30, 4, size=size)
    try:
        win.draw()
        for area in win.renderer.areas:
            assert win.surface.get_rect().contains(area)
    finally:
        win.close()


def test_a_key_held_while_another_board_is_chosen_is_let_go_on_the_first():
    import pygame

    picos, device = _linked(2)
    win = emulink._window(device, 30, 2, size=(800, 500))
    try:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_UP, mod=0,
                                             unicode=""))
        win.step(0)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, mod=0,
                                             unicode="\t"))
        for now in range(20, 400, 20):
            win.step(now)
        assert picos[0].pins == [("up", False), ("up", True)] and picos[1].pins == []
    finally:
        win.close()


VISIBLE = re.compile("\x1b\\[[0-9;]*[A-Za-z]")


def _screen_rows(screen):
    """Row -> the visible text put there (positions from the cursor moves)."""
    rows = {}
    for part in re.split("(?=\x1b\\[\\d+;\\d+H)", screen):
        found = re.match("\x1b\\[(\\d+);(\\d+)H", part)
        if found:
            row, column = int(found.group(1)), int(found.group(2))
            text = VISIBLE.sub("", part[found.end():])
            rows.setdefault(row, []).append((column, text))
    return rows


@pytest.mark.parametrize("count, columns, rows, wide", [(4, 80, 24, False), (4, 120, 30, True),
                                                        (2, 80, 24, True), (3, 60, 20, False)])
def test_the_terminal_shows_the_boards_side_by_side(count, columns, rows, wide):
    picos, device = _linked(count)
    device.choose(count - 1)
    screen = emulink.render_linked(device.panels(), device.wiring(), columns, rows)
    placed = _screen_rows(screen)
    assert max(placed) <= rows
    for row, parts in placed.items():
        for column, text in parts:
            assert column + len(text) - 1 <= columns, (row, column, text)
    titles = [(column, text.strip()) for column, text in placed[1]]
    assert [text for _, text in titles][:-1] == ["Pico %d" % n for n in range(1, count)]
    assert titles[-1][1].startswith("> Pico %d" % count)  # the selected one
    starts = [column for column, _ in titles]
    assert starts == sorted(starts) and len(set(starts)) == count
    # Each board is 8 LEDs wide: 2 columns an LED, and a gap column between LEDs when wide.
    assert (starts[1] - starts[0]) == (25 if wide else 18) + 2
    assert "cable: " + device.wiring() in " ".join(t for _, t in placed[max(placed) - 1])


def test_a_terminal_too_small_for_the_boards_says_so():
    picos, device = _linked(4)
    screen = emulink.render_linked(device.panels(), device.wiring(), 70, 24)
    assert "at least 78x16 for 4 boards" in screen


def test_tab_and_digits_choose_a_board_in_the_terminal():
    assert decode("\t2")[0] == [(NEXT_BOARD, None), (("board", 2), None)]
    assert decode("\x1b[9u\x1b[51u\x1b[51;1:3u")[0] == [
        (NEXT_BOARD, "press"), (("board", 3), "press"), (("board", 3), "release")]
    assert decode("\x1b[1;5A")[0] == [(UP, None)]  # digits inside a sequence choose nothing


# -- on the way out ---------------------------------------------------------------------------


def test_every_started_chip_is_saved_and_stopped_even_when_one_save_fails(capsys):
    from sim.emulate import EmulatorError

    log = []
    picos = [FakePico(str(i), log) for i in range(3)]
    for pico in picos[:2]:
        pico.start()

    def broken(path):
        raise EmulatorError("/x/pico-1.bin: No space left on device")

    picos[0].save_flash = broken
    status = emulink.power_off(picos, ["/x/pico-1.bin", "/x/pico-2.bin", "/x/pico-3.bin"])
    assert status == 1 and "No space left" in capsys.readouterr().err
    assert ("save", "1", "/x/pico-2.bin") in log
    assert not [entry for entry in log if entry[0] == "save" and entry[1] == "2"]  # not started
    assert [entry[1] for entry in log if entry[0] == "close"] == ["0", "1", "2"]


def test_ctrl_c_while_a_chip_saves_still_saves_and_stops_the_others():
    log = []
    picos = [FakePico(str(i), log).start() for i in range(3)]

    def interrupted(path):
        raise KeyboardInterrupt

    picos[1].save_flash = interrupted
    with pytest.raises(KeyboardInterrupt):
        emulink.power_off(picos, ["a", "b", "c"])
    assert ("save", "0", "a") in log and ("save", "2", "c") in log
    assert [entry[1] for entry in log if entry[0] == "close"] == ["0", "1", "2"]


def test_ctrl_c_quits_with_130_and_saves_the_chips_that_started(firmware, tmp_path,
                                                                 monkeypatch):
    from sim import emulate

    log = []

    class Chip(FakePico):
        made = 0

        def __init__(self, flash=None, keys=None):
            Chip.made += 1
            FakePico.__init__(self, str(Chip.made), log)

        def start(self):
            if self.name == "3":
                raise KeyboardInterrupt  # while the third chip starts
            return FakePico.start(self)

    monkeypatch.setattr(emulink, "Emulator", Chip)
    monkeypatch.setattr(emulate, "runtime_missing", lambda node="node": None)
    status = emulate.main(["--link", "3", "--flash", str(tmp_path), "--console", "5"])
    assert status == INTERRUPTED
    assert [entry for entry in log if entry[0] == "save"] == [
        ("save", "1", str(tmp_path / "pico-1.bin")), ("save", "2", str(tmp_path / "pico-2.bin"))]
    assert [entry[1] for entry in log if entry[0] == "close"] == ["1", "2", "3"]


def test_each_terminal_board_shows_its_own_chips_leds():
    from test_sim_terminal import Screen

    picos, device = _linked(3)
    colours = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]
    for index in range(3):
        _lit(device, index, colours[index])
    device.devices[1].colours = [(0, 0, 0)] * 63 + [(255, 255, 255)]  # one LED lit, the last
    for columns, width, step in ((70, 18, 1), (120, 25, 2)):
        screen = Screen()
        screen.feed(emulink.render_linked(device.panels(), device.wiring(), columns, 30))
        left = (columns - (3 * width + 4)) // 2 + 1
        for index in range(3):
            x = left + index * (width + 2) + 1  # after the frame's column
            got = [screen.cells.get((3 + step * row, x + (3 if step == 2 else 2) * led))
                   for row in range(8) for led in range(8)]
            want = [c if c != (0, 0, 0) else UNLIT for c in device.devices[index].colours]
            assert got == want, (columns, index)


def test_the_terminal_mode_sends_keys_to_the_board_tab_chose():
    import pty
    import threading

    from sim import terminal

    picos, device = _linked(2)
    master, slave = pty.openpty()

    def type_keys():
        for text, pause in (("", 1.0), ("\t", 0.3), ("d", 0.6), ("1", 0.6), ("w", 0.6),
                            ("q", 0.6)):
            time.sleep(pause)
            os.write(master, text.encode())

    def drain():
        while True:
            try:
                if not os.read(master, 65536):
                    break
            except OSError:
                break

    typist = threading.Thread(target=type_keys, daemon=True)
    reader = threading.Thread(target=drain, daemon=True)
    typist.start()
    reader.start()
    with open(slave, "rb", buffering=0, closefd=False) as stdin, \
            open(slave, "w", closefd=False) as stdout:
        terminal.run(device, lambda app: None, fps=30, stdin=stdin, stdout=stdout,
                     screen=lambda columns, rows, colour: emulink.render_linked(
                         device.panels(), device.wiring(), columns, rows, colour),
                     on_board=device.choose)
    os.close(slave)
    os.close(master)
    assert [key for key, _ in picos[1].pins][:1] == ["right"], (picos[1].pins, picos[0].pins)
    assert [key for key, _ in picos[0].pins][:1] == ["up"], picos[0].pins
    assert "right" not in [key for key, _ in picos[0].pins]
    assert "up" not in [key for key, _ in picos[1].pins]
