/**
 * Text as a monochrome bitmap for ZPL: a stock Zebra printer has no Japanese glyphs in its resident
 * fonts, so lines that need them are drawn here from the label's own font (the one the SVG label uses)
 * and sent as ^GFA graphic fields in Zebra's ASCII compression.
 *
 * Rasterisation: each glyph outline is flattened into line segments, and every printer dot is the
 * share of its area inside the outline (non-zero winding), sampled on SUB scanlines per dot with exact
 * horizontal coverage; a dot prints when at least INK of it is covered.
 */

/** The part of a fontkit font this module reads. */
export interface OutlineFont {
  unitsPerEm: number;
  layout(text: string): { glyphs: readonly { path: object }[]; positions: readonly { xAdvance: number; xOffset: number; yOffset: number }[] };
}

interface PathCommand {
  command: string;
  args: number[];
}

/** fontkit paths carry their outline as `commands`; anything else has no outline. */
function commandsOf(path: object): PathCommand[] {
  const c: unknown = (path as { commands?: unknown }).commands;
  if (!Array.isArray(c)) return [];
  return c.filter((x): x is PathCommand => typeof x === 'object' && x !== null && typeof (x as PathCommand).command === 'string' && Array.isArray((x as PathCommand).args));
}

/** A one-bit image: `ink[y * width + x]` is 1 where the dot prints. Placed at (left, top) in dots. */
export interface Bitmap {
  left: number;
  top: number;
  width: number;
  height: number;
  ink: Uint8Array;
}

type Edge = [x0: number, y0: number, x1: number, y1: number];

const SUB = 5;
const INK = 0.45;
const CURVE_STEPS = 8;

/** Outline edges of a text line in dot space: pen at (x, baseline), size = em height in dots. */
function outlineEdges(font: OutlineFont, text: string, x: number, baseline: number, size: number): Edge[] {
  const scale = size / font.unitsPerEm;
  const run = font.layout(text);
  const edges: Edge[] = [];
  let pen = 0;
  run.glyphs.forEach((glyph, i) => {
    const pos = run.positions[i] ?? { xAdvance: 0, xOffset: 0, yOffset: 0 };
    const ox = pen + pos.xOffset;
    const oy = pos.yOffset;
    const tx = (gx: number) => x + (ox + gx) * scale;
    const ty = (gy: number) => baseline - (oy + gy) * scale;
    let start: [number, number] | null = null;
    let cur: [number, number] = [0, 0];
    const line = (nx: number, ny: number) => {
      edges.push([tx(cur[0]), ty(cur[1]), tx(nx), ty(ny)]);
      cur = [nx, ny];
    };
    for (const { command, args: a } of commandsOf(glyph.path)) {
      if (command === 'moveTo') {
        if (start && (cur[0] !== start[0] || cur[1] !== start[1])) line(start[0], start[1]);
        start = [a[0] ?? 0, a[1] ?? 0];
        cur = start;
      } else if (command === 'lineTo') {
        line(a[0] ?? 0, a[1] ?? 0);
      } else if (command === 'quadraticCurveTo') {
        const [p0x, p0y] = cur;
        const [cx, cy, ex, ey] = [a[0] ?? 0, a[1] ?? 0, a[2] ?? 0, a[3] ?? 0];
        for (let s = 1; s <= CURVE_STEPS; s++) {
          const t = s / CURVE_STEPS;
          const u = 1 - t;
          line(u * u * p0x + 2 * u * t * cx + t * t * ex, u * u * p0y + 2 * u * t * cy + t * t * ey);
        }
      } else if (command === 'bezierCurveTo') {
        const [p0x, p0y] = cur;
        const [c1x, c1y, c2x, c2y, ex, ey] = [a[0] ?? 0, a[1] ?? 0, a[2] ?? 0, a[3] ?? 0, a[4] ?? 0, a[5] ?? 0];
        for (let s = 1; s <= CURVE_STEPS; s++) {
          const t = s / CURVE_STEPS;
          const u = 1 - t;
          line(u * u * u * p0x + 3 * u * u * t * c1x + 3 * u * t * t * c2x + t * t * t * ex, u * u * u * p0y + 3 * u * u * t * c1y + 3 * u * t * t * c2y + t * t * t * ey);
        }
      } else if (command === 'closePath' && start) {
        if (cur[0] !== start[0] || cur[1] !== start[1]) line(start[0], start[1]);
        cur = start;
      }
    }
    if (start && (cur[0] !== start[0] || cur[1] !== start[1])) line(start[0], start[1]);
    pen += pos.xAdvance;
  });
  return edges.filter((e) => e[1] !== e[3]);
}

/** Adds the horizontal coverage of [a, b) to cov (one cell per dot, origin at `left`), weighted w. */
function addSpan(cov: Float32Array, row: number, width: number, left: number, a: number, b: number, w: number): void {
  const from = Math.max(a - left, 0);
  const to = Math.min(b - left, width);
  if (to <= from) return;
  const i0 = Math.floor(from);
  const i1 = Math.floor(to);
  const base = row * width;
  if (i0 === i1) {
    cov[base + i0] += (to - from) * w;
    return;
  }
  cov[base + i0] += (i0 + 1 - from) * w;
  for (let i = i0 + 1; i < i1; i++) cov[base + i] += w;
  if (i1 < width) cov[base + i1] += (to - i1) * w;
}

