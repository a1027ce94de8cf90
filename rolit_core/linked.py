"""A linked game in the app: the host's lobby, a guest's join screen, and what ties the app's
session to :mod:`rolit_core.lockstep`'s.

The app loads this module when the player picks *Linked game* in the menu, or when a save of a
linked game is resumed (:meth:`rolit_core.app.App.linked_code`; how the game begins or resumes is
:mod:`rolit_core.lobby`'s, loaded for that), and forgets it, with
:mod:`rolit_core.lockstep`, when that game ends (:meth:`LinkedGame.leave`): a local game holds
none of its code. While it lives, the app's board screen is a :class:`LinkedPlay`. A handheld
whose menu has a
seat of kind ``"link"`` hosts: the lobby (:mod:`rolit_core.lobby`) waits for a handheld on each
such seat, then play begins on all of them. Any other handheld joins: the join screen looks for
a host and asks for a seat with the one press that opened it, then glows in its seat's colour
until play begins.

In play each handheld's board screen (:class:`LinkedPlay`) shows the same moves: the host checks
each move and sends it on, every handheld plays it with its own rules core (``session.apply`` is
the board screen's ``show_linked``, which animates it). Only the handheld whose seat is to move takes a move; the
others show whose turn it is. Undo and restarting a round are off in a linked game (the other
players could not take them back); a quit on the host ends the game everywhere, a guest's quit
leaves it (the host waits for it to come back).
"""

from .events import CUE_ERROR, CUE_ILLEGAL, CUE_TICK
from .game import Match
from .lifetime import forget
from .lockstep_base import ENDED, LOBBY, LOCAL, LOST, PLAYING, REFUSED_PHASE, SEARCHING
from .palette import RED
from .play import (ANIMATE, BY_COMPUTER, BY_HUMAN, FLASH_MS, INPUT, RING, THINK,
                   PlayScreen)
from .save import HOST
from .vocab import HUMAN, LINKED, seating

# Only a linked game uses them (rolit_core.lifetime.forget forgets them with this module): the
# protocol's shared part and the one role's module loaded with it (App.linked_code).
USED_ONCE = ("rolit_core.lockstep_base", "rolit_core.lockstep_host", "rolit_core.lockstep_guest",
             "rolit_core.matchbytes")

WAIT = 3              # a play phase: another handheld's seat is to move, or our move is on its way
LOST_BLINK_MS = 250   # "link lost": red marches round the border this fast


