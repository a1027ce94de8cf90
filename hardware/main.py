"""The handheld's game as ``code.py`` runs it: :func:`main` reads the settings, builds the
handheld, prints the banner and plays frames for ever, restarting the game flow from the saved
game after an error (what the console shows: ``code.py``'s docstring).

A module rather than ``code.py`` itself because CircuitPython compiles ``code.py`` from source at
every start, where a compiled deploy (``sim.deploy --mpy-cross``) has this as a ``.mpy``.
"""

import gc
import sys
import time

# The game before the drivers: its big modules compile best while the heap is still empty.
from rolit_core import __version__
from rolit_core.app import BACK, DOWN, LEFT, RIGHT, SELECT, UP, App
from rolit_core.lifetime import use_once
from rolit_core.vocab import ticks_diff
from hardware.gamelog import GameLog
from hardware.handheld import CRASH_ERROR, ticks_ms
from hardware.pacing import Pacing

KEYS = (UP, DOWN, LEFT, RIGHT, SELECT, BACK)
QUICK_CRASH_FRAMES = 500  # a crash within this many frames of the last one counts as repeated
SKIP_SAVE_AFTER = 3       # repeated crashes before the saved game is left unloaded
THINK_FRAME_MS = 34       # a frame in which a computer thinks should take about this long
THINK_STOP_MS = 30        # and its thinking stops this long after the frame began, whatever
HEAP_MARGIN = 24576       # bytes a search leaves free for the rest before it stops to collect
PASS_MS = 4               # with a link, the cable is pumped this often while a frame waits


def print_error(error):
    """The traceback, however this Python prints one."""
    try:
        import traceback
    except ImportError:
        traceback = None
    if traceback is not None:
        try:
            traceback.print_exception(error)  # CircuitPython, CPython 3.10+
        except TypeError:
            traceback.print_exception(type(error), error, error.__traceback__)
    elif hasattr(sys, "print_exception"):
        sys.print_exception(error)  # MicroPython
    else:
        print("%s: %s" % (type(error).__name__, error))


def wait(ms):
    """Wait ``ms`` milliseconds by the same clock the game uses."""
    start = ticks_ms()
    while ticks_diff(ticks_ms(), start) < ms:
        time.sleep(0.01)


def restart(app):
    """The app wants a fresh interpreter (``App.wants_restart``): with what it holds saved,
    ``code.py`` starts again (``supervisor.reload()``) and resumes from the save. A Python
    without ``supervisor`` goes on as it is."""
    app.wants_restart = False
    if app.dirty:
        app.save()
    try:
        from supervisor import reload
    except ImportError:
        return
    print("restarting: a fresh heap for the computer players (compiled from source)")
    reload()


class Session:
    """Counts frames over restarts and reports changes of the app's and the storage's errors."""

    def __init__(self, settings, handheld):
        self.settings = settings
        self.handheld = handheld
        self.frames = 0
        self._app_error = None
        self._store_error = None
        self._link_status = None
        self._failures = 0
        # Room for collections is planned only where the heap says what is free (MicroPython,
        # CircuitPython); on CPython the first frame after each search still collects.
        self.pacing = Pacing(gc.collect, getattr(gc, "mem_free", None), THINK_FRAME_MS,
                             HEAP_MARGIN, ticks_ms, THINK_STOP_MS)
        self.log = GameLog(print, self.pacing)  # each result with the heap's lowest

    def done(self):
        limit = self.settings.max_frames
        return limit and self.frames >= limit

    def run(self, app):
        """Play frames until ``ROLIT_MAX_FRAMES`` (0: for ever). Exceptions propagate."""
        handheld = self.handheld
        cable = handheld.cable
        frame_ms = self.settings.frame_ms
        storage = handheld.storage
        pacing = self.pacing
        self.log = GameLog(print, pacing)
        self._failures = 0
        last = None
        while not self.done():
            now = ticks_ms()
            # The frame before, whole (its thinking, LEDs, log, collections and sleep), sizes
            # this frame's slice of thinking: one clock reading a frame.
            pacing.before(app, None if last is None else ticks_diff(now, last), now)
            last = now
            if cable is not None:
                cable.pump(app.link, now)  # the other handhelds' bytes in, ours out
            frame = app.update(now, handheld.poll(now, app))
            # With a cable, a pump after each long part of the frame (the update, the LEDs, a
            # collection): what the update said (a move, its answer) goes now, not a frame
            # later, and a message on its way round the ring waits a part of a frame at each
            # handheld, not a whole one.
            if cable is not None:
                cable.pump(app.link, ticks_ms())
            handheld.show(frame)
            if cable is not None:
                cable.pump(app.link, ticks_ms())
            handheld.sound(app.cues, now)
            self.log.update(app)
            pacing.after(app)  # collects if due
            if cable is not None:
                cable.pump(app.link, ticks_ms())
            if app.save_failures != self._failures:
                # every failed save gets a line (the matrix blinks its corners red as well)
                self._failures = app.save_failures
                self._app_error = app.error
                print("NOT SAVED (%d failed saves): %s" % (app.save_failures, app.error))
            elif app.error != self._app_error:
                self._app_error = app.error
                if app.error:
                    print("saved game: %s" % app.error)
            if app.link_status != self._link_status:
                self._link_status = app.link_status
                if app.link_status:
                    print("link: " + app.link_status)
            if storage.error != self._store_error:
                self._store_error = storage.error
                if storage.error:
                    print("storage: %s" % storage.error)
            self.frames += 1
            if app.wants_restart:
                restart(app)
            if frame_ms:
                spent = ticks_diff(ticks_ms(), now)
                if cable is not None:
                    # The rest of the frame is spent pumping the cable every PASS_MS: frames on
                    # their way round the ring pass on within a few ms, not a frame, here.
                    while spent < frame_ms:
                        time.sleep(min(PASS_MS, frame_ms - spent) / 1000)
                        cable.pump(app.link, ticks_ms())
                        spent = ticks_diff(ticks_ms(), now)
                elif spent < frame_ms:
                    time.sleep((frame_ms - spent) / 1000)


def new_link(handheld):
    """A fresh link for the cable, or None without one (a restarted app starts its link
    afresh: the other handhelds take it as a handheld that came back)."""
    if handheld.cable is None:
        return None
    from rolit_core.link import Link

    return Link()


def main():
    gc.collect()  # the garbage of compiling the modules, before the long-lived objects come
    with use_once("hardware.startup") as startup:
        settings, handheld = startup.start(KEYS, __version__, wait)
    del startup  # with the block's end, the start-up code is left for the collector
    session = Session(settings, handheld)
    seed = None if settings.seed < 0 else settings.seed
    crashes = 0
    crashed_at = 0
    while True:
        storage = handheld.storage
        if crashes >= SKIP_SAVE_AFTER:
            print("crashed %d times in a row: starting without loading the saved game "
                  "(it is kept)" % crashes)
            storage = None
        try:
            app = App(storage=storage, seed=seed, link=new_link(handheld))
            session.run(app)
            return session
        except Exception as error:  # Ctrl-C (KeyboardInterrupt) still stops the program
            if session.frames - crashed_at > QUICK_CRASH_FRAMES:
                crashes = 0
            crashes += 1
            crashed_at = session.frames
            print("error in frame %d:" % session.frames)
            print_error(error)
            handheld.show_error(CRASH_ERROR, crashes)
            wait(1000 * (crashes if crashes < 5 else 5))
            print("restarting the game from the saved state")
