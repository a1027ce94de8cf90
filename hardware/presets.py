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
