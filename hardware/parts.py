"""Builds the handheld's parts from the settings: the matrix, the controls, the buzzer and the
link's cable, and opens the storage (``open_storage``, also ``hardware.storage.open_storage``).

Only ``Handheld()`` uses this, once, at start; ``code.py`` builds the handheld inside its
start-up block (``hardware.startup``), at whose end this module is forgotten. Each problem becomes a message in ``handheld.errors`` and the part
falls back or is left out (see ``hardware.handheld``).
"""

from .inputs import Buttons
from .matrix import Matrix
from .nvmstore import NoStorage, NvmStorage


def build(handheld, board):
    """Give ``handheld`` (its ``settings``, ``keys``, ``errors``) a matrix, inputs, buzzer and
    cable."""
    _make_matrix(handheld, board)
    _make_inputs(handheld, board)
    _make_buzzer(handheld, board)
    _make_cable(handheld, board)


def _pin(handheld, board, attr, what):
    """The board pin named by setting ``attr``; a bad name falls back to the preset's."""
    from . import config

    name = getattr(handheld.settings, attr)
    pin = config.pin(board, name, what, handheld.errors)
    if pin is None and name:
        default = config.PRESETS[handheld.settings.preset][config.PIN_ATTRS.index(attr)]
        if default and default != name:
            pin = config.pin(board, default, what, handheld.errors)
            if pin is not None:
                handheld.errors.append("%s: using the %s pin %s instead"
                                       % (what, handheld.settings.preset, default))
    return pin


def _claim(handheld, pin, what):
    """True if no other part has ``pin`` yet (hardware.config refuses a pin named twice; this
    catches two names of one pin), else False with a message."""
    claimed = getattr(handheld, "_pins", None)
    if claimed is None:
        claimed = handheld._pins = []
    if pin in claimed:
        handheld.errors.append("%s: its pin is already used, left out" % what)
        return False
    claimed.append(pin)
    return True


def _make_matrix(handheld, board):
    settings = handheld.settings
    pin = _pin(handheld, board, "matrix_pin", "matrix")
    if pin is None:
        handheld.errors.append("matrix: no data pin, playing without the LEDs")
        return
    _claim(handheld, pin, "matrix")
    try:
        import neopixel

        count = settings.matrix_width * settings.matrix_height
        strip = neopixel.NeoPixel(pin, count, bpp=len(settings.pixel_order),
                                  pixel_order=settings.pixel_order, auto_write=False)
        handheld.matrix = Matrix.from_settings(strip, settings)
    except Exception as error:
        # Under Blinka neopixel is a pip package, and what fails is the Pi's LED library, which
        # Blinka names (with the pip command) on the first line.
        if getattr(board, "__blinka__", False):
            hint = "docs/hardware.md, A Raspberry Pi as the handheld, step 3"
        else:
            hint = "is lib/neopixel.py there?"
        why = str(error).split("\n")[0].strip() or type(error).__name__
        handheld.errors.append("matrix: %s (%s)" % (why, hint))


def _make_inputs(handheld, board):
    settings = handheld.settings
    up, down, left, right, select, back = handheld.keys
    to_ground = settings.buttons_to_ground
    kind = settings.input
    if kind == "joystick":
        x = _pin(handheld, board, "joy_x", "joystick x")
        y = _pin(handheld, board, "joy_y", "joystick y")
        if x is not None and y is not None and (not _claim(handheld, x, "joystick x")
                                                or not _claim(handheld, y, "joystick y")):
            x = None
        if x is None or y is None:
            handheld.errors.append("joystick: no analog pins, using the buttons")
            kind = "buttons"
        else:
            try:
                from .joystick import Joystick

                stick = Joystick(x, y, (up, down, left, right), settings.joy_dead_zone,
                                 settings.joy_invert_x, settings.joy_invert_y,
                                 settings.joy_swap)
                if stick.warning:
                    handheld.errors.append(stick.warning)
                handheld.inputs.append(stick)
            except Exception as error:
                handheld.errors.append("joystick: %s; using the buttons" % (error,))
                kind = "buttons"
        if kind == "joystick":
            _add_buttons(handheld, board, ((select, "joy_press", "joystick press"),
                                           (select, "pin_select", "select button"),
                                           (back, "pin_back", "back button")), to_ground)
            return
    if kind == "onebutton":
        pin = _pin(handheld, board, "pin_select", "the button")
        if pin is not None and _claim(handheld, pin, "the button"):
            try:
                from .onebutton import NEXT, OneButton, Steer

                handheld.inputs.append(OneButton(pin, NEXT, select, settings.long_press_ms,
                                                 back, settings.long_press_ms * 4, to_ground))
                handheld.steer = Steer(up, down, left, right)
                return
            except Exception as error:
                handheld._pins.remove(pin)  # the buttons may take it
                handheld.errors.append("one button: %s; using the buttons" % (error,))
        else:
            handheld.errors.append("one button: no pin, using the buttons")
    _add_buttons(handheld, board, ((up, "pin_up", "up button"), (down, "pin_down", "down button"),
                                   (left, "pin_left", "left button"),
                                   (right, "pin_right", "right button"),
                                   (select, "pin_select", "select button"),
                                   (back, "pin_back", "back button")), to_ground)


