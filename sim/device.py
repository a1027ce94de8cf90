"""The device path on a PC: the App's frames go through the real matrix driver into a simulated
strip and panel, exactly as on the handheld; plus file storage and the clock-free stepping the
window, the terminal and the headless runner share."""

import os

from hardware.matrix import Matrix

from .strip import Panel, SimStrip

WIDTH = HEIGHT = 8


class FileStorage:
    """``load()`` / ``save(data)`` on a file, like the device's non-volatile memory.

    ``save`` writes a temporary file and renames it, so a crash never leaves half a save.
    """

    def __init__(self, path):
        self.path = path

    def load(self):
        try:
            with open(self.path, "rb") as file:
                return file.read()
        except FileNotFoundError:
            return None

    def save(self, data):
        temporary = self.path + ".tmp"
        with open(temporary, "wb") as file:
            file.write(bytes(data))
        os.replace(temporary, self.path)


class Device:
    """An App shown on a simulated panel through ``hardware.matrix.Matrix``.

    ``driver`` holds the Matrix settings (``layout``, ``rotation``, ``mirror``, ``gamma``,
    ``brightness``, ``max_current_ma``) and ``pixel_order``, the order the driver sends;
    ``panel`` describes the physical panel (``layout``, ``rotation``, ``mirror``,
    ``chip_order``) and defaults to the driver's wiring, i.e. a correctly configured device.
    """

    def __init__(self, app, driver=None, panel=None):
        driver = dict(driver or {})
        pixel_order = driver.pop("pixel_order", "GRB")
        wiring = {"layout": driver.get("layout", "rows"), "rotation": driver.get("rotation", 0),
                  "mirror": driver.get("mirror", False), "chip_order": "GRB"}
        wiring.update(panel or {})
        self.app = app
        self.strip = SimStrip(WIDTH * HEIGHT, pixel_order=pixel_order)
        self.matrix = Matrix(self.strip, WIDTH, HEIGHT, **driver)
        self.panel = Panel(self.strip, WIDTH, HEIGHT, **wiring)
        self.frame = None  # the App's last frame, as a tuple
        self.colours = [(0, 0, 0)] * (WIDTH * HEIGHT)  # screen colour of each LED
        self.updates = 0

    def update(self, now_ms, events=()):
        """Run the App for one frame; True when the panel changed (the picture needs drawing)."""
        frame = tuple(self.app.update(now_ms, list(events)))
        self.updates += 1
        if frame == self.frame:
            return False
        self.show(frame)
        return True

    def show(self, frame):
        """Put ``frame`` on the panel through the matrix driver."""
        self.frame = tuple(frame)
        self.matrix.show(self.frame)
        self.colours = self.panel.display_colours()
