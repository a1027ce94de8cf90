"""The network link's figures on loopback: ``python -m bench net [--tcp | --pages]``.

``--tcp``: the simulators' figures below; ``--pages``: headless Chromium pages joined to a
hosting simulator (bench/netpages.py); without either, both.

A hosting hub (sim.net.NetHost) and three joining simulators (sim.net.NetJoin) in this one
process, each pumped every 2 ms of the wall clock, play a round of a 4-seat match on 8x8 with seeded moves
(rolit_core.lockstep, the host's seat and the three joiners'); then one joiner drops and
connects again. Printed: bytes per move through the sockets, the most one peer sent the hub in
any second (the hub's cap is sim.net.host.RATE), a move's time from the host playing it to each
joiner showing it and from a joiner sending it to the host showing it, and the time from a
dropped joiner's new connection to its board being the host's again. Wall-clock figures grow
with the machine's load, which is printed before and after.
"""

import os
import random
import sys
import time

from rolit_core import Match
from rolit_core.link import Link
from rolit_core import lockstep
from rolit_core.lockstep import LOCAL, Guest, Host, position_check
from sim.net import NetHost, NetJoin
from sim.net.host import RATE

PUMP_S = 0.002


def _load():
    try:
        return "%.1f" % os.getloadavg()[0]
    except OSError:
        return "?"


def main(argv=()):
    argv = list(argv)
    if argv and argv[0] not in ("--tcp", "--pages"):
        print("python -m bench net: the options are --tcp and --pages, not %s" % argv[0],
              file=sys.stderr)
        return 2
    if "--pages" not in argv:
        tcp()
    if "--tcp" not in argv:
        from bench import netpages
        print("-- pages --")
        netpages.main()
    return 0


def tcp():
    print("load average %s on %d cores before" % (_load(), os.cpu_count() or 1))
    hub = NetHost(0, "127.0.0.1", web=None)
    start = time.monotonic()

    def now():
        return int((time.monotonic() - start) * 1000)

    match = Match(2, 4, 8, seed=1)
    host_link = Link()
    host = Host(host_link, match, ["human"] * 4, [0, LOCAL, LOCAL, LOCAL], 0x5151)
    links = [Link() for _ in range(3)]
    guests = [Guest(link) for link in links]
    cables = [NetJoin("127.0.0.1", hub.port, retry_ms=200) for _ in range(3)]
    for guest in guests:
        guest.join()
    rng = random.Random(1)
    sent = {}        # (round, ply) -> (when, who played it)
    out_lat = []     # host plays -> a joiner shows it
    in_lat = []      # a joiner sends -> the host shows it
    peak = [0]
    window = [now(), [cable.bytes_out for cable in cables]]

    def step():
        t = now()
        hub.pump(host_link, t)
        for cable, link in zip(cables, links):
            cable.pump(link, t)
        for session in [host] + guests:
            session.update(t)
            for event in session.take_events():
                if event[0] != "move":
                    continue
                ply = len(session.match.game.moves) - 1
                played = sent.get(ply)
                if played is None:
                    continue
                if session is host and played[1] != "host":
                    in_lat.append(t - played[0])
                elif session is not host and played[1] == "host":
                    out_lat.append(t - played[0])
        if t - window[0] >= 1000:
            counts = [cable.bytes_out for cable in cables]
            peak[0] = max([peak[0]] + [a - b for a, b in zip(counts, window[1])])
            window[0], window[1] = t, counts
        time.sleep(PUMP_S)
        return t

    while not host.seated():
        step()
    host.start()
    bytes_before = sum(cable.bytes_in + cable.bytes_out for cable in cables)
    moves_before = len(match.game.moves)
    last_move = 0
    while not match.game.over:
        t = step()
        if host.phase != lockstep.PLAYING or t - last_move < 100:
            continue  # a move every 100 ms at the most, as players would (and to time each)
        seat = host.seat_to_move()
        if any(g.match is None or position_check(g.match) != position_check(match)
               for g in guests):
            continue  # every joiner has the match and the last move before the next
        ply = len(match.game.moves)
        if seat == 0:
            sent[ply] = (t, "host")
            host.play(rng.choice(match.game.legal_moves()))
            last_move = t
        else:
            guest = [g for g in guests if g.seat == seat][0]
            if guest.play(rng.choice(guest.match.game.legal_moves())) is None:
                sent[ply] = (t, "guest")
                last_move = t
    while any(g.match.game.moves != match.game.moves for g in guests):
        step()
    moves = len(match.game.moves) - moves_before
    traffic = sum(cable.bytes_in + cable.bytes_out for cable in cables) - bytes_before
    # one joiner's Wi-Fi drops for 2 s, and the match is replaced meanwhile (a new round)
    cables[0].retry_ms = 2000
    cables[0].disconnect(now())
    host.next_round()
    while cables[0].state != "greeting":
        step()
    back_at = now()
    while guests[0].match is None or guests[0].match.round != match.round or \
            position_check(guests[0].match) != position_check(match):
        step()
    rejoin = now() - back_at
    for cable in cables:
        cable.close()
    hub.close()
    print("bytes through the sockets per move, all three joiners, both ways: %d (%d moves)"
          % (traffic // moves, moves))
    print("the most one joiner sent the hub in a second: %d bytes (the cap is %d)"
          % (peak[0], RATE))
    print("a host's move until each joiner shows it: mean %.1f ms, worst %d ms (%d)"
          % (sum(out_lat) / len(out_lat), max(out_lat), len(out_lat)))
    print("a joiner's move until the host shows it: mean %.1f ms, worst %d ms (%d)"
          % (sum(in_lat) / len(in_lat), max(in_lat), len(in_lat)))
    print("a dropped joiner connected again until its board is the host's: %d ms" % rejoin)
    print("load average %s after" % _load())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
