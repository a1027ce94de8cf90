"""``python -m sim --host`` and ``--join``: simulators built by sim/cli.py, each an App with a
link and a Device that pumps it through sim.net, play a linked game over loopback from their
menus to the end, as people would with the keys. Then the command's own faults: a busy port, a
host that stops, Ctrl-C."""

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from rolit_core.app import BACK, DOWN, LEFT, SELECT, UP, App
from rolit_core.game import Match
from rolit_core.rng import Random
from sim import cli
from sim_pty import default_sigint

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Sim:
    """One simulator as ``python -m sim ARGS`` builds it, without its window."""

    def __init__(self, argv, storage="none"):
        args = cli.parser().parse_args(argv + ["--storage", storage, "--seed", "5"])
        cli.check_link_options(args)
        self.app, self.device = cli.build(args)
        self.device.cable = cli.open_cable(args)
        self.cable = self.device.cable

    def status(self):
        from sim.device import describe
        return describe(self.app)["status"] + cli.cable_lines(self.cable)


class Room:
    """Simulators on one machine, each frame pumped on one clock (sockets are real)."""

    def __init__(self, sims, seed=1):
        self.sims = sims
        self.now = 0
        self.rng = Random(seed)

    def step(self, events=None, ms=20):
        self.now += ms
        for index, sim in enumerate(self.sims):
            sim.device.update(self.now, (events or {}).get(index, ()))

    def tap(self, index, key):
        self.step({index: [(key, True)]})
        self.step({index: [(key, False)]})

    def run(self, ms, until):
        for _ in range(ms // 20):
            self.step()
            if until():
                return True
            time.sleep(0.001)  # loopback's bytes come in their own time
        return False

    def to_menu(self, index):
        self.tap(index, SELECT)
        assert self.sims[index].app.mode == "menu"

    def host_from_menu(self, index=0):
        """Seat 2 made 'link' with the keys, then SELECT on the play page: the lobby."""
        app = self.sims[index].app
        self.to_menu(index)
        while app.page != ("seat", 1):
            self.tap(index, DOWN)
        while app.settings.seats[1] != "link":
            self.tap(index, LEFT)
        self.tap(index, BACK)
        assert app.page == ("play", 0)
        self.tap(index, SELECT)
        assert app.mode == "lobby", app.error

    def join_from_menu(self, index):
        app = self.sims[index].app
        self.to_menu(index)
        self.tap(index, UP)
        assert app.page == ("linked", 0)
        assert self.sims[index].status()[0] == "Menu: join a linked game (select)"
        self.tap(index, SELECT)
        assert app.mode == "join"

    def three_from_menus(self):
        """Three players, seats 2 and 3 'link': sim 0 hosts from its menu, sims 1 and 2
        join from theirs, until every board is in play. Returns the three apps."""
        settings = self.sims[0].app.settings
        settings.players = 3
        settings.seats[2] = "link"
        settings.fix()
        self.host_from_menu(0)
        self.join_from_menu(1)
        self.join_from_menu(2)
        apps = [sim.app for sim in self.sims]
        assert self.run(8000, lambda: all(app.mode == "play" for app in apps)), \
            [app.mode for app in apps]
        return apps

    def play_round(self, limit=3000):
        apps = [sim.app for sim in self.sims]
        for _ in range(limit):
            if all(app.mode == "round_end" for app in apps):
                return
            mover = [i for i, app in enumerate(apps) if app.mode == "play" and
                     app.phase == "input"]
            if mover:
                game = apps[mover[0]].game
                cells = game.legal_moves()
                assert apps[mover[0]].move_cursor(cells[self.rng.below(len(cells))])
                self.tap(mover[0], SELECT)
            else:
                self.step()
                time.sleep(0.001)
        raise AssertionError("the round did not end: %r" % ([a.mode for a in apps],))


@pytest.fixture
def room():
    made = []

    def make(count):
        host = Sim(["--host", "0"])
        sims = [host] + [Sim(["--join", "127.0.0.1:%d" % host.cable.port])
                         for _ in range(count - 1)]
        made.extend(sims)
        return Room(sims)

    yield make
    for sim in made:
        sim.cable.close()


def test_the_command_line_gives_the_app_a_link_and_the_device_its_pump(room, capsys):
    table = room(2)
    printed = capsys.readouterr().out
    host, guest = table.sims
    assert host.app.link is not None and guest.app.link is not None
    assert "hosting a linked game on port %d" % host.cable.port in printed
    assert "join: python -m sim --join 127.0.0.1:%d" % host.cable.port in printed
    assert "in a browser: http://127.0.0.1:%d/" % host.cable.port in printed
    assert "Hosting on port %d, 0 joined" % host.cable.port in host.status()


def test_two_simulators_play_a_linked_game_from_the_menus_to_the_end(room):
    table = room(2)
    table.host_from_menu(0)
    table.join_from_menu(1)
    host, guest = [sim.app for sim in table.sims]
    assert table.run(5000, lambda: host.mode == "play" and guest.mode == "play")
    assert table.sims[0].status()[-2] == "Hosting on port %d, 1 joined" % table.sims[0].cable.port
    assert "Joined 127.0.0.1:%d" % table.sims[0].cable.port in table.sims[1].status()
    table.play_round()
    assert host.play.game.board.moves == guest.play.game.board.moves
    assert host.play.game.scores() == guest.play.game.scores()
    assert host.play.game.over
    local = Match(1, 2, 8, False, "shared", host.first, 0)
    for cell in host.play.game.moves:
        local.game.play(cell)
    assert tuple(local.game.board._cells) == tuple(guest.play.game.board._cells)


def test_a_joiner_sees_the_host_end_the_game(room):
    table = room(2)
    table.host_from_menu(0)
    table.join_from_menu(1)
    host, guest = [sim.app for sim in table.sims]
    assert table.run(5000, lambda: host.mode == "play" and guest.mode == "play")
    host.quit()
    assert table.run(3000, lambda: guest.mode == "menu")
    assert guest.error == "the host ended the game"


def test_a_joiner_whose_host_stops_sees_link_lost_and_the_reason(room):
    table = room(2)
    table.host_from_menu(0)
    table.join_from_menu(1)
    host, guest = [sim.app for sim in table.sims]
    assert table.run(5000, lambda: host.mode == "play" and guest.mode == "play")
    table.sims[0].cable.close()  # the hosting simulator's window closed, its machine gone
    gone = table.sims.pop(0)
    start = table.now
    assert table.run(3000, lambda: guest.link_status == "link lost")
    assert table.now - start <= 2100
    assert "Link: link lost" in table.sims[0].status()
    network = [line for line in table.sims[0].status() if line.startswith("Network: ")]
    assert network and network[0].endswith("(trying again)"), network
    assert "link lost" in network[0] or "cannot join 127.0.0.1" in network[0], network
    table.sims.insert(0, gone)


def _three_seats_in_play(tmp_path):
    """A host and two joiners, each simulator with its own save file, three players on 8x8,
    a few moves played; the second joiner's brightness is its own (2, the others 3)."""
    paths = [str(tmp_path / name) for name in ("host.save", "first.save", "second.save")]
    host = Sim(["--host", "0"], paths[0])
    port = host.cable.port
    sims = [host] + [Sim(["--join", "127.0.0.1:%d" % port], path) for path in paths[1:]]
    table = Room(sims)
    sims[2].app.settings.brightness = 2
    apps = table.three_from_menus()
    for _ in range(400):
        if len(apps[0].game.board.moves) >= 5:
            break
        mover = [i for i, app in enumerate(apps) if app.mode == "play" and app.phase == "input"]
        if mover:
            game = apps[mover[0]].game
            cells = game.legal_moves()
            assert apps[mover[0]].move_cursor(cells[table.rng.below(len(cells))])
            table.tap(mover[0], SELECT)
        else:
            table.step()
            time.sleep(0.001)
    moves = list(apps[0].game.board.moves)
    assert len(moves) >= 5
    assert table.run(3000, lambda: all(list(app.game.board.moves) == moves for app in apps))
    return table, paths, moves


def _reopened(path):
    from rolit_core.link import Link
    from rolit_core.vocab import LEVELS
    from sim.device import FileStorage
    return App(storage=FileStorage(path), seed=1, levels=LEVELS, link=Link())


def test_the_host_quitting_ends_the_game_on_every_seat_and_each_keeps_its_own_save(
        room, tmp_path):
    table, paths, _ = _three_seats_in_play(tmp_path)
    try:
        host, first, second = [sim.app for sim in table.sims]
        host.quit()
        assert table.run(3000, lambda: first.mode == "menu" and second.mode == "menu")
        assert first.error == second.error == "the host ended the game"
        for sim in table.sims:
            sim.device.update(table.now + 20, ())
        # each file is its own seat's: a menu (the game ended), its own settings, no error
        again = [_reopened(path) for path in paths]
        assert [app.error for app in again] == [None, None, None]
        assert [app.linked for app in again] == [None, None, None]
        assert [app.settings.brightness for app in again] == [3, 3, 2]
    finally:
        for sim in table.sims:
            sim.cable.close()


def test_the_host_stopping_says_link_lost_on_every_seat_and_each_keeps_its_game(room,
                                                                                tmp_path):
    table, paths, moves = _three_seats_in_play(tmp_path)
    try:
        gone = table.sims.pop(0)
        gone.cable.close()   # the hosting machine is gone: its window closed, its power cut
        start = table.now
        first, second = [sim.app for sim in table.sims]
        assert table.run(3000, lambda: first.link_status == second.link_status == "link lost")
        assert table.now - start <= 2100
        # each seat's save holds the linked game as that seat saw it: reopened, it resumes
        # it (a guest asking its host for its seat back; the host waiting for its guests)
        again = [_reopened(path) for path in paths]
        for index, app in enumerate(again):
            assert app.error is None, app.error
            assert app.linked is not None and app.linked.host == (index == 0)
            assert list(app.game.board.moves) == moves
            if index:
                assert app.linked.seat == index   # its own seat, not another's
        assert again[2].settings.brightness == 2
        table.sims.insert(0, gone)
    finally:
        for sim in table.sims:
            sim.cable.close()


def test_link_options_that_cannot_go_together_are_refused_in_one_line():
    for argv, words in ((["--join", "serial:", "--terminal"], "needs the port"),
                        (["--host", "--headless", "--players", "hard,easy"], "not --headless"),
                        (["--join", "h:1", "--players", "human,hard"], "leave out the game"),
                        (["--host", "--join", "h"], "not allowed with argument")):
        with pytest.raises(SystemExit) as raised:
            args = cli.parser().parse_args(argv)
            cli.check_link_options(args)
        assert raised.value.code != 0


def _run_sim(argv, **kwargs):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYTHONPATH=ROOT)
    env.pop("PYTHONUNBUFFERED", None)  # what it prints must come through a pipe at once
    return subprocess.Popen([sys.executable, "-m", "sim", "--window", "--storage", "none"] + argv,
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=default_sigint, **kwargs)


