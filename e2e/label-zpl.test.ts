/**
 * A Japanese customer name printed from ZPL on a stock Zebra printer (emulated by zpl-renderer-js, which
 * has only the resident fonts) shows the same glyphs, in the same place, as the SVG label rendered by
 * Chromium with the label font. Both are compared dot by dot over the customer-name line.
 */
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { chromium, type Browser as PwBrowser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../server/kitting/testing/harness.testkit';
import { CHROMIUM_ARGS, chromiumPath } from './harness.testkit';

const CUST = '株式会社山下電設';
const LABEL = { w: 70, h: 40 };

/** Gray levels (0 black … 255 white) of an 8-bit PNG, as zpl-renderer-js and Chromium write them. */
function decodePng(png: Buffer): { width: number; height: number; gray: Uint8Array } {
  let pos = 8;
  let width = 0;
  let height = 0;
  let channels = 1;
  const idat: Buffer[] = [];
  while (pos < png.length) {
    const len = png.readUInt32BE(pos);
    const type = png.toString('latin1', pos + 4, pos + 8);
    const data = png.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error(`unsupported PNG: depth ${data[8]}, interlace ${data[12]}`);
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[data[9] ?? 0] ?? 1;
    } else if (type === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const px = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i] ?? 0;
      const a = i >= channels ? (px[y * stride + i - channels] ?? 0) : 0;
      const b = y > 0 ? (px[(y - 1) * stride + i] ?? 0) : 0;
      const c = y > 0 && i >= channels ? (px[(y - 1) * stride + i - channels] ?? 0) : 0;
      const p = a + b - c;
      const pred = [0, a, b, (a + b) >> 1, Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c][filter ?? 0] ?? 0;
      px[y * stride + i] = (x + pred) & 0xff;
    }
  }
  const gray = new Uint8Array(width * height);
  for (let i = 0; i < gray.length; i++) {
    const colour = Math.min(channels, 3);
    let sum = 0;
    for (let ch = 0; ch < colour; ch++) sum += px[i * channels + ch] ?? 0;
    gray[i] = Math.round(sum / colour);
  }
  return { width, height, gray };
}

interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

type Image = ReturnType<typeof decodePng>;
const inked = (img: Image, x: number, y: number) => x >= 0 && y >= 0 && x < img.width && y < img.height && (img.gray[y * img.width + x] ?? 255) < 128;
const near = (img: Image, x: number, y: number) => [-1, 0, 1].some((dy) => [-1, 0, 1].some((dx) => inked(img, x + dx, y + dy)));

/** Share of each image's ink in the region that the other has within one dot, and ink per character cell. */
function compare(svg: Image, zpl: Image, r: Region, chars: number) {
  let svgInk = 0;
  let svgHit = 0;
  let zplInk = 0;
  let zplHit = 0;
  const cells = Array.from({ length: chars }, () => ({ svg: 0, zpl: 0 }));
  const cellW = (r.x1 - r.x0) / chars;
  for (let y = r.y0; y < r.y1; y++) {
    for (let x = r.x0; x < r.x1; x++) {
      const cell = cells[Math.min(chars - 1, Math.floor((x - r.x0) / cellW))];
      if (inked(svg, x, y)) {
        svgInk++;
        if (cell) cell.svg++;
        if (near(zpl, x, y)) svgHit++;
      }
      if (inked(zpl, x, y)) {
        zplInk++;
        if (cell) cell.zpl++;
        if (near(svg, x, y)) zplHit++;
      }
    }
  }
  return { recall: svgHit / Math.max(1, svgInk), precision: zplHit / Math.max(1, zplInk), cells, svgInk, zplInk };
}

let server: TestServer;
let api: Client;
let browser: PwBrowser;
let fontBytes: Buffer;
let imei: string;

beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
  const res = await api.post<{ device: { imei: string } }>('/api/device', { imei: '356938035643809', model: 'iPhone 15', cust: CUST, asset: 'HK-26-0042' });
  imei = res.body.device.imei;
  fontBytes = Buffer.from(await (await fetch(`${server.url}/api/labels/font.ttf`)).arrayBuffer());
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The SVG label drawn by Chromium with one CSS pixel per printer dot, and the customer line's box in dots. */
async function svgRender(dpmm: number): Promise<{ img: Image; region: Region }> {
  const svg = (await api.get(`/api/labels/render?imei=${imei}&size=m&format=svg`)).text;
  const sized = svg.replace(`width="${LABEL.w}mm" height="${LABEL.h}mm"`, `width="${LABEL.w * dpmm}px" height="${LABEL.h * dpmm}px"`);
  const page = await browser.newPage({ viewport: { width: LABEL.w * dpmm, height: LABEL.h * dpmm }, deviceScaleFactor: 1 });
  await page.route('http://label.test/**', (route) =>
    route.request().url().endsWith('/font.ttf')
      ? route.fulfill({ body: fontBytes, contentType: 'font/ttf' })
      : route.fulfill({
          contentType: 'text/html; charset=utf-8',
          body: `<!doctype html><html><head><meta charset="utf-8"><style>@font-face{font-family:'Noto Sans JP';src:url('/font.ttf') format('truetype')}html,body{margin:0}svg{display:block}</style></head><body>${sized}</body></html>`,
        }),
  );
  await page.goto('http://label.test/');
  await page.evaluate(() => document.fonts.load("40px 'Noto Sans JP'", '株式会社'));
  const box = await page.evaluate((cust) => {
    const text = Array.from(document.querySelectorAll('text')).find((t) => t.textContent === cust);
    if (!text) return null;
    const b = text.getBBox();
    return { x: b.x, y: b.y, width: b.width, height: b.height };
  }, CUST);
  const img = decodePng(await page.screenshot({ type: 'png' }));
  await page.close();
  if (!box) throw new Error('customer line missing from the SVG label');
  const region = { x0: Math.floor(box.x * dpmm) - 2, y0: Math.floor(box.y * dpmm) - 2, x1: Math.ceil((box.x + box.width) * dpmm) + 2, y1: Math.ceil((box.y + box.height) * dpmm) + 2 };
  return { img, region };
}

/** zpl-renderer-js (Zebrash compiled to WebAssembly) loaded by Node itself: Vite would transform its 8 MB bundle. */
const zplRenderer = createRequire(import.meta.url)('zpl-renderer-js') as typeof import('zpl-renderer-js');

async function zplRender(zpl: string, dpmm: number): Promise<Image> {
  const { api: zr } = await zplRenderer.ready;
  return decodePng(Buffer.from(await zr.zplToBase64Async(zpl, LABEL.w, LABEL.h, dpmm), 'base64'));
}

describe('Japanese customer names on a ZPL label', () => {
  for (const dpi of [203, 300] as const) {
    it(`print the glyphs the SVG label shows, in the same place, at ${dpi} dpi`, async () => {
      const dpmm = dpi === 300 ? 12 : 8;
      const zpl = (await api.get(`/api/labels/render?imei=${imei}&size=m&format=zpl${dpi === 300 ? '&dpi=300' : ''}`)).text;
      expect(zpl).toContain(`^PW${LABEL.w * dpmm}`);
      expect(zpl).toMatch(/\^GFA,\d+,\d+,\d+,/);
      expect(zpl).not.toContain(CUST);
      const { img: svg, region } = await svgRender(dpmm);
      const printed = await zplRender(zpl, dpmm);
      const m = compare(svg, printed, region, Array.from(CUST).length);
      expect(m.svgInk).toBeGreaterThan(100);
      // every character cell carries ink in both, in similar amounts
      for (const cell of m.cells) {
        expect(cell.svg).toBeGreaterThan(10);
        expect(cell.zpl).toBeGreaterThan(cell.svg * 0.7);
        expect(cell.zpl).toBeLessThan(cell.svg * 1.5);
      }
      // within one dot, the printed ink covers the SVG's glyphs and adds nothing elsewhere
      expect(m.recall).toBeGreaterThan(0.95);
      expect(m.precision).toBeGreaterThan(0.95);

      // the same name sent as resident-font text (what a stock printer turns into empty boxes) fails the comparison
      const resident = zpl.replace(/\^FO(\d+),(\d+)\^GFA[^^]*\^FS/, (_all, x: string) => `^FO${x},${region.y0}^A0N,${region.y1 - region.y0},${region.y1 - region.y0}^FD${CUST}^FS`);
      expect(resident).not.toBe(zpl);
      const boxes = compare(svg, await zplRender(resident, dpmm), region, Array.from(CUST).length);
      expect(Math.min(boxes.recall, boxes.precision)).toBeLessThan(0.75);
    }, 60_000);
  }
});
