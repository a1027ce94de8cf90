"""sim/rp2040/host.mjs's additions to rp2040js, checked on its Board without firmware (PIO wait
types, the UART reset), and the UART reset on the real firmware (a byte after code.py ended).

rp2040js 1.4.1 numbers its PIO wait types None 0, Pin 1, rxFIFO 2, txFIFO 3, IRQ 4, Out 5
(node_modules/rp2040js/dist/esm/peripherals/pio.js): only txFIFO and Out waits may sleep until
the TX FIFO is written; a machine waiting on an IRQ must go on being stepped."""

import json
import os
import shutil
import subprocess

import pytest

from firmware_gate import require_emulator

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = os.path.join(ROOT, "sim", "rp2040", "host.mjs")

# A Board with an empty bootrom and flash: the PIO and UART are driven from here, the CPU never
# runs. Prints one JSON object.
SCRIPT = """
import { pathToFileURL } from 'node:url';
const host = await import(pathToFileURL(%(host)s).href);
const board = new host.Board(new Uint32Array(4096), new Uint8Array(2 * 1024 * 1024).fill(0xff),
                             new Map());
const chip = board.chip;
const out = {};
%(body)s
process.stdout.write(JSON.stringify(out) + '\\n');
process.exit(0);
"""

PIO_BODY = """
const pio = chip.pio[0];
const program = [0x20c0, 0x0001, 0xc000, 0x0003, 0x6021, 0x0004];
// 0: wait 1 irq 0   1: jmp 1   2: irq set 0   3: jmp 3   4: out x, 1 (autopull)   5: jmp 4
program.forEach((word, i) => pio.writeUint32(0x048 + 4 * i, word));
const [waiter, setter, shifter] = pio.machines;
setter.pc = 2;
shifter.pc = 4;
pio.writeUint32(0x0d0 + 2 * 0x18, (1 << 17) | (1 << 19) | (8 << 25)); // SM2_SHIFTCTRL: autopull at 8 bits, shifting right
let now = 0;
const step = (n) => { for (let i = 0; i < n; i++) { now += 1000; board.stepPIO(now); } };
pio.writeUint32(0x000, 0b101); // enable SM0 and SM2
step(20);
out.waiterType = waiter.waitType;
out.shifterType = shifter.waitType;
out.shifterAsleep = shifter.nextNs === Infinity;
out.waiterAsleep = waiter.nextNs === Infinity;
pio.writeUint32(0x000, 0b111); // and SM1, which raises IRQ 0
step(20);
out.waiterPc = waiter.pc;
out.waiterWaiting = waiter.waiting;
shifter.writeFIFO(0xff);
step(20);
out.shifterPcAfterWord = shifter.pc;
out.shifterX = shifter.x;
out.constants = [host.WAIT_TX, host.WAIT_IRQ, host.WAIT_OUT];
"""

UART_BODY = """
const uart = chip.uart[0];
const UART0 = 0x40034000;
chip.writeUint32(UART0 + 0x30, 0x301);   // UARTCR: enabled
chip.writeUint32(UART0 + 0x38, 0x10);    // UARTIMSC: RX interrupt
uart.feedByte(0x41);
out.pendingBefore = !!(chip.core.pendingInterrupts & (1 << uart.irq));
chip.readUint32(UART0);                  // the firmware reads it
chip.writeUint32(0x4000c000 + 0x2000, 1 << 22);  // RESETS (set alias): UART0 into reset
uart.feedByte(0x42);                     // a byte arrives after the deinit
out.pendingAfter = !!(chip.core.pendingInterrupts & (1 << uart.irq));
out.mask = uart.interruptMask;
out.enabled = uart.enabled;
const sent = [];
board.onUartByte = (index, byte) => sent.push([index, byte]);
chip.writeUint32(0x40038000, 0x55);      // UART1's data register
out.sent = sent;
"""


def run_board(body):
    if shutil.which("node") is None or not os.path.isdir(os.path.join(ROOT, "node_modules",
                                                                        "rp2040js")):
        pytest.skip("needs Node.js and node_modules/rp2040js (make setup)")
    script = SCRIPT % {"host": json.dumps(HOST), "body": body}
    result = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_the_wait_types_are_rp2040js_own():
    source = open(os.path.join(ROOT, "node_modules", "rp2040js", "dist", "esm", "peripherals",
                               "pio.js")).read()
    state = run_board(PIO_BODY)
    for name, value in zip(("txFIFO", "IRQ", "Out"), state["constants"]):
        assert 'WaitType["%s"] = %d' % (name, value) in source


def test_a_machine_waiting_on_an_irq_is_woken_by_another_machine():
    state = run_board(PIO_BODY)
    assert state["waiterType"] == 4 and not state["waiterAsleep"]
    assert state["waiterWaiting"] is False and state["waiterPc"] == 1


