"""Frames while a computer thinks: no update both searches and plays the move, and the device
sizes the search's slices from how long the last frames took (hardware.pacing)."""

import sys

from rolit_core.app import App


def test_the_update_that_finds_the_move_does_not_also_play_it(no_book):
    app = App(seed=5, think_nodes=1)
    app.start(seats=("hard", "human"), first="red")
    now = 0
    app.update(now, [])
    player = app.thinker
    assert player is not None
    while player.thinking and now < 600000:
        now += 20
        app.update(now, [])
    # That update found the move, long after the shortest thinking time: still thinking.
    assert now > 400
    assert app.phase == "think" and app.game.board.moves == []
    now += 20
    app.update(now, [])
    assert app.phase == "animate" and len(app.game.board.moves) == 1


# -- hardware.pacing ---------------------------------------------------------------------------

from hardware.pacing import Pacer, Pacing, Room  # noqa: E402


def test_a_dear_frame_shrinks_the_slice_at_once_and_cheap_ones_grow_it_slowly():
    pacer = Pacer(target_ms=30, first=20)
    pacer.note("hard", 20, 60)            # 3 ms a node: 10 fit in 30 ms
    assert pacer.nodes("hard") == 10
    sizes = []
    for _ in range(40):
        pacer.note("hard", pacer.nodes("hard"), pacer.nodes("hard"))  # now 1 ms a node
        sizes.append(pacer.nodes("hard"))
    assert all(b >= a - 2 for a, b in zip(sizes, sizes[1:]))  # grows, never falls back far
    assert sizes[0] <= 10 + 5 + 1          # at most by half a frame
    assert 28 <= sizes[-1] <= 30           # and settles where a frame takes about 30 ms
    assert pacer.nodes("easy") == 20       # each level has its own


def test_the_slice_stays_within_its_bounds_and_ignores_frames_that_searched_nothing():
    pacer = Pacer(target_ms=30, first=20, least=2, most=40)
    pacer.note("hard", 0, 500)
    pacer.note("hard", 5, -3)              # the clock stepped back
    assert pacer.nodes("hard") == 20
    pacer.note("hard", 1, 1000)
    assert pacer.nodes("hard") == 2
    for _ in range(100):
        pacer.note("hard", pacer.nodes("hard"), 0)
    assert pacer.nodes("hard") == 40


def test_an_update_given_no_nodes_shows_the_thinking_and_searches_nothing(no_book):
    app = App(seed=5, think_nodes=20)
    app.start(seats=("hard", "human"), first="red")
    app.update(0, [])
    player = app.thinker
    app.update(20, [])
    searched = player.nodes
    assert searched > 0
    app.think_nodes = 0
    frame = app.update(40, [])
    assert player.nodes == searched and app.phase == "think"
    assert len(frame) == 64  # the board and the thinking animation are drawn as ever
    app.think_nodes = 20
    app.update(60, [])
    assert player.nodes > searched


def test_room_learns_the_garbage_per_node_and_asks_for_a_collection_before_the_heap_is_full():
    room = Room(margin=16000, per_node=100)
    room.collected(before=10000, after=80000)
    assert not room.full(600)              # 600 * 100 bytes leaves 20,000 free
    assert room.full(700)
    room.searched(500)
    room.collected(before=30000, after=80000)  # 500 nodes left 50,000 bytes: 100 a node
    assert room.per_node == 100
    room.searched(100)
    room.collected(before=40000, after=80000)  # a dearer search: 400 a node, at once
    assert room.per_node == 400 and room.full(200) and not room.full(100)
    room.searched(100)
    room.collected(before=60000, after=80000)  # cheaper again: a quarter of the way down
    assert room.per_node == 400 - (400 - 200) // 4


class Thinker:
    """A stand-in for a computer player: ``nodes`` grows by what the app lets it search."""

    level = "hard"

    def __init__(self):
        self.nodes = 0


