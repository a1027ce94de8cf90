// The page joining a linked game of the simulator that serves it (python -m sim --host, see
// docs/network.md and docs/web.md). The server answers GET /link/info when it hosts a game; the
// page then offers to join, opens ws://HOST:PORT/link and carries the link's bytes both ways:
// the host's first (text) message gives the page its node, binary messages carry the frames.
// The game's checks are the link's own (rolit_core.link in the page's MicroPython): bytes are
// passed on as they come. A reload mid-game asks for the same node again (kept for the tab in
// sessionStorage), and the App resumes the linked game from its save, as a handheld after a
// power cut: the host sends it the state.

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

// One WebSocket to the page's server, opened again every RETRY_MS after it drops, until a
// refusal. `onState(state, words)` hears "linked" (with the node), "lost", "refused".
export class NetLink {
  constructor(onState) {
    this.onState = onState;
    this.node = storedNode();
    this.state = "connecting";
    this.reason = "";
    this.socket = null;
    this.inbox = [];
    this.waiting = 0;
    this.retry = 0;
    this.stats = { connections: 0, bytesIn: 0, bytesOut: 0, linkedAt: null, openedAt: null };
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
    if (!this.inbox.length) return "";
    let hex = "";
    for (const bytes of this.inbox) {
      for (let i = 0; i < bytes.length; i++) hex += bytes[i].toString(16).padStart(2, "0");
    }
    this.inbox = [];
    this.waiting = 0;
    return hex;
  }

  // The link's bytes (hex from web/page.py) to the host; without a connection they go nowhere.
  send(hex) {
    if (!hex || this.state !== "linked" || this.socket?.readyState !== WebSocket.OPEN) return;
    const bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
    this.socket.send(bytes);
    this.stats.bytesOut += bytes.length;
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
