// Rolit Handheld in the browser: the unmodified rolit_core on MicroPython (WebAssembly), driven
// from requestAnimationFrame. Each frame the keys that went down or up since the last one go to
// App.update (through web/page.py); the frame it returns is drawn on the canvas, and the side
// panel is updated when what it shows changed. Computer players think a slice of search nodes
// per frame, sized so that a frame's Python work stays near THINK_BUDGET_MS: the page never
// freezes, and a computer makes the same move as on the device (work is counted in nodes).

import { Panel } from "./panel.js";
import { Keys, KEYMAP, BACK, Gamepads, bindPad } from "./input.js";
import { DATA, SOURCES } from "./sources.js";
import { opensGame, readLink, MAX_RECORD } from "./link.js";
import { NetLink, SerialLink, choosePort, hasSerial, hostInfo, storedNode } from "./net.js";
import { SEAT_RGB, moves as moveWords, prompt as promptWords, seats as seatRows, status as statusLines }
  from "./words.js";

const SAVE_KEY = "rolit-handheld.save"; // the App's save (the device's format, as hex)
const PREFS_KEY = "rolit-handheld.page"; // the page's own choices: labels, pad
const THINK_BUDGET_MS = 8;
const HEAP_BYTES = 8 << 20;
const MAX_NODES = 20000;
const CHANGED_FRAME = 1, CHANGED_INFO = 2, THINKING = 8, NODE_SHIFT = 4; // as in web/page.py
const LOG_FRAMES = 3000;

const $ = (id) => document.getElementById(id);
const params = readParams(); // the address the page was loaded with
const stats = {
  bootStart: performance.now(), // ms since the navigation began
  interpreterMs: null, // MicroPython loaded
  importMs: null, // rolit_core imported and the App made
  firstFrame: null, // ms since the navigation began when the App's first frame was drawn
  firstStatus: null, // ms since the navigation began when the side panel first showed the game's state
  frames: 0, // App updates
  draws: 0, // frames drawn (only changed frames are)
  log: [], // recent frames: [rAF time, ms in Python, 1 if a computer thought]
  moves: [], // computer moves: {level, ms (wall), computeMs, nodes}
  // The page's own clock for the network figures (bench/netpages.py): epoch ms
  // (performance.timeOrigin + performance.now(), the machine's clock, comparable across
  // processes on one machine) of each frame that took input, and of each frame whose board
  // showed a new count of moves.
  inputs: [], // [epoch ms once the frame's link bytes were sent, the keys' text]
  shown: [], // [epoch ms when the frame showed it, moves on the board]
  linkStates: [], // [epoch ms, the linked game in words] at each change
  errors: 0,
};
let shownMoves = -1;
let shownLink = null;
const panel = new Panel($("board"));
const keys = new Keys();
const gamepads = new Gamepads(keys);
let py = null; // web/page.py's functions
let nodes = 40; // search nodes per frame for a thinking computer
let rate = 0; // measured nodes per ms
let info = null; // the last side panel facts
let thought = null; // the computer move being timed
let failures = 0;
let lastError = null;
let messageTimer = 0;
let net = null; // the link's transport (web/net.js): the WebSocket to the server, or Web Serial
let seedUsed = 0;

window.rolitStarted = true;
// For the tests, the figures and the curious: read-only views of the page's state.
window.rolit = {
  stats,
  params,
  ready: null,
  info: () => info,
  journal: () => (py ? JSON.parse(py.journal()) : null),
  frame: () => (py ? py.frame() : null),
  record: () => (py ? py.record() : ""),
  net: () => (net ? { state: net.state, node: net.node, reason: net.reason, stats: net.stats } : null),
};

// -- settings from the address: ?seed=5&journal=1, #record=…&players=human,hard ----------------