/**
 * One line of text as a bitmap: the pen starts at (x, baseline) in dots, `size` is the em size in dots
 * (the SVG's font-size). `bold` thickens strokes as a browser's synthetic bold does.
 */
export function rasterizeText(font: OutlineFont, text: string, x: number, baseline: number, size: number, bold = false): Bitmap | null {
  const edges = outlineEdges(font, text, x, baseline, size);
  if (!edges.length) return null;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x0, y0, x1, y1] of edges) {
    minX = Math.min(minX, x0, x1);
    maxX = Math.max(maxX, x0, x1);
    minY = Math.min(minY, y0, y1);
    maxY = Math.max(maxY, y0, y1);
  }
  const embolden = bold ? Math.max(1, Math.round(size / 28)) : 0;
  const left = Math.max(0, Math.floor(minX));
  const top = Math.max(0, Math.floor(minY));
  const width = Math.ceil(maxX) - left + embolden;
  const height = Math.ceil(maxY) - top;
  if (width <= 0 || height <= 0) return null;
  const cov = new Float32Array(width * height);
  // each row visits only the edges that cross it
  const byRow: Edge[][] = Array.from({ length: height }, () => []);
  for (const e of edges) {
    const from = Math.max(0, Math.floor(Math.min(e[1], e[3]) - top));
    const to = Math.min(height - 1, Math.floor(Math.max(e[1], e[3]) - top));
    for (let r = from; r <= to; r++) byRow[r]?.push(e);
  }
  const xs: [number, number][] = [];
  for (let row = 0; row < height; row++) {
    const rowEdges = byRow[row] ?? [];
    for (let k = 0; k < SUB; k++) {
      const y = top + row + (k + 0.5) / SUB;
      xs.length = 0;
      for (const [x0, y0, x1, y1] of rowEdges) {
        if ((y0 <= y && y < y1) || (y1 <= y && y < y0)) xs.push([x0 + ((y - y0) * (x1 - x0)) / (y1 - y0), y1 > y0 ? 1 : -1]);
      }
      if (!xs.length) continue;
      xs.sort((p, q) => p[0] - q[0]);
      let winding = 0;
      for (let i = 0; i < xs.length - 1; i++) {
        winding += xs[i][1];
        if (winding !== 0) addSpan(cov, row, width, left, xs[i][0], xs[i + 1][0], 1 / SUB);
      }
    }
  }
  const ink = new Uint8Array(width * height);
  for (let i = 0; i < ink.length; i++) ink[i] = cov[i] >= INK ? 1 : 0;
  if (embolden) {
    for (let row = 0; row < height; row++) {
      for (let col = width - 1; col >= 0; col--) {
        for (let d = 1; d <= embolden && !ink[row * width + col]; d++) if (col - d >= 0 && cov[row * width + col - d] >= INK) ink[row * width + col] = 1;
      }
    }
  }
  return { left, top, width, height, ink };
}

/** Zebra's ASCII compression of one hex row: repeat counts G–Y (1–19) and g–z (20–400). */
function compressRow(hex: string): string {
  let row = hex;
  let tail = '';
  const zeros = /0+$/.exec(row);
  if (zeros) {
    row = row.slice(0, zeros.index);
    tail = ',';
  } else {
    const ones = /F+$/.exec(row);
    if (ones && ones[0].length > 2) {
      row = row.slice(0, ones.index);
      tail = '!';
    }
  }
  let out = '';
  for (let i = 0; i < row.length; ) {
    let j = i;
    while (j < row.length && row[j] === row[i]) j++;
    out += repeatCount(j - i) + row[i];
    i = j;
  }
  return out + tail;
}

function repeatCount(n: number): string {
  if (n === 1) return '';
  let out = '';
  let left = n;
  while (left >= 400) {
    out += 'z';
    left -= 400;
  }
  if (left >= 20) {
    out += String.fromCharCode('g'.charCodeAt(0) + Math.floor(left / 20) - 1);
    left %= 20;
  }
  if (left > 0) out += String.fromCharCode('G'.charCodeAt(0) + left - 1);
  return out;
}

/** The bitmap as a ZPL ^GFA field at its place on the label (ASCII-compressed hex, ':' repeats a row). */
export function bitmapToZpl(bm: Bitmap): string {
  const bytesPerRow = Math.ceil(bm.width / 8);
  const total = bytesPerRow * bm.height;
  const rows: string[] = [];
  let prev = '';
  for (let y = 0; y < bm.height; y++) {
    let hex = '';
    for (let b = 0; b < bytesPerRow; b++) {
      let byte = 0;
      for (let bit = 0; bit < 8; bit++) {
        const x = b * 8 + bit;
        if (x < bm.width && bm.ink[y * bm.width + x]) byte |= 0x80 >> bit;
      }
      hex += byte.toString(16).toUpperCase().padStart(2, '0');
    }
    rows.push(y > 0 && hex === prev ? ':' : compressRow(hex));
    prev = hex;
  }
  return `^FO${bm.left},${bm.top}^GFA,${total},${total},${bytesPerRow},${rows.join('')}^FS`;
}