def test_a_machine_stalled_on_out_sleeps_until_its_fifo_is_written():
    state = run_board(PIO_BODY)
    assert state["shifterType"] == 5 and state["shifterAsleep"]
    assert state["shifterX"] == 1  # the word's first bit went out once it came


def test_a_uart_put_into_reset_forgets_its_interrupts():
    state = run_board(UART_BODY)
    assert state["pendingBefore"] is True
    assert state["pendingAfter"] is False
    assert state["mask"] == 0 and state["enabled"] is False
    assert state["sent"] == [[1, 0x55]]


@pytest.mark.slow
def test_a_byte_on_the_uart_after_code_py_ended_does_not_lock_the_chip():
    """CircuitPython deinitialises the UART when code.py ends; a byte arriving then used to
    raise an interrupt nobody served, and the REPL never answered."""
    require_emulator()
    from sim.emulate import Emulator

    code = (b"import board, busio, time\n"
            b"time.sleep(0.5)\n"  # the USB console opens
            b"uart = busio.UART(board.GP12, board.GP13, baudrate=115200, timeout=0)\n"
            b"uart.write(b'hi')\n"
            b"print('uart ready')\n")
    with Emulator(files={"code.py": code}) as pico:
        pico.run_until_text("Press any key to enter the REPL", 20000)
        assert bytes(pico.uart_out[0]) == b"hi"
        pico.uart_send(0, b"x")
        pico.run(200)
        pico.send("\r")
        pico.run_until_text(">>> ", 3000)
        pico.send("print(6 * 7)\r")
        pico.run_until_text("42", 3000)


def test_a_boot_that_never_says_its_text_names_what_it_ran_on():
    """A failed boot on another machine (CI) says which UF2, Node.js, rp2040js and drive it
    ran, so that its inputs can be compared with a machine where it passes."""
    require_emulator()
    from sim.emulate import Emulator, EmulatorError

    with Emulator(files={"code.py": b"print('not the banner')\n"}) as pico:
        with pytest.raises(EmulatorError) as failed:
            pico.run_until_text("controls:", 3000)
    said = str(failed.value)
    assert "no 'controls:' on the console" in said
    assert os.path.basename(pico.firmware) in said and "rp2040js 1." in said
    assert "node v" in said and "drive of 1 files (sha256 " in said


FAKE_NODE = r'''#!%(python)s
# A stand-in for Node.js running host.mjs: %(what)s
import json, sys
sys.stderr.write(%(stderr)r)
sys.stderr.flush()
if %(die)r:
    sys.exit(1)
print(json.dumps({"ev": "ready", "ns": 0, "cycles": 0}), flush=True)
for line in sys.stdin:
    command = json.loads(line)
    if command["cmd"] == "quit":
        break
    print(json.dumps({"ev": "stopped" if command["cmd"] == "run" else "ok", "why": "time",
                      "ns": 0, "cycles": 0, "id": command.get("id")}), flush=True)
'''


def _fake_node(tmp_path, what, stderr, die=False):
    import sys

    path = tmp_path / "node"
    path.write_text(FAKE_NODE % {"python": sys.executable, "what": what, "stderr": stderr,
                                 "die": die})
    path.chmod(0o755)
    return str(path)


def test_a_host_that_writes_much_on_stderr_never_blocks(tmp_path):
    import threading

    require_emulator()
    from sim.emulate import Emulator

    node = _fake_node(tmp_path, "a megabyte of warnings first", "rp2040js warning\n" * 65536)
    pico = Emulator(files={"code.py": b""}, node=node)
    started = threading.Thread(target=pico.start, daemon=True)
    started.start()
    started.join(60)
    try:
        assert not started.is_alive(), "start() blocked on the host's stderr"
        assert pico.run(10) == "time"
    finally:
        pico.close()


def test_a_host_that_cannot_load_rp2040js_says_so_in_one_line(tmp_path):
    require_emulator()
    from sim.emulate import Emulator, EmulatorError

    node = _fake_node(tmp_path, "rp2040js missing", "node:internal/modules/esm/resolve:873\n"
                      "  throw new ERR_MODULE_NOT_FOUND(packageName, ...);\n"
                      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'rp2040js' imported "
                      "from /x/sim/rp2040/host.mjs\n", die=True)
    with pytest.raises(EmulatorError) as error:
        Emulator(files={"code.py": b""}, node=node).start()
    assert "\n" not in str(error.value) and "rp2040js" in str(error.value)
    assert "make emulate" in str(error.value)


def test_an_answer_left_by_an_interrupted_command_is_not_taken_for_the_next():
    require_emulator()
    from sim.emulate import Emulator

    with Emulator(files={"code.py": b""}) as pico:
        first = pico.flash_image()[:8]
        # A command whose wait a Ctrl-C cut short: its answer is still on the way.
        pico._process.stdin.write(b'{"cmd": "pin", "gpio": 2, "value": true}\n')
        pico._process.stdin.flush()
        assert pico.read_flash(0, 8) == first
        assert pico.run(1) == "time"
