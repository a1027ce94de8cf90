"""The screens of a linked game before play: the host's lobby and a guest's join screen
(:mod:`rolit_core.linked` shows them; loaded while one of them is shown)."""

from . import lockstep
from .events import BACK, CUE_ILLEGAL, CUE_START, CUE_TICK, SELECT
from .palette import RED, WHITE
from .play import RING
from .screen import Screen
from .vocab import HUMAN, seating

START_MS = 800        # the host starts this long after the last seat is taken


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
        if session.phase != lockstep.LOBBY:
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
            waiting = node == lockstep.LOCAL
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
            if session.phase == lockstep.REFUSED_PHASE:
                session.phase = lockstep.SEARCHING  # try again
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
        if phase == lockstep.REFUSED_PHASE or phase == lockstep.ENDED:
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
        if phase == lockstep.LOBBY:
            frame[RING[(head + 14) % 28]] = white
