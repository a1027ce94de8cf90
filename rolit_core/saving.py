"""Loading and saving the app's state (a mixin of :class:`rolit_core.app.App`): the saved game
is resumed at start, corrupt data is reported and replaced, and a save that fails is never
ignored. The bytes are those of :mod:`rolit_core.save`.
"""

from . import menu, save
from .events import CUE_ERROR, ERROR
from .lifetime import use_once
from .play import INPUT

SAVE_ERROR_MS = 3000    # a failed save shows the save-error pattern this long


class Saving:
    """Loading and saving of ``App`` (a mixin, like :class:`rolit_core.play.Play`)."""

    def _boot(self):
        storage = self.storage
        if storage is None:
            return
        try:
            data = storage.load()
        except Exception as error:  # a store that cannot load is reported like bad data
            self._corrupt("storage failed to load: %s" % (error,))
            return
        if data is None:
            problem = getattr(storage, "error", None)
            if problem:  # the store found a damaged or foreign save: say so, never start silently
                self._corrupt(str(problem))
            return
        # The decoders are needed again only by the next App's start (about 1 KB on a board).
        try:
            with use_once("rolit_core.load") as load:
                saved = load.decode_state(data, self.settings)
            del load
        except Exception as error:  # corrupt or foreign data, or an illegal saved move
            self._corrupt(str(error) or error.__class__.__name__)
            return
        if saved is not None:
            match, kinds, time_limit, hints, history, first_choice, clock = saved
            if clock:
                self._clock = clock
                self._keep_clock = True
            self._begin_match(match, kinds, time_limit, hints)
            self._history = history
            self._first_choice = first_choice
            self.cues = []

    def _corrupt(self, message):
        self.error = message
        self.settings = menu.Settings()
        self.match = None
        self._game = None
        self._set_mode(ERROR)
        self.cues.append(CUE_ERROR)
        self._save()

    def state_bytes(self):
        """The bytes ``save`` would write now (settings and any match in progress)."""
        if self._attract:
            return save.encode(self.settings)
        clock = 0
        if self.match is not None and self.time_limit and self._phase == INPUT:
            clock = self._clock  # a human's countdown in progress survives a power cut
        return save.encode(self.settings, self.match, self.kinds, self.time_limit, self.hints,
                           self._first, self._history, self._first_choice, clock)

    def _save(self):
        """Write the state; a failure (``save`` raising or returning False) sets ``error``,
        counts in ``save_failures``, cues an error and shows the save-error pattern."""
        self._dirty = False
        storage = self.storage
        if storage is None:
            return True
        try:
            if storage.save(self.state_bytes()) is not False:
                self.saves += 1
                return True
            problem = getattr(storage, "error", None) or "the storage refused it"
        except Exception as error:
            problem = str(error) or error.__class__.__name__
        message = "storage failed to save: %s" % (problem,)
        if self._mode == ERROR and self.error:
            message = "%s; %s" % (self.error, message)  # keep why the saved data was refused
        self.error = message
        self.save_failures += 1
        self._save_flash = SAVE_ERROR_MS
        self.cues.append(CUE_ERROR)
        return False

