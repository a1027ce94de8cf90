"""``python -m sim.emulate --link N``: two to four emulated Picos, linked as the cable links
handhelds, side by side in one window (or terminal).

Each chip boots from its own flash (``--flash``: a folder that holds ``pico-1.bin`` ...
``pico-N.bin``, or N file names separated by commas), with the game's settings.toml naming the
link's pins (``ROLIT_LINK_TX = "GP12"``, ``ROLIT_LINK_RX = "GP13"``: UART0, where the emulated
cable is). The UARTs are wired as the cable would be (``sim.rp2040.linked.Ring``): two chips
crossed, three or four in a ring, each TX to the next RX, the bytes paced at the baud rate. All
chips run in step, each slice of emulated time on all of them at once. Keys go to the selected
handheld (Tab or 1-4 choose it; a click on a board too). docs/emulator.md says more.
"""

import os
import re
import sys
import time

from .emulate import (EmulatedDevice, Emulator, EmulatorError, _fail, check_settings,
                      parse_setting, prepare_chip, run_together)
from .rp2040.images import ImageError
from .rp2040.linked import BAUD, Ring

LINK_TX, LINK_RX = "GP12", "GP13"  # UART0's pins where the emulated cable is wired
LINK_SETTINGS = {"ROLIT_LINK_TX": LINK_TX, "ROLIT_LINK_RX": LINK_RX}
FLASH_NAME = "pico-%d.bin"  # a chip's flash in a --flash folder
CONSOLE_LINES = 3   # console lines under each board
STATUS_LINES = 4    # and before them: the chip's state, its clock, the cable, keys waiting
SELECTED = (255, 170, 60)
ESCAPES = re.compile(r"\x1b\][^\x1b]*\x1b\\|\x1b\[[0-9;]*[A-Za-z]")


def flash_paths(flash, count):
    """The flash file of each of ``count`` chips from ``--flash`` (None: none kept). An
    existing folder holds ``pico-1.bin`` ...; else ``count`` names separated by commas.
    ImageError for a folder that is not there, ValueError for the wrong number of names or a
    name given twice; the files themselves are checked as ``--flash`` checks one."""
    if flash is None:
        return [None] * count
    if os.path.isdir(flash):
        return [os.path.join(flash, FLASH_NAME % (index + 1)) for index in range(count)]
    usage = ("with --link %d, --flash is a folder (for %s ... %s) or %d file names separated "
             "by commas" % (count, FLASH_NAME % 1, FLASH_NAME % count, count))
    names = flash.split(",")
    if len(names) == 1:
        if os.path.lexists(flash):
            raise ValueError("--flash %s: %s, not one file" % (flash, usage))
        raise ImageError("--flash %s: no such folder (%s)" % (flash, usage))
    given = [name for name in names if name]
    if len(given) != count or len(names) != count:
        raise ValueError("--flash %s: %d name%s; %s" % (flash, len(given),
                                                        "" if len(given) == 1 else "s", usage))
    seen = {}
    for name in names:
        real = os.path.realpath(name)
        if real in seen:
            raise ValueError("--flash: %s and %s are the same file: each handheld needs its own"
                             % (seen[real], name))
        seen[real] = name
    return names


def link_settings_known(fixed=LINK_SETTINGS):
    """Whether this tree's game reads the link's settings (``hardware.config``): a key it does
    not know would put its settings error on every chip's matrix at power-on."""
    toml = "".join('%s = "%s"\n' % item for item in fixed.items()).encode()
    return not check_settings(toml, list(fixed))


