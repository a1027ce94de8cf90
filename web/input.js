// Keys in: the keyboard, a mouse or a finger on the board, the on-screen pad and game
// controllers all become the handheld's six keys going down and up, as the device's buttons
// do. Holding needs nothing more: the App repeats held directions, previews on a held SELECT
// and opens the pause menu on a held BACK itself.

export const UP = 0, DOWN = 1, LEFT = 2, RIGHT = 3, SELECT = 4, BACK = 5;

// The simulator's keys: arrows/WASD (and the keypad), Enter/Space, Esc/Backspace.
export const KEYMAP = {
  ArrowUp: UP, KeyW: UP, Numpad8: UP,
  ArrowDown: DOWN, KeyS: DOWN, Numpad2: DOWN,
  ArrowLeft: LEFT, KeyA: LEFT, Numpad4: LEFT,
  ArrowRight: RIGHT, KeyD: RIGHT, Numpad6: RIGHT,
  Enter: SELECT, Space: SELECT, NumpadEnter: SELECT,
  Escape: BACK, Backspace: BACK,
};

// Game-key state from several sources at once (two keys, a finger, a pad for the same game
// key): a game key goes down when its first source does and up when its last one lets go.
// The events since the last frame are text for web/page.py: per event the key's digit and
// "d" or "u", and "@xy" for a tap on LED column x, row y.
export class Keys {
  constructor() {
    this.sources = new Map(); // source -> game key
    this.text = "";
  }

  held(key) {
    for (const k of this.sources.values()) if (k === key) return true;
    return false;
  }

  press(source, key) {
    if (this.sources.has(source)) return;
    if (!this.held(key)) this.text += `${key}d`;
    this.sources.set(source, key);
  }

  release(source) {
    if (!this.sources.has(source)) return;
    const key = this.sources.get(source);
    this.sources.delete(source);
    if (!this.held(key)) this.text += `${key}u`;
  }

  releaseAll() {
    for (const source of [...this.sources.keys()]) this.release(source);
  }

  // A tap on LED (x, y): the page's Python walks the cursor there and presses SELECT; SELECT
  // comes up when `source` lets go, so a long press previews like a held SELECT.
  tap(source, x, y) {
    if (this.sources.has(source) || this.held(SELECT)) return;
    this.text += `@${x}${y}`;
    this.sources.set(source, SELECT);
  }

  take() {
    const text = this.text;
    this.text = "";
    return text;
  }
}

// The on-screen pad: every button with a data-key attribute is that key while a finger or the
// mouse holds it.
export function bindPad(element, keys) {
  const down = (event) => {
    const button = event.target.closest("[data-key]");
    if (!button) return;
    event.preventDefault();
    button.setPointerCapture?.(event.pointerId);
    button.classList.add("held");
    keys.press(`pad:${event.pointerId}`, Number(button.dataset.key));
  };
  const up = (event) => {
    const button = event.target.closest("[data-key]");
    button?.classList.remove("held");
    keys.release(`pad:${event.pointerId}`);
  };
  element.addEventListener("pointerdown", down);
  for (const name of ["pointerup", "pointercancel", "lostpointercapture"]) element.addEventListener(name, up);
  element.addEventListener("contextmenu", (event) => event.preventDefault());
}

// Game controllers (the Gamepad API, polled every frame): the d-pad or the left stick move,
// button A (0) is SELECT and B (1) is BACK, as in the simulator.
const PAD_BUTTONS = [[12, UP], [13, DOWN], [14, LEFT], [15, RIGHT], [0, SELECT], [1, BACK]];

export class Gamepads {
  constructor(keys) {
    this.keys = keys;
    this.stick = new Map(); // pad index -> [x, y] as -1, 0, 1
    this.connected = new Set();
  }

  poll() {
    const pads = navigator.getGamepads ? navigator.getGamepads() : [];
    const seen = new Set();
    for (const pad of pads) {
      if (!pad || !pad.connected) continue;
      seen.add(pad.index);
      for (const [button, key] of PAD_BUTTONS) {
        const source = `gamepad:${pad.index}:b${button}`;
        if (pad.buttons[button]?.pressed) this.keys.press(source, key);
        else this.keys.release(source);
      }
      const state = this.stick.get(pad.index) || [0, 0];
      for (const axis of [0, 1]) {
        const value = pad.axes[axis] || 0;
        const old = state[axis];
        // Hysteresis: on past 0.5, off again inside 0.3.
        if (value > 0.5 || (old > 0 && value > 0.3)) state[axis] = 1;
        else if (value < -0.5 || (old < 0 && value < -0.3)) state[axis] = -1;
        else state[axis] = 0;
      }
      this.stick.set(pad.index, state);
      const [x, y] = state;
      for (const [key, on] of [[LEFT, x < 0], [RIGHT, x > 0], [UP, y < 0], [DOWN, y > 0]]) {
        const source = `gamepad:${pad.index}:stick${key}`;
        if (on) this.keys.press(source, key);
        else this.keys.release(source);
      }
    }
    for (const index of this.connected) {
      if (!seen.has(index)) {
        for (const source of [...this.keys.sources.keys()]) {
          if (source.startsWith(`gamepad:${index}:`)) this.keys.release(source);
        }
        this.stick.delete(index);
      }
    }
    this.connected = seen;
  }
}
