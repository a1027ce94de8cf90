"""One match on several handhelds: a host and up to three guests keep it move by move.

The host owns the match: it seats the guests, checks every move with its own rules core and
sends it on with a checksum of the position it leads to. Each guest plays the same move with its
own core; a move its core refuses, or a checksum that differs, means the boards disagree, and the
guest asks for the whole state (:func:`state_bytes`, the save format's match) instead. So two
boards never go on disagreeing. Pure logic over a :class:`rolit_core.link.Link` and a ms clock.

The protocol is three modules: what both sides share (:mod:`rolit_core.lockstep_base`: the
messages, docs/link.md), the host's side (:mod:`rolit_core.lockstep_host`) and a guest's
(:mod:`rolit_core.lockstep_guest`). A handheld loads the shared part and its own role's only;
this module gathers all three for the desktop programs, the tests and the docs.
"""

from .lockstep_base import (  # noqa: F401
                            BEAT, BEAT_MS, BYE, ENDED, FULL, GAME_VERSION, HELLO, ILLEGAL, JOIN,
                            LOBBY, LOCAL, LOST, LOST_MS, MOVE, NEXT, NO, NOT_YOUR_TURN,
                            OTHER_VERSION, PAUSED, PHASES, PLAYED, PLAYING, PROTOCOL, REASONS,
                            REFUSED, REFUSED_PHASE, RESYNC, RESYNC_MS, SEARCHING, SEAT,
                            SECOND_HOST, SENT, STALE, STATE, TRY, Session, position_check,
                            read_state, state_bytes)
from .lockstep_guest import Guest  # noqa: F401
from .lockstep_host import Host  # noqa: F401
