"""The game on the real CircuitPython firmware, in an emulated Raspberry Pi Pico (sim.emulate).

The CIRCUITPY drive holds exactly what ``sim.deploy`` writes for the pico preset. Buttons are the
preset's GPIOs pulled low; the LEDs are the bytes CircuitPython's ``neopixel_write`` hands the PIO.
Except for the first test, ``code.py`` runs under a harness that prints each ``App.update`` call
(time and key events) before making it, so that the same calls can be replayed on CPython: every
LED frame the device sends is compared with what ``rolit_core.app.App`` on CPython, through the
same matrix driver code, gives for them (``sim/rp2040/mirror.py``). One boot carries a whole
story: menu, a game against a computer, a power cut, a resume, a corrupted save.

Without a UF2 these tests skip (``ROLIT_FIRMWARE`` or ``../shared/firmware/*.uf2``); with
``ROLIT_REQUIRE_FIRMWARE=1`` (set by .ci/run) they fail instead.
"""

import pytest

from firmware_gate import require_emulator
from sim import deploy
from sim.emulate import NVM_OFFSET, Emulator, deployed_files
from sim.rp2040.mirror import Lockstep, Mirror, console_tail, with_harness

pytestmark = pytest.mark.slow

SEED = 7
BOOT_MS = 30000  # emulated; the banner comes after about 5.8 s
PROBLEMS = ("Traceback", "MemoryError", "error in frame", "safe mode")


@pytest.fixture(scope="module")
def firmware():
    require_emulator()
    return None  # sim.emulate finds it the same way


@pytest.fixture(scope="module")
def drive():
    return deployed_files(settings={"ROLIT_SEED": SEED})


def problems(console):
    return [word for word in PROBLEMS if word in console]


def test_the_deployed_files_boot_into_the_menu(firmware, drive, tmp_path):
    """The unmodified code.py: banner, title frames, and a key press shows the menu's first page
    exactly as the CPython App draws it through the same driver."""
    with Emulator(files=drive) as pico:
        pico.run_until_text("controls:", BOOT_MS)
        assert "ROLIT HANDHELD" in pico.console
        assert "matrix: pico pin GP0, GRB" in pico.console
        assert "saving: NvmStorage" in pico.console
        pico.run(600)
        title = [frame for frame in pico.frames if frame.pin == 0]
        assert title and all(len(frame.data) == 192 for frame in title)  # 64 GRB pixels
        pico.press("select")
        pico.run(80)
        pico.release("select")
        shown = len(pico.frames)
        # the menu's first frame, once the menu's modules are compiled (from source here)
        assert pico.run(1500, until_frame=True) == "frame" and len(pico.frames) > shown
        menu = Mirror(drive["settings.toml"], b"\xff" * 4096)
        app = menu.app
        app.update(0, [])
        app.update(100, [(4, True)])
        assert app.mode == "menu" and app.page == ("play", 0)
        menu.update(120, [])
        assert pico.frames[-1].data == menu.expected[-1], console_tail(pico.console)
        # A frame takes what 64 pixels take on the wire (~1.9 ms), not the PIO's host-paced time.
        assert 1.5e6 < pico.frames[-1].ns - pico.frames[-1].start_ns < 2.5e6
        # CircuitPython wrote boot_out.txt into the FAT drive through the modelled flash.
        (tmp_path / "boot_out.txt").write_bytes(pico.drive()["boot_out.txt"])
        assert deploy.circuitpython_version(str(tmp_path)) >= (8, 0)
        assert problems(pico.console) == []


