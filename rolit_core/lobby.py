"""How a linked game begins (:func:`begin`) or resumes from a save (:func:`resume`), and its
screens before play: the host's lobby and a guest's join screen. Loaded while one of them is
shown, and to resume (``use_once``): play keeps only :mod:`rolit_core.linked`.
"""

from .events import BACK, CUE_ILLEGAL, CUE_START, CUE_TICK, SELECT
from .game import Match
from .lifetime import forget
from .linked import LinkedGame, LinkedPlay
from .lockstep_base import ENDED, LOBBY, LOCAL, REFUSED_PHASE, SEARCHING
from .menu import hosts
from .palette import RED, WHITE
from .play import RING
from .save import GUEST, HOST, LINK_SIZE, largest
from .screen import Screen
from .vocab import HUMAN, LINKED, seating

START_MS = 800        # the host starts this long after the last seat is taken


def begin(app):
    """From the menu: host with the menu's settings (a seat is ``"link"``), or join."""
    settings = app.settings
    link = app.link
    if hosts(settings):
        capacity = getattr(app.storage, "capacity", None)
        need = largest(settings.rounds, settings.size) + LINK_SIZE
        if type(capacity) is int and need > capacity:
            app.error = ("a linked %d-round match on %dx%d can need %d bytes; the storage "
                         "holds %d" % (settings.rounds, settings.size, settings.size, need,
                                       capacity))
            app.cues.append(CUE_ILLEGAL)
            forget("rolit_core.linked")  # no linked game begins
            return
        from .lockstep_host import Host  # loaded with the linked game's code (App.linked_code)

        kinds = tuple(settings.seats[:settings.players])
        nodes = [LOCAL if kind == LINKED else 0 for kind in kinds]
        match = Match(settings.rounds, settings.players, settings.size, settings.teams,
                      settings.tie, settings.first, app.rng.bits())
        session = Host(link, match, kinds, nodes, app.rng.bits() & 0xFFFF or 1,
                                settings.time_limit, settings.hints)
        app.play = LinkedPlay(app)
        app.linked = LinkedGame(app, session, HOST)
        app.show(LobbyScreen(app))
    else:
        from .lockstep_guest import Guest  # loaded with the linked game's code

        session = Guest(link)
        session.join()
        app.play = LinkedPlay(app)
        app.linked = LinkedGame(app, session, GUEST)
        app.show(JoinScreen(app))


def resume(app, saved_link):
    """Go on with the linked game of the app's save (begun on a :class:`LinkedPlay`):
    ``saved_link`` is the save's ``(role, session, seat, nodes)``. The host waits for its
    guests to be heard again; a guest asks its host for its seat back and is given the
    state."""
    role, number, seat, nodes = saved_link
    if role == HOST:
        from .lockstep_host import Host  # loaded with the linked game's code (App.linked_code)

        node_list = []
        for index in range(len(app.kinds)):
            node = nodes[index] if index < len(nodes) else None
            node_list.append(LOCAL if node is None else node)
        session = Host(app.link, app.match, app.kinds, node_list, number,
                                app.time_limit, app.hints, app.history, app.first)
        session.resume()
    else:
        from .lockstep_guest import Guest  # loaded with the linked game's code

        session = Guest(app.link)
        session.match = app.match
        session.kinds = app.kinds
        session.first = app.first
        session.history = list(app.history)
        session.time_limit = app.time_limit
        session.hints = app.hints
        session.join()
    app.linked = LinkedGame(app, session, role)
    app.linked.seat = seat


class LobbyScreen(Screen):
    """The host's lobby: each seat's colour in its quarter, a linked seat blinking until a
    handheld takes it. Play begins once every seat is taken; BACK ends the game."""

    name = "lobby"

    def __init__(self, app):
        self.app = app
        self.full_at = None  # when the last seat was taken

    def advance(self, dt):
        linked = self.app.linked
        if linked is None:
            return
        session = linked.session
        if session.phase != LOBBY:
            return
        if not session.seated():
            self.full_at = None
        elif self.full_at is None:
            self.full_at = self.t
        elif self.t - self.full_at >= START_MS:
            self.start()

    def start(self):
        app = self.app
        session = app.linked.session
        session.start()
        app.first_choice = app.settings.first
        app.begin_match(session.match, session.kinds, session.time_limit, session.hints,
                        session.first)
        app.save()

    def press(self, key):
        if key == BACK:
            app = self.app
            app.linked.quit()
            app.show(app.menu_screen)
            app.cues.append(CUE_TICK)
        elif key == SELECT:
            self.app.cues.append(CUE_ILLEGAL)  # play begins by itself once every seat is taken

    def draw(self, frame):
        app = self.app
        linked = app.linked
        if linked is None:
            return
        session = linked.session
        shades = app.shades
        colours = seating(session.match.players, session.match.teams)
        blink = self.t // 300 % 2 == 0
        for seat in range(len(colours)):
            x0 = (seat % 2) * 4
            y0 = (seat // 2) * 4
            node = session.nodes[seat]
            waiting = node == LOCAL
            colour = colours[seat][0]
            level = 255 if not waiting else (110 if blink else 25)
            inner = shades.get(colour, level)
            edge = shades.get(colours[seat][-1], level)
            for y in range(y0, y0 + 4):
                for x in range(x0, x0 + 4):
                    edge_cell = x in (x0, x0 + 3) or y in (y0, y0 + 3)
                    frame[y * 8 + x] = edge if edge_cell else inner
            if node == 0 and session.kinds[seat] != HUMAN:
                # a computer seat: its centre dark, like a dimmer seat in the menu
                for y in (y0 + 1, y0 + 2):
                    for x in (x0 + 1, x0 + 2):
                        frame[y * 8 + x] = shades.get(0)


class JoinScreen(Screen):
    """A guest looking for a host (a white dot going round), asking for a seat, then glowing in
    its seat's colour until play begins; refused, a red cross blinks. BACK leaves."""

    name = "join"

    def press(self, key):
        app = self.app
        if key == BACK:
            app.linked.quit()
            app.show(app.menu_screen)
            app.cues.append(CUE_TICK)
        elif key == SELECT:
            session = app.linked.session
            if session.phase == REFUSED_PHASE:
                session.phase = SEARCHING  # try again
                app.linked.note = ""
                session.join()
                app.cues.append(CUE_START)

    def draw(self, frame):
        app = self.app
        linked = app.linked
        if linked is None:
            return
        session = linked.session
        shades = app.shades
        t = self.t
        phase = session.phase
        if phase == REFUSED_PHASE or phase == ENDED:
            if t // 400 % 2 == 0:
                red = shades.get(RED)
                for i in range(8):
                    frame[i * 9] = red
                    frame[i * 7 + 7] = red
            return
        colour = getattr(session, "colour", None)
        if session.seat is not None and colour:
            wave = t % 2000
            level = 40 + (wave if wave < 1000 else 2000 - wave) * 160 // 1000
            glow = shades.get(colour, level)
            for cell in range(64):
                frame[cell] = glow
            return
        # looking for a host: a dot runs round the border, a second one once a host is heard
        white = shades.get(WHITE, 160)
        head = t // 80 % 28
        frame[RING[head]] = white
        if phase == LOBBY:
            frame[RING[(head + 14) % 28]] = white
