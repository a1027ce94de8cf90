// The emulated Raspberry Pi Pico behind sim/emulate.py: rp2040js 1.4.1 plus the few parts the
// CircuitPython firmware needs that rp2040js does not model (see docs/emulator.md).
//
//   node sim/rp2040/host.mjs --bootrom BOOTROM.bin --flash FLASH.bin
//
// BOOTROM.bin is the 16 KiB B1 bootrom, FLASH.bin the image to put at the start of the 2 MiB
// flash (the firmware, then the CIRCUITPY drive at 0x100000); sim/emulate.py makes both.
// Commands come in on stdin and events go out on stdout, one JSON object a line:
//
//   {"cmd": "run", "ns": 1e7, "text": "...", "frame": true}  run up to ns nanoseconds of emulated
//        time, stopping early after console output containing `text` or after a LED frame;
//        answers {"ev": "stopped", "why": "time" | "text" | "frame", ...clock}
//   {"cmd": "pin", "gpio": 2, "value": false}                drive a GPIO input (false = low)
//   {"cmd": "serial", "data": "latin-1 text"}                bytes to the USB serial port
//   {"cmd": "uart", "index": 0, "data": "hex"}              bytes into UART0/1's RX FIFO (32 kept)
//   {"cmd": "power_cycle"}                                   a new chip with the same flash
//   {"cmd": "read_flash" | "write_flash", "offset", "length" | "data"}   (hex data)
//   {"cmd": "state"}                                         PC, USB and exception counts (debugging)
//   {"cmd": "quit"}
//
// Events while running: {"ev": "serial", "data"} (console bytes as latin-1 text),
// {"ev": "frame", "ns", "cycles", "pin", "data"} (hex bytes of one neopixel_write, in the order
// the strip receives them) and {"ev": "uart", "index", "data"} (hex bytes the firmware sent).
// Every answer to a command carries the clock: ns and cycles, and the command's `id` if it had
// one; "stopped" also `busy`, the share of that run's emulated time the core was awake.
//
// Imported (not run) it only exports Board and the constants, for tests.

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { BasePeripheral, RP2040, USBCDC } from 'rp2040js';

const FLASH_SIZE = 2 * 1024 * 1024; // the Pico's W25Q16
const SS_CTRL = 0x0c; // IO_QSPI GPIO_QSPI_SS_CTRL: OUTOVER in bits 8-9
const OUTOVER_LOW = 2;
const SSI_SR = 0x28;
const SSI_DR0 = 0x60;
const SSI_TXFLR = 0x20;
const SSI_RXFLR = 0x24;
const SR_TFNF = 0x2;
const SR_TFE = 0x4;
const SR_RFNE = 0x8;
// rp2040js 1.4.1 WaitType (dist/esm/peripherals/pio.js): None 0, Pin 1, rxFIFO 2, txFIFO 3,
// IRQ 4, Out 5. Of these only txFIFO and Out wait for the TX FIFO to be written.
export const WAIT_TX = 3; // WaitType.txFIFO: PULL on an empty FIFO
export const WAIT_IRQ = 4; // WaitType.IRQ: woken by another machine, never by the FIFO
export const WAIT_OUT = 5; // WaitType.Out: OUT with autopull on an empty FIFO
const RESETS = 0x4000c; // the RESETS block's page in rp2040js's peripheral map
const RESET_UART = [1 << 22, 1 << 23]; // RESETS bits of UART0 and UART1
const PPB_SCR = 0xd10; // System Control Register
const SCR_SEVONPEND = 0x10;
const UNIQUE_ID = [0xe6, 0x60, 0x58, 0x38, 0x83, 0x2f, 0x4d, 0x2a];

function argument(name) {
  const at = process.argv.indexOf(name);
  if (at < 0 || at + 1 >= process.argv.length) {
    throw new Error(`missing ${name}`);
  }
  return process.argv[at + 1];
}

let answering; // the `id` of the command being answered, echoed in its answer

