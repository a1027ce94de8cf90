"""The handheld's hardware: thin drivers over CircuitPython's built-in modules.

``matrix`` (NeoPixel matrix), ``inputs``, ``joystick`` and ``onebutton`` (buttons, joystick, one
button), ``buzzer`` (piezo), ``storage`` (where to import the stores from: ``nvmstore``,
``filestore``, their records in ``saverecord``), ``config`` (settings.toml, with the board
``presets`` and, for a link, ``linkpins``), ``handheld`` (all of them, built from the settings
by ``parts``), ``gamelog`` (the serial console log, with ``gamelines`` for the lines that begin
and end a game), ``pacing`` (a computer's thinking per frame), ``main`` (the game's main loop,
which ``code.py`` runs) and the start-up code (``firstlight``, ``startup``, ``wiring``).
See docs/hardware.md.
"""
