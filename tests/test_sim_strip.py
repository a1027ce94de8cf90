"""The simulated strip and panel: real adafruit_pixelbuf bytes, wiring and colour order."""

from hardware.matrix import Matrix
from sim.strip import SRGB, Panel, SimStrip


def lit_at(panel):
    return [(i % 8, i // 8) for i, c in enumerate(panel.lights()) if c != (0, 0, 0)]


def test_strip_keeps_the_bytes_in_the_drivers_pixel_order():
    strip = SimStrip(64, pixel_order="GRB")
    strip[0] = (10, 20, 30)
    strip.show()
    assert strip.data[:3] == bytes([20, 10, 30]) and strip.shows == 1


def test_panel_wiring_rows_and_serpentine():
    strip = SimStrip(64)
    strip[9] = (255, 255, 255)
    strip.show()
    assert lit_at(Panel(strip, layout="rows")) == [(1, 1)]
    assert lit_at(Panel(strip, layout="serpentine")) == [(6, 1)]  # odd rows run right to left


def test_matching_driver_and_panel_show_the_frame_the_right_way_up():
    for layout in ("rows", "serpentine"):
        for rotation in (0, 90, 180, 270):
            strip = SimStrip(64)
            matrix = Matrix(strip, layout=layout, rotation=rotation, gamma=10, brightness=100)
            panel = Panel(strip, layout=layout, rotation=rotation)
            frame = [(0, 0, 0)] * 64
            frame[1 * 8 + 2] = (200, 0, 0)  # c2
            matrix.show(frame)
            assert lit_at(panel) == [(2, 1)], (layout, rotation)


def test_wrong_wiring_setting_looks_wrong_in_the_simulator():
    strip = SimStrip(64)
    matrix = Matrix(strip, layout="rows", gamma=10, brightness=100)
    panel = Panel(strip, layout="serpentine")
    frame = [(0, 0, 0)] * 64
    frame[1 * 8 + 0] = (200, 0, 0)  # a2
    matrix.show(frame)
    assert lit_at(panel) == [(7, 1)]  # the zigzag panel shows it at h2


def test_wrong_pixel_order_swaps_colours_like_a_real_panel():
    strip = SimStrip(64, pixel_order="RGB")  # the driver sends RGB...
    matrix = Matrix(strip, gamma=10, brightness=100)
    panel = Panel(strip, chip_order="GRB")  # ...to WS2812B chips that read GRB
    matrix.show([(200, 0, 0)] + [(0, 0, 0)] * 63)
    assert panel.light(0, 0) == (0, 200, 0)


def test_display_colours_undo_the_led_gamma():
    strip = SimStrip(64)
    panel = Panel(strip)
    corrected = Matrix(strip, gamma=22, brightness=100)
    corrected.show([(128, 128, 128)] * 1 + [(0, 0, 0)] * 63)
    shown = panel.display_colours()[0][0]
    assert abs(shown - 128) <= 3  # gamma 2.2 on the LED, sRGB on the screen: about the same
    raw = Matrix(strip, gamma=10, brightness=100)
    raw.show([(128, 128, 128)] + [(0, 0, 0)] * 63)
    assert panel.display_colours()[0][0] == SRGB[128] > 180  # no gamma: washed out, as on LEDs
    dim = Matrix(strip, gamma=22, brightness=30)
    dim.show([(128, 128, 128)] + [(0, 0, 0)] * 63)
    assert panel.display_colours()[0][0] < shown  # brightness shows


def test_current_budget_is_visible():
    strip = SimStrip(64)
    panel = Panel(strip)
    Matrix(strip, gamma=10, brightness=100, max_current_ma=500).show([(255, 255, 255)] * 64)
    assert max(panel.lights()[0]) < 60  # 64 white pixels scaled down to stay under 500 mA