def test_a_busy_port_is_one_line_and_exit_status_2():
    busy = socket.socket()
    busy.bind(("", 0))
    busy.listen(1)
    port = busy.getsockname()[1]
    try:
        process = _run_sim(["--host", str(port)])
        out, err = process.communicate(timeout=60)
    finally:
        busy.close()
    assert process.returncode == 2
    assert err == "python -m sim: cannot host on port %d: the port is in use\n" % port


def test_a_join_to_no_host_is_one_line_and_exit_status_2():
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()  # nothing listens there now
    process = _run_sim(["--join", "127.0.0.1:%d" % port])
    out, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert err.count("\n") == 1 and "cannot join 127.0.0.1:%d" % port in err


def test_ctrl_c_quits_a_hosting_simulator_cleanly_and_frees_the_port():
    process = _run_sim(["--host", "0"])
    line = process.stdout.readline()
    assert line.startswith("hosting a linked game on port ")
    port = int(line.split()[-1])
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    again = socket.socket()
    again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    again.bind(("", port))  # the listener was closed
    again.close()


class PtyHandheld:
    """A handheld on the far end of a serial line: an App with a link whose bytes go through the
    master side of a pseudo-terminal, whose other side the simulator opens as its serial port."""

    def __init__(self):
        from rolit_core.app import App
        from rolit_core.link import Link
        self.master, self.slave = os.openpty()
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.app = App(storage=None, seed=8, link=Link())
        self.device = self
        self.cable = self
        self.open = True

    def update(self, now, events):
        if self.open:
            try:
                data = os.read(self.master, 4096)
            except BlockingIOError:
                data = b""
            if data:
                self.app.link.feed(data, now)
        self.app.update(now, list(events))
        out = self.app.link.output()
        if self.open and out:
            os.write(self.master, out)

    def status(self):
        from sim.device import describe
        return describe(self.app)["status"]

    def unplug(self):
        self.open = False
        os.close(self.master)
        os.close(self.slave)

    def close(self):
        if self.open:
            self.unplug()