def prepare_link(args):
    """Each chip's (flash path, image, settings.toml, button pins), checked before any chip
    starts; ValueError (one line) for what cannot be used."""
    settings = dict(parse_setting(item) for item in args.set)
    for key in LINK_SETTINGS:
        if key in settings and settings[key] != LINK_SETTINGS[key]:
            raise ValueError("--set %s=%s: the emulated cable is on UART0's %s (TX) and %s "
                             "(RX); leave the link's pins to --link" % (key, settings[key],
                                                                         LINK_TX, LINK_RX))
    paths = flash_paths(args.flash, args.link)
    fixed = dict(LINK_SETTINGS) if link_settings_known() else {}
    chips = []
    made = None  # a new drive is the same on every chip: built once
    for path in paths:
        if path is None and made is not None:
            chips.append((None,) + made)
            continue
        image, toml, keys = prepare_chip(path, args.firmware, settings, args.preset, fixed)
        if path is None:
            made = (image, toml, keys)
        chips.append((path, image, toml, keys))
    if not fixed:
        print("this game's settings do not know ROLIT_LINK_TX/ROLIT_LINK_RX yet: the chips' "
              "settings.toml go without them (the UARTs are wired all the same)",
              file=sys.stderr)
    return chips


class LinkedDevice:
    """The linked chips behind the window or terminal: ``update(now_ms, events)`` runs every
    chip the same slice of emulated time (all at once), carries the bytes each one sent to the
    next one's RX pin, and gives ``events`` to the selected chip's buttons. ``devices`` are the
    chips' ``EmulatedDevice``; ``colours`` and ``app`` are the selected one's."""

    def __init__(self, devices, ring):
        self.devices = list(devices)
        self.ring = ring
        self.selected = 0
        self.app = None

    @property
    def colours(self):
        return self.devices[self.selected].colours

    def choose(self, key, events=()):
        """Select a chip: ``key`` an index (0-3), ``("board", n)`` (1-4) or anything else for
        the next one. ``events`` still belong to the chip selected so far, and whatever it
        holds is let go: no button stays pressed on a handheld nobody is at."""
        old = self.devices[self.selected]
        old.queue(events)
        old.release_all()
        if isinstance(key, tuple):
            key = key[1] - 1
        if isinstance(key, int):
            if 0 <= key < len(self.devices):
                self.selected = key
        else:
            self.selected = (self.selected + 1) % len(self.devices)
        return self.selected

    def update(self, now_ms, events=()):
        slices = [device.before_run(now_ms, events if index == self.selected else ())
                  for index, device in enumerate(self.devices)]
        run_together([device.pico for device in self.devices], min(slices))
        self.ring.carry(self.devices[0].pico.ms)
        changed = False
        for device in self.devices:
            changed = device.after_run(now_ms) or changed
        return changed

    def panels(self):
        """What each board shows: (colours, label, status lines, selected)."""
        shown = []
        for index, device in enumerate(self.devices):
            info = device.info()["status"]
            counters = [line for line in info[1:] if not line.startswith("first LED frame")]
            lines = [info[0]] + counters[:1] + [
                "link: %d bytes out, %d in (%d baud)" % (self.ring.sent[index],
                                                         self.ring.received[index],
                                                         self.ring.baud)] + counters[1:]
            shown.append((device.colours, "Pico %d" % (index + 1), lines,
                          index == self.selected))
        return shown

    def wiring(self):
        """The cable in words: "1 TX -> 2 RX, 2 TX -> 1 RX"."""
        return ", ".join("%d TX -> %d RX" % (index + 1, self.ring.next(index) + 1)
                         for index in range(len(self.devices)))


# -- the window ------------------------------------------------------------------------------


def _window(device, fps, count, size=None, title=None):
    import pygame

    from . import window

    class LinkedWindow(window.Window):
        """The simulator's window with every chip's board side by side."""

        def handle(self, event, now_ms):
            if event.type == pygame.KEYDOWN and not event.mod & (pygame.KMOD_CTRL |
                                                                  pygame.KMOD_META):
                choice = CHOICE_KEYS.get(event.key)
                if choice is not None:
                    self._choose(choice)
                    return
            if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                index = self.renderer.board_at(self._scale(event.pos))
                if index is not None:
                    self._choose(index)
                return
            super().handle(event, now_ms)

        def _choose(self, key):
            self.keys.release_all()
            self.device.choose(key, self.keys.take())
            self.dirty = True

        def draw(self):
            self.renderer.draw(self.surface, self.device)
            self.window.flip()
            self.dirty = False
            self.frames += 1

    # The digits above the letters: the keypad's 2, 4, 6 and 8 are the simulator's directions.
    CHOICE_KEYS = {pygame.K_TAB: "next", pygame.K_1: 0, pygame.K_2: 1, pygame.K_3: 2,
                   pygame.K_4: 3}
    win = LinkedWindow(device, size=size or default_size(count), fps=fps,
                       title=title or "Rolit Handheld: %d linked Picos (emulated)" % count)
    win.renderer = LinkedRenderer(count)
    return win


