"""Each supported board's default pins, by preset name (``ROLIT_PRESET``): read by
``hardware.config`` and, before anything else is loaded, by ``hardware.firstlight``."""

# name: (matrix pin, up, down, left, right, select, back, joystick x, joystick y, joystick press,
#        buzzer). "" means not fitted.
PRESETS = {
    "pico": ("GP0", "GP2", "GP3", "GP4", "GP5", "GP6", "GP7", "GP26", "GP27", "GP22", "GP15"),
    "pico_w": ("GP0", "GP2", "GP3", "GP4", "GP5", "GP6", "GP7", "GP26", "GP27", "GP22", "GP15"),
    "feather_rp2040": ("D5", "D9", "D10", "D11", "D12", "D24", "D25", "A0", "A1", "D4", "A3"),
    # A Raspberry Pi has no analog inputs: buttons only. NeoPixels need GPIO18 (PWM) or GPIO10 (SPI).
    "blinka_pi": ("D18", "D5", "D6", "D13", "D19", "D26", "D21", "", "", "", ""),
}
PRESET_NAMES = ("pico", "pico_w", "feather_rp2040", "blinka_pi")

LINK_KEYS = ("ROLIT_LINK_TX", "ROLIT_LINK_RX")  # the settings keys of the link's two pins

# name: (link TX, link RX), the pins for the cable to the other handhelds that settings.toml
# names (ROLIT_LINK_TX, ROLIT_LINK_RX; the link is off until it does): a UART's own TX/RX pair
# that the preset leaves free. The Pico's GP12/GP13 are UART0's (GP0, its other TX, is the
# matrix); the Feather's TX/RX are GPIO0/GPIO1, UART0. None for a Raspberry Pi: Blinka's
# busio.UART opens a serial device by number, not the GPIO14/15 pins.
LINK_PINS = {
    "pico": ("GP12", "GP13"),
    "pico_w": ("GP12", "GP13"),
    "feather_rp2040": ("TX", "RX"),
    "blinka_pi": ("", ""),
}
# The RP2040's GPIO number of each pin name a board gives (GPn on a Pico; the Feather's own
# names), to tell a UART's TX/RX pair; a board missing here is not checked.
_FEATHER_GPIO = {"TX": 0, "D1": 0, "RX": 1, "D0": 1, "SDA": 2, "SCL": 3, "D4": 6, "D5": 7,
                 "D6": 8, "D9": 9, "D10": 10, "D11": 11, "D12": 12, "D13": 13, "LED": 13,
                 "SCK": 18, "MOSI": 19, "MISO": 20, "D24": 24, "D25": 25, "A0": 26, "A1": 27,
                 "A2": 28, "A3": 29}
RP2040_GPIO = {"pico": None, "pico_w": None, "feather_rp2040": _FEATHER_GPIO}