class FakeApp:
    """What Pacing reads and writes: ``thinker`` and ``think_nodes``."""

    def __init__(self):
        self.thinker = None
        self.think_nodes = 20
        self.move_found = False

    def update(self):
        if self.thinker is None:
            return
        if self.move_found:
            self.thinker = None  # the update that plays the move searches nothing
        else:
            self.thinker.nodes += self.think_nodes


class Heap:
    """A heap that fills by ``per_node`` bytes for every node searched, and a collector that
    frees all but ``live`` bytes."""

    def __init__(self, size, per_node):
        self.size = size
        self.per_node = per_node
        self.used = 0
        self.live = 0
        self.collections = 0
        self.overflows = 0

    def collect(self):
        self.collections += 1
        self.used = self.live

    def mem_free(self):
        return self.size - self.used

    def fill(self, nodes):
        self.used += nodes * self.per_node
        if self.used > self.size:
            self.overflows += 1  # on the chip: a collection inside a thinking frame
            self.used = nodes * self.per_node


def play_frames(pacing, app, heap, frames, ms_per_node=1, fixed_ms=8):
    """Frames of a thinking computer (each ``fixed_ms`` plus ``ms_per_node`` a node searched,
    told to the next frame's ``before``); returns the slices searched."""
    slices = []
    elapsed = None
    for _ in range(frames):
        pacing.before(app, elapsed)
        before = app.thinker.nodes if app.thinker is not None else 0
        app.update()
        searched = app.thinker.nodes - before if app.thinker is not None else 0
        heap.fill(searched)
        slices.append(searched)
        pacing.after(app)
        elapsed = fixed_ms + searched * ms_per_node
    return slices


def test_pacing_sizes_the_slices_from_the_frames_and_collects_before_the_heap_runs_out():
    heap = Heap(size=64000, per_node=250)
    pacing = Pacing(heap.collect, heap.mem_free, target_ms=30, margin=16000)
    app = FakeApp()
    pacing.collect()                       # a clean heap to begin with, as after a move
    app.thinker = Thinker()
    slices = play_frames(pacing, app, heap, 400, ms_per_node=1, fixed_ms=8)
    # 8 ms of fixed work and 1 ms a node: 21-22 nodes fill a 30 ms frame, never more.
    assert max(slices) <= 22 and slices.count(21) + slices.count(22) > 300
    # Every ~190 nodes (48,000 bytes at 256 each, the first guess) one frame does not search
    # and collects; the heap never overflows inside a thinking frame.
    assert heap.overflows == 0
    assert 30 <= pacing.collections <= 60
    assert slices.count(0) == pacing.collections - 1


class SearchHeap(Heap):
    """A heap in which each search holds ``tables`` bytes for as long as it runs (a collection
    cannot free them), as the computer players' searches do on the chip."""

    def __init__(self, size, per_node, tables):
        Heap.__init__(self, size, per_node)
        self.tables = tables
        self.held = 0

    def collect(self):
        self.collections += 1
        self.used = self.held

    def start_search(self):
        self.held = self.tables
        self.fill(0)
        self.used += self.tables

    def end_search(self):
        self.held = 0  # the tables are garbage now


def run_search(pacing, app, heap, nodes, ms_per_node=1, fixed_ms=8):
    """One computer move as the device runs it: the update in which the turn begins (the
    player starts its search and allocates its tables), frames of thinking until ``nodes``
    are searched, the update that plays the move, three frames of animation."""
    pacing.before(app, 10)
    app.thinker = Thinker()
    app.move_found = False
    heap.start_search()
    pacing.after(app)
    elapsed = 10
    while app.thinker.nodes < nodes:
        pacing.before(app, elapsed)
        before = app.thinker.nodes
        app.update()
        searched = app.thinker.nodes - before
        heap.fill(searched)
        pacing.after(app)
        elapsed = fixed_ms + searched * ms_per_node
    app.move_found = True
    pacing.before(app, elapsed)
    app.update()
    heap.end_search()
    pacing.after(app)
    for _ in range(3):
        pacing.before(app, 10)
        pacing.after(app)