// Both parts of the address at load, as one link (web/link.js checks it).
function readParams() {
  const query = readLink(location.search.slice(1), true);
  const hash = readLink(location.hash.slice(1), true);
  const values = { ...query.values };
  const problems = [...query.problems, ...hash.problems];
  for (const [key, value] of Object.entries(hash.values)) {
    if (key in values) problems.push(`${key} is given twice`);
    else values[key] = value;
  }
  return { values, problems };
}

// Open the game a link gives, or say why not. A link with any problem changes nothing.
function openLink(link) {
  const { values, problems } = link;
  if (!problems.length && opensGame(link)) {
    if (values.record !== undefined) {
      const problem = py.load_record(values.record, values.players || "");
      if (problem) problems.push(`its record: ${problem}`);
      else showMessage("The shared position loaded: play on from its last move.", "info", 6000);
    } else {
      const problem = py.begin(values.players, (values.size || "8").trim());
      if (problem) problems.push(`its players: ${problem}`);
    }
  }
  if (problems.length) showMessage(`This link could not be opened: ${problems.join("; ")}.`, "error");
}

// A link typed into the address bar of the open page changes only its #: no reload happens.
function followHash() {
  if (!py || !location.hash) return;
  openLink(readLink(location.hash.slice(1), false));
  history.replaceState(null, "", location.pathname + location.search);
}

// -- the page's own preferences ----------------------------------------------------------------

function loadPrefs() {
  let text = null;
  try {
    text = localStorage.getItem(PREFS_KEY);
  } catch (error) {
    return { labels: true, pad: null };
  }
  if (text === null) return { labels: true, pad: null };
  try {
    const prefs = JSON.parse(text);
    if (typeof prefs !== "object" || prefs === null) throw new Error("not a set of choices");
    if (typeof prefs.labels !== "boolean" || ![true, false, null].includes(prefs.pad) ||
        ![true, false, undefined].includes(prefs.howto)) throw new Error("bad values");
    return prefs;
  } catch (error) {
    showMessage(`The page's preferences were damaged (${error.message}) and are reset.`, "warn");
    return { labels: true, pad: null };
  }
}

function savePrefs() {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch (error) {
    showMessage(`Could not keep the page's preferences: ${error.message}`, "warn");
  }
}

const prefs = loadPrefs();
panel.showLabels = prefs.labels;

// -- the App's storage: localStorage, one key, written whole or not at all ----------------------

function readSave() {
  try {
    return localStorage.getItem(SAVE_KEY);
  } catch (error) {
    return null; // storage blocked: nothing saved; saving will say so
  }
}

function writeSave(text) {
  // setItem stores the whole value or throws and keeps the old one (quota, blocked storage).
  // The failure goes back as text: web/page.py raises it in Python, where the App reports it.
  try {
    localStorage.setItem(SAVE_KEY, text);
    return localStorage.getItem(SAVE_KEY) === text ? "" : "the browser did not keep it";
  } catch (error) {
    return `${error.name}: ${error.message}`;
  }
}

// -- layout -------------------------------------------------------------------------------------

// The board: the largest square in the stage, centred, on whole CSS pixels (so its pixels are
// the screen's pixels, not a resampled picture).
function fitBoard() {
  const stage = $("stage");
  const box = stage.getBoundingClientRect();
  const size = Math.floor(Math.min(stage.clientWidth, stage.clientHeight));
  if (size <= 0) return;
  const canvas = panel.canvas;
  canvas.style.left = `${Math.round(box.left + (box.width - size) / 2) - box.left}px`;
  canvas.style.top = `${Math.round(box.top + (box.height - size) / 2) - box.top}px`;
  if (size !== panel.cssSize || window.devicePixelRatio !== panel.dpr) {
    panel.dpr = window.devicePixelRatio;
    panel.resize(size, window.devicePixelRatio || 1);
  }
}

function setPad(on) {
  document.body.classList.toggle("show-pad", on);
  $("padtoggle").setAttribute("aria-pressed", String(on));
  fitBoard();
}

