"""Pacing a computer's thinking on the device: search nodes per frame, and when to collect.

The app searches ``app.think_nodes`` nodes in each update while a computer thinks, and what a
node costs depends on the level, the position and the board. ``Pacer`` sizes the slices from
the measured whole frames; ``Room`` plans garbage collections between slices; ``Pacing`` is what
code.py calls around each frame. Moves do not depend on any of it: a search counts nodes, not
time, so only when the answer comes changes.

>>> pacer = Pacer(target_ms=30)
>>> pacer.note("hard", 10, 40)   # 10 nodes took a 40 ms frame: 4 ms a node, all in
>>> pacer.nodes("hard")
7
"""

from rolit_core.vocab import TICKS_MASK, TICKS_PERIOD


class Pacer:
    """Slices of thinking sized so that a whole frame takes about ``target_ms``.

    Per level it keeps an estimate of what a node costs in a whole frame (update, LEDs, log: the
    frame's fixed work is shared out over its nodes, so at the estimate's fixed point a frame
    takes ``target_ms``). A dearer frame moves the estimate half way up at once, a cheaper one a
    quarter of the way down: one frame slowed by something else (a node that costs much more, a
    collection) does not starve the next ones, a lasting change is followed within a few
    frames. A slice starts at ``first`` nodes, stays within ``least`` to ``most`` and grows at
    most by half from one frame to the next.
    """

    def __init__(self, target_ms=28, first=10, least=1, most=500):
        self.target_us = target_ms * 1000
        self.first = first
        self.least = least
        self.most = most
        self._levels = []  # [level, slice, cost of a node in us]; a list: a few levels at most

    def _entry(self, level):
        for entry in self._levels:
            if entry[0] == level:
                return entry
        entry = [level, self.first, 0]
        self._levels.append(entry)
        return entry

    def nodes(self, level):
        """The slice for the next frame in which a computer of ``level`` thinks."""
        return self._entry(level)[1]

    def note(self, level, nodes, spent_ms):
        """A frame in which a computer of ``level`` searched a whole slice of ``nodes`` nodes
        took ``spent_ms`` in all; sets the next slice."""
        if nodes <= 0 or spent_ms < 0:
            return  # nothing searched, or the clock stepped back
        entry = self._entry(level)
        cost = spent_ms * 1000 // nodes
        estimate = entry[2]
        if not estimate:
            estimate = cost
        elif cost > estimate:
            estimate += (cost - estimate + 1) // 2
        else:
            estimate -= (estimate - cost) // 4
        entry[2] = estimate
        size = self.target_us // estimate if estimate else self.most
        if size <= nodes and spent_ms * 1000 < self.target_us:
            # Under the target: one node more. (With the frame's fixed work above half the
            # target, the estimate of a small slice alone would keep it at one node for ever.)
            size = nodes + 1
        grown = entry[1] + entry[1] // 2 + 1
        if size > grown:
            size = grown
        entry[1] = self.least if size < self.least else (self.most if size > self.most
                                                            else size)


LEARN_NODES = 32  # nodes since the last collection that a rate is learnt from
SLOW_FRAME_MS = 50  # a whole frame longer than this is one a player can see stall
COLLECT_WAIT = 3    # frames a collection due after a move may wait for one with room for it
AFTER_COLLECT_MS = 3  # what a frame still does after its collection: the cable's last pump,
                      # the reports (measured frames of 51 ms had a collection that just fit)


class Room:
    """When a search should pause for a collection, before the heap runs out mid-frame.

    Asking the heap what is free walks its whole table (~5 ms on an RP2040), so it is asked
    only in frames that do not search: ``restart(free)`` when a search begins (what it holds is
    allocated by then), ``collected(before, after)`` around each collection (after a search,
    and planned mid-search), which learns how many bytes each node searched since the restart
    or the collection before left behind. ``full(more)`` says whether ``more`` nodes could leave less
    than ``margin`` bytes free. The estimate jumps to a dearer figure and comes down a quarter
    of the way per collection.
    """

    def __init__(self, margin=16384, per_node=256):
        self.margin = margin
        self.per_node = per_node
        self.free = 0   # bytes free after the last collection (0: not known yet)
        self.nodes = 0  # nodes searched since then

    def searched(self, nodes):
        """``nodes`` more nodes were searched."""
        if nodes > 0:
            self.nodes += nodes

    def collected(self, before, after):
        """A collection found ``before`` bytes free and left ``after``; learns from it when
        enough nodes were searched since the one before for their garbage to tell."""
        if self.nodes >= LEARN_NODES and self.free:
            rate = (self.free - before) // self.nodes
            if rate >= self.per_node:
                self.per_node = rate
            else:
                self.per_node -= (self.per_node - rate) // 4
        self.free = after
        self.nodes = 0

    def restart(self, free):
        """``free`` bytes are free now (a search began, or a collection was made mid-search):
        the count of nodes starts again from there."""
        self.free = free
        self.nodes = 0

    def full(self, more):
        """True if ``more`` nodes could leave less than ``margin`` bytes free."""
        return (self.nodes + more) * self.per_node > self.free - self.margin


