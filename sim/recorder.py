"""``--record FILE``: the record of the game in play, kept in a file as it is played."""

import os

from .userfiles import write_atomically, write_new


class Recorder:
    """Writes the record of the game in play to ``FILE`` whenever a move was made (a whole new
    file renamed over the old one). Each finished round of a match is kept in ``FILE.roundN``,
    ``N`` being its number in the match, so a match resumed in round 2 goes on with
    ``FILE.round2``. A round file is never written over: a name taken by another file (an
    earlier match's) gives ``FILE.roundN-2`` (``-3``...), said in ``notes``. A failed write is
    kept in ``failure`` (shown on screen) and tried again at the next update; it never stops
    the game."""

    def __init__(self, path):
        self.path = path
        self.game = None
        self.round = 1
        self.plies = -1
        self.failure = None
        self.pending = []  # (game, round) of finished rounds not yet in their file
        self.notes = []    # round files that went to another name than FILE.roundN

    def update(self, app):
        game = getattr(app, "game", None)
        if game is None:
            return
        if game is not self.game:
            if self.game is not None and self.plies > 0:
                self.pending.append((self.game, self.round))
            self.game = game
            match = getattr(app, "match", None)
            self.round = match.round if match is not None and match.game is game else 1
            self.plies = -1
        while self.pending and self._keep_round(*self.pending[0]):
            del self.pending[0]
        plies = len(game.board.moves)
        if plies != self.plies:
            self.plies = plies
            text = game.record()
            if self._write(self.path, text):
                if not self.pending:
                    self.failure = None  # a round not yet kept stays said
            else:
                self.plies = -1  # try again at the next update

    def _keep_round(self, game, number):
        text = game.record()
        name = "%s.round%d" % (self.path, number)
        for attempt in range(1, 100):
            candidate = name if attempt == 1 else "%s-%d" % (name, attempt)
            if _holds(candidate, text):
                return True  # kept already (the same round of the same match)
            try:
                kept = write_new(candidate, _text_writer(text))
            except OSError as error:
                self.failure = "record of round %d not written to %s: %s" % (
                    number, candidate, error.strerror or error)
                return False
            if kept:
                if attempt > 1:
                    self.notes.append("record of round %d in %s (%s is another game's)"
                                      % (number, candidate, name))
                return True
        self.failure = "record of round %d not written: %s-2 to -99 are all taken" % (number,
                                                                                    name)
        return False

    def _write(self, path, text):
        try:
            write_atomically(path, _text_writer(text))
        except OSError as error:
            self.failure = "record not written to %s: %s" % (os.path.realpath(path),
                                                            error.strerror or error)
            return False
        return True


def _text_writer(text):
    def write(path):
        with open(path, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
    return write


def _holds(path, text):
    """Whether ``path`` is a file whose content is exactly ``text``."""
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > 4 * len(text) + 16:
            return False
        with open(path, "rb") as file:
            return file.read() == text.encode("utf-8")
    except OSError:
        return False