function send(event) {
  if (answering !== undefined && (event.ev === 'ok' || event.ev === 'stopped' || event.ev === 'error')) {
    event.id = answering;
  }
  process.stdout.write(JSON.stringify(event) + '\n');
}

/** rp2040js logs every unmodelled register; keep that off stdout (the protocol's) and count it. */
class QuietLogger {
  constructor() {
    this.warnings = 0;
  }
  debug() {}
  info() {}
  warn(component, message) {
    this.warnings++;
    if (process.env.ROLIT_EMULATOR_DEBUG && this.warnings < 200) {
      process.stderr.write(`rp2040js [${component}] ${message}\n`);
    }
  }
  error(component, message) {
    process.stderr.write(`rp2040js error [${component}] ${message}\n`);
  }
}

/**
 * The SPI flash as seen through the SSI: every byte written to DR0 gives one byte in the RX FIFO,
 * and commands framed by the chip-select override of IO_QSPI (how the bootrom's flash routines
 * talk to the flash) really program and erase `flash`. NOR semantics: programming only clears bits.
 */
class FlashSSI extends BasePeripheral {
  constructor(rp2040, flash) {
    super(rp2040, 'SSI');
    this.flash = flash;
    this.registers = new Map();
    this.rx = [];
    this.selected = false;
    this.command = [];
    this.last = 0;
  }
  select(on) {
    if (on !== this.selected) {
      this.selected = on;
      this.command = [];
    }
  }
  readUint32(offset) {
    switch (offset) {
      case SSI_SR:
        return SR_TFE | SR_TFNF | (this.rx.length ? SR_RFNE : 0);
      case SSI_TXFLR:
        return 0;
      case SSI_RXFLR:
        return this.rx.length;
      case SSI_DR0:
        return this.rx.length ? this.rx.shift() : 0;
      case 0x58:
        return 0x51535049; // IDR
      case 0x5c:
        return 0x3430312a; // SSI_COMP_VERSION
    }
    return this.registers.get(offset) ?? 0;
  }
  writeUint32(offset, value) {
    if (offset !== SSI_DR0) {
      this.registers.set(offset, value >>> 0);
      return;
    }
    const byte = value & 0xff;
    this.rx.push(this.selected ? this.exchange(byte) : this.unframed(byte));
    if (this.rx.length > 16) {
      this.rx.shift(); // a real RX FIFO overflows too
    }
  }
  /** Bytes sent while the SSI drives chip select itself (boot stage 2): answer status reads. */
  unframed(byte) {
    const previous = this.last;
    this.last = byte;
    return previous === 0x35 ? 0x02 : 0x00; // status 2: quad enable already set; others idle
  }
  exchange(byte) {
    const command = this.command;
    command.push(byte);
    const op = command[0];
    const n = command.length;
    const address = n > 4 ? (command[1] << 16) | (command[2] << 8) | command[3] : 0;
    switch (op) {
      case 0x02: // page program: the address wraps inside its 256-byte page
        if (n > 4) {
          const at = (address & ~0xff) | ((address + n - 5) & 0xff);
          if (at < this.flash.length) {
            this.flash[at] &= byte;
          }
        }
        return 0;
      case 0x20: // 4 KiB sector erase
        if (n === 4) this.erase(command, 0x1000);
        return 0;
      case 0x52: // 32 KiB block erase
        if (n === 4) this.erase(command, 0x8000);
        return 0;
      case 0xd8: // 64 KiB block erase
        if (n === 4) this.erase(command, 0x10000);
        return 0;
      case 0x60:
      case 0xc7: // chip erase
        if (n === 1) this.flash.fill(0xff);
        return 0;
      case 0x03: // read
        return n > 4 ? this.flash[(address + n - 5) % this.flash.length] : 0;
      case 0x0b: // fast read: one dummy byte
        return n > 5 ? this.flash[(address + n - 6) % this.flash.length] : 0;
      case 0x4b: // unique ID: four dummy bytes, then eight bytes of ID
        return n > 5 && n <= 13 ? UNIQUE_ID[n - 6] : 0;
      case 0x9f: // JEDEC ID: Winbond, 2 MiB
        return [0, 0xef, 0x40, 0x15][n - 1] ?? 0;
      case 0x35: // status register 2: quad enable
        return n > 1 ? 0x02 : 0;
      default: // 0x05 status (never busy), 0x06 write enable, resets...
        return 0;
    }
  }
  erase(command, size) {
    const address = ((command[1] << 16) | (command[2] << 8) | command[3]) & ~(size - 1);
    if (address < this.flash.length) {
      this.flash.fill(0xff, address, Math.min(address + size, this.flash.length));
    }
  }
}

