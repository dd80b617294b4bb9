/**
 * Inbound lists (not a test): `npx tsx perf/inbound.bench.ts`.
 * On a bench (SQLite, over loopback HTTP): imports a 10,000-row Shift_JIS CSV and a 10,000-row XLSX through
 * POST /api/inbound, each timed, with the growth of resident memory (peak during the import over the level
 * before it) and the longest event-loop stall measured meanwhile. Then scans 2,000 IMEIs of the 10,000-line
 * list (POST /api/inbound/{id}/scan, each registering a device) against 2,000 plain registrations
 * (POST /api/device with the fields the receiving session sends) in the same run: after 100 untimed of each,
 * in pairs (a scan next to a registration, which one goes first alternating), and prints the ratio of the two
 * rates (requests over the time they took).
 * Targets: each import under 2 s, RSS growth under 150 MB, scan rate / registration rate ≥ 0.8.
 * Also prints the longest event-loop stall of the paired run and the write-ahead-log copies made meanwhile on
 * the checkpoint worker (PERF_WAL_WORKER=0: none, SQLite's own checkpoint in the committing request, as before).
 * PERF_ROWS / PERF_SCANS / PERF_SEGMENTS change the sizes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createApp } from '../server/kitting/app';
import { testConfig } from '../server/kitting/testing/config.testkit';
import { SqliteStore } from '../server/kitting/store/sqlite-store';
import { b64, csvFile, noticeRows, testImei, xlsxFile } from '../server/kitting/modules/inbound/inbound.testkit';
import { call, listen } from './http-client.testkit';
import { RECEIVED_STATUS } from '../shared/devices';

const ROWS = Number(process.env.PERF_ROWS ?? 10_000);
const SCANS = Number(process.env.PERF_SCANS ?? 2_000);
/** Parts of the paired run whose ratios are printed; untimed scans and registrations before it. */
const SEGMENTS = Number(process.env.PERF_SEGMENTS ?? 8);
const WARM_UP = 100;

const root = mkdtempSync(join(tmpdir(), 'kitting-inbound-bench-'));
const walWorker = process.env.PERF_WAL_WORKER !== '0';
const store = new SqliteStore({ file: join(root, 'kitting.db'), ...(walWorker ? {} : { checkpointEvery: false as const }) });
const { app } = await createApp({ store, config: testConfig({ dataDir: root, mode: 'bench' }) });
const { server, port } = await listen(app);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

