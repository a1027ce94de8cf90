"""Linked play over the network: the simulator hosts a ring of up to three joiners (TCP from
other simulators, WebSocket from browsers) or joins one. docs/network.md explains it.

- :class:`NetHost` (sim.net.host): the hosting simulator's hub, with ``pump(link, now)``.
- :class:`NetJoin` (sim.net.join): a joiner's connection, with ``pump(link, now)``.
- ``sim.net.serial.SerialLink``: a handheld's cable on a serial port (``--join serial:PATH``).
- ``sim.net.emulated``: an emulated Pico's UART as the cable (``--join emulator``), the
  simulator on the chip's clock.

Both pump a :class:`rolit_core.link.Link` as ``hardware.uartlink.UartLink`` does, so the game
and ``rolit_core.lockstep`` run over a socket unchanged.
"""

from .host import NetHost
from .join import NetJoin, parse_address
from .wire import DEFAULT_PORT, NetError

__all__ = ["DEFAULT_PORT", "NetError", "NetHost", "NetJoin", "parse_address"]
