import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function ihdr(w: number, h: number): Buffer {
  const b = Buffer.alloc(13);
  b.writeUInt32BE(w, 0);
  b.writeUInt32BE(h, 4);
  b[8] = 8; // bit depth
  b[9] = 2; // truecolour RGB
  return b;
}

type Pixel = (x: number, y: number) => [number, number, number];

function scanlines(w: number, h: number, px: Pixel): Buffer {
  const raw = Buffer.alloc((w * 3 + 1) * h);
  let o = 0;
  for (let y = 0; y < h; y++) {
    raw[o++] = 0; // filter: none
    for (let x = 0; x < w; x++) {
      const [r, g, b] = px(x, y);
      raw[o++] = r;
      raw[o++] = g;
      raw[o++] = b;
    }
  }
  return deflateSync(raw);
}

/** Colours and a shape drawn from the prompt, so the same prompt gives the same picture. */
function painter(seedText: string, w: number, h: number, t = 0): Pixel {
  const d = createHash('sha256').update(seedText).digest();
  const a = [d[0], d[1], d[2]];
  const b = [d[3], d[4], d[5]];
  const cx = ((d[6] / 255) * 0.6 + 0.2 + 0.3 * Math.sin(t * Math.PI * 2)) * w;
  const cy = ((d[7] / 255) * 0.6 + 0.2) * h;
  const r2 = (Math.min(w, h) * (0.15 + d[8] / 1020)) ** 2;
  return (x, y) => {
    const f = (x / w + y / h) / 2;
    if ((x - cx) ** 2 + (y - cy) ** 2 < r2) return [255 - a[0], 255 - a[1], 255 - a[2]];
    return [Math.round(a[0] * (1 - f) + b[0] * f), Math.round(a[1] * (1 - f) + b[1] * f), Math.round(a[2] * (1 - f) + b[2] * f)];
  };
}

/** A real PNG image. */
export function makePng(seedText: string, w: number, h: number): Buffer {
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr(w, h)), chunk('IDAT', scanlines(w, h, painter(seedText, w, h))), chunk('IEND', Buffer.alloc(0))]);
}

/** A real animated PNG (APNG): `frames` frames shown over `seconds`, looping. */
export function makeApng(seedText: string, w: number, h: number, frames: number, seconds: number): Buffer {
  const parts = [SIGNATURE, chunk('IHDR', ihdr(w, h))];
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(frames, 0);
  actl.writeUInt32BE(0, 4); // loop forever
  parts.push(chunk('acTL', actl));
  const delayMs = Math.max(10, Math.round((seconds * 1000) / frames));
  let seq = 0;
  for (let i = 0; i < frames; i++) {
    const fctl = Buffer.alloc(26);
    fctl.writeUInt32BE(seq++, 0);
    fctl.writeUInt32BE(w, 4);
    fctl.writeUInt32BE(h, 8);
    fctl.writeUInt32BE(0, 12);
    fctl.writeUInt32BE(0, 16);
    fctl.writeUInt16BE(delayMs, 20);
    fctl.writeUInt16BE(1000, 22);
    parts.push(chunk('fcTL', fctl));
    const data = scanlines(w, h, painter(seedText, w, h, i / frames));
    if (i === 0) parts.push(chunk('IDAT', data));
    else {
      const s = Buffer.alloc(4);
      s.writeUInt32BE(seq++);
      parts.push(chunk('fdAT', Buffer.concat([s, data])));
    }
  }
  parts.push(chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/** A real 16-bit mono PCM WAV: a short melody chosen by the prompt. */
export function makeWav(seedText: string, seconds: number, rate = 16_000): Buffer {
  const d = createHash('sha256').update(seedText).digest();
  const n = Math.round(seconds * rate);
  const data = Buffer.alloc(n * 2);
  const notes = [261.63, 293.66, 329.63, 349.23, 392, 440, 493.88, 523.25];
  const noteLen = Math.max(1, Math.round(rate / 4));
  for (let i = 0; i < n; i++) {
    const note = notes[d[Math.floor(i / noteLen) % d.length] % notes.length];
    const env = 1 - (i % noteLen) / noteLen;
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * note * i) / rate) * 12_000 * env), i * 2);
  }
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

export const SIZES: Record<string, [number, number]> = {
  '1:1': [256, 256], '16:9': [320, 180], '9:16': [180, 320], '4:3': [256, 192], '3:4': [192, 256],
};
