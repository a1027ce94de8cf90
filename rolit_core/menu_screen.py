"""The setup menu as a screen: pages go round with UP/DOWN, LEFT/RIGHT (and SELECT) change the
value shown, SELECT on the play page starts, on the self-test page tests, BACK goes to the play
page and from there to the title. The settings and pages themselves are :mod:`rolit_core.menu`'s.
"""

from . import menu
from .events import BACK, CUE_ILLEGAL, CUE_TICK, DOWN, LEFT, RIGHT, SELECT, UP
from .lifetime import use_once
from .screen import IDLE_MS, SETTINGS_SAVE_MS, Screen


class MenuScreen(Screen):
    """The menu of the app's ``settings``; ``index`` is the page shown (kept between visits)."""

    name = "menu"

    def __init__(self, app):
        self.app = app
        self.index = 0
        self.pages = menu.pages(app.settings, app.link is not None)
        self.drawing = None  # rolit_core.menu_draw while the menu is shown

    @property
    def page(self):
        page = self.pages[self.index]
        return (menu.PAGE_NAMES[page >> 3], page & 7)

    def enter(self):
        self.pages = menu.pages(self.app.settings, self.app.link is not None)
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
            if menu.change(app.settings, page, -1 if key == LEFT else 1, app.seat_choices()):
                app.cues.append(CUE_TICK)
                app.apply_look()
                self.pages = menu.pages(app.settings, app.link is not None)
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
                try:
                    app.start_from_settings()
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
