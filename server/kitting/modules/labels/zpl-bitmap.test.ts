import fontkit from 'fontkit';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JP_FONT_PATH } from '../certs/cert-pdf';
import { bitmapToZpl, rasterizeText, type Bitmap } from './zpl-bitmap';

function bitmap(rows: string[], left = 10, top = 20): Bitmap {
  const width = rows[0]?.length ?? 0;
  return { left, top, width, height: rows.length, ink: Uint8Array.from(rows.join('').split(''), (c) => (c === '#' ? 1 : 0)) };
}

describe('^GFA encoding', () => {
  it("writes Zebra's ASCII compression: counts, ',' for a blank rest, '!' for an inked rest, ':' for a repeated row", () => {
    const bm = bitmap([
      '................',
      '########........',
      '########........',
      '################',
      '#.#.#.#.#.#.#.#.',
    ]);
    expect(bitmapToZpl(bm)).toBe('^FO10,20^GFA,10,10,2,,HF,:!JA^FS');
  });

  it('pads a row to whole bytes and counts repeats past 20', () => {
    const wide = bitmap(['#'.repeat(4) + '.'.repeat(8 * 30 - 4) + '#']);
    // F0, 29 zero bytes, 80: 'F', 59 zeros (h = 40, Y = 19), '8', then ',' for the zero that ends the row
    expect(bitmapToZpl(wide)).toBe('^FO10,20^GFA,31,31,31,FhY08,^FS');
  });
});

describe('text rasterised from the label font', () => {
  const font = fontkit.create(readFileSync(JP_FONT_PATH));

  it('draws a full-width character one em wide at the pen position, ink on its strokes', () => {
    const bm = rasterizeText(font, '一', 100, 200, 40);
    expect(bm).not.toBeNull();
    if (!bm) return;
    // 一 is a single horizontal stroke across most of the em, just above the middle of the em box
    expect(bm.left).toBeGreaterThanOrEqual(100);
    expect(bm.left + bm.width).toBeLessThanOrEqual(141);
    expect(bm.width).toBeGreaterThan(30);
    expect(bm.height).toBeGreaterThanOrEqual(2);
    expect(bm.height).toBeLessThanOrEqual(6);
    expect(bm.top).toBeGreaterThan(200 - 40 * 0.5);
    expect(bm.top).toBeLessThan(200);
    expect(bm.ink.reduce((a, b) => a + b, 0)).toBeGreaterThan(bm.width);
  });

  it('leaves the counters of a glyph empty (non-zero winding) and scales with the size', () => {
    const small = rasterizeText(font, '口', 0, 50, 40);
    const big = rasterizeText(font, '口', 0, 50, 80);
    if (!small || !big) throw new Error('no bitmap');
    const centre = (b: Bitmap) => b.ink[Math.floor(b.height / 2) * b.width + Math.floor(b.width / 2)];
    expect(centre(small)).toBe(0);
    expect(centre(big)).toBe(0);
    expect(big.width).toBeGreaterThan(small.width * 1.8);
    expect(big.width).toBeLessThan(small.width * 2.2);
  });

  it('thickens strokes for a bold line and draws nothing for blank text', () => {
    const regular = rasterizeText(font, '—', 0, 50, 40);
    const bold = rasterizeText(font, '—', 0, 50, 40, true);
    if (!regular || !bold) throw new Error('no bitmap');
    expect(bold.ink.reduce((a, b) => a + b, 0)).toBeGreaterThan(regular.ink.reduce((a, b) => a + b, 0));
    expect(rasterizeText(font, '   ', 0, 50, 40)).toBeNull();
  });
});
