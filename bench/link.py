"""The link's figures on the real firmware: two emulated Picos crossed at 115200 baud.

    python -m bench link            # the protocol on two chips
    python -m bench link --game     # a whole linked game of the deployed game, from the menus
    python -m bench link --game 4 --mpy-cross PATH   # four chips, the compiled deploy

One 2-round 4x4 match over a clean cable, then one whose cable is pulled for 3 s after six
moves. Printed: bytes on the wire per move, the guest's round trip from sending its move to
showing it (the host showed it earlier, on the way), how long each chip took to say "lost"
after the cable was pulled and to play on after it was back, and each chip's lowest free heap
after a collection. Emulated time, so the machine's load does not change them.

This is the protocol with its driver and a match only (sim/rp2040/linked.py): the game's
screens, drivers and computer players are not on these chips. ``--game [N]`` boots N (2-4)
chips with the deployed game instead, sets up a linked 4x4 (N = 2) or 6x6 game from the menus
and plays a round (sim/rp2040/linkgame.py): printed are the latency from SELECT released on
the mover's chip to its ball lit on every other chip, and each chip's lowest free heap after a
collection and its longest whole frame in that game, as its own game log prints them, then
the last chip leaves with BACK (compiled from source it restarts, and the time to its banner
is printed). ``--mpy-cross PATH`` deploys every module but ``code.py`` compiled with
that CircuitPython mpy-cross (``sim.deploy --mpy-cross``), as ``bench.device`` does.
"""

import sys

from sim.emulate import Emulator, missing_reason
from sim.rp2040.linked import Noise, lines, linked_drive, play_linked


def _run(cut_ms):
    with Emulator(files=linked_drive("host", 3)) as host, \
            Emulator(files=linked_drive("guest", 5)) as guest:
        noise = Noise(11, host, cut_ms=cut_ms, flip=0, drop=0) if cut_ms else None
        phases = play_linked([host, guest], 300000, noise)
        return host, guest, noise, phases


def game(count=2, compiler=None):
    from bench.device import deployed_files
    from sim.rp2040.linkgame import LINK_SETTINGS, LinkedGame

    size = 4 if count == 2 else 6
    if compiler:
        from sim import deploy

        print("compiled deploy: %s" % deploy.MpyCross(compiler).banner)
    files = deployed_files(LINK_SETTINGS, compiler)
    chips = [Emulator(files=files) for _ in range(count)]
    try:
        for chip in chips:
            chip.start()
        linked = LinkedGame(chips)
        linked.boot()
        linked.set_up(size=size)
        linked.play_round(size=size)
        moves = len(linked.moves(0))
        print("a linked %d-player game on %dx%d, %d moves, set up and played from the menus"
              % (count, size, size, moves))
        times = linked.latencies
        if times:
            print("SELECT released on the mover to its ball lit on another chip: mean %.0f ms, "
                  "worst %d ms (%d sightings, to the %d ms slices the chips run in)"
                  % (sum(times) / len(times), max(times), len(times), 5))
        for index, (heap, frames) in enumerate(zip(linked.heaps(), linked.frames())):
            print("chip %d: %s" % (index + 1, heap[-1] if heap else "no heap line"))
            print("chip %d: %s" % (index + 1, frames[-1] if frames else "no frames line"))
        leave(linked)
        for index, chip in enumerate(chips):
            for word in ("Traceback", "MemoryError"):
                if word in chip.console:
                    print("chip %d: %s on the console" % (index + 1, word))
    finally:
        for chip in chips:
            chip.close()
    sys.stdout.flush()


def leave(linked):
    """The last chip (a guest, no computer seat) leaves the linked game with BACK at the round
    end: compiled from source, code.py restarts there for the computer players (App.wants_restart);
    printed is how long after the BACK its banner is back."""
    index = len(linked.chips) - 1
    chip = linked.chips[index]
    linked.tap(index, "select")  # the round end's bars at once
    linked.run(300)
    at = len(chip.console)
    start = chip.ms
    linked.tap(index, "back")
    if not linked.until(lambda: "restarting:" in chip.console[at:], 3000):
        print("chip %d left the linked game with BACK: to the menu, no restart" % (index + 1))
        return
    restart = chip.console.index("restarting:", at)
    if linked.until(lambda: "controls:" in chip.console[restart:], 20000):
        print("chip %d left the linked game with BACK: code.py restarted (compiled from source), "
              "its banner back %.1f s after the BACK" % (index + 1, (chip.ms - start) / 1000))
    else:
        print("chip %d left the linked game with BACK: restarted, no banner within 20 s"
              % (index + 1))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    reason = missing_reason()
    if reason:
        print("link: skipped (%s)" % reason)
        return
    if argv and argv[0] == "--game":
        rest = argv[1:]
        compiler = None
        if "--mpy-cross" in rest:
            at = rest.index("--mpy-cross")
            if at + 1 >= len(rest):
                sys.exit("link: --mpy-cross needs the path of CircuitPython's mpy-cross")
            compiler = rest[at + 1]
            del rest[at:at + 2]
        count = int(rest[0]) if rest and rest[0].isdigit() else 2
        if not 2 <= count <= 4:
            sys.exit("link: --game takes 2 to 4 chips")
        game(count, compiler)
        return
    host, guest, _, _ = _run(0)
    moves = len(lines(host, "move"))
    wire = 0
    for chip in (host, guest):
        wire += int(lines(chip, "resends")[0].split()[-1])  # "... out BYTES"
    print("moves in the match: %d; bytes on the wire per move (both ways, beats and "
          "acknowledgements included): %d" % (moves, wire // max(moves, 1)))
    tries = [int(line) for line in lines(guest, "try")]
    shown = [int(line.split()[1]) for line in lines(guest, "move")]
    trips = []
    for sent in tries:
        # The first move shown after the guest sent its own is that move: nobody else may move
        # before it (a move shown in the same pass of the loop came before the sending).
        later = [ms for ms in shown if ms > sent]
        if later:
            trips.append(min(later) - sent)
    if trips:
        print("guest's move, sent to shown (round trip through the host): mean %.0f ms, "
              "worst %d ms over %d moves" % (sum(trips) / len(trips), max(trips), len(trips)))
    for name, chip in (("host", host), ("guest", guest)):
        print("%s: lowest free heap after a collection %s B" % (
            name, lines(chip, "lowest")[0].split()[-1]))
    host, guest, noise, phases = _run(3000)
    for name, seen in zip(("host", "guest"), phases):
        lost = [ms for ms, phase in seen if phase == "lost"]
        back = [ms for ms, phase in seen if phase == "playing" and lost and ms > lost[0]]
        print("%s: said lost %s ms after the cable was pulled; played on %s ms after it was back"
              % (name, lost[0] - noise.cut_at if lost else "never",
                 back[0] - noise.cut_until if back else "never"))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