/**
 * What rp2040js leaves out: the RP2040's XIP cache (16 KiB, two-way set associative, 8-byte
 * lines) in front of the QSPI flash. With `--xip` every read of the flash window goes through a
 * model of it and the misses are counted (reads of the uncached aliases count as misses too), so
 * the cycles a real chip would spend waiting for the flash can be estimated: rp2040js itself
 * charges nothing for them.
 */
class XipCacheModel {
  constructor() {
    this.tags = new Int32Array(2048).fill(-1); // set * 2 + way
    this.older = new Uint8Array(1024); // the way to replace next in each set
    this.hits = 0;
    this.misses = 0;
    this.uncached = 0;
  }
  flush() {
    this.tags.fill(-1);
  }
  access(address) {
    const region = (address >>> 24) & 3;
    if (region >= 2) {
      this.uncached++;
      return;
    }
    const line = (address & 0xffffff) >>> 3;
    const set = line & 1023;
    const tag = line >>> 10;
    const at = set * 2;
    if (this.tags[at] === tag) {
      this.hits++;
      this.older[set] = 1;
    } else if (this.tags[at + 1] === tag) {
      this.hits++;
      this.older[set] = 0;
    } else {
      this.misses++;
      if (region === 0) {
        const way = this.older[set];
        this.tags[at + way] = tag;
        this.older[set] = way ^ 1;
      }
    }
  }
  counts() {
    return { hits: this.hits, misses: this.misses, uncached: this.uncached };
  }
  reset() {
    this.hits = this.misses = this.uncached = 0;
  }
}

/** IO_QSPI: plain registers, and chip select forced low/high framing the flash's commands. */
class QSPIBank extends BasePeripheral {
  constructor(rp2040, ssi) {
    super(rp2040, 'IO_QSPI');
    this.ssi = ssi;
    this.registers = new Map();
  }
  readUint32(offset) {
    return this.registers.get(offset) ?? 0;
  }
  writeUint32(offset, value) {
    this.registers.set(offset, value >>> 0);
    if (offset === SS_CTRL) {
      this.ssi.select(((value >> 8) & 3) === OUTOVER_LOW);
    }
  }
}

/** One emulated Pico: the chip, its flash, the USB serial host side and the LED capture. */
export class Board {
  constructor(bootrom, flash, inputs) {
    this.flash = flash;
    const chip = new RP2040();
    this.chip = chip;
    chip.logger = new QuietLogger();
    chip.loadBootrom(bootrom);
    chip.flash.set(flash); // reset() fills the flash with 0xff: the image goes in after
    this.flash = chip.flash;
    const ssi = new FlashSSI(chip, chip.flash);
    chip.peripherals[0x18000] = ssi;
    chip.peripherals[0x40018] = new QSPIBank(chip, ssi);
    // BOOTSEL (QSPI_SS) not pressed, whatever the chip-select override says.
    Object.defineProperty(chip.qspi[1], 'inputValue', { get: () => true });
    for (const [gpio, value] of inputs) {
      chip.gpio[gpio].setInputValue(value);
    }
    this.cycles = 0;
    this.output = [];
    this.frames = 0;
    this.setUpUSB();
    this.setUpPIO();
    this.setUpUART();
    chip.core.PC = 0x10000000;
    this.setUpSleep();
    if (process.argv.includes('--xip')) {
      this.setUpXip();
    }
    this.exceptions = new Map(); // exception number -> count, for `state`
    const entry = chip.core.exceptionEntry.bind(chip.core);
    chip.core.exceptionEntry = (number) => {
      this.exceptions.set(number, (this.exceptions.get(number) || 0) + 1);
      entry(number);
    };
  }

