/**
 * UI performance: build size, bench home first paint from a cold server start, and ledger
 * scrolling with 100,000 devices in headless Chromium (Performance API / rAF frame times).
 * Also scan-to-feedback latency in the receiving session (new and known IMEI, 178 seeded devices
 * and 20,000) and 100 scans at scanner speed. `--scan` runs only the scan figures.
 * Run: npm run build:ui && npx tsx perf/ui.bench.ts   (not part of the test suite)
 */
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { generateImei } from '../shared/imei';
import { ROOT, launch, startServer } from '../e2e/harness.testkit';

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

/**
 * In the page: resolve with ms from the Enter key event (its timeStamp) to the next frame after the
 * last-scan panel shows `imei` in `state`.
 */
const feedbackProbe = (imei: string, state: string) => `new Promise((resolve) => {
  let t0;
  const onKey = (e) => { if (e.key === 'Enter' && t0 === undefined) t0 = e.timeStamp; };
  window.addEventListener('keydown', onKey, true);
  const el = document.querySelector('[data-testid="last-scan"]');
  const check = () => {
    if (t0 === undefined || el.dataset.state !== ${JSON.stringify(state)} || !el.textContent.includes(${JSON.stringify(imei)})) return;
    mo.disconnect();
    window.removeEventListener('keydown', onKey, true);
    requestAnimationFrame(() => resolve(performance.now() - t0));
  };
  const mo = new MutationObserver(check);
  mo.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
})`;

/** Baselines in the same page: one frame after a key event, and a bare POST /api/device round trip. */
const FRAME_BASELINE = `new Promise((resolve) => { const t0 = performance.now(); requestAnimationFrame(() => resolve(performance.now() - t0)); })`;
const postBaseline = (imei: string) => `(async () => { const t0 = performance.now(); await fetch('/api/device', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ imei: ${JSON.stringify(imei)}, model: 'iPhone 15', cust: 'ABC物流株式会社', mdm: 'Intune' }) }); return performance.now() - t0; })()`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, x) => a - x);
  return Math.round((s[Math.floor(s.length / 2)] ?? 0) * 10) / 10;
};

async function scanLatency(b: Awaited<ReturnType<typeof launch>>, n: number) {
  const server = await startServer();
  const known: string[] = [];
  for (let left = n - 178; left > 0; left -= 1000) {
    const r = await b.context.request.post(`${server.url}/api/devices/bulk`, { data: { qty: Math.min(1000, left), model: 'iPhone 15', cust: 'ABC物流株式会社', mdm: 'Intune' } });
    const body = (await r.json()) as { created: { imei: string }[] };
    known.push(...body.created.slice(0, 5).map((d) => d.imei));
  }
  if (known.length === 0) known.push('353795089752529');
  const { page } = b;
  await page.goto(`${server.url}/#/receiving`);
  await page.locator('#rc-model').fill('iPhone 15');
  await page.locator('#rc-cust').fill('ABC物流株式会社');
  await page.locator('#rc-mdm').selectOption('Intune');
  await page.getByTestId('receiving-start').click();
  await page.getByTestId('receiving-values').waitFor();
  const scanOnce = async (imei: string, state: string) => {
    const p = page.evaluate(feedbackProbe(imei, state)) as Promise<number>;
    await page.keyboard.type(imei, { delay: 8 });
    await page.keyboard.press('Enter');
    return p;
  };
  const fresh: number[] = [];
  const dup: number[] = [];
  const frame: number[] = [];
  const post: number[] = [];
  for (let i = 0; i < 15; i++) {
    fresh.push(await scanOnce(generateImei(), 'ok'));
    dup.push(await scanOnce(known[i % known.length] ?? '', 'duplicate'));
    frame.push((await page.evaluate(FRAME_BASELINE)) as number);
    post.push((await page.evaluate(postBaseline(generateImei()))) as number);
  }
  // Known IMEI on the ledger: Enter → the device's editor is shown.
  await page.goto(`${server.url}/#/ledger`);
  await page.getByTestId('ledger-list').waitFor();
  const ledgerKnown: number[] = [];
  for (let i = 0; i < 10; i++) {
    const imei = known[i % known.length] ?? '';
    const probe = `new Promise((resolve) => { let t0; const on = (e) => { if (e.key === 'Enter' && t0 === undefined) t0 = e.timeStamp; }; window.addEventListener('keydown', on, true);
      const tick = () => { const ed = document.querySelector('[data-testid="device-editor"]'); if (t0 !== undefined && ed && ed.textContent.includes(${JSON.stringify(imei)})) { window.removeEventListener('keydown', on, true); requestAnimationFrame(() => resolve(performance.now() - t0)); } else requestAnimationFrame(tick); }; tick(); })`;
    const p = page.evaluate(probe) as Promise<number>;
    await page.keyboard.type(imei, { delay: 8 });
    await page.keyboard.press('Enter');
    ledgerKnown.push(await p);
    await page.keyboard.press('Escape');
  }
  await server.stop();
  return {
    devices: n,
    newImeiMs: median(fresh),
    knownImeiDuplicateMs: median(dup),
    ledgerKnownOpenMs: median(ledgerKnown),
    baselineFrameMs: median(frame),
    baselinePostMs: median(post),
    newVsBarePost: Math.round((median(fresh) / Math.max(0.1, median(post))) * 100) / 100,
  };
}

/** 100 new IMEIs at scanner speed (8 ms per key, Enter after each): how many registered. */
async function scanBurst(b: Awaited<ReturnType<typeof launch>>) {
  const server = await startServer();
  const { page } = b;
  await page.goto(`${server.url}/#/receiving`);
  await page.locator('#rc-model').fill('iPhone 15');
  await page.locator('#rc-cust').fill('ABC物流株式会社');
  await page.locator('#rc-mdm').selectOption('Intune');
  await page.getByTestId('receiving-start').click();
  await page.getByTestId('receiving-values').waitFor();
  const imeis = Array.from({ length: 100 }, () => generateImei());
  const t0 = performance.now();
  for (const imei of imeis) {
    await page.keyboard.type(imei, { delay: 8 });
    await page.keyboard.press('Enter');
  }
  const typedMs = performance.now() - t0;
  await page.getByTestId('receiving-count').locator('b').getByText('100', { exact: true }).waitFor({ timeout: 120_000 });
  const doneMs = performance.now() - t0;
  const stored = new Set(((await (await b.context.request.get(`${server.url}/api/devices`)).json()) as { devices: { imei: string }[] }).devices.map((d) => d.imei));
  await server.stop();
  return { scans: 100, registered: imeis.filter((x) => stored.has(x)).length, lost: imeis.filter((x) => !stored.has(x)).length, typingMs: Math.round(typedMs), allRegisteredMs: Math.round(doneMs) };
}

const b = await launch();
try {
  const scanOnly = process.argv.includes('--scan');
  const scan = { latency100: await scanLatency(b, 178), latency20k: await scanLatency(b, 20_000), burst100: await scanBurst(b) };
  const result = scanOnly
    ? { at: new Date().toISOString(), scan }
    : { at: new Date().toISOString(), build: buildSize(), coldHome: await coldHome(b), ledger: await ledgerScroll(b, 100_000), scan };
  mkdirSync(join(ROOT, 'perf', 'out'), { recursive: true });
  writeFileSync(join(ROOT, 'perf', 'out', 'ui.json'), JSON.stringify(result, null, 2));
  console.log(JSON.stringify(result, null, 2));
} finally {
  await b.close();
}
