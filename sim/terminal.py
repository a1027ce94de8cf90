"""Terminal mode: the 8x8 panel in true-colour character cells, playable over SSH.

Each LED is two spaces with a 24-bit background colour (``--colours 256`` for terminals without
true colour), redrawn only when the picture changes. Keys: arrows or WASD move, Enter or Space
select, Esc or Backspace go back, ``q`` quits; Ctrl-C quits too, with exit status 130.

Terminals report key presses but never releases. A key counts as held while the terminal keeps
repeating it, and is released when another key arrives (after that key's press) or when no repeat
came for a while: ``tap_ms`` (120 ms) after a single press of a direction or SELECT, so a tap of
Enter places at once; ``hold_ms`` (700 ms) for BACK in play, longer than the App's 600 ms hold,
so Esc during play opens the pause menu (elsewhere BACK is a tap, so Esc in that menu resumes);
``repeat_gap_ms`` (150 ms) once the terminal's auto-repeat runs. So a held arrow key moves at
the device's pace (the App repeats held keys), not the terminal's. Holding SELECT to preview the
captures needs a real release. Terminals that speak the kitty keyboard protocol (kitty, foot,
WezTerm, Ghostty, recent iTerm2...) send one: the simulator asks at start (``CSI ? u``), and if
the terminal answers it switches the protocol on and uses the exact presses and releases, so
holding works as on the device; it is switched off on exit.

The terminal is put in cbreak mode on an alternate screen with the cursor hidden, and restored in
every case: normal exit, ``q``, an exception, Ctrl-C (also while starting), SIGTERM, SIGHUP.
Ctrl-Z restores it while suspended and takes it back on ``fg``.
"""

import os
import re
import select
import signal
import sys
import time

from rolit_core.app import BACK, DOWN, LEFT, RIGHT, SELECT, UP

from .device import HEIGHT, WIDTH

UNLIT = (24, 24, 28)
FRAME = (40, 42, 50)
LABEL = (150, 154, 168)
COLUMNS = "abcdefgh"
QUIT = "quit"
INTERRUPT = "interrupt"  # Ctrl-C arriving as a key (kitty protocol, or no ISIG): exit 130
MIN_COLUMNS = 28  # the framed panel
MIN_ROWS = 18
MAX_SEQUENCE = 64  # an unfinished escape sequence longer than this is dropped, not kept

_CSI_KEYS = {"A": UP, "B": DOWN, "C": RIGHT, "D": LEFT}
_PLAIN_KEYS = {
    "w": UP, "s": DOWN, "a": LEFT, "d": RIGHT, "W": UP, "S": DOWN, "A": LEFT, "D": RIGHT,
    "\r": SELECT, "\n": SELECT, " ": SELECT, "\x7f": BACK, "\x08": BACK,
    "q": QUIT, "Q": QUIT, "\x03": INTERRUPT,
}
SUSPEND = "suspend"
# Choosing a board where several are shown (``python -m sim.emulate --link N``): Tab the next,
# 1-4 that one. Where one board is shown, ``run`` drops them.
NEXT_BOARD = "next board"
BOARD_KEYS = {"1": ("board", 1), "2": ("board", 2), "3": ("board", 3), "4": ("board", 4)}
_PLAIN_KEYS["\t"] = NEXT_BOARD
_PLAIN_KEYS.update(BOARD_KEYS)
# Kitty keyboard protocol: key codes (Unicode) in ``CSI code ; mods:event u``.
_KITTY_CODES = {13: SELECT, 32: SELECT, 27: BACK, 127: BACK, 8: BACK, 57414: SELECT,
                119: UP, 115: DOWN, 97: LEFT, 100: RIGHT, 113: QUIT, 9: NEXT_BOARD,
                49: BOARD_KEYS["1"], 50: BOARD_KEYS["2"], 51: BOARD_KEYS["3"],
                52: BOARD_KEYS["4"]}
_KITTY_EVENTS = {"1": "press", "2": "repeat", "3": "release"}
KITTY_QUERY = "\x1b[?u\x1b[c"   # flags query, then primary device attributes (all answer)
KITTY_PUSH = "\x1b[>11u"         # disambiguate + event types + all keys as escape codes
KITTY_POP = "\x1b[<u"
_KITTY_FLAGS = re.compile("\x1b\\[\\?\\d+u")
_DEVICE_ATTRIBUTES = re.compile("\x1b\\[\\?[\\d;]*c")


