// The handheld's 8x8 panel on a canvas, with the simulator window's look (sim/window.py): a dark
// case with a–h / 1–8 labels on its rim, a black panel with a grid, round LEDs that glow onto
// their neighbours. Every LED is drawn as the window draws it: a lens lit evenly by its own light
// on top of the room's (UNLIT + the frame's colour), so the pixel at its centre is known exactly
// and the picture can be checked against the App on CPython.

export const BACKGROUND = [16, 17, 21];
const CASE = "rgb(40,42,50)";
const CASE_EDGE = "rgb(62,65,76)";
const PANEL = "rgb(5,6,8)";
const GRID = "rgb(20,21,26)";
export const UNLIT = [24, 24, 28]; // an LED that is off, under room light; a lit LED adds its light
const LABEL = "rgb(130,134,148)";
const COLUMNS = "abcdefgh";
const GLOW_CACHE = 400;

function rgb(r, g, b) {
  return `rgb(${r},${g},${b})`;
}

export class Panel {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d", { alpha: false });
    this.labels = null; // the board size in play (labels shown), or null
    this.showLabels = true;
    this.frame = null; // the last frame: 192 bytes
    this.cssSize = 0;
    this.scale = 1;
    this._static = null;
    this._glows = new Map();
  }

  // Size the canvas to `cssSize` CSS pixels on a screen of `dpr` device pixels per CSS pixel.
  resize(cssSize, dpr) {
    const size = Math.max(64, Math.min(4096, Math.round(cssSize * dpr)));
    this.cssSize = cssSize;
    this.scale = size / cssSize;
    this.canvas.style.width = `${cssSize}px`;
    this.canvas.style.height = `${cssSize}px`;
    if (this.canvas.width !== size) {
      this.canvas.width = size;
      this.canvas.height = size;
    }
    this.size = size;
    this.border = Math.max(3, Math.floor((size * 7) / 100));
    this.inner = size - 2 * this.border;
    this.cell = this.inner / 8;
    this.radius = Math.max(2, this.cell * 0.34);
    this.glowRadius = Math.max(2, Math.floor(this.cell * 0.95));
    this._static = null;
    this._glows.clear();
    this.draw(this.frame);
  }

  // The centre of LED (x, y) in canvas pixels.
  centre(x, y) {
    return [this.border + Math.floor((x + 0.5) * this.cell), this.border + Math.floor((y + 0.5) * this.cell)];
  }

  // The LED under a point given in CSS pixels from the canvas's top-left, or null.
  ledAt(cssX, cssY) {
    const x = Math.floor((cssX * this.scale - this.border) / this.cell);
    const y = Math.floor((cssY * this.scale - this.border) / this.cell);
    return x >= 0 && x < 8 && y >= 0 && y < 8 ? [x, y] : null;
  }

  setLabels(size) {
    const shown = this.showLabels ? size : null;
    if (shown !== this.labels) {
      this.labels = shown;
      this._static = null;
      this.draw(this.frame);
    }
  }

  // Draw `frame` (192 bytes: r, g, b per LED, row by row) or, without one, the dark panel.
  draw(frame) {
    if (!this.size) return;
    this.frame = frame;
    const ctx = this.ctx;
    if (!this._static) this._static = this._drawStatic();
    ctx.globalCompositeOperation = "source-over";
    ctx.drawImage(this._static, 0, 0);
    if (!frame) return;
    ctx.globalCompositeOperation = "lighter";
    const glow = this.glowRadius;
    for (let i = 0; i < 64; i++) {
      const r = frame[3 * i], g = frame[3 * i + 1], b = frame[3 * i + 2];
      if (r || g || b) {
        const [cx, cy] = this.centre(i % 8, i >> 3);
        ctx.drawImage(this._glow(r, g, b), cx - glow, cy - glow);
      }
    }
    // Every LED on top of the glows that spill over it: the lens lit by its own light plus the
    // room's, one flat colour (a dot in another colour reads as a doughnut on a projector).
    ctx.globalCompositeOperation = "source-over";
    for (let i = 0; i < 64; i++) {
      const r = frame[3 * i], g = frame[3 * i + 1], b = frame[3 * i + 2];
      const [cx, cy] = this.centre(i % 8, i >> 3);
      ctx.fillStyle = rgb(Math.min(255, UNLIT[0] + r), Math.min(255, UNLIT[1] + g), Math.min(255, UNLIT[2] + b));
      ctx.beginPath();
      ctx.arc(cx + 0.5, cy + 0.5, this.radius, 0, 2 * Math.PI);
      ctx.fill();
    }
  }

  _drawStatic() {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = this.size;
    const ctx = canvas.getContext("2d", { alpha: false });
    const size = this.size;
    const border = this.border;
    ctx.fillStyle = rgb(...BACKGROUND);
    ctx.fillRect(0, 0, size, size);
    ctx.fillStyle = CASE;
    ctx.beginPath();
    ctx.roundRect(0, 0, size, size, border);
    ctx.fill();
    ctx.strokeStyle = CASE_EDGE;
    ctx.lineWidth = Math.max(1, border / 6);
    ctx.beginPath();
    ctx.roundRect(ctx.lineWidth / 2, ctx.lineWidth / 2, size - ctx.lineWidth, size - ctx.lineWidth, border);
    ctx.stroke();
    ctx.fillStyle = PANEL;
    ctx.fillRect(border, border, this.inner, this.inner);
    ctx.fillStyle = GRID;
    const line = Math.max(1, Math.floor(this.cell * 0.03));
    for (let i = 1; i < 8; i++) {
      const at = border + Math.floor(i * this.cell);
      ctx.fillRect(at, border, line, this.inner);
      ctx.fillRect(border, at, this.inner, line);
    }
    ctx.fillStyle = rgb(...UNLIT);
    for (let i = 0; i < 64; i++) {
      const [cx, cy] = this.centre(i % 8, i >> 3);
      ctx.beginPath();
      ctx.arc(cx + 0.5, cy + 0.5, this.radius, 0, 2 * Math.PI);
      ctx.fill();
    }
    if (this.labels) this._drawLabels(ctx, this.labels);
    return canvas;
  }

  // a–h over and under the columns, 1–8 beside the rows of the board in play (a small board
  // sits centred on the panel, so its labels do too).
  _drawLabels(ctx, boardSize) {
    const offset = (8 - boardSize) >> 1;
    const half = this.border / 2;
    ctx.fillStyle = LABEL;
    ctx.font = `${Math.max(8, Math.floor(this.border * 0.62))}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (let i = 0; i < boardSize; i++) {
      const [cx, cy] = this.centre(offset + i, offset + i);
      ctx.fillText(COLUMNS[i], cx, half);
      ctx.fillText(COLUMNS[i], cx, this.size - half);
      ctx.fillText(String(i + 1), half, cy);
      ctx.fillText(String(i + 1), this.size - half, cy);
    }
  }

  // A radial glow of colour (r, g, b), brightest in the middle, to add under a lit LED.
  _glow(r, g, b) {
    const key = (r << 16) | (g << 8) | b;
    let sprite = this._glows.get(key);
    if (sprite) return sprite;
    if (this._glows.size > GLOW_CACHE) this._glows.clear();
    const radius = this.glowRadius;
    sprite = document.createElement("canvas");
    sprite.width = sprite.height = 2 * radius + 1;
    const ctx = sprite.getContext("2d");
    const gradient = ctx.createRadialGradient(radius + 0.5, radius + 0.5, 0, radius + 0.5, radius + 0.5, radius);
    for (let step = 0; step <= 8; step++) {
      const fall = 1 - step / 8;
      gradient.addColorStop(step / 8, `rgba(${r},${g},${b},${((150 / 255) * fall * fall).toFixed(4)})`);
    }
    ctx.fillStyle = gradient;
    ctx.fillRect(0, 0, sprite.width, sprite.height);
    this._glows.set(key, sprite);
    return sprite;
  }
}
