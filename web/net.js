// The page's link transports. The page's App speaks the link protocol itself (rolit_core.link in
// the page's MicroPython); a transport only carries its bytes. Both have one small interface,
// all main.js uses:
//   open()      start (again), in the background; `onState(state, words)` hears "linked",
//               "lost" (it tries again every RETRY_MS) and "refused" (for good)
//   take()      the bytes that came since the last frame, as hex ("" for none)
//   send(hex)   the link's bytes out; without a connection they go nowhere
//   close()     let go for good
//   state, node, reason, stats   what the page shows and the tests read
//
// NetLink: a linked game of the simulator that serves the page (python -m sim --host, see
// docs/network.md and docs/web.md). The server answers GET /link/info when it hosts a game; the
// page then offers to join, opens ws://HOST:PORT/link and carries the link's bytes both ways:
// the host's first (text) message gives the page its node, binary messages carry the frames.
// The game's checks are the link's own: bytes are passed on as they come. A reload mid-game
// asks for the same node again (kept for the tab in sessionStorage), and the App resumes the
// linked game from its save, as a handheld after a power cut: the host sends it the state.
//
// SerialLink: a handheld on a serial port over Web Serial (navigator.serial, Chromium-based
// browsers, on https or localhost): its USB data channel (python -m sim.deploy --usb-link) or a
// USB-serial adapter on its link pins. A serial line is a cable, not a hub: no greeting, no
// node from a server; the page is one more handheld on it, and its menu hosts (a seat "link")
// or joins (the menu's last page), as a handheld's does.

export const NODE_KEY = "rolit-handheld.node"; // this tab's node in the server's game
const INFO_PATH = "link/info";
const LINK_PATH = "link";
const RETRY_MS = 1000; // as sim.net's joiner
const MAX_WAITING = 16384; // bytes from the host waiting for the next frame: more are a flood

// Whether the page's server hosts a linked game: its /link/info, or null (no server, a plain
// file server, another program). The page's own address is asked first (HEAD: any server
// answers it, so nothing fails in the console): a hosting simulator's answers say
// X-Rolit-Link.
export async function hostInfo(fetcher = fetch) {
  if (!/^https?:$/.test(location.protocol)) return null;
  try {
    const here = await fetcher(location.href.split("#")[0], { method: "HEAD", cache: "no-store" });
    if (here.headers.get("X-Rolit-Link") !== "1") return null;
    const reply = await fetcher(new URL(INFO_PATH, location.href), { cache: "no-store" });
    if (!reply.ok) return null;
    const info = await reply.json();
    return info && info.rolit_link === 1 ? info : null;
  } catch (error) {
    return null;
  }
}

export function storedNode() {
  try {
    const text = sessionStorage.getItem(NODE_KEY);
    return /^[123]$/.test(text || "") ? Number(text) : null;
  } catch (error) {
    return null;
  }
}

function keepNode(node) {
  try {
    if (node === null) sessionStorage.removeItem(NODE_KEY);
    else sessionStorage.setItem(NODE_KEY, String(node));
  } catch (error) {
    // storage blocked: a reload joins as a new player, and the host's state still resyncs it
  }
}

// What both transports share: the bytes heard since the last frame, and the state a dropped
// connection leaves behind (tried again every RETRY_MS by the transport's own open()).
class Transport {
  constructor(onState, node) {
    this.onState = onState;
    this.node = node;
    this.state = "connecting";
    this.reason = "";
    this.inbox = [];
    this.waiting = 0;
    this.retry = 0;
  }

  _lost(words) {
    this.state = "lost";
    this.reason = words;
    this.inbox = [];
    this.waiting = 0;
    this.onState("lost", words);
    this.retry = setTimeout(() => this.open(), RETRY_MS);
  }

  // What came since the last frame, as hex for web/page.py ("" for nothing).
  take() {
    const hex = toHex(this.inbox);
    this.inbox = [];
    this.waiting = 0;
    return hex;
  }
}

// One WebSocket to the page's server, opened again every RETRY_MS after it drops, until a
// refusal. `onState(state, words)` hears "linked" (with the node), "lost", "refused".
export class NetLink extends Transport {
  constructor(onState) {
    super(onState, storedNode());
    this.socket = null;
    // messagesIn/Out: binary WebSocket messages, each with its frame header on the wire (2 bytes
    // from the server, 6 masked ones from the page, for messages under 126 bytes)
    this.stats = { connections: 0, bytesIn: 0, bytesOut: 0, messagesIn: 0, messagesOut: 0,
                   linkedAt: null, openedAt: null };
  }