function setPresenting(on) {
  document.body.classList.toggle("present", on);
  $("present").setAttribute("aria-pressed", String(on));
  if (on && document.documentElement.requestFullscreen && !document.fullscreenElement) {
    document.documentElement.requestFullscreen().catch(() => {}); // refused: the page still fills the window
  } else if (!on && document.fullscreenElement) {
    document.exitFullscreen().catch(() => {});
  }
  fitBoard();
}

// -- the first visit's how-to-play (sim/howto.py's pages) ---------------------------------------

let howto = null; // { pages, at } while it is open

function openHowto() {
  howto = { pages: JSON.parse(py.howto()), at: 0 };
  $("howto").hidden = false;
  showHowtoPage();
  $("howto-next").focus();
}

function showHowtoPage() {
  const page = howto.pages[howto.at];
  $("howto-title").textContent = page.title;
  $("howto-text").textContent = page.text;
  $("howto-closing").textContent = page.closing || "";
  $("howto-closing").hidden = !page.closing;
  const last = howto.at === howto.pages.length - 1;
  $("howto-next").textContent = last ? "Play with hints" : "Next";
  $("howto-skip").textContent = last ? "Play without" : "Skip";
  $("howto-back").disabled = howto.at === 0;
  const side = Math.max(120, Math.min(320, Math.floor(Math.min(window.innerWidth * 0.36, window.innerHeight * 0.36))));
  for (const [id, hex] of [["howto-before", page.before], ["howto-after", page.after]]) {
    const canvas = $(id);
    canvas.hidden = !hex;
    if (!hex) continue;
    const picture = new Panel(canvas);
    picture.resize(side, window.devicePixelRatio || 1);
    picture.setLabels(8);
    picture.draw(frameBytes(hex));
  }
  $("howto-arrow").hidden = !page.after;
}

function turnHowto(step) {
  const at = howto.at + step;
  if (at >= howto.pages.length) closeHowto(true);
  else if (at >= 0) {
    howto.at = at;
    showHowtoPage();
  }
}

// Shown once: closing it (either way) is remembered with the page's preferences.
function closeHowto(hints) {
  $("howto").hidden = true;
  howto = null;
  prefs.howto = true;
  savePrefs();
  if (hints) {
    py.hints_on();
    showMessage("Hints are on: the dim dots show where you may play (the menu turns them off).", "info", 8000);
  }
}

function howtoKey(event) {
  if (event.repeat) return;
  if (["Enter", "Space", "ArrowRight", "NumpadEnter", "KeyD"].includes(event.code)) turnHowto(1);
  else if (["ArrowLeft", "KeyA"].includes(event.code)) turnHowto(-1);
  else if (["Escape", "Backspace"].includes(event.code)) closeHowto(false);
}

function bindHowto() {
  $("howto-next").addEventListener("click", () => turnHowto(1));
  $("howto-back").addEventListener("click", () => turnHowto(-1));
  $("howto-skip").addEventListener("click", () => closeHowto(false));
}

// -- input --------------------------------------------------------------------------------------

