"""A 3x5 digit font and small pictures for the 8x8 matrix.

Digits are 15-bit ints, five rows of three bits, top row first, leftmost pixel the high bit.
Pictures are strings, one character per pixel row by row (width given), where ``.`` is dark and
the letters pick a palette colour (see :data:`LETTERS`); lower-case letters are the same colour
dimmed. Strings cost nothing per frame: the drawing code only indexes them.
"""

DIGITS = (
    0b111101101101111,
    0b010110010010111,
    0b111001111100111,
    0b111001111001111,
    0b101101111001001,
    0b111100111001111,
    0b111100111101111,
    0b111001010010010,
    0b111101111101111,
    0b111101111001111,
)

# Picture letters: palette index (upper case full, lower case dim); X is the cross's red and V the
# tick's green.
LETTERS = ".RYGBWOXV"
DIM = 70  # level of a lower-case letter

# Pause menu: resume, undo, restart, quit (8 wide, 6 high; row 7 shows the item dots)
PAUSE_ICONS = (
    ("..G....."
     "..GG...."
     "..GGG..."
     "..GGG..."
     "..GG...."
     "..G....."),
    ("..Y....."
     ".YY....."
     "YYYYYY.."
     ".YY..Y.."
     "..Y..Y.."
     ".....Y.."),
    (".BBBB..."
     "B....B.."
     "B....BBB"
     "B.....B."
     "B....B.."
     ".BBBB..."),
    (".R...R.."
     "..R.R..."
     "...R...."
     "..R.R..."
     ".R...R.."
     "........"),
)


def draw_digit(frame, digit, x, y, colour):
    """Draw one digit with its top-left at column ``x``, row ``y`` (clipped to the matrix)."""
    bits = DIGITS[digit]
    for row in range(5):
        yy = y + row
        if not 0 <= yy < 8:
            continue
        for col in range(3):
            xx = x + col
            if 0 <= xx < 8 and bits >> (14 - row * 3 - col) & 1:
                frame[yy * 8 + xx] = colour


def draw_number(frame, number, y, colour):
    """Draw 0-99 centred on rows ``y`` to ``y + 4``."""
    if number >= 10:
        draw_digit(frame, number // 10 % 10, 0, y, colour)
        draw_digit(frame, number % 10, 4, y, colour)
    else:
        draw_digit(frame, number, 3, y, colour)


def draw_picture(frame, picture, y, shades, width=8):
    """Draw a picture string from row ``y`` down; dark pixels are left as they are."""
    for i in range(len(picture)):
        char = picture[i]
        if char == ".":
            continue
        index = LETTERS.find(char)
        level = 255
        if index < 0:
            index = LETTERS.find(char.upper())
            level = DIM
        yy = y + i // width
        if 0 <= yy < 8 and index > 0:
            frame[yy * 8 + i % width] = shades.get(index, level)