class LinkedPlay(PlayScreen):
    """The board screen of a linked game: a move goes through the link first, and is played
    here (``show_linked``) once the host has checked it; another handheld's turn waits
    (phase ``WAIT``); while the link is lost or not yet there, the game pauses."""

    how = None  # how our move that the link plays next came

    def begin_turn(self):
        PlayScreen.begin_turn(self)
        game = self.game
        if (self.phase == THINK and not game.over
                and self.app.kinds[game.seat_of(game.turn)] == LINKED):
            self.phase = WAIT  # no computer player thinks for it (App.make_ais)

    def tick(self, dt):
        linked = self.app.linked
        if linked is None or self.phase == ANIMATE or linked.running():
            PlayScreen.tick(self, dt)
            return
        # the link is lost or not yet there: the game pauses, no clock runs
        dt *= self.speed
        if self.pt < 0x3FFFFFF:
            self.pt += dt
        if self.flash:
            self.flash = self.flash - dt if self.flash > dt else 0

    def commit(self, cell, how):
        linked = self.app.linked
        if linked is None:
            self.show_move(cell, how)
            return
        self.how = how
        reason = linked.session.play(cell)
        if reason is not None:
            self.refuse(reason)
        elif self.phase == INPUT:  # a guest's move, on its way to the host
            self.phase = WAIT
            self.pt = 0
            self.cursor = cell
            self.preview = False

    def refuse(self, reason):
        """A move refused by the linked game (words from the host or the link)."""
        self.how = None
        if self.phase == WAIT and self.app.kinds[self.game.seat_of(self.game.turn)] == HUMAN:
            self.phase = INPUT
        self.flash = FLASH_MS
        self.illegal = reason
        self.app.cues.append(CUE_ILLEGAL)

    def show_linked(self, cell):
        """The linked game's move ``cell``, checked: played here and shown (a move shown
        before it is finished at once)."""
        how = self.how
        self.how = None
        if how is None:
            # another handheld's move: a person's lands at once, a computer's blinks first,
            # as on the handheld that made it
            kinds = self.app.linked.session.kinds
            seat = self.game.seat_of(self.game.turn)
            kind = kinds[seat] if seat < len(kinds) else HUMAN
            how = BY_HUMAN if kind == HUMAN or kind == LINKED else BY_COMPUTER
        if self.phase == ANIMATE:
            self.lines = []
        self.show_move(cell, how)

    def save_move(self):
        linked = self.app.linked
        if linked is None:
            PlayScreen.save_move(self)
        else:
            # The save (a flash write on a board) waits for the next update: this one took
            # the move off the link, checked it and began its animation.
            linked.save_due = True

    def draw(self, frame):
        PlayScreen.draw(self, frame)
        if self.phase == WAIT:
            # another handheld's turn: its colour breathes in the border's free pixels
            shades = self.app.shades
            black = shades.get(0)
            wave = self.pt % 1600
            glow = 30 + (wave if wave < 800 else 1600 - wave) * 120 // 800
            colour = shades.get(self.game.turn, glow)
            for at in RING:
                if frame[at] is black:
                    frame[at] = colour


def guest_kinds(players, teams, seat):
    """A guest's seat kinds: its own seat human, every other one played elsewhere."""
    kinds = []
    for index in range(len(seating(players, teams))):
        kinds.append(HUMAN if index == seat else LINKED)
    return tuple(kinds)