  /**
   * CircuitPython sleeps with interrupts masked: `cpsid i; ...; wfe`, relying on SCR.SEVONPEND
   * (an interrupt becoming pending is an event that ends WFE). rp2040js has no SCR, so an
   * interrupt that arrives between `cpsid` and `wfe` put the core to sleep for ever. Here SCR
   * keeps its value and SEVONPEND does what it says.
   */
  setUpSleep() {
    const { core, ppb } = this.chip;
    this.scr = 0;
    const read = ppb.readUint32.bind(ppb);
    const write = ppb.writeUint32.bind(ppb);
    ppb.readUint32 = (offset) => (offset === PPB_SCR ? this.scr : read(offset));
    ppb.writeUint32 = (offset, value) => {
      if (offset === PPB_SCR) {
        this.scr = value & 0x16; // SLEEPONEXIT, SLEEPDEEP, SEVONPEND
      } else {
        write(offset, value);
      }
    };
    const setInterrupt = core.setInterrupt.bind(core);
    core.setInterrupt = (irq, value) => {
      const fresh = value && !(core.pendingInterrupts & (1 << irq));
      setInterrupt(irq, value);
      if (fresh && this.scr & SCR_SEVONPEND) {
        if (core.waiting) {
          core.waiting = false;
        } else {
          core.eventRegistered = true;
        }
      }
    };
  }

  /**
   * rp2040js keeps a UART's registers (interrupt mask, FIFO) through a reset of the block: when
   * code.py ends, CircuitPython deinitialises its UARTs (pico-sdk's uart_deinit resets them),
   * and one byte arriving after that raised an interrupt nobody serves, locking the chip. Here
   * putting a UART into reset (RESETS) brings it back to its power-on state, as on the chip.
   * Bytes the firmware sends go out as "uart" events; `onUartByte` sees each first (tests).
   */
  setUpUART() {
    const chip = this.chip;
    const resets = chip.peripherals[RESETS];
    const write = resets.writeUint32.bind(resets);
    resets.writeUint32 = (offset, value) => {
      const before = resets.reset;
      write(offset, value);
      if (offset === 0) {
        chip.uart.forEach((uart, i) => {
          if (resets.reset & ~before & RESET_UART[i]) {
            this.resetUART(uart);
          }
        });
      }
    };
    chip.uart.forEach((uart, index) => {
      uart.onByte = (byte) => {
        if (this.onUartByte) {
          this.onUartByte(index, byte);
        } else {
          send({ ev: 'uart', index, data: byte.toString(16).padStart(2, '0') });
        }
      };
    });
  }

  resetUART(uart) {
    uart.ctrlRegister = 0x300; // UARTCR after reset: RXE | TXE, UARTEN off
    uart.lineCtrlRegister = 0;
    uart.interruptMask = 0;
    uart.interruptStatus = 0;
    uart.intDivisor = 0;
    uart.fracDivisor = 0;
    while (!uart.rxFIFO.empty) {
      uart.rxFIFO.pull();
    }
    this.chip.setInterrupt(uart.irq, false);
  }

  /** Bytes into a UART's RX FIFO, as a wire would bring them (a full FIFO drops them). */
  uartReceive(index, bytes) {
    const uart = this.chip.uart[index];
    for (const byte of bytes) {
      uart.feedByte(byte);
    }
  }

  setUpXip() {
    const chip = this.chip;
    const xip = new XipCacheModel();
    this.xip = xip;
    for (const name of ['readUint32', 'readUint16', 'readUint8']) {
      const read = chip[name].bind(chip);
      chip[name] = (address) => {
        if (address >= 0x10000000 && address < 0x14000000) {
          xip.access(address);
        }
        return read(address);
      };
    }
    // The core fetches instructions through its own readUint16, which calls the chip's.
    const write = chip.writeUint32.bind(chip);
    chip.writeUint32 = (address, value) => {
      if (address >>> 0 === 0x14000004) {
        xip.flush(); // XIP_CTRL FLUSH, after every flash write
      }
      write(address, value);
    };
  }

