"""The setup menu as a screen: pages go round with UP/DOWN, LEFT/RIGHT (and SELECT) change the
value shown, SELECT on the play page starts, on the self-test page tests, BACK goes to the play
page and from there to the title. The settings and the kinds of pages are :mod:`rolit_core.menu`'s;
the pages and how each changes the settings are here, loaded with the screen.
"""

from . import menu
from .events import BACK, CUE_ILLEGAL, CUE_TICK, DOWN, LEFT, RIGHT, SELECT, UP
from .lifetime import use_once
from .menu import (P_BRIGHT, P_FIRST, P_HINTS, P_LINKED, P_PALETTE, P_PLAY, P_PLAYERS, P_ROUNDS,
                   P_SEAT, P_SELFTEST, P_SIZE, P_TEAMS, P_TIE, P_TIME)
from .screen import IDLE_MS, SETTINGS_SAVE_MS, Screen
from .vocab import HUMAN
from .vocab import TIE_RULES as TIES
from .vocab import TIME_LIMITS as TIMES


def pages_for(settings, linked=False):
    """The menu's pages for these settings, as ints ``kind << 3 | seat``; ``linked``: the
    handheld has a link, so the linked game's page comes last (UP from the play page)."""
    result = [P_PLAY << 3, P_PLAYERS << 3]
    if settings.players > 1:
        for seat in range(settings.players):
            result.append(P_SEAT << 3 | seat)
    result.append(P_SIZE << 3)
    if settings.players == 2:
        result.append(P_TEAMS << 3)
    for kind in (P_ROUNDS, P_TIME, P_TIE, P_FIRST, P_HINTS, P_BRIGHT, P_PALETTE, P_SELFTEST):
        result.append(kind << 3)
    if linked:
        result.append(P_LINKED << 3)
    return result


def _step(values, value, delta):
    i = 0
    for j in range(len(values)):
        if values[j] == value:
            i = j
    return values[(i + delta) % len(values)]


def change(settings, page, delta, levels):
    """Change the setting shown on ``page`` by one step (``delta`` +1 or -1). ``levels`` are the
    seat kinds offered besides "human" (computer levels, and "link" with a link). Returns
    True if something changed."""
    kind = page >> 3
    if kind == P_PLAYERS:
        settings.players = (settings.players - 1 + delta) % 4 + 1
    elif kind == P_SEAT:
        seat = page & 7
        choices = ["human"]
        choices.extend(levels)
        settings.seats[seat] = _step(choices, settings.seats[seat], delta)
    elif kind == P_SIZE:
        sizes = (8, 6, 4) if settings.players <= 2 else (8, 6)
        settings.size = _step(sizes, settings.size, delta)
    elif kind == P_TEAMS:
        settings.teams = not settings.teams
    elif kind == P_ROUNDS:
        settings.rounds = (settings.rounds - 1 + delta) % 7 + 1
    elif kind == P_TIME:
        settings.time_limit = _step(TIMES, settings.time_limit, delta)
    elif kind == P_TIE:
        settings.tie = _step(TIES, settings.tie, delta)
    elif kind == P_FIRST:
        choices = [None]
        choices.extend(settings.in_play())
        settings.first = _step(choices, settings.first, delta)
    elif kind == P_HINTS:
        settings.hints = not settings.hints
    elif kind == P_BRIGHT:
        settings.brightness = (settings.brightness - 1 + delta) % 5 + 1
    elif kind == P_PALETTE:
        settings.colour_blind = not settings.colour_blind
    else:
        return False
    settings.fix()
    return True


class MenuScreen(Screen):
    """The menu of the app's ``settings``; ``index`` is the page shown (kept between visits)."""

    name = "menu"

    def __init__(self, app):
        self.app = app
        self.index = 0
        self.pages = pages_for(app.settings, app.link is not None)
        self.drawing = None  # rolit_core.menu_draw while the menu is shown

    @property
    def page(self):
        page = self.pages[self.index]
        return (menu.PAGE_NAMES[page >> 3], page & 7)

    def enter(self):
        self.pages = pages_for(self.app.settings, self.app.link is not None)
        if self.index >= len(self.pages):
            self.index = 0
        if self.drawing is None:
            with use_once("rolit_core.menu_draw") as drawing:
                self.drawing = drawing
            del drawing

    def hide(self):
        self.drawing = None  # its code is freed during a game

    def advance(self, dt):
        app = self.app
        if app.dirty and app.idle >= SETTINGS_SAVE_MS:
            app.save()
        if app.idle >= IDLE_MS:
            app.begin_attract()

    def press(self, key):
        app = self.app
        pages = self.pages
        page = pages[self.index]
        kind = page >> 3
        if key == UP or key == DOWN:
            self.index = (self.index + (1 if key == DOWN else -1)) % len(pages)
            self.t = 0
            app.cues.append(CUE_TICK)
        elif key == LEFT or key == RIGHT or (key == SELECT and kind not in (
                menu.P_PLAY, menu.P_SELFTEST, menu.P_LINKED)):
            if change(app.settings, page, -1 if key == LEFT else 1, app.seat_choices()):
                app.cues.append(CUE_TICK)
                app.apply_look()
                self.pages = pages_for(app.settings, app.link is not None)
                # stay on the same page even if pages appeared or vanished before it
                self.index = 0
                for i in range(len(self.pages)):
                    if self.pages[i] == page:
                        self.index = i
                app.dirty = True  # saved once the menu rests (flash wears with each write)
            else:
                app.cues.append(CUE_ILLEGAL)
        elif key == SELECT:
            if kind == menu.P_PLAY and app.link is not None and menu.hosts(app.settings):
                app.begin_linked()  # a seat is "link": this handheld hosts
            elif kind == menu.P_PLAY:
                s = app.settings
                try:
                    app.start(seats=s.seats[:s.players] if s.players > 1 else [HUMAN],
                              size=s.size, teams=s.teams, rounds=s.rounds, tie=s.tie,
                              time_limit=s.time_limit, first=s.first, hints=s.hints)
                except ValueError as error:  # settings the rules or the storage refuse
                    app.error = str(error)
                    app.cues.append(CUE_ILLEGAL)
            elif kind == menu.P_LINKED:
                if app.dirty:
                    app.save()
                app.begin_linked()
            else:
                app.show_once("SelfTestScreen")
                if app.dirty:
                    app.save()
        elif key == BACK:
            if self.index:
                self.index = 0
                app.cues.append(CUE_TICK)
            else:
                app.show_once("TitleScreen")

    def draw(self, frame):
        app = self.app
        self.drawing.draw(frame, app.shades, app.settings, self.pages[self.index], self.t)