def _add_buttons(handheld, board, wanted, to_ground):
    pairs = []
    for key, attr, what in wanted:
        pin = _pin(handheld, board, attr, what)
        if pin is None or not _claim(handheld, pin, what):
            continue
        pairs.append((key, pin))
    if not pairs:
        handheld.errors.append("no buttons configured: the game cannot be played")
        return
    try:
        handheld.inputs.append(Buttons(pairs, to_ground))
    except Exception as error:
        handheld.errors.append("buttons: %s" % (error,))


def _make_buzzer(handheld, board):
    settings = handheld.settings
    if not settings.volume or not settings.buzzer_pin:
        return
    pin = _pin(handheld, board, "buzzer_pin", "buzzer")
    if pin is None or not _claim(handheld, pin, "buzzer"):
        return
    try:
        from .buzzer import Buzzer

        handheld.buzzer = Buzzer(pin, settings.volume)
    except Exception as error:
        handheld.errors.append("buzzer: %s" % (error,))


def _make_cable(handheld, board, busio=None, usb_cdc=None):
    """The link's UART on the settings' pins (``link_tx``, ``link_rx``). No fallback to other
    pins: the other handhelds are wired to these. Without pins, the USB data channel if
    boot.py enabled it (``usb_cdc.data``: hardware.usblink); else no link."""
    from . import config

    settings = handheld.settings
    tx_name = getattr(settings, "link_tx", None)
    rx_name = getattr(settings, "link_rx", None)
    if not tx_name or not rx_name:
        _make_usb_cable(handheld, usb_cdc)
        return
    errors = handheld.errors
    tx = config.pin(board, tx_name, "link TX", errors)
    rx = config.pin(board, rx_name, "link RX", errors)
    if tx is None or rx is None:
        errors.append("link: no pins, playing without a link")
        return
    if not _claim(handheld, tx, "link TX") or not _claim(handheld, rx, "link RX"):
        errors.append("link: playing without a link")
        return
    try:
        from .uartlink import UartLink

        handheld.cable = UartLink(tx, rx, settings.link_baud, busio)
    except Exception as error:  # ValueError("Invalid pins"), a pin in use, no busio (ImportError)
        handheld._pins.remove(tx)
        handheld._pins.remove(rx)
        # One line on the console: Blinka's "No Hardware UART on (tx,rx)=..." goes on to list
        # the valid ports on a second line.
        why = str(error).split("\n")[0].strip() or type(error).__name__
        errors.append("link: a UART on TX %s and RX %s at %s baud failed (%s): playing without "
                      "a link" % (tx_name, rx_name, settings.link_baud, why))


def _make_usb_cable(handheld, usb_cdc=None):
    """``usb_cdc.data`` as the link's cable, when there is one (a board whose boot.py enabled
    it); a board without ``usb_cdc`` (a Pi with Blinka) or without the channel: no link."""
    if usb_cdc is None:
        try:
            import usb_cdc
        except ImportError:
            return
    data = getattr(usb_cdc, "data", None)
    if data is None:
        return
    from .usblink import UsbLink

    handheld.cable = UsbLink(data)


def open_storage(kind="nvm", path="/rolit.sav", offset=0, microcontroller=None, need=None):
    """The storage ``kind`` asks for, falling back from nvm to a file where the board has no nvm
    or too little for two copies of ``need`` bytes (default: the largest save the menu allows,
    ``rolit_core.save.MENU_LARGEST``). Returns ``(storage, message)``; ``message`` says why it
    fell back, or None."""
    if kind == "none":
        return NoStorage(), None
    message = None
    if kind == "nvm":
        if need is None:
            from rolit_core.save import MENU_LARGEST as need
        nvm = None
        try:
            if microcontroller is None:
                import microcontroller
            nvm = getattr(microcontroller, "nvm", None)
        except ImportError:
            pass
        if nvm is None:
            message = "no microcontroller.nvm here: saving to %s" % path
        else:
            try:
                store = NvmStorage(nvm, offset)
                if store.capacity >= need:
                    return store, None
                message = ("nvm too small: from offset %d it holds two copies of %d bytes, a "
                           "save can need %d (ROLIT_NVM_OFFSET): saving to %s"
                           % (offset, store.capacity, need, path))
            except ValueError as error:
                message = "%s: saving to %s" % (error, path)
    from .filestore import FileStorage

    return FileStorage(path), message
