"""The checks of the link's two pins (``ROLIT_LINK_TX``, ``ROLIT_LINK_RX``): ``hardware.config``
loads this only when settings.toml names one of them, so a handheld without a link never loads
it.
"""

from .presets import LINK_KEYS, LINK_PINS, RP2040_GPIO


def pin_problem(preset, tx, rx, taken):
    """Why the link cannot have pins ``tx`` and ``rx`` (one may be "") on ``preset``'s board,
    where ``taken`` lists the ``(pin name, settings key)`` of the pins the other parts use: in
    words, or None."""
    if not tx or not rx:
        given, missing = (LINK_KEYS[0], LINK_KEYS[1]) if tx else (LINK_KEYS[1], LINK_KEYS[0])
        return ("%s = %r but %s is not set: the link needs both pins%s"
                % (given, tx or rx, missing, _suggest(preset)))
    if tx == rx:
        return ("%s and %s are both %r: TX and RX are two pins (a loopback test joins them "
                "with a wire)" % (LINK_KEYS[0], LINK_KEYS[1], tx))
    for which in range(2):
        name = (tx, rx)[which]
        for pin, key in taken:
            if pin == name:
                return ("%s = %r is also %s: a pin does one job%s"
                        % (LINK_KEYS[which], name, key, _suggest(preset)))
    return _uart_pair_problem(preset, tx, rx)


def _suggest(preset):
    """Words that name the pins ``preset`` leaves free for the link, or ""."""
    tx, rx = LINK_PINS[preset]
    if not tx:
        return ""
    return " (on the %s preset: %s = \"%s\", %s = \"%s\")" % (preset, LINK_KEYS[0], tx,
                                                             LINK_KEYS[1], rx)


def _gpio(preset, name):
    """The RP2040 GPIO number of pin ``name`` on ``preset``'s board, or None if unknown."""
    if preset not in RP2040_GPIO:
        return None
    table = RP2040_GPIO[preset]
    if table is not None:
        return table.get(name)
    if name[:2] == "GP" and name[2:].isdigit() and int(name[2:]) < 30:
        return int(name[2:])
    return None


def _uart_pair_problem(preset, tx, rx):
    """On an RP2040 a UART's TX is a GPIO whose number is 0 mod 4, its RX the next one, and
    GPIO n belongs to UART ((n + 4) // 8) % 2 (the datasheet's function table, which
    CircuitPython's busio.UART checks): words if ``tx``/``rx`` are not such a pair, else
    None. Pins whose number is not known here are left to busio.UART."""
    numbers = (_gpio(preset, tx), _gpio(preset, rx))
    if numbers[0] is None or numbers[1] is None:
        return None
    for i in range(2):
        if numbers[i] % 4 != i:
            return ("%s = %r is not a UART %s pin of the RP2040 (%s)"
                    % (LINK_KEYS[i], (tx, rx)[i], ("TX", "RX")[i],
                       ", ".join(_uart_pins(preset, i))))
    units = (((numbers[0] + 4) // 8) % 2, ((numbers[1] + 4) // 8) % 2)
    if units[0] != units[1]:
        return ("%s = %r is UART%d's TX but %s = %r is UART%d's RX: the two pins must be one "
                "UART's%s" % (LINK_KEYS[0], tx, units[0], LINK_KEYS[1], rx, units[1],
                              _suggest(preset)))
    return None


def _uart_pins(preset, kind):
    """The pin names of ``preset``'s board that can be a UART's TX (``kind`` 0) or RX (1)."""
    table = RP2040_GPIO[preset]
    if table is None:
        # GP24, GP25 and GP29 are not on the Pico's pins
        return ["GP%d" % n for n in range(kind, 30, 4) if n not in (24, 25, 29)]
    return [name for name in table if table[name] % 4 == kind]
