"""Whether the real-firmware tests can run: skip with the reason, or fail under
``ROLIT_REQUIRE_FIRMWARE=1`` (set by .ci/run) so that CI never skips them."""

import os

import pytest


def require_emulator():
    """Skip (or fail when required) unless the emulator and a UF2 are there."""
    try:
        from sim.emulate import missing_reason
    except ImportError:  # a tree from before the emulator was merged
        reason = "this tree has no emulator (sim.emulate, bench.device)"
    else:
        reason = missing_reason()
    if reason is None:
        return
    if os.environ.get("ROLIT_REQUIRE_FIRMWARE") == "1":
        pytest.fail("ROLIT_REQUIRE_FIRMWARE=1 but the emulator cannot run: " + reason)
    pytest.skip(reason)