def decode(text):
    """Split terminal input into ``(key, kind)`` pairs; returns (pairs, rest), where ``rest`` is
    an unfinished escape sequence to prepend to the next read.

    ``key`` is a game key, ``QUIT``, ``INTERRUPT`` (Ctrl-C) or ``SUSPEND``. ``kind`` is None
    for ordinary terminal input (a press, or the terminal's auto-repeat of it) and "press",
    "repeat" or "release" from a terminal speaking the kitty keyboard protocol.
    """
    keys = []
    i = 0
    n = len(text)
    while i < n:
        char = text[i]
        if char == "\x1b":
            if i + 1 >= n:
                return keys, text[i:]  # a lone ESC so far: BACK, or the start of a sequence
            follow = text[i + 1]
            if follow in "[O":
                j = i + 2
                while j < n and not ("@" <= text[j] <= "~"):
                    j += 1
                if j >= n:
                    if n - i > MAX_SEQUENCE:
                        return keys, ""  # never ends: not a key, and not kept for ever
                    return keys, text[i:]
                _csi(text[i + 2:j], text[j], keys)
                i = j + 1
                continue
            keys.append((BACK, None))  # ESC followed by something else: ESC on its own
            i += 1
            continue
        key = _PLAIN_KEYS.get(char)
        if key is not None:
            keys.append((key, None))
        i += 1
    return keys, ""


def _csi(params, final, keys):
    if params[:1] in ("?", ">", "<", "="):
        return  # a reply to a query (device attributes, keyboard flags): not a key
    fields = params.split(";")
    kind = None
    mods = 0
    if len(fields) > 1:
        sub = fields[1].split(":")
        mods = _number(sub[0]) if sub[0] else 1
        if mods is None:
            return  # "1;\u00b2A" or other odd modifiers: not a key we know
        mods = max(0, mods - 1)
        if len(sub) > 1:
            kind = _KITTY_EVENTS.get(sub[1])
    if final in _CSI_KEYS:
        keys.append((_CSI_KEYS[final], kind))
    elif final == "u":
        code = _number(fields[0].split(":")[0])
        if code is None:
            return
        kind = kind or "press"
        if mods & 4 and code in (99, 122):  # Ctrl-C, Ctrl-Z
            if kind == "press":
                keys.append((INTERRUPT if code == 99 else SUSPEND, kind))
            return
        if code in _KITTY_CODES and not mods & 4:
            keys.append((_KITTY_CODES[code], kind))


def _number(text):
    """The value of a parameter of ASCII digits (at most 7: key codes reach 1114111), else None.
    ``str.isdigit`` would take "\u00b2", which ``int`` then refuses."""
    if not text or len(text) > 7:
        return None
    for char in text:
        if not "0" <= char <= "9":
            return None
    return int(text)


class TermKeys:
    """Terminal keys turned into ``(key, pressed)`` events: exact with the kitty protocol,
    otherwise with emulated releases (see the module's docstring)."""

    def __init__(self, tap_ms=120, hold_ms=700, repeat_gap_ms=150):
        self.tap_ms = tap_ms
        self.hold_ms = hold_ms
        self.repeat_gap_ms = repeat_gap_ms
        self.held = None
        self.last = 0
        self.repeating = False
        # Whether a BACK pressed now is held for ``hold_ms`` (in play, so Esc opens the pause
        # menu) or only tapped (elsewhere: in the pause menu a long BACK would resume and, still
        # held in play, open the menu again at once).
        self.hold_back = True
        self._long = False
        self.down = []  # keys down by the kitty protocol's own press/release
        self.events = []

    def key(self, key, now_ms, kind=None):
        if kind is not None:
            self.release()
            if kind == "press" and key not in self.down:
                self.down.append(key)
                self.events.append((key, True))
            elif kind == "release" and key in self.down:
                self.down.remove(key)
                self.events.append((key, False))
            return  # "repeat": the App repeats held keys itself
        if key == self.held and now_ms - self.last <= self._gap():
            self.last = now_ms
            self.repeating = True
            return
        if key == self.held:
            self.release()  # its release was due before this press came (a loop run late)
        self.events.append((key, True))
        self.release()
        self.held = key
        self.last = now_ms
        self.repeating = False
        self._long = key == BACK and self.hold_back

    def release(self):
        if self.held is not None:
            self.events.append((self.held, False))
            self.held = None

    def release_all(self):
        self.release()
        for key in self.down:
            self.events.append((key, False))
        self.down = []

    def _gap(self):
        """How long the held key stays down without another repeat."""
        if self.repeating:
            return self.repeat_gap_ms
        return self.hold_ms if self._long else self.tap_ms

    def take(self, now_ms):
        if self.held is not None and now_ms - self.last > self._gap():
            self.release()
        events = self.events
        self.events = []
        return events