def default_size(count):
    """A board column per chip, about two thirds of the screen high."""
    import pygame

    try:
        width, height = pygame.display.get_desktop_sizes()[0]
    except (pygame.error, IndexError):
        width, height = 1280, 800
    tall = max(360, min(height, width) * 2 // 3)
    column = min(tall * 56 // 100, (width - 64) // count)
    # The board as wide as its column, and under it the lines of its status and the cable's.
    return (column * count + 24, min(tall, column + column * 2 // 3))


HELP = ("Tab or 1-%d: choose the handheld (or click its board)   arrows/WASD, Enter/Space, "
        "Esc/Backspace: its buttons   Ctrl+Q: quit")


class LinkedRenderer:
    """Draws each chip's board in a column of its own: a label, the LEDs (the simulator's
    ``Renderer``), its status; the selected one framed, "keys go here" beside its label."""

    def __init__(self, count):
        from .window import Renderer

        self.count = count
        self.boards = [Renderer(labels=False) for _ in range(count)]
        self.columns = []
        self.labels = False  # Window's L key toggles this; the chips' boards have no labels

    def layout(self, size):
        width, height = size
        margin = max(6, min(width, height) // 60)
        column = (width - margin) // self.count
        self.margin = margin
        self.unit = max(10, min(column // 20, height // 36))
        self.areas = [None] * self.count
        self.columns = [(margin + index * column, margin, column - margin, height - 2 * margin)
                        for index in range(self.count)]

    def board_at(self, point):
        for index, (x, y, w, h) in enumerate(self.columns):
            if x <= point[0] < x + w and y <= point[1] < y + h:
                return index
        return None

    def draw(self, surface, device):
        import pygame

        from .window import BACKGROUND, DIM_TEXT, TEXT

        self.layout(surface.get_size())
        surface.fill(BACKGROUND)
        unit = self.unit
        text = self.boards[0].text
        help_line = text(unit * 0.9, HELP % self.count, DIM_TEXT)
        if help_line.get_width() > surface.get_width() - 2 * self.margin:
            help_line = text(unit * 0.9, "Tab or 1-%d: choose the handheld   Ctrl+Q: quit"
                             % self.count, DIM_TEXT)
        help_y = surface.get_height() - self.margin - help_line.get_height()
        surface.blit(help_line, (self.margin, help_y))
        wiring = text(unit * 0.9, "cable: " + device.wiring(), DIM_TEXT)
        surface.blit(wiring, (self.margin, help_y - wiring.get_height() - unit // 4))
        bottom = help_y - wiring.get_height() - unit // 2
        line_h = self.boards[0].line_height(unit) + 2
        # Room for the most lines a chip shows (its state, the counters, the cable, keys
        # waiting, the console's last lines), so the board keeps its size as lines come.
        status_h = (STATUS_LINES + CONSOLE_LINES) * line_h
        pad = unit // 2
        for index, (colours, label, lines, selected) in enumerate(device.panels()):
            x, y, w, _ = self.columns[index]
            title = text(unit * 1.5, label, SELECTED if selected else TEXT)
            surface.blit(title, (x + pad, y + pad))
            if selected:
                tag = text(unit, "keys go here", SELECTED)
                surface.blit(tag, (x + pad + title.get_width() + unit,
                                   y + pad + title.get_height() - tag.get_height()))
            top = y + pad + title.get_height() + pad // 2
            side = min(w - 2 * pad, bottom - top - status_h - pad)
            if side < 24:  # a window too small for the status: the board comes first
                side = min(w - 2 * pad, bottom - top)
            area = pygame.Rect(x + (w - side) // 2, top, side, side)
            self.areas[index] = area
            if side >= 8 and surface.get_rect().contains(area):
                self.boards[index].draw(surface.subsurface(area), colours, None)
            line_y = area.bottom + pad // 2
            for number, line in enumerate(lines[:STATUS_LINES + CONSOLE_LINES]):
                shown = self._fit(text, unit, line, w - 2 * pad)
                surface.blit(text(unit, shown, TEXT if number == 0 else DIM_TEXT),
                             (x + pad, line_y))
                line_y += line_h
            if selected:
                frame = pygame.Rect(x, y, w, min(bottom, area.bottom + pad + status_h) - y)
                pygame.draw.rect(surface, SELECTED, frame, width=max(2, unit // 5),
                                 border_radius=unit // 2)

    @staticmethod
    def _fit(text, unit, line, width):
        """``line`` cut (with "...") to fit ``width`` pixels."""
        if text(unit, line, (0, 0, 0)).get_width() <= width:
            return line
        low, high = 0, len(line)
        while low < high:
            middle = (low + high + 1) // 2
            if text(unit, line[:middle] + "...", (0, 0, 0)).get_width() <= width:
                low = middle
            else:
                high = middle - 1
        return line[:low] + "..."


# -- the terminal ----------------------------------------------------------------------------


def render_linked(panels, wiring, columns=80, rows=24, truecolour=True):
    """The terminal's screen: the boards side by side, each with its label over it (the
    selected one marked and framed in orange) and its status under it, then the cable and the
    keys. Wide terminals get the simulator's LEDs with a gap between them (25 columns a board);
    narrower ones LEDs side by side, 18 columns a board."""
    from .terminal import FRAME, LABEL, UNLIT, _clip, _foreground, sgr_background

    count = len(panels)
    gap = 2
    wide = count * 25 + (count - 1) * gap <= columns and rows >= 24
    width = 25 if wide else 18
    need = count * width + (count - 1) * gap
    if columns < need or rows < 16:
        return "\x1b[H\x1b[2J" + "Make the terminal at least %dx16 for %d boards" % (need, count)
    reset = "\x1b[0m"
    left = max(1, (columns - need) // 2 + 1)
    out = ["\x1b[H\x1b[2J"]
    bottom = 1
    for index, (colours, label, lines, selected) in enumerate(panels):
        x = left + index * (width + gap)
        frame = sgr_background(SELECTED if selected else FRAME, truecolour)
        row = 1
        title = ("> %s  keys go here" if selected else "  %s") % label
        colour = SELECTED if selected else LABEL
        out.append("\x1b[%d;%dH%s%s%s" % (row, x, _foreground(colour, truecolour),
                                          title[:width], reset))
        row += 1
        out.append("\x1b[%d;%dH%s%s%s" % (row, x, frame, " " * width, reset))
        row += 1
        for y in range(8):
            line = frame + " "
            for led in range(8):
                rgb = colours[y * 8 + led]
                if not (rgb[0] or rgb[1] or rgb[2]):
                    rgb = UNLIT
                line += sgr_background(rgb, truecolour) + "  " + frame + (
                    " " if wide and led < 7 else "")
            line += " " + reset  # the frame's right column
            out.append("\x1b[%d;%dH%s" % (row, x, line))
            row += 1
            if wide and y < 7:
                out.append("\x1b[%d;%dH%s%s%s" % (row, x, frame, " " * width, reset))
                row += 1
        out.append("\x1b[%d;%dH%s%s%s" % (row, x, frame, " " * width, reset))
        row += 1
        for line in lines:
            if row > rows - 2:
                break
            out.append("\x1b[%d;%dH%s" % (row, x, _clip(line, width)))
            row += 1
        bottom = max(bottom, row)
    for line in ("cable: " + wiring,
                 "Tab/1-%d choose  arrows/WASD Enter/Space Esc/Backspace  q quit" % count):
        if bottom > rows:
            break
        out.append("\x1b[%d;1H%s" % (bottom, _clip(line, max(1, columns - 1))))
        bottom += 1
    return "".join(out)


# -- running ---------------------------------------------------------------------------------


def run(args, mode, chips, started):
    """Start the chips, show them until the window closes (``q``, Ctrl-C), power them off
    with each flash saved; the exit status."""
    from .rp2040.mirror import load_settings

    picos = [Emulator(flash=image, keys=keys) for _, image, _, keys in chips]
    status = 0
    try:
        for pico in picos:
            pico.start()
        ring = Ring(picos, BAUD)
        if mode == "console":
            _console(picos, ring, args.console, started)
            return 0
        devices = [EmulatedDevice(pico, load_settings(toml), console_lines=CONSOLE_LINES,
                                  started=started) for pico, (_, _, toml, _) in zip(picos,
                                                                                    chips)]
        device = LinkedDevice(devices, ring)
        if mode == "window":
            for index, pico in enumerate(picos):
                pico.on_serial = _Prefixed(index + 1)
            win = _window(device, args.fps or 30, len(picos))
            try:
                win.run()
            finally:
                win.close()
        else:
            from . import terminal

            terminal.run(device, lambda app: None, fps=args.fps or 30,
                         screen=lambda columns, rows, colour: render_linked(
                             device.panels(), device.wiring(), columns, rows, colour),
                         on_board=device.choose)
    except EmulatorError as error:
        status = _fail(str(error).strip().split("\n")[0], 1)
    finally:
        status = power_off(picos, [path for path, _, _, _ in chips]) or status
    return status


class _Prefixed:
    """A chip's console on stdout, whole lines with its number before them."""

    def __init__(self, number, out=None):
        self.number = number
        self.out = out
        self.pending = ""

    def __call__(self, text):
        out = self.out or sys.stdout
        self.pending += text.replace("\r", "")
        *lines, self.pending = self.pending.split("\n")
        for line in lines:
            # Without CircuitPython's title and status bar escapes: lines of several chips mix.
            line = ESCAPES.sub("", line)
            out.write("pico %d| %s\n" % (self.number, line))
        if lines:
            out.flush()


def _console(picos, ring, seconds, started):
    """Every chip's console (each line after its number) for ``seconds`` of emulated time."""
    for index, pico in enumerate(picos):
        pico.on_serial = _Prefixed(index + 1)
    end = picos[0].ms + seconds * 1000
    while picos[0].ms < end:
        run_together(picos, min(20, end - picos[0].ms))
        ring.carry(picos[0].ms)
    for pico in picos:
        if pico.on_serial.pending:  # a last line without its end
            pico.on_serial("\n")
    wall = time.monotonic() - started
    print("%d linked chips: %.1f s emulated in %.1f s here; %s bytes sent on the cable"
          % (len(picos), picos[0].ms / 1000, wall, "/".join(str(n) for n in ring.sent)),
          file=sys.stderr)


def power_off(picos, paths):
    """Save each started chip's flash where it has a path (each file written beside it and
    renamed over it), then stop every chip; 1 if a flash was not saved (one line each). A
    Ctrl-C meanwhile cuts short only the save under way (that file keeps its last good
    contents): the other chips are still saved, every chip is stopped, then it is raised."""
    status = 0
    interrupted = False
    for pico, path in zip(picos, paths):
        try:
            if path and pico._process is not None:
                try:
                    pico.save_flash(path)
                except EmulatorError as error:
                    status = _fail(str(error).split("\n")[0], 1)
        except KeyboardInterrupt:
            interrupted = True
    for pico in picos:
        try:
            pico.close()
        except KeyboardInterrupt:
            interrupted = True
    if interrupted:
        raise KeyboardInterrupt
    return status


__all__ = ["LinkedDevice", "flash_paths", "prepare_link", "render_linked", "run"]