def test_a_simulator_on_a_serial_port_plays_a_handhelds_linked_game_and_sees_the_unplug():
    handheld = PtyHandheld()
    sim = Sim(["--join", "serial:" + handheld.path])
    table = Room([handheld, sim])
    try:
        assert cli.cable_lines(sim.cable) == ("Cable: %s" % handheld.path,)
        table.host_from_menu(0)
        table.join_from_menu(1)
        host, guest = handheld.app, sim.app
        assert table.run(5000, lambda: host.mode == "play" and guest.mode == "play")
        table.play_round()
        assert host.play.game.board.moves == guest.play.game.board.moves
        assert host.play.game.over and guest.play.game.over
        assert sim.cable.bytes_in > 0 and sim.cable.bytes_out > 0
        table.run(400, lambda: False)
        handheld.unplug()  # the USB cable pulled
        table.sims = [sim]
        assert table.run(3000, lambda: sim.cable.state == "connecting")
        assert cli.cable_lines(sim.cable)[0].startswith("Cable: link lost: %s" % handheld.path)
    finally:
        handheld.close()
        sim.cable.close()


def test_a_serial_port_that_cannot_be_opened_is_one_line_and_exit_status_2():
    process = _run_sim(["--join", "serial:/dev/rolit-no-such-port"])
    out, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert err == ("python -m sim: cannot open /dev/rolit-no-such-port: no such port (is the "
                   "board plugged in?)\n")


