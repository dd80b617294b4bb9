/**
 * UI performance: build size, bench home first paint from a cold server start, and ledger
 * scrolling with 100,000 devices in headless Chromium (Performance API / rAF frame times).
 * Run: npm run build:ui && npx tsx perf/ui.bench.ts   (not part of the test suite)
 */
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { generateImei } from '../shared/imei';
import { ROOT, launch, startServer } from '../e2e/harness';

const DIST = join(ROOT, 'renderer', 'dist');

/** Scroll the ledger 180 px per frame for 4 s and report frame timing from rAF timestamps. */
const SCROLL_PROBE = `new Promise((resolve) => {
  const el = document.querySelector('[data-testid="ledger-list"]');
  const times = [];
  const start = performance.now();
  const step = (t) => {
    times.push(t);
    el.scrollTop += 180;
    if (t - start < 4000) { requestAnimationFrame(step); return; }
    const d = times.slice(1).map((x, i) => x - times[i]);
    const sorted = [...d].sort((a, b) => a - b);
    let worst = Infinity;
    for (let i = 0; i < times.length; i++) {
      let j = i;
      while (j < times.length && times[j] - times[i] < 500) j++;
      if (j >= times.length) break;
      worst = Math.min(worst, (j - i) / ((times[j] - times[i]) / 1000));
    }
    const secs = (times[times.length - 1] - times[0]) / 1000;
    resolve({
      frames: d.length,
      seconds: Math.round(secs * 100) / 100,
      avgFps: Math.round((d.length / secs) * 10) / 10,
      worstHalfSecondFps: Math.round(worst * 10) / 10,
      p95FrameMs: Math.round(sorted[Math.floor(sorted.length * 0.95)] * 10) / 10,
      maxFrameMs: Math.round(sorted[sorted.length - 1] * 10) / 10,
      rowsInDom: el.querySelectorAll('.vrow').length,
      scrolledPx: el.scrollTop,
    });
  };
  requestAnimationFrame(step);
})`;

function buildSize() {
  const assets = join(DIST, 'assets');
  const files = readdirSync(assets).map((f) => ({ f, bytes: statSync(join(assets, f)).size, gz: /\.(js|css)$/.test(f) ? gzipSync(readFileSync(join(assets, f))).length : 0 }));
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const initial = files.filter((x) => html.includes(x.f));
  const kb = (n: number) => Math.round(n / 102.4) / 10;
  return {
    totalJsCssKb: kb(files.filter((x) => x.gz).reduce((a, x) => a + x.bytes, 0)),
    initialKb: kb(initial.reduce((a, x) => a + x.bytes, 0)),
    initialGzipKb: kb(initial.reduce((a, x) => a + x.gz, 0)),
    initialFiles: initial.map((x) => x.f),
    largestLazyChunk: files.filter((x) => x.gz && !html.includes(x.f)).sort((a, b) => b.bytes - a.bytes)[0]?.f,
  };
}

async function coldHome(b: Awaited<ReturnType<typeof launch>>) {
  const t0 = performance.now();
  const server = await startServer();
  const listening = performance.now() - t0;
  const nav0 = performance.now();
  await b.page.goto(`${server.url}/#/`);
  await b.page.locator('text=本日の作業予定').waitFor();
  await b.page.locator('table.t tbody tr').first().waitFor();
  const homeReady = performance.now() - nav0;
  const paint = await b.page.evaluate(() => Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, Math.round(e.startTime)])));
  await server.stop();
  return { serverStartMs: Math.round(listening), homeWithDataMs: Math.round(homeReady), coldTotalMs: Math.round(listening + homeReady), paint };
}

async function ledgerScroll(b: Awaited<ReturnType<typeof launch>>, n: number) {
  const server = await startServer();
  const devices = Array.from({ length: n }, (_, i) => ({
    imei: generateImei(),
    serial: `IP16-${String(i + 1).padStart(6, '0')}`,
    asset: `HK-26-${i + 1}`,
    model: ['iPhone 16', 'iPhone 15', 'iPad Air', 'Pixel 8a', 'Galaxy A55'][i % 5],
    maker: 'Apple',
    cust: ['ABC物流株式会社', '日新産業建設株式会社', '株式会社サンプル商事', '東海メディカルサービス株式会社'][i % 4],
    mdm: 'Microsoft Intune',
    status: ['保管中', '作業中', '入荷待ち', '出荷済'][i % 4],
    chip: ['c-blue', 'c-cyan', 'c-gray', 'c-green'][i % 4],
    bat: 100 - (i % 30),
    loc: `棚${String.fromCharCode(65 + (i % 8))}-${i % 50}`,
    user: i % 3 ? '' : '山田 太郎',
    note: '',
  }));
  const body = JSON.stringify({ ok: true, devices, count: n });
  await b.page.route('**/api/devices', (route) => route.fulfill({ status: 200, contentType: 'application/json', body }));
  const t0 = performance.now();
  await b.page.goto(`${server.url}/#/ledger`);
  await b.page.getByTestId('ledger-list').waitFor();
  const loadMs = Math.round(performance.now() - t0);
  // A string, not a function: tsx would inject helpers (__name) the page does not have.
  const r = (await b.page.evaluate(SCROLL_PROBE)) as Record<string, number>;
  const t1 = performance.now();
  await b.page.getByLabel('検索').fill('HK-26-99999');
  await b.page.getByTestId('ledger-count').getByText(/^1 \//).waitFor();
  const searchMs = Math.round(performance.now() - t1);
  await b.page.unroute('**/api/devices');
  await server.stop();
  return { devices: n, loadAndRenderMs: loadMs, searchMs, scroll: r };
}

const b = await launch();
try {
  const result = { at: new Date().toISOString(), build: buildSize(), coldHome: await coldHome(b), ledger: await ledgerScroll(b, 100_000) };
  mkdirSync(join(ROOT, 'perf', 'out'), { recursive: true });
  writeFileSync(join(ROOT, 'perf', 'out', 'ui.json'), JSON.stringify(result, null, 2));
  console.log(JSON.stringify(result, null, 2));
} finally {
  await b.close();
}