def test_a_search_counts_from_the_heap_it_finds_and_plans_about_one_collection():
    # Between two searches the heap fills with what no node left: a human's turn, the
    # animation. Counted from the collection after the search before, the heap ran out inside
    # thinking frames; counted from the collection before, the tables a search holds looked
    # like the garbage of the few nodes searched since, and collections came every few nodes.
    heap = SearchHeap(size=56000, per_node=100, tables=8000)
    pacing = Pacing(heap.collect, heap.mem_free, target_ms=30, margin=16000)
    app = FakeApp()
    pacing.collect()
    searches = 30
    for search in range(searches):
        heap.used += 12000 if search % 3 else 2000     # garbage of the frames in between
        run_search(pacing, app, heap, 40 if search % 5 == 4 else 300)
    assert heap.overflows == 0
    # 300 nodes of 100 bytes from 36,000-46,000 free: one planned collection at most in a
    # search, and one after it.
    assert pacing.collections <= 2 * searches + 1


def test_without_a_heap_to_ask_it_collects_once_after_each_search():
    heap = Heap(size=10 ** 9, per_node=1)
    pacing = Pacing(heap.collect, None, target_ms=30)
    app = FakeApp()
    app.thinker = Thinker()
    play_frames(pacing, app, heap, 20)
    assert heap.collections == 0           # never while it thinks
    app.move_found = True
    play_frames(pacing, app, heap, 1)      # this frame plays the move
    assert heap.collections == 0           # not in the frame that played the move
    play_frames(pacing, app, heap, 5)
    assert heap.collections == 1           # once, in the next frame (the animation's first)


