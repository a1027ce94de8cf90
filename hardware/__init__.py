"""The handheld's hardware: thin drivers over CircuitPython's built-in modules.

``matrix`` (NeoPixel matrix), ``inputs``, ``joystick`` and ``onebutton`` (buttons, joystick, one
button), ``buzzer`` (piezo), ``storage`` (nvm or a file), ``config`` (settings.toml), ``handheld``
(all of them, built from the settings by ``parts``) and ``gamelog`` (the serial console log). See
docs/hardware.md.
"""