class Pacing:
    """What the frame loop does around ``app.update`` while computers play.

    ``before(app, elapsed_ms, now_ms)`` just before the update, with how long the frame before
    took in all (from its start to this one's) and when this one began, sets this frame's
    ``app.think_nodes`` and, given a ``clock``, ``app.think_stop``: the search then also stops
    between nodes once ``think_ms`` have passed since ``now_ms`` (a run of dearer nodes than
    the pacer's estimate cannot stall the frame); ``after(app)`` once the frame's work (update,
    LEDs, sound, log) is done collects the garbage: once in the frame after each move is played
    (the animation's: a computer's or a human's move, so that the next search starts with a
    clean heap), and, where ``mem_free`` is given, in a frame that does not search, when
    ``Room`` sees the heap filling (a collection takes ~17 ms on an RP2040: falling into a full
    thinking frame, it would stall the display).
    """

    def __init__(self, collect, mem_free=None, target_ms=28, margin=16384, clock=None,
                 think_ms=0):
        self.pacer = Pacer(target_ms)
        # With a clock (ms, wrapping at 2**29), a slice also stops once think_ms have passed
        # since the frame began: a run of dearer nodes then cannot stall the display.
        self._clock = clock if think_ms > 0 else None
        self.think_ms = think_ms
        self._deadline = 0
        self._over = self.over   # made once: a bound method is a new object each time
        self._began = 0          # when this frame began (the clock's ms)
        self.collect_ms = 0      # the longest collection timed (with a clock), for _room()
        self._waited = 0         # frames the collection due has waited for room
        self.room = Room(margin) if mem_free is not None else None
        self._collect = collect
        self._mem_free = mem_free
        self._thinker = None
        self._level = None
        self._nodes = 0         # the thinker's node count before the update
        self._slice = 0         # the slice this frame was given
        self._whole = 0         # nodes of the last frame, if it searched a whole slice
        self._untidy = False    # a search has run since the last collection
        self._planned = False   # this frame does not search, and collects
        self._phase = None      # the app's phase after the last update
        self.collections = 0    # how many collections this made (for the figures)
        self.stops = 0          # how many slices the clock ended (for the figures)
        # The least the heap had free after a collection since reset_lows() (0: none yet), where
        # mem_free is given: after the collections between searches (after each move), and
        # after the ones planned while a search holds its tables. The game log prints them.
        self.low_free = 0
        self.low_free_searching = 0
        # The whole frames since reset_lows(): the one that began the game (ms: it sets the game
        # up, and may load code), then of those after it how many, the longest (ms) and how many
        # took longer than SLOW_FRAME_MS. The game log prints them too.
        self.begin_frame = None
        self.frames = 0
        self.longest_frame = 0
        self.slow_frames = 0

    def reset_lows(self):
        """Start ``low_free``, ``low_free_searching`` and the frame counts again: a new game
        began in the frame just played (the next ``before`` says how long it took)."""
        self.low_free = 0
        self.low_free_searching = 0
        self.begin_frame = -1
        self.frames = 0
        self.longest_frame = 0
        self.slow_frames = 0

    def collect(self, planned=False):
        """Collect now (``planned``: mid-search, in a frame that does not search). The heap is
        asked what is free before and after, so that ``Room`` learns (each question costs
        ~5 ms on an RP2040: affordable in a frame that does not search)."""
        self.collections += 1
        self._untidy = False
        self._waited = 0
        clock = self._clock
        start = clock() if clock is not None else 0
        self._collect_now(planned)
        if clock is not None:
            took = (clock() - start) & TICKS_MASK
            if took > self.collect_ms:
                self.collect_ms = took

    def _collect_now(self, planned):
        room = self.room
        if room is None:
            self._collect()
        else:
            before = self._mem_free()
            self._collect()
            free = self._mem_free()
            room.collected(before, free)
            if planned:
                if not self.low_free_searching or free < self.low_free_searching:
                    self.low_free_searching = free
            elif not self.low_free or free < self.low_free:
                self.low_free = free

    def _room(self):
        # True if this frame has time left for the collection due: what it took so far, the
        # longest collection timed and what follows it fit in SLOW_FRAME_MS. Else it waits
        # for a lighter frame (an animation's, a linked game's busy one), COLLECT_WAIT frames
        # at most.
        clock = self._clock
        if clock is None or self._waited >= COLLECT_WAIT or \
                ((clock() - self._began) & TICKS_MASK) + self.collect_ms + AFTER_COLLECT_MS \
                <= SLOW_FRAME_MS:
            return True
        self._waited += 1
        return False

    def over(self):
        """True once this frame's time for thinking is up (the search asks between nodes, and
        stops at the first True)."""
        # ticks_diff(now, deadline) >= 0, written out: it is asked between every two nodes.
        if (self._clock() - self._deadline) & TICKS_MASK < TICKS_PERIOD >> 1:
            self.stops += 1
            return True
        return False

    def before(self, app, elapsed_ms=None, now_ms=None):
        """Learn from the frame before (``elapsed_ms``: None if not known) and size this one's
        slice of thinking; ``now_ms`` (by the clock given) is when this frame began."""
        if now_ms is not None:
            self._began = now_ms
        if elapsed_ms is not None:
            if self.begin_frame == -1:
                self.begin_frame = elapsed_ms
            else:
                self.frames += 1
                if elapsed_ms > self.longest_frame:
                    self.longest_frame = elapsed_ms
                if elapsed_ms > SLOW_FRAME_MS:
                    self.slow_frames += 1
            if self._whole:
                self.pacer.note(self._level, self._whole, elapsed_ms)
        self._whole = 0
        thinker = self._thinker = app.thinker
        if thinker is None:
            return
        self._nodes = thinker.nodes
        level = self._level = getattr(thinker, "level", None)
        nodes = self.pacer.nodes(level)
        # Once the answer is found, this update plays it (and saves the game) without
        # searching: no collection there; the next frame collects after the search.
        if getattr(thinker, "thinking", True) and self.room is not None and \
                self.room.full(nodes):
            self._planned = True
            nodes = 0  # this update only shows the thinking; the collection follows it
        app.think_nodes = self._slice = nodes
        if self._clock is not None and now_ms is not None:
            self._deadline = (now_ms + self.think_ms) & TICKS_MASK
            app.think_stop = self._over

    def after(self, app):
        """Collect if due, once the frame's work is done."""
        phase = getattr(app, "phase", None)
        played = phase == "animate" and self._phase != "animate"  # this update played a move
        self._phase = phase
        thinker = self._thinker
        searched = thinker.nodes - self._nodes if thinker is not None else 0
        began = app.thinker is not None and (thinker is None or searched < 0)
        if searched < 0:
            searched = thinker.nodes  # the player began a new search within the update
        room = self.room
        if searched and room is not None:
            room.searched(searched)
        if self._planned:
            self._planned = False
            self.collect(planned=True)
            return
        if searched:
            self._untidy = True
            if searched >= self._slice:
                # Only a whole slice teaches the pacer (the last one of a search is cut short:
                # the frame's fixed work over a few nodes would make a node look dear; one cut
                # by the clock ran long on purpose).
                self._whole = searched
        elif self._untidy and thinker is None and app.thinker is None and self._room():
            self.collect()
        if began and room is not None:
            # A search began in this update (its tables are allocated): count from what is
            # free now, whatever the frames since the last collection left (a human's turn,
            # the animation), so that neither looks like the garbage of its nodes.
            if self._untidy and not searched:
                self.collect()
            else:
                room.restart(self._mem_free())
        if played:
            # After every move, not only a searched one: the next frame (the animation's)
            # collects, so that an easy player's or a human's turn and the animations cannot
            # leave the heap so full that the next search's tables make the collector run
            # inside the update that begins it (a 45 ms update, 56 ms frame, seen against easy).
            self._untidy = True