@pytest.fixture(scope="module")
def story(firmware, drive):
    """Boot the harness, play against a computer, cut the power, boot, corrupt, boot.

    Returns a dict of what happened; each test below checks one part of it.
    """
    seen = {}
    with Emulator(files=with_harness(drive)) as pico:
        run = Lockstep(pico, drive["settings.toml"])
        run.power_on()
        pico.run_until_text("controls:", BOOT_MS)
        run.run(300)
        seen["first_mode"] = run.app.mode
        # Title -> menu; three pages down is the second seat; RIGHT makes it medium; BACK goes
        # to the play page; SELECT starts.
        pages = []
        for key in ("select", "down", "down", "down", "right", "back"):
            run.tap(key)
            pages.append(run.app.page)
        seen["pages"] = pages
        seen["seats"] = tuple(run.app.settings.seats[:2])
        run.tap("select")
        seen["kinds"] = run.app.kinds
        seen["mode_after_start"] = run.app.mode
        game = run.app.game
        computer = game.seat_colours[1]
        computer_moves = 0
        human_moves = 0
        deadline = pico.ms + 120000
        while computer_moves < 3 and pico.ms < deadline:
            if run.app.phase == "input":
                target = game.legal_moves()[-1]
                assert run.move_cursor(target), "the cursor did not reach %d" % target
                run.tap("select")
                human_moves += 1
            run.run(100)
            computer_moves = len([1 for _, colour in game.board.moves if colour in computer])
        seen["computer_moves"] = computer_moves
        seen["human_moves"] = human_moves
        # Cut the power while the human thinks, after the position has been saved.
        assert run.run_until(lambda app: app.phase == "input", 20000)
        run.run(500)
        seen["position_at_cut"] = game.board.to_text()
        seen["turn_at_cut"] = game.turn
        seen["frames_checked"] = run.total_checked
        seen["frames_boot_1"] = len(run.frames)
        seen["console_1"] = pico.console

        pico.power_cycle()
        mirror = run.power_on()
        pico.run_until_text("controls:", BOOT_MS)
        # The resumed board's first frame (its update loads what the computer's answers will
        # need: from source that takes a while), then the cursor blinks on.
        assert run.run_until(lambda app: run.frames, 5000), "the resumed game shows no frame"
        run.run(1500)
        resumed = run.app.game
        seen["resumed_mode"] = run.app.mode
        seen["resumed_position"] = resumed.board.to_text() if resumed else None
        seen["resumed_turn"] = resumed.turn if resumed else None
        seen["resumed_error"] = (mirror.app.error, mirror.storage.error)
        seen["frames_boot_2"] = len(run.frames)
        seen["frames_checked_2"] = run.checked

        # Flip the bits of the saved game's bytes (the 7-byte header stays), then boot again.
        nvm = bytearray(pico.nvm())
        used = len(nvm.rstrip(b"\xff"))
        seen["saved_bytes"] = used
        for at in range(7, used):
            nvm[at] ^= 0x5A
        pico.write_flash(NVM_OFFSET, bytes(nvm))
        boot_3 = len(pico.console)
        pico.power_cycle()
        mirror = run.power_on()
        pico.run_until_text("controls:", BOOT_MS)
        run.run(1500)
        seen["corrupt_mode"] = run.app.mode
        seen["corrupt_game"] = run.app.game
        seen["corrupt_error"] = mirror.app.error or mirror.storage.error
        run.tap("select")
        seen["corrupt_then"] = run.app.mode
        seen["console_3"] = pico.console[boot_3:]
        seen["frames_boot_3"] = len(run.frames)
        seen["frames_checked_3"] = run.checked
        seen["console"] = pico.console
    return seen


def test_keys_from_the_menu_start_a_game_against_a_computer(story):
    assert story["first_mode"] == "title"
    assert story["pages"] == [("play", 0), ("players", 0), ("seat", 0), ("seat", 1),
                              ("seat", 1), ("play", 0)]
    assert story["seats"] == ("human", "medium")
    assert story["mode_after_start"] == "play"
    assert story["kinds"] == ("human", "medium")


def test_the_computer_moves_several_times_and_every_frame_matches_cpython(story):
    assert story["computer_moves"] >= 3
    assert story["human_moves"] >= 2
    # Lockstep raised FrameMismatch on the first differing frame; here: many were compared.
    assert story["frames_checked"] >= 50
    assert story["frames_checked"] >= story["frames_boot_1"] - 2


def test_a_power_cut_resumes_the_same_position(story):
    assert story["resumed_mode"] == "play"
    assert story["resumed_position"] == story["position_at_cut"]
    assert story["resumed_turn"] == story["turn_at_cut"]
    assert story["resumed_error"] == (None, None)
    assert story["frames_checked_2"] >= 4  # the cursor blinks: a frame every 200-300 ms
    assert story["frames_checked_2"] >= story["frames_boot_2"] - 2


def test_a_corrupt_save_boots_to_a_fresh_start_and_says_so(story):
    assert story["saved_bytes"] > 7
    assert story["corrupt_game"] is None
    # The app's error screen (or, had the storage found nothing at all, the title): never the
    # old position.
    assert story["corrupt_mode"] in ("error", "title")
    assert story["corrupt_error"]
    console = story["console_3"]
    assert "saved game:" in console or "storage:" in console
    assert story["corrupt_then"] == "menu"  # and the game goes on
    assert story["frames_checked_3"] >= story["frames_boot_3"] - 2


def test_no_memory_error_and_no_traceback_on_the_console(story):
    assert problems(story["console"]) == []