  setUpUSB() {
    const cdc = new USBCDC(this.chip.usbCtrl);
    this.cdc = cdc;
    this.pendingRead = 0; // size of the OUT buffer the firmware has armed, 0 if none
    cdc.onSerialData = (buffer) => {
      const text = Buffer.from(buffer).toString('latin1');
      this.output.push(text);
      send({ ev: 'serial', data: text });
    };
    // rp2040js answers an armed OUT endpoint at once, with nothing if nothing is queued; the
    // firmware re-arms it at once: an interrupt storm that eats most of the CPU. Answer only
    // when there are bytes to deliver.
    const usb = this.chip.usbCtrl;
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint !== cdc.outEndpoint) {
        return;
      }
      this.pendingRead = size;
      this.deliver();
    };
  }

  deliver() {
    const { cdc } = this;
    if (!this.pendingRead || !cdc.txFIFO.itemCount) {
      return;
    }
    const buffer = new Uint8Array(Math.min(this.pendingRead, cdc.txFIFO.itemCount));
    for (let i = 0; i < buffer.length; i++) {
      buffer[i] = cdc.txFIFO.pull();
    }
    this.pendingRead = 0;
    this.chip.usbCtrl.endpointReadDone(cdc.outEndpoint, buffer);
  }

  serial(bytes) {
    for (const byte of bytes) {
      this.cdc.sendSerialByte(byte);
    }
    this.deliver();
  }

  /**
   * rp2040js steps the PIO from setTimeout, 1,000 instructions at a time, whatever the emulated
   * clock does. Here the state machines run in step with the CPU instead, each at clk_sys over its
   * clock divider, an instruction's delay cycles included. A machine stalled on an empty TX FIFO
   * sleeps until the FIFO is written. Every word written to a TX FIFO is kept: the bytes of a
   * machine between its enable and disable are one LED frame.
   */
  setUpPIO() {
    const chip = this.chip;
    this.machines = [];
    for (const pio of chip.pio) {
      pio.run = () => {}; // no setTimeout stepping
      const write = pio.writeUint32.bind(pio);
      pio.writeUint32 = (offset, value) => {
        const before = pio.machines.map((m) => m.enabled);
        write(offset, value);
        if (offset === 0) {
          pio.machines.forEach((m, i) => this.enabledChanged(pio, m, before[i]));
        }
      };
      for (const machine of pio.machines) {
        machine.nextNs = 0;
        machine.words = [];
        machine.pioHost = pio;
        const writeFIFO = machine.writeFIFO.bind(machine);
        machine.writeFIFO = (value) => {
          if (!machine.txFIFO.full) {
            if (!machine.words.length) {
              machine.firstNs = chip.clock.nanos;
            }
            machine.words.push(value >>> 0);
          }
          writeFIFO(value);
          if (machine.nextNs === Infinity) {
            machine.nextNs = chip.clock.nanos;
          }
        };
      }
    }
    this.running = [];
  }

  enabledChanged(pio, machine, wasEnabled) {
    if (machine.enabled && !wasEnabled) {
      machine.nextNs = this.chip.clock.nanos;
      machine.words = [];
    } else if (!machine.enabled && wasEnabled) {
      this.flushFrame(machine);
    }
    this.running = [];
    for (const p of this.chip.pio) {
      for (const m of p.machines) {
        if (m.enabled) this.running.push(m);
      }
    }
  }

  flushFrame(machine) {
    const words = machine.words;
    machine.words = [];
    if (!words.length) {
      return;
    }
    // Autopull threshold and shift direction say where the bits of each word are.
    const shift = machine.shiftCtrl;
    const threshold = ((shift >>> 25) & 0x1f) || 32;
    const right = !!(shift & (1 << 19));
    const chunks = Math.max(1, threshold >> 3);
    const bytes = [];
    for (const word of words) {
      for (let i = 0; i < chunks; i++) {
        bytes.push(right ? (word >>> (8 * i)) & 0xff : (word >>> (24 - 8 * i)) & 0xff);
      }
    }
    this.frames++;
    const pin = (machine.pinCtrl >>> 10) & 0x1f; // SIDESET_BASE: the NeoPixel program's pin
    send({
      ev: 'frame',
      start: machine.firstNs,
      ns: this.chip.clock.nanos,
      cycles: this.cycles,
      pin,
      data: Buffer.from(bytes).toString('hex'),
    });
  }

  stepPIO(now) {
    const clkSys = this.chip.clkSys;
    for (const machine of this.running) {
      const div = machine.clockDivInt + machine.clockDivFrac / 256 || 65536;
      const period = (1e9 / clkSys) * div;
      let guard = 0;
      while (machine.nextNs <= now && guard++ < 64) {
        const before = machine.cycles;
        machine.step();
        const spent = machine.cycles - before;
        if (sleepsUntilWritten(machine)) {
          machine.nextNs = Infinity; // woken by writeFIFO
          break;
        }
        machine.nextNs += period * (spent > 0 ? spent : 1);
      }
      machine.pioHost.checkChangedPins();
    }
  }

  /** Run until `untilNs`, or until `stop()` says so after an event. */
  run(untilNs, stop) {
    const chip = this.chip;
    const core = chip.core;
    const clock = chip.clock;
    const startNs = clock.nanos;
    let asleepNs = 0;
    while (clock.nanos < untilNs) {
      const cycleNs = 1e9 / chip.clkSys;
      const batchEnd = Math.min(untilNs, clock.nanos + 1e6);
      while (clock.nanos < batchEnd) {
        if (core.waiting) {
          let next = clock.nanosToNextAlarm || cycleNs;
          if (this.running.length) {
            next = Math.min(next, cycleNs * 8);
          }
          next = Math.min(next, batchEnd - clock.nanos + cycleNs);
          asleepNs += next;
          clock.tick(next);
          this.cycles += next / cycleNs;
        } else {
          const cycles = core.executeInstruction();
          this.cycles += cycles;
          clock.tick(cycles * cycleNs);
        }
        if (this.running.length) {
          this.stepPIO(clock.nanos);
        }
        if (this.stopFlag) {
          break;
        }
      }
      if (this.stopFlag) {
        break;
      }
    }
    const why = this.stopFlag || 'time';
    this.stopFlag = null;
    const spent = clock.nanos - startNs;
    this.busy = spent > 0 ? Math.max(0, 1 - asleepNs / spent) : 1;
    return why;
  }
}