def test_a_hosting_simulator_seats_a_handheld_on_its_serial_port_beside_a_joiner(capsys):
    # python -m sim --host 0 --cable serial:PATH: the handheld at the end of the serial line
    # (a pseudo-terminal here) is a node of the hub's ring beside a simulator on TCP; all
    # three play the round, set up from their menus, to the same end.
    handheld = PtyHandheld()
    host = Sim(["--host", "0", "--cable", "serial:" + handheld.path])
    joiner = Sim(["--join", "127.0.0.1:%d" % host.cable.port])
    table = Room([host, handheld, joiner])
    try:
        printed = capsys.readouterr().out
        assert "node 1: the handheld on %s (it joins from its menu)" % handheld.path in printed
        apps = table.three_from_menus()
        assert sorted(kind for _, _, kind in host.cable.joiners()) == ["cable", "tcp"]
        assert handheld.app.link.node == 1
        table.play_round(limit=6000)
        boards = [list(app.play.game.board.moves) for app in apps]
        assert boards[0] == boards[1] == boards[2] and apps[0].play.game.over
    finally:
        handheld.close()
        joiner.cable.close()
        host.cable.close()


def test_cable_options_are_refused_in_one_line_when_they_cannot_be_used():
    for argv, words in ((["--cable", "serial:/dev/null"], "give --host too"),
                        (["--host", "0", "--cable", "/dev/ttyACM1"], "takes serial:PATH")):
        with pytest.raises(SystemExit) as raised:
            args = cli.parser().parse_args(argv)
            cli.check_link_options(args)
        assert raised.value.code != 0
    process = _run_sim(["--host", "0", "--cable", "serial:/dev/rolit-no-such-port"])
    out, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert err == ("python -m sim: cannot open /dev/rolit-no-such-port: no such port (is the "
                   "board plugged in?)\n")
