"""The USB data channel as the link's cable (hardware.usblink, hardware.parts): with a double of
CircuitPython's ``usb_cdc``, which has ``data`` only when boot.py enabled it. Without link pins
in settings.toml the game links over ``usb_cdc.data``; with pins the UART cable is the link;
without the channel there is none. The pump over two crossed channels carries the protocol's
messages, and with nobody holding the PC's end open the bytes go nowhere."""

import sys
import types

from handheld_parts import KEYS, build, device  # noqa: F401 (device: a fixture)
from hardware.usblink import MAX_WRITE, UsbLink
from rolit_core.link import Link

PICO_LINK = {"ROLIT_LINK_TX": "GP12", "ROLIT_LINK_RX": "GP13"}


class Channel:
    """usb_cdc.Serial as the game uses it: in_waiting, readinto, write, connected (DTR)."""

    def __init__(self):
        self.inbox = bytearray()
        self.peer = None
        self.connected = True
        self.timeout = self.write_timeout = None
        self.room = 1 << 20   # what the USB buffer takes in one write
        self.written = 0

    @property
    def in_waiting(self):
        return len(self.inbox)

    def readinto(self, buffer):
        count = min(len(buffer), len(self.inbox))
        buffer[0:count] = self.inbox[:count]
        del self.inbox[:count]
        return count

    def write(self, data):
        data = bytes(data)[:self.room]
        self.written += len(data)
        if self.peer is not None:
            self.peer.inbox += data
        return len(data)


def usb_cdc_double(monkeypatch, data):
    module = types.ModuleType("usb_cdc")
    module.console = Channel()
    module.data = data  # None: boot.py did not enable it
    monkeypatch.setitem(sys.modules, "usb_cdc", module)
    return module


def test_without_link_pins_the_game_links_over_the_usb_data_channel(device, monkeypatch, capsys):
    from hardware import startup

    channel = Channel()
    usb_cdc_double(monkeypatch, channel)
    uarts = len(device.busio.ALL)
    handheld = build(device)
    assert isinstance(handheld.cable, UsbLink) and handheld.cable._serial is channel
    assert handheld.errors == [] and len(device.busio.ALL) == uarts  # no UART opened
    assert (channel.timeout, channel.write_timeout) == (0, 0)        # never waits
    startup.banner(handheld.settings, handheld, "9.9")
    assert "link: the USB data channel (usb_cdc.data, the second serial port)" in \
        capsys.readouterr().out


def test_without_the_channel_there_is_no_link(device, monkeypatch, capsys):
    from hardware import startup

    usb_cdc_double(monkeypatch, None)      # no boot.py: usb_cdc.data is None
    handheld = build(device)
    assert handheld.cable is None and handheld.errors == []
    startup.banner(handheld.settings, handheld, "9.9")
    assert "link: none" in capsys.readouterr().out
    monkeypatch.delitem(sys.modules, "usb_cdc")  # a board without usb_cdc (a Pi with Blinka)
    monkeypatch.setattr("builtins.__import__", _refusing("usb_cdc"))
    assert build(device).cable is None


def _refusing(name):
    real = __import__

    def importer(what, *args, **kwargs):
        if what == name:
            raise ImportError("no module named %r" % name)
        return real(what, *args, **kwargs)
    return importer


def test_link_pins_in_the_settings_make_the_uart_cable_the_link(device, monkeypatch, capsys):
    from hardware import startup
    from hardware.uartlink import UartLink

    channel = Channel()
    usb_cdc_double(monkeypatch, channel)
    handheld = build(device, **PICO_LINK)
    assert isinstance(handheld.cable, UartLink) and handheld.cable._uart is device.busio.ALL[-1]
    startup.banner(handheld.settings, handheld, "9.9")
    assert "link: TX GP12, RX GP13, 115200 baud" in capsys.readouterr().out
    assert channel.written == 0


def crossed():
    one, other = Channel(), Channel()
    one.peer, other.peer = other, one
    return one, other


def test_messages_cross_two_usb_channels_both_ways():
    near, far = crossed()
    cables = (UsbLink(near), UsbLink(far))
    links = (Link(node=0), Link(node=1))
    assert links[0].send(1, 6, b"to one")
    assert links[1].send(0, 6, b"to zero")
    got = ([], [])
    for now in range(0, 600, 20):
        for index in (0, 1):
            links[index].poll(now)
            cables[index].pump(links[index], now)
            got[index].extend((m.source, bytes(m.payload)) for m in links[index].receive())
    assert got == ([(1, b"to zero")], [(0, b"to one")])
    assert cables[0].bytes_out == cables[1].bytes_in > 0
    assert cables[1].bytes_out == cables[0].bytes_in > 0


def test_a_pump_writes_at_most_max_write_bytes_and_counts_what_the_channel_took():
    near, far = crossed()
    cable = UsbLink(near)
    link = Link(node=0)
    for number in range(8):
        link.broadcast(9, bytes([number]) * 150)
    cable.pump(link, 0)
    assert 0 < near.written <= MAX_WRITE and cable.bytes_out == near.written
    near.room = 10  # a full USB buffer takes part of a write
    cable.pump(link, 20)
    assert cable.bytes_out == near.written and near.written - MAX_WRITE <= 10


def test_with_nobody_at_the_pcs_end_the_bytes_go_nowhere_and_come_once_it_opens():
    near, far = crossed()
    near.connected = False   # no program holds the port open (DTR low)
    cable = UsbLink(near)
    link = Link(node=0)
    link.broadcast(9, b"hello")
    cable.pump(link, 0)
    assert near.written == 0 and not link.waiting_output()
    far.inbox += b"\x00"     # what the PC sent is still read
    far_link = Link(node=1)
    far_link.broadcast(9, b"from the pc")
    far.write(far_link.output())
    cable.pump(link, 20)
    assert [bytes(m.payload) for m in link.receive()] == [b"from the pc"]
    near.connected = True
    link.broadcast(9, b"again")
    cable.pump(link, 40)
    assert near.written > 0