def sgr_background(colour, truecolour=True):
    r, g, b = colour
    if truecolour:
        return "\x1b[48;2;%d;%d;%dm" % (r, g, b)
    return "\x1b[48;5;%dm" % xterm256(colour)


def xterm256(colour):
    """The nearest xterm-256 colour (the 6x6x6 cube or the grey ramp)."""
    levels = (0, 95, 135, 175, 215, 255)

    def nearest(value):
        best = 0
        for i in range(6):
            if abs(levels[i] - value) < abs(levels[best] - value):
                best = i
        return best

    r, g, b = colour
    cube = (nearest(r), nearest(g), nearest(b))
    cube_rgb = (levels[cube[0]], levels[cube[1]], levels[cube[2]])
    grey = max(0, min(23, (r + g + b) // 3 * 24 // 256))
    grey_rgb = (8 + 10 * grey,) * 3

    def distance(other):
        return (r - other[0]) ** 2 + (g - other[1]) ** 2 + (b - other[2]) ** 2

    if distance(grey_rgb) < distance(cube_rgb):
        return 232 + grey
    return 16 + 36 * cube[0] + 6 * cube[1] + cube[2]


CURSOR = (255, 255, 255)  # the brackets either side of the cursor's LED
NOTICE = (255, 170, 60)   # why a move was refused, a failed save
HELP_LINE = "arrows/WASD move  Enter/Space select  Esc/Backspace back  q quit"


def render(colours, info, columns=80, rows=24, truecolour=True):
    """The whole screen as one string: the framed panel, labels, a status line and key help.

    While a person chooses a move, ``info["cursor"]`` puts steady brackets round the cursor's
    LED, so it stays visible on an illegal cell, where the LED itself only blinks dim white.
    Everything below the panel is cleared first, so a line that is no longer there (the pause
    menu's, a round end's) never lingers.
    """
    reset = "\x1b[0m"
    if columns < MIN_COLUMNS or rows < MIN_ROWS:
        return "\x1b[H\x1b[2J" + "Make the terminal at least %dx%d" % (MIN_COLUMNS, MIN_ROWS)
    size = info.get("size") if info else None
    cursor = info.get("cursor") if info else None
    offset = (WIDTH - size) // 2 if size else 0
    frame = sgr_background(FRAME, truecolour) + _foreground(LABEL, truecolour)
    mark = _foreground(CURSOR, truecolour) + "\x1b[1m"
    unmark = "\x1b[22m" + _foreground(LABEL, truecolour)
    # Each LED is two columns wide (about square in a terminal font) with a column and a line of
    # panel between LEDs, so they read as separate lights rather than one block of colour.
    panel_width = 3 * WIDTH + 4  # "NN " labels, LEDs with their gaps, one column of frame
    left = max(1, (columns - panel_width) // 2 + 1)
    lines = []
    top = "   "
    for x in range(WIDTH):
        label = COLUMNS[x - offset] if size and 0 <= x - offset < size else " "
        top += label + "  "
    lines.append(frame + top + " " + reset)
    for y in range(HEIGHT):
        number = y - offset + 1 if size and 0 <= y - offset < size else None
        tag = " %d" % number if number is not None else "  "
        at = cursor[0] if cursor and cursor[1] == y else -1
        line = frame + tag + (mark + "[" + unmark if at == 0 else " ")
        for x in range(WIDTH):
            colour = colours[y * WIDTH + x]
            if not (colour[0] or colour[1] or colour[2]):
                colour = UNLIT
            gap = mark + "]" + unmark if x == at else mark + "[" + unmark if x + 1 == at else " "
            line += sgr_background(colour, truecolour) + "  " + frame + gap
        line += " " + reset
        lines.append(line)
        if y < HEIGHT - 1:
            lines.append(frame + " " * panel_width + reset)
    lines.append(frame + " " * panel_width + reset)
    text_lines = []
    if info:
        text_lines.extend(info.get("status", ()))
        notice = info.get("notice")
        if notice:
            text_lines.append(_foreground(NOTICE, truecolour) + notice + reset)
        menu = info.get("menu")
        if menu:
            items, chosen = menu
            text_lines.append("  ".join(["[%s]" % item if i == chosen else " %s " % item
                                         for i, item in enumerate(items)]))
        seats = info.get("seats", ())
        if seats:
            parts = []
            for colours_, label, points, to_move in seats:
                letters = "".join(["RYGB"[c - 1] for c in colours_])
                parts.append("%s%s %s %d" % (">" if to_move else " ", letters, label, points))
            text_lines.append("  ".join(parts))
        prompt = info.get("prompt")
        if prompt:
            text_lines.append(prompt)
    text_lines.append(HELP_LINE)
    out = ["\x1b[H"]
    row = 1
    for line in lines:
        out.append("\x1b[%d;%dH%s" % (row, left, line))
        row += 1
    out.append("\x1b[%d;1H\x1b[J" % row)  # clear below the panel: no stale lines
    row += 1
    for line in text_lines:
        if row > rows:
            break
        out.append("\x1b[%d;1H%s" % (row, _clip(line, max(1, columns - 1))))
        row += 1
    return "".join(out)


def _clip(line, width):
    """``line`` cut to ``width`` visible columns (escape sequences take none)."""
    out = []
    shown = 0
    for part in re.split("(\x1b\\[[0-9;]*m)", line):
        if part.startswith("\x1b["):
            out.append(part)
        else:
            out.append(part[:width - shown])
            shown += len(out[-1])
    return "".join(out)


def _foreground(colour, truecolour):
    if truecolour:
        return "\x1b[38;2;%d;%d;%dm" % colour
    return "\x1b[38;5;%dm" % xterm256(colour)


def truecolour_default(environ=None):
    """Whether to send 24-bit colours: yes unless the terminal is known not to take them."""
    environ = os.environ if environ is None else environ
    if environ.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return True
    if environ.get("TERM_PROGRAM") == "Apple_Terminal" or environ.get("TERM") == "linux":
        return False
    return True


class TerminalMode:
    """cbreak input on an alternate screen with a hidden cursor; ``restore()`` undoes it all.

    Use as a context manager. SIGTERM and SIGHUP leave through ``SystemExit`` (so every
    ``finally`` runs); Ctrl-Z restores the terminal before stopping; SIGWINCH sets ``resized``.
    """

    ENTER = "\x1b[?1049h\x1b[?25l\x1b[2J"
    LEAVE = "\x1b[0m\x1b[2J\x1b[?25h\x1b[?1049l"

    def __init__(self, fd, out):
        import termios
        self.termios = termios
        self.fd = fd
        self.out = out
        self.saved = None
        self.resized = True
        self.kitty = False  # the terminal reports key releases (kitty keyboard protocol)
        self.early = ""     # input that arrived while probing the terminal
        self._old_handlers = {}

    def __enter__(self):
        self.saved = self.termios.tcgetattr(self.fd)
        try:
            self._raw()
            self.probe()
            for number in (signal.SIGTERM, signal.SIGHUP):
                self._old_handlers[number] = signal.signal(number, self._exit)
            self._old_handlers[signal.SIGTSTP] = signal.signal(signal.SIGTSTP, self._suspend)
            self._old_handlers[signal.SIGWINCH] = signal.signal(signal.SIGWINCH, self._resize)
        except BaseException:  # Ctrl-C while starting: __exit__ would not run
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        self.restore()
        for number, handler in self._old_handlers.items():
            signal.signal(number, handler)
        self._old_handlers = {}
        return False

    def _raw(self):
        termios = self.termios
        mode = termios.tcgetattr(self.fd)
        mode[0] &= ~(termios.IXON | termios.ICRNL)  # no Ctrl-S freeze; Enter arrives as \r
        mode[3] &= ~(termios.ECHO | termios.ICANON)
        mode[6][termios.VMIN] = 0
        mode[6][termios.VTIME] = 0
        termios.tcsetattr(self.fd, termios.TCSANOW, mode)
        self.write(self.ENTER)
        self.resized = True

    def probe(self, timeout=0.5):
        """Ask whether the terminal speaks the kitty keyboard protocol (then it reports key
        releases, and holding keys works exactly as on the device) and switch it on if so.
        Terminals that do not know the query just answer the device-attributes request."""
        self.write(KITTY_QUERY)
        reply = ""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            ready, _, _ = select.select([self.fd], [], [], max(0.0, end - time.monotonic()))
            if not ready:
                break
            data = os.read(self.fd, 1024)
            if not data:
                break
            reply += data.decode("utf-8", "replace")
            if _DEVICE_ATTRIBUTES.search(reply):
                break  # the last answer: nothing more to wait for
        if _KITTY_FLAGS.search(reply):
            self.kitty = True
            self.write(KITTY_PUSH)
        # Keep what the player typed meanwhile; drop the replies.
        reply = _KITTY_FLAGS.sub("", _DEVICE_ATTRIBUTES.sub("", reply))
        self.early = reply

    def restore(self):
        if self.saved is not None:
            if self.kitty:
                self.write(KITTY_POP)
            self.write(self.LEAVE)
            try:
                self.termios.tcsetattr(self.fd, self.termios.TCSADRAIN, self.saved)
            except self.termios.error:
                pass  # the terminal is gone (hung up): nothing to restore

    def write(self, text):
        try:
            self.out.write(text)
            self.out.flush()
        except (OSError, ValueError):
            pass  # the terminal is gone (SSH dropped): nothing left to draw on

    def _exit(self, number, frame):
        raise SystemExit(128 + number)

    def _suspend(self, number, frame):
        self.restore()
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)
        # Continued (fg): take the terminal back.
        signal.signal(signal.SIGTSTP, self._suspend)
        self._raw()
        if self.kitty:
            self.write(KITTY_PUSH)

    def _resize(self, number, frame):
        self.resized = True


def run(device, describe, fps=60, truecolour=None, stdin=None, stdout=None, on_frame=None,
        tap_ms=120, hold_ms=700, screen=None, on_board=None):
    """Play in the terminal until ``q``; ``describe(app)`` gives the status lines.

    Where several boards are shown: ``screen(columns, rows, truecolour)`` draws the whole
    screen instead of :func:`render`, and ``on_board(key, events)`` is told of Tab
    (``NEXT_BOARD``) and 1-4 (``("board", n)``) with the key events not yet given to the device,
    every key held so far let go among them: they belong to the board chosen before."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    if truecolour is None:
        truecolour = truecolour_default()
    fd = stdin.fileno()
    if not os.isatty(fd):
        raise SystemExit("terminal mode needs a terminal (stdin is not a tty)")
    keys = TermKeys(tap_ms=tap_ms, hold_ms=hold_ms)
    period = 1000.0 / fps
    start = time.monotonic()
    pending = ""
    with TerminalMode(fd, stdout) as mode:
        next_frame = 0.0
        pending = mode.early
        last = None
        while True:
            now = (time.monotonic() - start) * 1000
            wait = max(0.0, (next_frame - now) / 1000)
            if pending == "\x1b":
                wait = min(wait, 0.03)
            ready, _, _ = select.select([fd], [], [], wait)
            now_ms = int((time.monotonic() - start) * 1000)
            keys.hold_back = getattr(device.app, "mode", "play") == "play"
            text = None
            if ready:
                data = os.read(fd, 1024)
                if not data:
                    break  # the terminal hung up
                text = pending + data.decode("utf-8", "replace")
            elif pending and pending != "\x1b":
                text, pending = pending, ""  # left over from the probe
            elif pending == "\x1b":
                pending = ""  # nothing followed the ESC: it was the Esc key
                keys.key(BACK, now_ms)
            if text is not None:
                found, pending = decode(text)
                for key, kind in found:
                    if key == QUIT:
                        return
                    if key == INTERRUPT:
                        raise KeyboardInterrupt  # as a Ctrl-C by signal: the caller exits 130
                    if key == SUSPEND:
                        keys.release_all()
                        os.kill(os.getpid(), signal.SIGTSTP)
                        continue
                    if key == NEXT_BOARD or isinstance(key, tuple):
                        if on_board is not None and kind in (None, "press"):
                            keys.release_all()
                            on_board(key, keys.take(now_ms))
                        continue
                    keys.key(key, now_ms, kind)
            if now_ms < next_frame:
                continue
            next_frame += period
            if next_frame < now_ms:
                next_frame = now_ms + period  # fell behind (suspended, slow): don't race
            changed = device.update(now_ms, keys.take(now_ms))
            if changed or mode.resized:
                columns, rows = terminal_size(stdout)
                if screen is None:
                    picture = render(device.colours, describe(device.app), columns, rows,
                                     truecolour)
                else:
                    picture = screen(columns, rows, truecolour)
                if mode.resized:
                    mode.write("\x1b[2J" + picture)
                    mode.resized = False
                elif picture != last:
                    mode.write(picture)
                last = picture
            if on_frame is not None:
                on_frame()


def terminal_size(stream):
    """(columns, rows) of the terminal; 80x24 when unknown (a pty or SSH session may say 0x0)."""
    try:
        columns, rows = os.get_terminal_size(stream.fileno())
    except (AttributeError, ValueError, OSError):
        return 80, 24
    return (columns or 80, rows or 24)
