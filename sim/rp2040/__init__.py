"""The emulated Raspberry Pi Pico: the Node.js host around rp2040js (``host.mjs``) and the
CIRCUITPY drive's FAT12 image (``fat``). ``sim.emulate`` is the Python side to use."""