class LinkedGame:
    """The linked game the app is in: ``session`` (a :class:`rolit_core.lockstep_host.Host` or
    :class:`rolit_core.lockstep_guest.Guest`), ``role``
    (``save.HOST`` or ``save.GUEST``) and ``note``, the last thing worth telling the player in
    words (a refusal, "link lost"), "" when there is none."""

    def __init__(self, app, session, role):
        self.app = app
        self.session = session
        self.role = role
        self.seat = None  # a guest's seat, once it has one
        self.note = ""
        self.lost_t = 0
        # The whole state taken (a guest): read in one update, adopted in the next (the board
        # screen set up from it, the events after it) and saved in the one after that, so that
        # no frame does all three on a board.
        self.adopt_due = False
        self.save_due = False
        session.apply = app.play.show_linked

    @property
    def host(self):
        return self.role == HOST

    def running(self):
        """True while moves may be made (every handheld is there)."""
        return self.session.phase == PLAYING

    def save_link(self):
        """The save's ``link`` item for this game."""
        session = self.session
        nodes = []
        for node in session.nodes:
            nodes.append(None if node == LOCAL else node)
        seat = self.seat if not self.host else None
        return (self.role, session.session or 0, seat, tuple(nodes))

    def status(self):
        """The linked game in words, for a window or a console."""
        session = self.session
        phase = session.phase
        if self.note and phase in (REFUSED_PHASE, ENDED, LOST):
            return self.note
        if self.host:
            if phase == LOBBY:
                free = 0
                for node in session.nodes:
                    if node == LOCAL:
                        free += 1
                if free:
                    return "hosting: waiting for %d linked handheld%s" % (
                        free, "" if free == 1 else "s")
                return "hosting: every seat is taken, starting"
            return "hosting a linked game"
        if phase == SEARCHING:
            return "looking for a host"
        if phase == LOBBY:
            if session.seat is None:
                return "asking the host for a seat"
            return "seat %d: waiting for the host to start" % (session.seat + 1)
        return "linked game, seat %d" % ((self.seat or 0) + 1)

    def update(self, now):
        """The link's news since the last frame, acted on (the app calls this each update)."""
        session = self.session
        if self.adopt_due:
            self.adopt_due = False
            self._adopt()
        elif self.save_due:
            self.save_due = False
            self.app.save()
        session.update(now)
        events = session.take_events()
        for at in range(len(events)):
            kind, value = events[at]
            if kind == "state":
                # What came after the state waits for it to be adopted, in the next update.
                self.adopt_due = True
                session.events[:0] = events[at + 1:]
                return
            self._event(kind, value)

    def _event(self, kind, value):
        app = self.app
        session = self.session
        if kind == "seated":
            app.cues.append(CUE_TICK)
        elif kind == "refused":
            self.note = value
            app.cues.append(CUE_ILLEGAL)
        elif kind == "no":
            app.play.refuse(value)
        elif kind == "phase":
            if value == "lost":
                self.note = "link lost"
                app.cues.append(CUE_ERROR)
            elif value == "refused" or value == "ended":
                self.note = session.reason
                app.cues.append(CUE_ERROR)
                if value == "ended" and not self.host:
                    self.end(session.reason)
            elif value == "playing" and self.note == "link lost":
                self.note = ""
        elif kind == "round":
            self._next_round()

    def _adopt(self):
        # A guest's match replaced by the host's (play begins, a resync, a new match).
        app = self.app
        session = self.session
        match = session.match
        if session.seat is not None:
            self.seat = session.seat
        app.begin_match(match, guest_kinds(match.players, match.teams, self.seat),
                        session.time_limit, session.hints, session.first, session.history,
                        not match.game.board.moves)
        session.apply = app.play.show_linked  # the board screen shows the match from now on
        self.save_due = True

    def _next_round(self):
        # A guest: the host began the next round (the session has begun it on the match).
        app = self.app
        app.history = list(self.session.history)
        app.enter_round()
        app.save()

    def next_round(self):
        """The rounds table's SELECT: the host begins the next round everywhere; a guest
        waits for its host. True when the round began."""
        if not self.host:
            self._wait()
            return False
        app = self.app
        app.history.append(app.match.game.moves)
        self.session.next_round()
        app.enter_round()
        app.save()
        return True

    def again(self):
        """Play again: the host begins a new match on the same seats, everywhere."""
        if not self.host:
            self._wait()
            return
        app = self.app
        m = app.match
        match = Match(m.rounds, m.players, m.size, m.teams, m.tie, app.first_choice,
                      app.rng.bits())
        self.session.restart(match)
        app.match = match
        app.first = match.game.first
        app.history = []
        app.enter_round()
        app.save()

    def _wait(self):
        self.note = "the host starts the next game"
        self.app.cues.append(CUE_ILLEGAL)

    def quit(self):
        """The host ends the game for everyone; a guest leaves it."""
        if self.host:
            self.session.stop()
        self.leave()

    def end(self, reason):
        """The host ended the game: back to the menu, saying why."""
        app = self.app
        self.leave()
        app.error = reason
        app.quit()

    def leave(self):
        """The linked game is over here: the app's board screen is a local one again, and
        this module's code (and lockstep's) is forgotten, to be freed once the screens shown
        now let go of it."""
        app = self.app
        app.linked = None
        app.play = PlayScreen(app)
        forget("rolit_core.linked")
        app.linked_over()

    def draw_over(self, frame):
        """Over any screen: "link lost" is red marching round the border."""
        if self.session.phase != LOST:
            return
        app = self.app
        self.lost_t = app.screen.t
        red = app.shades.get(RED)
        black = app.shades.get(0)
        step = self.lost_t // LOST_BLINK_MS
        for i in range(28):
            frame[RING[i]] = red if (i + step) % 4 < 2 else black