function bindInput() {
  window.addEventListener("keydown", (event) => {
    if (howto) {
      event.preventDefault(); // the game behind waits
      howtoKey(event);
      return;
    }
    if (event.target.closest?.("input, textarea")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = KEYMAP[event.code];
    if (key !== undefined) {
      event.preventDefault();
      if (!event.repeat) keys.press(`key:${event.code}`, key);
    } else if (event.code === "KeyF" && !event.repeat) {
      setPresenting(!document.body.classList.contains("present"));
    } else if (event.code === "KeyL" && !event.repeat) {
      toggleLabels();
    }
  });
  window.addEventListener("keyup", (event) => keys.release(`key:${event.code}`));
  window.addEventListener("blur", () => keys.releaseAll()); // a key let go elsewhere must not stay held
  document.addEventListener("visibilitychange", () => keys.releaseAll());

  const canvas = panel.canvas;
  canvas.addEventListener("pointerdown", (event) => {
    event.preventDefault();
    canvas.setPointerCapture?.(event.pointerId);
    const box = canvas.getBoundingClientRect();
    if (event.button === 2) {
      keys.press(`back:${event.pointerId}`, BACK); // right button: BACK, held for the pause menu
      return;
    }
    const led = panel.ledAt(event.clientX - box.left, event.clientY - box.top);
    if (led) keys.tap(`pointer:${event.pointerId}`, led[0], led[1]);
  });
  const up = (event) => {
    keys.release(`pointer:${event.pointerId}`);
    keys.release(`back:${event.pointerId}`);
  };
  for (const name of ["pointerup", "pointercancel", "lostpointercapture"]) canvas.addEventListener(name, up);
  canvas.addEventListener("contextmenu", (event) => event.preventDefault());
  bindPad($("pad"), keys);
}

// -- the side panel -----------------------------------------------------------------------------

function showInfo(next) {
  if (stats.firstStatus === null) stats.firstStatus = performance.now();
  const previous = info;
  info = next;
  const game = next.game;
  panel.setLabels(game && next.mode === "play" ? game.size : null);
  const lines = statusLines(next);
  const prompt = promptWords(next);
  $("status").replaceChildren(...lines.map((line) => element("span", line)));
  $("prompt").textContent = prompt || "";
  $("prompt").hidden = !prompt;
  $("seats").replaceChildren(...seatList(next));
  // Presentation mode's banner, read from the back of the room: whose turn, the scores, the keys.
  $("banner").replaceChildren(element("p", lines[0]), seatList(next, "ul"),
    ...(prompt ? [element("p", prompt)] : []));
  const list = moveWords(next);
  const shown = $("moves");
  if (list.length !== shown.children.length || !previous?.game !== !game) {
    shown.replaceChildren(...list.map((text, i) => element("li", `${i + 1}. ${text}`)));
    shown.scrollTop = shown.scrollHeight;
  }
  reportErrors(previous, next);
}

// The seats as list items (or, with `tag`, one list of them): dots, name, points, to move.
function seatList(info, tag) {
  const rows = seatRows(info).map((seat) => {
    const row = element("li", "");
    row.classList.toggle("to-move", seat.toMove);
    for (const colour of seat.colours) {
      const dot = element("span", "");
      dot.className = "dot";
      dot.style.background = SEAT_RGB[colour];
      row.append(dot);
    }
    row.append(element("span", seat.label), element("b", String(seat.points)));
    return row;
  });
  if (!tag) return rows;
  const list = element(tag, "");
  list.className = "seats";
  list.append(...rows);
  return list;
}

function reportErrors(previous, next) {
  if (next.error && next.error !== previous?.error) {
    if (next.error.startsWith("storage failed to save")) {
      showMessage(`Could not save the game in this browser (${next.error.replace(/^storage failed to save: /, "")}). ` +
        "Playing on; download the record to keep it.", "error");
    } else {
      showMessage(`The saved game could not be read (${next.error}): starting fresh.`, "error");
    }
  } else if (previous?.error && next.error === previous.error && next.saves > previous.saves &&
             $("message").dataset.kind === "error" && next.error.startsWith("storage failed to save")) {
    showMessage("Saved again.", "info", 3000);
  }
  if (next.reason && next.reason !== previous?.reason) showMessage(next.reason, "info", 3000);
  if (next.notice && next.notices !== previous?.notices) showMessage(next.notice, "info", 4000); // a click's
}

function element(tag, text) {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

function showMessage(text, kind = "info", ms = 0) {
  const box = $("message");
  box.textContent = text;
  box.dataset.kind = kind;
  box.hidden = false;
  clearTimeout(messageTimer);
  if (ms) messageTimer = setTimeout(() => { box.hidden = true; }, ms);
  if (kind !== "info") console.warn(`rolit: ${text}`);
}

// -- tools: records, links, presentation --------------------------------------------------------

function downloadRecord() {
  const text = py?.record();
  if (!text) {
    showMessage("There is no game on the board to save yet.", "info", 3000);
    return;
  }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = `rolit-${new Date().toISOString().slice(0, 16).replace(/[T:]/g, "-")}.txt`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

function loadRecordText(text, players, what) {
  const problem = py.load_record(text, players || "");
  if (problem) showMessage(`${what} could not be loaded: ${problem}`, "error");
  else showMessage(`${what} loaded: play on from its last move.`, "info", 6000);
  return !problem;
}

async function uploadRecord(event) {
  const file = event.target.files[0];
  event.target.value = "";
  if (!file || !py) return;
  if (file.size > MAX_RECORD) {
    showMessage(`${file.name} is too big to be a game record.`, "error");
    return;
  }
  let text;
  try {
    text = await file.text();
  } catch (error) {
    showMessage(`${file.name} could not be read: ${error.message}`, "error");
    return;
  }
  loadRecordText(text, "", file.name);
}

// A link to the position on the board: the record, short (no comments, the moves on one
// line), in the address's #record=. The same parser reads it back.
function shareLink() {
  const text = py?.record();
  if (!text) {
    showMessage("There is no game on the board to share yet.", "info", 3000);
    return;
  }
  const header = [], moves = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*/, "").trim();
    if (!line) continue;
    if (/^\d+\.\s/.test(line)) moves.push(line.replace(/^\d+\.\s*/, ""));
    else header.push(line);
  }
  const compact = [...header, moves.join(",")].join("\n");
  const query = new URLSearchParams({ record: compact }).toString().replace(/%3A/g, ":").replace(/%2C/g, ",");
  const link = `${location.href.split("#")[0]}#${query}`;
  const done = () => showMessage("Link copied: it opens this position.", "info", 4000);
  const show = () => {
    const box = $("message");
    box.replaceChildren(element("span", "The link to this position: "));
    const field = document.createElement("input");
    field.value = link;
    field.readOnly = true;
    box.append(field);
    box.dataset.kind = "info";
    box.hidden = false;
    field.select();
  };
  if (navigator.clipboard?.writeText) navigator.clipboard.writeText(link).then(done, show);
  else show();
}

function toggleLabels() {
  prefs.labels = !prefs.labels;
  panel.showLabels = prefs.labels;
  panel.setLabels(info?.game && info.mode === "play" ? info.game.size : null);
  $("labels").setAttribute("aria-pressed", String(prefs.labels));
  savePrefs();
}

function bindTools() {
  $("download").addEventListener("click", downloadRecord);
  $("upload").addEventListener("change", uploadRecord);
  $("share").addEventListener("click", shareLink);
  $("present").addEventListener("click", () => setPresenting(!document.body.classList.contains("present")));
  $("leave").addEventListener("click", () => setPresenting(false));
  $("labels").addEventListener("click", toggleLabels);
  $("labels").setAttribute("aria-pressed", String(prefs.labels));
  $("padtoggle").addEventListener("click", () => {
    prefs.pad = !document.body.classList.contains("show-pad");
    savePrefs();
    setPad(prefs.pad);
  });
  // Tool buttons must not keep the keyboard focus: Enter and Space are SELECT.
  for (const button of document.querySelectorAll(".tools button")) {
    button.addEventListener("mouseup", () => button.blur());
  }
}

// -- the frame loop -----------------------------------------------------------------------------

function frameBytes(hex) {
  const bytes = new Uint8Array(192);
  for (let i = 0; i < 192; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
  return bytes;
}

function tick(time) {
  requestAnimationFrame(tick);
  gamepads.poll();
  const began = performance.now();
  let result;
  try {
    if (net) {
      const came = net.take(); // the host's bytes first, so this frame sees them
      if (came) py.link_in(came, Math.floor(time));
    }
    const input = keys.take();
    result = py.step(Math.floor(time), input, nodes);
    if (net) net.send(py.link_out());
    if (input) keep(stats.inputs, [performance.timeOrigin + performance.now(), input]);
    failures = 0;
  } catch (error) {
    stats.errors++;
    if (failures++ === 0 || String(error) !== lastError) {
      lastError = String(error);
      console.error(error);
      showMessage(`Something went wrong in the game (${error.message.split("\n").pop()}). It goes on.`, "error");
    }
    return;
  }
  const ms = performance.now() - began;
  const used = result >> NODE_SHIFT;
  const thinking = (result & THINKING) !== 0;
  if (used >= nodes / 2) {
    // The search used (most of) its slice: adjust the slice to the budget, at most doubling.
    const measured = used / Math.max(ms, 0.25);
    rate = rate ? rate * 0.7 + measured * 0.3 : measured;
    nodes = Math.max(10, Math.min(MAX_NODES, 2 * nodes, Math.floor(rate * THINK_BUDGET_MS)));
  }
  if (result & CHANGED_INFO) {
    showInfo(JSON.parse(py.info()));
    const count = info?.game ? info.game.moves.length : -1;
    if (count !== shownMoves) {
      shownMoves = count;
      keep(stats.shown, [performance.timeOrigin + performance.now(), count]);
    }
    const words = info?.link ?? null;
    if (words !== shownLink) {
      shownLink = words;
      keep(stats.linkStates, [performance.timeOrigin + performance.now(), words]);
    }
  }
  timeMove(thinking, used, ms, time);
  if (result & CHANGED_FRAME) {
    panel.draw(frameBytes(py.frame()));
    stats.draws++;
    if (stats.firstFrame === null) {
      stats.firstFrame = performance.now();
      document.body.classList.add("running");
    }
  }
  stats.frames++;
  stats.log.push([time, ms, thinking ? 1 : 0]);
  if (stats.log.length > LOG_FRAMES) stats.log.splice(0, stats.log.length - LOG_FRAMES);
}

function keep(list, entry) {
  list.push(entry);
  if (list.length > LOG_FRAMES) list.splice(0, list.length - LOG_FRAMES);
}

// Time each computer move: from its first thinking frame to its last.
function timeMove(thinking, used, ms, time) {
  if (thinking) {
    if (!thought) {
      const game = info?.game;
      const seat = game ? game.seat_colours.findIndex((colours) => colours.includes(game.turn)) : -1;
      thought = { level: seat >= 0 ? game.kinds[seat] : "?", start: time, computeMs: 0, nodes: 0 };
    }
    thought.computeMs += ms;
    thought.nodes += used;
    thought.end = time;
  } else if (thought) {
    stats.moves.push({ level: thought.level, ms: thought.end - thought.start, computeMs: thought.computeMs,
                       nodes: thought.nodes });
    thought = null;
  }
}

// -- start --------------------------------------------------------------------------------------

function randomSeed() {
  const words = new Uint32Array(1);
  crypto.getRandomValues(words);
  return words[0] & 0x3fffffff;
}

function copySources(FS) {
  for (const [path, text] of Object.entries(SOURCES)) {
    const at = path.lastIndexOf("/");
    if (at > 0) FS.mkdirTree(`/rolit/${path.slice(0, at)}`);
    FS.writeFile(`/rolit/${path}`, text);
  }
  // The data files (the opening book), base64 in sources.js, as bytes.
  for (const [path, text] of Object.entries(DATA)) {
    const at = path.lastIndexOf("/");
    if (at > 0) FS.mkdirTree(`/rolit/${path.slice(0, at)}`);
    FS.writeFile(`/rolit/${path}`, Uint8Array.from(atob(text), (c) => c.charCodeAt(0)));
  }
}

// -- a linked game of the server's (python -m sim --host serves the page) -------------------------

// The page's App gets a link (made again from the save, which resumes a linked game in it), and
// the WebSocket opens; once the host gives a node the App joins from the menu's linked page.
function joinServer() {
  if (net) return;
  $("serial").disabled = true;
  py.start(readSave, writeSave, seedUsed, params.values.journal?.trim() === "1", true);
  net = new NetLink(netState);
  net.open();
  $("join").disabled = true;
  $("join").textContent = "Joining…";
}

// A handheld on a serial port (Web Serial): the browser's chooser, then the port is the cable.
// The page's App gets a link as for the server's game; then its menu hosts (a seat "link") or
// joins (the menu's last page), as on a handheld.
async function linkSerial() {
  if (net) return;
  const button = $("serial");
  button.disabled = true;
  const port = await choosePort();
  if (!port) {
    button.disabled = false;
    showMessage("No serial port was chosen.", "warn", 4000);
    return;
  }
  if (net) return;
  py.start(readSave, writeSave, seedUsed, params.values.journal?.trim() === "1", true);
  net = new SerialLink(port, serialState);
  $("join").disabled = true;
  button.textContent = "Opening the port…";
  net.open();
}

function serialState(state, words) {
  const button = $("serial");
  if (state === "linked") {
    button.textContent = "Linked over USB";
    showMessage("A handheld is linked over USB: host with a 'link' seat in the menu, or join " +
                "from the menu's last page.", "info", 6000);
  } else if (state === "lost") {
    button.textContent = "USB: trying again…";
    showMessage(`The USB link dropped (${words}): trying again.`, "warn", 4000);
  }
}

function netState(state, words) {
  const button = $("join");
  if (state === "linked") {
    const problem = py.join();
    if (problem) showMessage(`Could not join: ${problem}.`, "error");
    button.textContent = `Joined (node ${words})`;
  } else if (state === "lost") {
    button.textContent = "Joining again…";
    showMessage(`The connection to the host dropped (${words}): trying again.`, "warn", 4000);
  } else if (state === "refused") {
    button.textContent = "Refused";
    showMessage(`The host refused: ${words}.`, "error");
  }
}

async function boot() {
  const hosting = hostInfo(); // asked while the interpreter loads
  bindInput();
  bindTools();
  bindHowto();
  setPad(prefs.pad ?? (window.matchMedia("(any-pointer: coarse)").matches || navigator.maxTouchPoints > 0));
  new ResizeObserver(fitBoard).observe($("stage"));
  window.addEventListener("resize", fitBoard);
  fitBoard();
  panel.draw(null);
  const { loadMicroPython } = await import("./micropython.mjs");
  const url = window.ROLIT_WASM || new URL("micropython.wasm", import.meta.url).href;
  const mp = await loadMicroPython({
    url, heapsize: HEAP_BYTES,
    stdout: (line) => console.log(line), stderr: (line) => console.error(line),
  });
  stats.interpreterMs = performance.now() - stats.bootStart;
  mp.FS.mkdirTree("/rolit");
  copySources(mp.FS);
  mp.runPython("import sys\nsys.path.insert(0, '/rolit')");
  py = mp.pyimport("page");
  const { seed: seedText, journal } = params.values;
  const seed = seedText !== undefined ? Number(seedText) & 0x3fffffff : randomSeed();
  seedUsed = seed;
  const served = await hosting;
  // A reload mid-game: this tab was linked to its server's game, so it rejoins as that node.
  const rejoin = served !== null && storedNode() !== null;
  py.start(readSave, writeSave, seed, journal?.trim() === "1", rejoin);
  if (hasSerial() && !rejoin) {
    $("serial").hidden = false;
    $("serial").addEventListener("click", linkSerial);
  }
  if (served) {
    $("join").hidden = false;
    $("join").addEventListener("click", joinServer);
    if (rejoin) {
      net = new NetLink(netState);
      net.open();
      $("join").disabled = true;
      $("join").textContent = "Joining again…";
    }
  }
  stats.importMs = performance.now() - stats.bootStart - stats.interpreterMs;
  stats.seed = seed;
  openLink(params);
  if (location.hash) history.replaceState(null, "", location.pathname + location.search); // a reload resumes
  window.addEventListener("hashchange", followHash);
  if (!prefs.howto) openHowto();
  requestAnimationFrame(tick);
}

window.rolit.ready = boot().catch((error) => {
  console.error(error);
  $("status").textContent = `The game could not start in this browser: ${error.message}`;
  throw error;
});