/** Whether a state machine can sleep until its TX FIFO is written: it waits on that FIFO. */
export function sleepsUntilWritten(machine) {
  return (
    machine.waiting &&
    (machine.waitType === WAIT_TX || machine.waitType === WAIT_OUT) &&
    machine.txFIFO.empty
  );
}

function main() {
  const bootrom = new Uint32Array(new Uint8Array(readFileSync(argument('--bootrom'))).buffer);
  const image = readFileSync(argument('--flash'));
  const flash = new Uint8Array(FLASH_SIZE).fill(0xff);
  flash.set(image.subarray(0, FLASH_SIZE));
  const inputs = new Map(); // GPIO inputs survive a power cycle: buttons stay as they are
  let board = new Board(bootrom, flash, inputs);
  let watch = null; // console text a run stops after
  let seen = '';

  const clockOf = () => ({ ns: board.chip.clock.nanos, cycles: Math.round(board.cycles) });
  const hook = (b) => {
    const onSerial = b.cdc.onSerialData;
    b.cdc.onSerialData = (buffer) => {
      onSerial(buffer);
      if (watch) {
        seen = (seen + Buffer.from(buffer).toString('latin1')).slice(-4 * watch.text.length - 256);
        if (seen.includes(watch.text)) {
          b.stopFlag = 'text';
        }
      }
    };
    const flush = b.flushFrame.bind(b);
    b.flushFrame = (machine) => {
      const before = b.frames;
      flush(machine);
      if (b.frames !== before && watch && watch.frame) {
        b.stopFlag = 'frame';
      }
    };
  };
  hook(board);

  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (!line.trim()) {
      return;
    }
    let command;
    answering = undefined;
    try {
      command = JSON.parse(line);
    } catch (error) {
      send({ ev: 'error', message: `bad command: ${error.message}` });
      return;
    }
    answering = command.id;
    try {
      switch (command.cmd) {
        case 'run': {
          watch = command.text || command.frame ? { text: command.text || '', frame: !!command.frame } : null;
          if (watch && !watch.text) watch.text = '\u0000never\u0000';
          seen = '';
          const why = board.run(board.chip.clock.nanos + command.ns, null);
          watch = null;
          send({ ev: 'stopped', why, busy: board.busy, ...clockOf(), warnings: board.chip.logger.warnings });
          break;
        }
        case 'pin':
          inputs.set(command.gpio, !!command.value);
          board.chip.gpio[command.gpio].setInputValue(!!command.value);
          send({ ev: 'ok', ...clockOf() });
          break;
        case 'serial':
          board.serial(Buffer.from(command.data, 'latin1'));
          send({ ev: 'ok', ...clockOf() });
          break;
        case 'uart':
          board.uartReceive(command.index ? 1 : 0, Buffer.from(command.data, 'hex'));
          send({ ev: 'ok', ...clockOf() });
          break;
        case 'power_cycle':
          board = new Board(bootrom, board.flash, inputs);
          hook(board);
          send({ ev: 'ok', ...clockOf() });
          break;
        case 'read_flash': {
          const data = board.flash.subarray(command.offset, command.offset + command.length);
          send({ ev: 'ok', data: Buffer.from(data).toString('hex'), ...clockOf() });
          break;
        }
        case 'write_flash':
          board.flash.set(Buffer.from(command.data, 'hex'), command.offset);
          send({ ev: 'ok', ...clockOf() });
          break;
        case 'xip': {
          const counts = board.xip ? board.xip.counts() : null;
          if (board.xip && command.reset) {
            board.xip.reset();
          }
          send({ ev: 'ok', xip: counts, ...clockOf() });
          break;
        }
        case 'state': {
          const core = board.chip.core;
          send({
            ev: 'ok',
            pc: core.PC, lr: core.registers[14] >>> 0, mainCtrl: board.chip.usbCtrl.mainCtrl, sieCtrl: board.chip.usbCtrl.sieCtrl,
            waiting: core.waiting,
            usb: { initialized: board.cdc.initialized, out: board.cdc.outEndpoint, in: board.cdc.inEndpoint, pending: board.pendingRead },
            warnings: board.chip.logger.warnings,
            exceptions: Object.fromEntries(board.exceptions),
            timer: (() => {
              const t = board.chip.peripherals[0x40054];
              return {
                now: board.chip.clock.nanos / 1000,
                alarms: t.alarms.map((a) => [a.armed, a.targetMicros, a.clockAlarm.scheduled, a.clockAlarm.nanos / 1000]),
                intRaw: t.intRaw, intEnable: t.intEnable,
              };
            })(),
            core: { PM: core.PM, pending: core.pendingInterrupts, enabled: core.enabledInterrupts, IPSR: core.IPSR },
            ...clockOf(),
          });
          break;
        }
        case 'quit':
          send({ ev: 'ok', ...clockOf() });
          process.exit(0);
          break;
        default:
          send({ ev: 'error', message: `unknown command ${command.cmd}` });
      }
    } catch (error) {
      send({ ev: 'error', message: String(error && error.stack ? error.stack : error) });
    }
  });
  lines.on('close', () => process.exit(0));
  send({ ev: 'ready', ...clockOf() });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main();
}
