"""How a matrix is wired and lit, worked out once when a ``Matrix`` is made: the gamma table and
the strip index of each frame position. Kept apart from ``hardware.matrix`` so that a board
forgets this code after its start.
"""

LAYOUTS = ("rows", "serpentine")
ROTATIONS = (0, 90, 180, 270)


def gamma_table(gamma=22):
    """A 256-entry ``bytearray`` mapping 0-255 to gamma-corrected 0-255.

    ``gamma`` is the exponent in tenths: 22 means 2.2, 10 means no correction. A non-zero input
    never maps to 0. Computed once (floats are fine here; nothing per frame uses them).
    """
    if not isinstance(gamma, int) or isinstance(gamma, bool) or not 10 <= gamma <= 40:
        raise ValueError("gamma must be 10-40 (tenths: 22 is 2.2), not %r" % (gamma,))
    table = bytearray(256)
    exponent = gamma / 10
    for value in range(1, 256):
        out = int(255 * (value / 255) ** exponent + 0.5)
        table[value] = out if out > 0 else 1
    return table


def strip_map(width=8, height=8, layout="rows", rotation=0, mirror=False):
    """The strip index of each frame position (a ``bytearray`` of ``width * height``).

    The frame is ``width`` x ``height`` as the player sees it. ``mirror`` flips it left to right,
    then ``rotation`` turns it clockwise by that many degrees onto the panel (so a panel mounted a
    quarter turn anticlockwise wants ``rotation=90``). The panel is wired from its top-left pixel
    (index 0) along its first row, either every row left to right (``"rows"``, "progressive") or
    zigzag (``"serpentine"``: odd rows run right to left). A panel that starts in another corner is
    the same panel rotated or mirrored.
    """
    if layout not in LAYOUTS:
        raise ValueError("layout must be 'rows' or 'serpentine', not %r" % (layout,))
    if rotation not in ROTATIONS:
        raise ValueError("rotation must be 0, 90, 180 or 270, not %r" % (rotation,))
    if not (0 < width <= 16 and 0 < height <= 16):
        raise ValueError("matrix size must be 1-16 by 1-16, not %rx%r" % (width, height))
    # The panel's own size: a quarter turn swaps the sides.
    panel_w = height if rotation in (90, 270) else width
    panel_h = width if rotation in (90, 270) else height
    table = bytearray(width * height)
    for y in range(height):
        for x in range(width):
            mx = width - 1 - x if mirror else x
            if rotation == 0:
                px, py = mx, y
            elif rotation == 90:
                px, py = height - 1 - y, mx
            elif rotation == 180:
                px, py = width - 1 - mx, height - 1 - y
            else:
                px, py = y, width - 1 - mx
            if layout == "serpentine" and py & 1:
                px = panel_w - 1 - px
            table[y * width + x] = py * panel_w + px
    return table