def test_a_slice_knocked_down_to_one_node_grows_again_while_frames_are_under_the_target():
    # 16 ms of fixed work a frame and 0.8 ms a node, 22 ms frames: one node's frame (16.8 ms)
    # made the estimate 16.8 ms a node, and 22 // 16.8 kept the slice at one node for ever.
    pacer = Pacer(target_ms=22, first=1)
    for _ in range(40):
        nodes = pacer.nodes("hard")
        pacer.note("hard", nodes, 16 + nodes * 8 // 10)
    assert 6 <= pacer.nodes("hard") <= 8


# -- slices that stop on time -----------------------------------------------------------------


class Clock:
    """Milliseconds on a clock that wraps at 2**29, moved on ``per_read`` at each reading."""

    def __init__(self, now=0, per_read=0):
        self.now = now
        self.per_read = per_read

    def __call__(self):
        self.now = (self.now + self.per_read) & ((1 << 29) - 1)
        return self.now


def test_the_stop_says_when_the_frames_time_for_thinking_is_up_across_the_clocks_wrap():
    clock = Clock()
    pacing = Pacing(lambda: None, None, target_ms=30, clock=clock, think_ms=20)
    app = FakeApp()
    app.thinker = Thinker()
    start = (1 << 29) - 5  # 15 ms after this frame begins, the clock wraps to 0
    pacing.before(app, None, start)
    stop = app.think_stop
    for now, over in ((start, False), ((1 << 29) - 1, False), (10, False), (14, False),
                      (15, True), (40, True)):
        clock.now = now
        assert stop() is over, now


def test_a_search_stops_on_time_and_the_game_plays_the_same_moves(no_book):
    # Frames of a real App against hard, where every reading of the clock costs 2 ms (as if a
    # node took that long): each update searches until its 20 ms are up, however many nodes
    # the pacer would allow, and the moves are those of an App that searches in fixed slices.
    def moves_of(app, frames, pacing=None, clock=None):
        app.start(seats=("hard", "medium", "hard"), first="red")
        now = 0
        slices = []
        for _ in range(frames):
            thinker = app.thinker
            if pacing is not None:
                pacing.before(app, 30, now)
            before = thinker.nodes if thinker is not None else 0
            if clock is not None:
                clock.now = now
            app.update(now, [])
            if thinker is not None and app.thinker is thinker and thinker.thinking:
                slices.append((thinker.nodes - before, clock.now - now if clock else 0))
            if pacing is not None:
                pacing.after(app)
            now += 40
        return app.game.board.moves, slices

    clock = Clock(per_read=2)
    pacing = Pacing(lambda: None, None, target_ms=30, clock=clock, think_ms=20)
    pacing.pacer.first = pacing.pacer.least = 400  # slices of nodes far longer than a frame
    timed, slices = moves_of(App(seed=3), 600, pacing, clock)
    plain, _ = moves_of(App(seed=3, think_nodes=37), 600)
    assert len(timed) >= 12
    assert timed == plain[:len(timed)]
    # Every slice that did not end the search stopped at its 20 ms (a reading after each node
    # but the last; a predicted reply counts several nodes for one reading), never later.
    assert len(slices) > 40
    assert all(nodes >= 10 and spent == 20 for nodes, spent in slices)
    assert pacing.stops == len(slices)


def test_the_frame_that_plays_a_found_answer_does_not_also_collect():
    # That update commits the move and saves the game: a collection there would stall it.
    heap = Heap(size=64000, per_node=250)
    pacing = Pacing(heap.collect, heap.mem_free, target_ms=30, margin=16000)
    app = FakeApp()
    pacing.collect()
    app.thinker = Thinker()
    play_frames(pacing, app, heap, 12)
    pacing.room.nodes = 10 ** 6  # the heap looks full: a searching frame would collect
    app.thinker.thinking = False  # the answer is found
    pacing.before(app, 30)
    assert app.think_nodes > 0
    collections = pacing.collections
    app.move_found = True
    app.update()
    pacing.after(app)
    assert pacing.collections == collections
    pacing.before(app, 30)
    app.update()
    pacing.after(app)  # the first frame after the search collects
    assert pacing.collections == collections + 1


def test_after_every_move_played_the_next_frame_collects():
    # An easy player's or a human's move leaves no searched nodes, but its turn and the
    # animations leave garbage: without a collection, the next search's tables could make the
    # collector run inside the update that begins it.
    heap = Heap(size=64000, per_node=250)
    pacing = Pacing(heap.collect, heap.mem_free, target_ms=30, margin=16000)
    app = FakeApp()
    app.phase = "input"
    for _ in range(5):
        pacing.before(app, 20)
        pacing.after(app)
    assert pacing.collections == 0  # a human choosing: nothing to do
    app.phase = "animate"            # this update played the human's move
    pacing.before(app, 20)
    pacing.after(app)
    assert pacing.collections == 0  # not in the frame that played it (it saved the game)
    pacing.before(app, 20)
    pacing.after(app)
    assert pacing.collections == 1  # the animation's first frame
    for _ in range(5):
        pacing.before(app, 20)
        pacing.after(app)
    assert pacing.collections == 1  # once per move



def test_a_collection_due_waits_for_a_frame_with_room_for_it_a_few_frames_at_most():
    # A collection (~27 ms on the chip) in a frame that already took 35 ms makes a frame a
    # player sees stall: the one due after a move waits for a lighter frame, but not for long.
    from hardware.pacing import AFTER_COLLECT_MS, COLLECT_WAIT, SLOW_FRAME_MS

    clock = [0]
    heap = Heap(size=64000, per_node=250)

    def collect():
        clock[0] += 27   # what a collection takes
        heap.collect()

    pacing = Pacing(collect, heap.mem_free, target_ms=30, margin=16000,
                    clock=lambda: clock[0], think_ms=30)
    app = FakeApp()

    def frame(work_ms, phase="animate"):
        app.phase = phase
        begun = clock[0]
        pacing.before(app, 20, begun)
        clock[0] += work_ms   # the update, the LEDs, the log
        pacing.after(app)
        clock[0] = begun + max(20, clock[0] - begun)
        return clock[0] - begun

    frame(5, "input")
    frame(5)                  # this update played a move
    frame(5)                  # the animation's first frame collects, and times it
    assert pacing.collections == 1 and pacing.collect_ms == 27
    frame(5, "input")
    frame(5)
    assert pacing.collections == 1
    # 21 ms of work: the collection would just fit, but not what follows it (the last pump)
    frame(SLOW_FRAME_MS - 27 - AFTER_COLLECT_MS + 1)
    assert pacing.collections == 1
    frame(SLOW_FRAME_MS - 20)  # 30 ms of work: 27 more would make 57
    assert pacing.collections == 1
    assert frame(10) == 37 and pacing.collections == 2   # room in the next
    frame(5, "input")
    frame(5)
    took = [frame(40) for _ in range(COLLECT_WAIT + 1)]
    assert pacing.collections == 3 and took[-1] == 67   # waited COLLECT_WAIT frames, no more
    assert took[:-1] == [40] * COLLECT_WAIT


def test_the_lowest_free_heap_after_collections_is_kept_apart_for_searches_and_reset():
    heap = Heap(size=64000, per_node=250)
    pacing = Pacing(heap.collect, heap.mem_free, target_ms=30, margin=16000)
    assert (pacing.low_free, pacing.low_free_searching) == (0, 0)  # nothing measured yet
    heap.live = 30000
    pacing.collect()                 # between searches: 34000 free
    heap.live = 38000
    pacing.collect(planned=True)     # while a search holds its tables: 26000
    heap.live = 32000
    pacing.collect()                 # 32000: the lowest between searches
    heap.live = 20000
    pacing.collect()                 # more free: the lowest stays
    assert (pacing.low_free, pacing.low_free_searching) == (32000, 26000)
    pacing.reset_lows()
    assert (pacing.low_free, pacing.low_free_searching) == (0, 0)


def test_the_game_log_ends_each_game_with_the_heaps_lowest_and_its_longest_frame():
    from hardware.gamelog import GameLog
    from rolit_core.app import App

    heap = Heap(size=64000, per_node=250)
    pacing = Pacing(heap.collect, heap.mem_free, target_ms=30, margin=16000)
    pacing.low_free = 1  # an earlier game's: forgotten when this one's header is written
    lines = []
    log = GameLog(lines.append, pacing)
    app = App(seed=4)
    app.start(seats=("easy", "easy"))
    log.update(app)
    assert pacing.low_free == 0 and lines[0].startswith("game 1: 2 players")
    now = 0
    frames = -1  # the first frame timed is the one that began the game: apart
    while not lines[-1].startswith("frames: "):
        assert "hardware.gamelines" not in sys.modules  # loaded for a game's first and last lines
        now += 40
        # whole frames of 40 ms, and three that stalled: one of 50 ms is not yet slow
        pacing.before(app, {40: 120, 400: 50, 800: 51, 1200: 97, 1600: 60}.get(now, 40), now)
        frames += 1
        app.update(now)
        log.update(app)
        heap.live = 20000 + 100 * len(app.game.board.moves)
        pacing.collect()
        assert now < 600000
    lowest = 64000 - 20000 - 100 * len(app.game.board.moves)
    assert lines[-3].startswith("round over: ")
    assert lines[-2] == ("heap: %d bytes free at the lowest after a collection (0 while a search "
                         "ran)" % lowest)
    assert lines[-1] == ("frames: the longest 97 ms, 3 over 50 ms, of %d after the one that "
                         "began the game (120 ms)" % frames)
    # Without a heap to ask (CPython), no such line.
    plain = []
    quiet = GameLog(plain.append, Pacing(heap.collect, None))
    app.start(seats=("easy", "easy"))
    quiet.update(app)
    while not plain[-1].startswith("round over: ") and now < 1200000:
        now += 40
        app.update(now)
        quiet.update(app)
    app.update(now + 40)
    quiet.update(app)
    assert plain[-1].startswith("round over: ")
