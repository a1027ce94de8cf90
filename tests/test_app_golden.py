"""Every frame of the golden sessions (tests/golden_app.py) is the one recorded: the app's
behaviour (frames, cues, modes, saves, computer moves) is unchanged by work on its insides.

After a change of behaviour made on purpose, record again with
``python tests/golden_app.py --record`` and say so in the commit.
"""

import json

import pytest

import golden_app

with open(golden_app.GOLDEN) as _handle:
    GOLDEN = json.load(_handle)


@pytest.mark.parametrize("name", sorted(golden_app.SESSIONS))
def test_session_frames_are_the_recorded_ones(name):
    expected = GOLDEN["sessions"][name]
    got = golden_app.SESSIONS[name]()
    for index, (want, have) in enumerate(zip(expected["checks"], got["checks"])):
        assert have == want, "first difference within frames %d-%d" % (
            index * golden_app.CHECK_EVERY, (index + 1) * golden_app.CHECK_EVERY)
    assert got["frames"] == expected["frames"]
    assert got["end"] == expected["end"], "the game record, saves or state at the end differ"


def test_computer_moves_are_the_recorded_ones():
    assert golden_app.computer_moves() == GOLDEN["computer_moves"]


def test_the_digest_sees_a_single_changed_pixel(monkeypatch):
    # A harness that cannot fail is no harness: one pixel changed once must show.
    from rolit_core.app import App

    update = App.update
    calls = [0]

    def changed(self, now_ms, events=()):
        frame = update(self, now_ms, events)
        calls[0] += 1
        if calls[0] == 150:
            frame = list(frame)
            frame[9] = (1, 2, 3)
        return frame

    monkeypatch.setattr(App, "update", changed)
    got = golden_app.SESSIONS["selftest"]()
    assert got["checks"][0] != GOLDEN["sessions"]["selftest"]["checks"][0]