  open() {
    clearTimeout(this.retry);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const url = new URL(LINK_PATH, location.href);
    url.protocol = scheme;
    if (this.node !== null) url.search = `?node=${this.node}`;
    let socket;
    try {
      socket = new WebSocket(url.href);
    } catch (error) {
      this._lost(error.message);
      return;
    }
    this.socket = socket;
    this.state = "connecting";
    this.stats.connections++;
    this.stats.openedAt = performance.now();
    socket.binaryType = "arraybuffer";
    socket.addEventListener("message", (event) => this._message(socket, event));
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.state === "refused") return;
      this._lost(event.reason || "the connection closed");
    });
  }

  _message(socket, event) {
    if (this.socket !== socket) return;
    if (typeof event.data === "string") {
      const parts = event.data.trim().split(" ");
      if (parts[0] === "ROLIT-LINK" && parts[2] === "node" && /^[123]$/.test(parts[3] || "")) {
        this.node = Number(parts[3]);
        keepNode(this.node);
        this.state = "linked";
        this.stats.linkedAt = performance.now();
        this.onState("linked", this.node);
      } else if (parts[0] === "ROLIT-LINK" && parts[2] === "refused") {
        const words = parts.slice(3).join(" ");
        if (/still linked/.test(words)) {
          // A reload: the hub has not yet heard the old page's socket close (or, for a tab
          // that crashed, waits out its silence). Asked again, the node is given back.
          this.socket = null;
          socket.close();
          this._lost(words);
          return;
        }
        this.state = "refused";
        this.reason = words;
        this.onState("refused", this.reason);
        socket.close();
      }
      return;
    }
    if (this.state !== "linked") return;
    const bytes = new Uint8Array(event.data);
    if (this.waiting + bytes.length > MAX_WAITING) return; // dropped, as a full UART's
    this.inbox.push(bytes);
    this.waiting += bytes.length;
    this.stats.bytesIn += bytes.length;
    this.stats.messagesIn++;
  }

  // The link's bytes (hex from web/page.py) to the host; without a connection they go nowhere.
  send(hex) {
    if (!hex || this.state !== "linked" || this.socket?.readyState !== WebSocket.OPEN) return;
    const bytes = fromHex(hex);
    this.socket.send(bytes);
    this.stats.bytesOut += bytes.length;
    this.stats.messagesOut++;
  }

  // Leave the server's game for good (the tab forgets its node).
  close() {
    clearTimeout(this.retry);
    this.state = "refused";
    keepNode(null);
    this.node = null;
    if (this.socket) this.socket.close();
    this.socket = null;
  }
}

function toHex(chunks) {
  let hex = "";
  for (const bytes of chunks) {
    for (let i = 0; i < bytes.length; i++) hex += bytes[i].toString(16).padStart(2, "0");
  }
  return hex;
}

function fromHex(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
  return bytes;
}

export const SERIAL_BAUD = 115200; // the cable's default (hardware.uartlink); USB ignores it

// Whether this browser can link over Web Serial (Chromium-based, a secure context).
export function hasSerial() {
  return typeof navigator !== "undefined" && !!navigator.serial &&
    typeof navigator.serial.requestPort === "function";
}

// Ask the user for the port (the browser's chooser; needs a click), or null if none was chosen.
export async function choosePort(serial = navigator.serial) {
  try {
    return await serial.requestPort();
  } catch (error) {
    return null; // the chooser closed without a port (NotFoundError), or not allowed here
  }
}

// One serial port (a Web Serial SerialPort), opened again every RETRY_MS after it drops (the
// handheld reset or was unplugged), until close(). "linked" means the port is open: what the
// handheld's link says is then heard, and the game decides the rest. The node is the game's.
export class SerialLink extends Transport {
  constructor(port, onState) {
    super(onState, null);
    this.port = port;
    this.writing = 0; // bytes handed to the port and not yet written
    this.reader = null;
    this.writer = null;
    this.opened = false;
    this.stats = { connections: 0, bytesIn: 0, bytesOut: 0, linkedAt: null, openedAt: null,
                   kind: "serial" };
  }

  async open() {
    clearTimeout(this.retry);
    if (this.state === "closed") return;
    this.stats.openedAt = performance.now();
    try {
      if (!this.opened) {
        await this.port.open({ baudRate: SERIAL_BAUD });
        this.opened = true;
      }
      // A USB data channel sends only while a program holds it open: DTR says so (usb_cdc's
      // `connected`). An adapter on the link pins ignores it.
      try {
        await this.port.setSignals({ dataTerminalReady: true });
      } catch (error) {
        // a port without control lines
      }
      this.writer = this.port.writable.getWriter();
      this.reader = this.port.readable.getReader();
    } catch (error) {
      await this._drop(serialWords(error));
      return;
    }
    this.state = "linked";
    this.reason = "";
    this.stats.connections++;
    this.stats.linkedAt = performance.now();
    this.onState("linked", "");
    this._read(this.reader);
  }

  async _read(reader) {
    let words = "the port closed";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (!value || !value.length || this.state !== "linked") continue;
        if (this.waiting + value.length > MAX_WAITING) continue; // dropped, as a full UART's
        this.inbox.push(value);
        this.waiting += value.length;
        this.stats.bytesIn += value.length;
      }
    } catch (error) {
      words = serialWords(error);
    }
    if (this.reader === reader) await this._drop(words);
  }

  async _drop(words) {
    const { reader, writer } = this;
    this.reader = this.writer = null;
    for (const part of [reader, writer]) {
      try {
        part?.releaseLock();
      } catch (error) {
        // a pending read or write: the port's close below ends it
      }
    }
    if (this.opened) {
      this.opened = false;
      try {
        await this.port.close();
      } catch (error) {
        // an unplugged port closes itself
      }
    }
    if (this.state === "closed") return;
    this.writing = 0;
    this._lost(words);
  }

  send(hex) {
    if (!hex || this.state !== "linked" || !this.writer) return;
    const bytes = fromHex(hex);
    if (this.writing + bytes.length > MAX_WAITING) return; // the port does not take them
    this.writing += bytes.length;
    const writer = this.writer;
    writer.write(bytes).then(() => {
      this.writing = Math.max(0, this.writing - bytes.length);
      this.stats.bytesOut += bytes.length;
    }, (error) => {
      if (this.writer === writer) this._drop(serialWords(error));
    });
  }

  close() {
    clearTimeout(this.retry);
    this.state = "closed";
    const reader = this.reader;
    this.reader = null;
    reader?.cancel().catch(() => {});
    this._drop("closed");
  }
}

// A Web Serial error in a few words.
function serialWords(error) {
  const name = error?.name || "";
  if (name === "NetworkError") return "the handheld went away (unplugged or reset?)";
  if (name === "InvalidStateError") return "the port is already open (another tab or program?)";
  if (name === "SecurityError") return "this page may not use serial ports";
  return (error?.message || String(error)).replace(/\.$/, "").toLowerCase();
}
