/**
 * Renderer budget (issue 28): reads the vite build output in renderer/dist (run `npm run build:ui` first) and
 * loads the home screen in Chromium to count the font bytes it fetches.
 *  - initial JS of the bench window (index.html's entry script and the modules it preloads) ≤ 150 kB gzip;
 *  - no JS chunk over 120 kB gzip;
 *  - no barcode encoder in the renderer (labels are drawn by the server's label-render.ts);
 *  - shared chunks named for what they hold (vendor-react, vendor-zod, contracts, ui-common);
 *  - fonts fetched for the home screen ≤ 1 MB, also when the PC has no Japanese system font;
 *  - the UI font is the woff2 subsets of @fontsource/noto-sans-jp: the 5 MB TTF is not shipped to the browser.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, ROOT, shot, startServer, type Browser, type RunningServer } from './harness.testkit';

export const BUDGET = { initialJsGzip: 150 * 1024, chunkGzip: 120 * 1024, homeFonts: 1024 * 1024 };
const DIST = join(ROOT, 'renderer', 'dist');
const ASSETS = join(DIST, 'assets');
const gz = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

/** The JS a page loads before it can run: its entry script and every module it preloads. */
function initialJs(html: string): string[] {
  const page = readFileSync(join(DIST, html), 'utf8');
  const files = [...page.matchAll(/<script[^>]+src="\/assets\/([^"]+\.js)"/g), ...page.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!);
  return [...new Set(files)];
}

describe('renderer build budget (renderer/dist)', () => {
  const js = readdirSync(ASSETS).filter((f) => f.endsWith('.js'));

  it(`initial JS of the bench window ≤ ${kb(BUDGET.initialJsGzip)} gzip`, () => {
    const files = initialJs('index.html');
    expect(files.length).toBeGreaterThan(0);
    const sizes = files.map((f) => [f, gz(join(ASSETS, f))] as const);
    const total = sizes.reduce((s, [, n]) => s + n, 0);
    console.log(`initial JS (index.html): ${sizes.map(([f, n]) => `${f} ${kb(n)}`).join(', ')} = ${kb(total)} gzip`);
    expect(total, `initial JS ${kb(total)} gzip over ${kb(BUDGET.initialJsGzip)}`).toBeLessThanOrEqual(BUDGET.initialJsGzip);
  });

  it(`no JS chunk over ${kb(BUDGET.chunkGzip)} gzip`, () => {
    const over = js.map((f) => [f, gz(join(ASSETS, f))] as const).filter(([, n]) => n > BUDGET.chunkGzip);
    expect(over.map(([f, n]) => `${f} ${kb(n)}`)).toEqual([]);
  });

  it('ships no barcode encoder and names its shared chunks for what they hold', () => {
    for (const f of js) expect(readFileSync(join(ASSETS, f), 'utf8'), f).not.toMatch(/bwip-js|BWIPP|bwipp_/);
    for (const name of ['vendor-react', 'vendor-zod', 'contracts', 'ui-common']) expect(js.some((f) => f.startsWith(`${name}-`)), name).toBe(true);
    expect(js.filter((f) => f.startsWith('styles-'))).toEqual([]);
  });

  it('serves the UI font as woff2 subsets, not the TTF the server keeps for PDFs', () => {
    const files = readdirSync(ASSETS);
    expect(files.filter((f) => f.endsWith('.ttf'))).toEqual([]);
    const woff2 = files.filter((f) => /^noto-sans-jp-.*\.woff2$/.test(f));
    expect(woff2.length).toBeGreaterThan(50);
    expect(Math.max(...woff2.map((f) => statSync(join(ASSETS, f)).size))).toBeLessThan(200 * 1024);
  });
});

describe('fonts fetched for the home screen', () => {
  let server: RunningServer;
  let b: Browser;
  beforeAll(async () => {
    server = await startServer();
    b = await launch();
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await server?.stop();
  });

  /** Bytes of font files a page fetched (as the browser counted them). */
  const fontBytes = (page: Browser['page']) =>
    page.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => /\.(woff2?|ttf|otf)(\?|$)/.test(e.name))
        .reduce((s, e) => s + (e.encodedBodySize || e.transferSize), 0),
    );
  const home = async (page: Browser['page']) => {
    await page.goto(`${server.url}/#/`);
    await page.getByText('本日の作業予定').waitFor();
    await page.evaluate(() => document.fonts.ready);
  };

  it(`≤ ${kb(BUDGET.homeFonts)} on this PC and on a PC without a Japanese system font (fresh profiles)`, async () => {
    await home(b.page);
    const asIs = await fontBytes(b.page);
    // A PC without a Japanese system font: only the bundled font can draw the text.
    const bare = await launch();
    try {
      await bare.page.addInitScript(() => {
        const s = document.createElement('style');
        s.textContent = `:root, .mono, button, input, select, textarea { font-family: 'Noto Sans JP', monospace !important; }`;
        document.addEventListener('DOMContentLoaded', () => document.head.appendChild(s));
      });
      await home(bare.page);
      const only = await fontBytes(bare.page);
      const fetched = await bare.page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /\.(woff2?|ttf|otf)/.test(n)));
      console.log(`fonts fetched for ホーム: ${kb(asIs)} (this PC), ${kb(only)} in ${fetched.length} files (bundled font only)`);
      expect(only).toBeGreaterThan(0);
      expect(only).toBeLessThanOrEqual(BUDGET.homeFonts);
      expect(fetched.every((n) => n.endsWith('.woff2'))).toBe(true);
    } finally {
      await bare.close();
    }
    expect(asIs).toBeLessThanOrEqual(BUDGET.homeFonts);
  }, 90_000);

  it('every font stack, monospace inputs included, falls back to the bundled Japanese font', async () => {
    const { page } = b;
    await page.goto(`${server.url}/#/ledger`);
    await page.getByTestId('ledger-list').waitFor();
    const stacks = await page.evaluate(() => {
      const out: Record<string, string> = { body: getComputedStyle(document.body).fontFamily };
      const mono = document.querySelector('input.mono, .mono');
      if (mono) out.mono = getComputedStyle(mono).fontFamily;
      const input = document.querySelector('input');
      if (input) out.input = getComputedStyle(input).fontFamily;
      return out;
    });
    expect(Object.keys(stacks)).toEqual(expect.arrayContaining(['body', 'mono', 'input']));
    for (const [k, v] of Object.entries(stacks)) {
      const families = v.split(',').map((f) => f.trim().replace(/^"|"$/g, ''));
      const noto = families.indexOf('Noto Sans JP');
      expect(noto, `${k}: ${v}`).toBeGreaterThanOrEqual(0);
      // before any generic family: Chrome on Linux resolves system-ui / sans-serif through its own fallback and
      // then draws boxes for Japanese text instead of reaching the bundled font
      const generic = families.findIndex((f) => ['system-ui', 'sans-serif', 'monospace', 'ui-sans-serif', 'serif'].includes(f));
      expect(generic === -1 || noto < generic, `${k}: ${v}`).toBe(true);
    }
    // the bundled face really draws the scan field's Japanese placeholder
    const faces = await page.evaluate(async () => (await document.fonts.load(`13px 'Noto Sans JP'`, 'IMEIをスキャン（キー入力してEnterでも可）')).length);
    expect(faces).toBeGreaterThan(0);
    await shot(page, 'budget-ledger-glyphs');
  }, 60_000);
});
