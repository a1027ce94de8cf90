import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in (ROOT, os.path.join(ROOT, "tests")):
    if path not in sys.path:
        sys.path.insert(0, path)

import pytest  # noqa: E402


@pytest.fixture
def no_book(monkeypatch):
    """The computer players search from the first move: the opening book (rolit_core/book.py)
    answers nothing, for tests of the search's slices and pacing in the opening."""
    from rolit_core import ai

    monkeypatch.setattr(ai, "_book_move", lambda game, moves, rng: -1)
    monkeypatch.setattr(ai, "_open_book", lambda game: None)
