"""``App.thinker``: the computer player searching for the side to move, for drivers that size
its slices (the browser page) or show its progress."""

from rolit_core.app import BACK, App


def test_the_thinker_is_the_computer_to_move_and_only_while_it_thinks(no_book):
    app = App(seed=3, think_nodes=5)
    app.start(seats=("hard", "human"), first="red")
    app.update(0, [])
    assert app.phase == "think"
    player = app.thinker
    assert player is not None and player.thinking
    before = player.nodes
    app.update(16, [])
    assert app.thinker is player and player.nodes > before  # it searched this frame
    now = 16
    while app.phase != "input" and now < 60000:
        now += 16
        app.update(now, [])
    assert app.phase == "input" and app.game.turn != app.game.first
    assert app.thinker is None  # a human chooses


def test_no_thinker_in_the_pause_menu_or_the_menu():
    app = App(seed=3)
    assert app.thinker is None  # the title
    app.start(seats=("hard", "hard"), first="red")
    app.update(0, [])
    assert app.thinker is not None
    app.update(10, [(BACK, True)])
    app.update(800, [])
    assert app.mode == "pause" and app.thinker is None


def test_the_round_start_makes_what_the_first_search_needs(monkeypatch):
    # The keys of the search's table are made as the round begins, not in the update that
    # begins the first search, after the opening book's moves (on the chip, making them there
    # took a frame over 50 ms); only levels with a table have them.
    from rolit_core import ai

    made = []
    real_table, real_keys = ai._new_table, ai._zobrist
    monkeypatch.setattr(ai, "_new_table", lambda n: made.append("table") or real_table(n))
    # "keys" when they are made, not when the made ones are looked up
    monkeypatch.setattr(ai, "_zobrist",
                        lambda: (ai._ZOBRIST is None and made.append("keys")) or real_keys())
    monkeypatch.setattr(ai, "_ZOBRIST", None)
    app = App(seed=3)
    app.start(seats=("medium", "medium"), first="red")
    assert made == []  # medium searches without a table
    app.start(seats=("hard", "hard"), first="red")
    assert made == ["keys"]
    now = 0
    while app.thinker is None or app.thinker._search is None:
        now += 16
        app.update(now, [])
        assert now < 600000
    assert len(app.game.board._moves) >= 4  # the book's moves came first
    assert made == ["keys", "table"]  # one player for the hard seats: one table