async function post(path: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

async function timedImport(label: string, file: Buffer, filename: string): Promise<{ id: string; ms: number; rssMb: number; stallMs: number }> {
  const body = { name: `${label} ${ROWS}行`, cust: 'ベンチ株式会社', filename, file: b64(file) };
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const t0 = performance.now();
  const r = await post('/api/inbound', body);
  const ms = performance.now() - t0;
  loop.disable();
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  if (r.status !== 200) throw new Error(`${label}: ${r.status} ${r.text.slice(0, 300)}`);
  const parsed = JSON.parse(r.text) as { inbound: { id: string; counts: { expected: number } } };
  if (parsed.inbound.counts.expected !== ROWS) throw new Error(`${label}: ${parsed.inbound.counts.expected} lines stored`);
  return { id: parsed.inbound.id, ms, rssMb: (peak - before) / 1024 / 1024, stallMs: loop.max / 1e6 };
}

const fmt = (n: number, d = 0) => n.toFixed(d);
try {
  await post('/api/device', { model: 'warm-up' });
  const csv = csvFile(noticeRows(ROWS, 0), { encoding: 'shift_jis' });
  const xlsx = await xlsxFile([{ name: '入荷明細', rows: noticeRows(ROWS, 100_000) }]);
  const c = await timedImport('Shift_JIS CSV', csv, 'notice-sjis.csv');
  const x = await timedImport('XLSX', xlsx, 'notice.xlsx');
  console.log(`import ${ROWS} rows  Shift_JIS CSV (${fmt(csv.length / 1024)} KB): ${fmt(c.ms)} ms, RSS +${fmt(c.rssMb)} MB, longest event-loop stall ${fmt(c.stallMs)} ms`);
  console.log(`import ${ROWS} rows  XLSX (${fmt(xlsx.length / 1024)} KB):          ${fmt(x.ms)} ms, RSS +${fmt(x.rssMb)} MB, longest event-loop stall ${fmt(x.stallMs)} ms`);

  // Scans of listed IMEIs vs plain registrations of new IMEIs, paired: each scan runs next to a registration,
  // the order alternating within the pairs (scan first, registration first, ...), so both sides see the same
  // machine from one moment to the next (another user's suite starting, a checkpoint, GC) and neither always
  // runs first. Each side's rate is its requests over the time its requests took. The run is cut into
  // SEGMENTS equal parts and each part's ratio printed too, to show how steady it was. A short untimed
  // warm-up of both first.
  let scanned = 0;
  let registered = 0;
  const scanOne = async () => {
    const r = await call(agent, port, 'POST', `/api/inbound/${c.id}/scan`, JSON.stringify({ imei: testImei(scanned++) }));
    if (r.status !== 200) throw new Error(`scan answered ${r.status}`);
  };
  const registerOne = async () => {
    const imei = testImei(registered++, '35877700');
    // What the receiving session sends for a scan (deviceBody in renderer/src/lib/register-values.ts).
    const r = await call(agent, port, 'POST', '/api/device', JSON.stringify({ imei, model: 'iPhone 15', cust: 'ベンチ株式会社', mdm: 'Jamf Pro', status: RECEIVED_STATUS, loc: '' }));
    if (r.status !== 200) throw new Error(`registration answered ${r.status}`);
  };
  const timed = async (one: () => Promise<void>) => {
    const t0 = performance.now();
    await one();
    return performance.now() - t0;
  };
  for (let i = 0; i < WARM_UP; i++) {
    await scanOne();
    await registerOne();
  }
  const per = Math.max(1, Math.floor(SCANS / SEGMENTS));
  const passesBefore = store.checkpointer?.stats.passes ?? 0;
  const loop = monitorEventLoopDelay({ resolution: 2 });
  loop.enable();
  const segments: { scanMs: number; regMs: number }[] = [];
  for (let seg = 0; seg < SEGMENTS; seg++) {
    let scanMs = 0;
    let regMs = 0;
    for (let i = 0; i < per; i++) {
      if (i % 2 === 0) {
        scanMs += await timed(scanOne);
        regMs += await timed(registerOne);
      } else {
        regMs += await timed(registerOne);
        scanMs += await timed(scanOne);
      }
    }
    segments.push({ scanMs, regMs });
  }
  loop.disable();
  const total = (k: 'scanMs' | 'regMs') => segments.reduce((a, x) => a + x[k], 0);
  const n = per * SEGMENTS;
  const scanRate = n / (total('scanMs') / 1000);
  const regRate = n / (total('regMs') / 1000);
  console.log(`ratio per part of ${per} pairs: ${segments.map((x) => fmt(x.regMs / x.scanMs, 2)).join(' ')}`);
  console.log(`scan against a ${ROWS}-line list: ${fmt(scanRate)} scans/s; plain registration: ${fmt(regRate)} devices/s (${n} of each, paired); ratio ${fmt(scanRate / regRate, 2)}`);
  const passes = (store.checkpointer?.stats.passes ?? 0) - passesBefore;
  console.log(`paired run: longest event-loop stall ${fmt(loop.max / 1e6, 1)} ms; write-ahead log copied on the worker ${passes} times${walWorker ? '' : ' (worker off)'}`);
  const pass = c.ms < 2000 && x.ms < 2000 && c.rssMb < 150 && x.rssMb < 150 && scanRate / regRate >= 0.8;
  console.log(pass ? 'targets met' : 'TARGETS MISSED (import < 2 s, RSS growth < 150 MB, ratio ≥ 0.8)');
  process.exitCode = pass ? 0 : 1;
} finally {
  agent.destroy();
  (server as import('node:http').Server).closeAllConnections();
  server.close();
  store.close();
  rmSync(root, { recursive: true, force: true });
}
