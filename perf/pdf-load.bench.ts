/**
 * PDF load benchmark (not a test): `npx tsx perf/pdf-load.bench.ts`.
 * /healthz latency while three certificates of 5,000 devices (the contract's maximum) render as PDF at
 * once, against /healthz latency with the server idle, in the same run and process. PDF rendering runs in
 * worker threads (server/kitting/modules/documents/pdf-pool.ts); the target is a p99 under 50 ms under load.
 */
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../server/kitting/app';
import { testConfig } from '../server/kitting/testing/config.testkit';
import { SqliteStore } from '../server/kitting/store/sqlite-store';
import { closePdfPool } from '../server/kitting/modules/documents/pdf-pool';
import { CERT_MAX_DEVICES } from '../shared/api/contracts/certs-labels';
import { call, listen } from './http-client.testkit';

const IDLE_SAMPLES = Number(process.env.PERF_IDLE ?? 300);
const PDFS = Number(process.env.PERF_PDFS ?? 3);
/** Pause between two /healthz calls under load (ms). */
const GAP = 10;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};
const fmt = (xs: number[]) => `n=${xs.length} p50=${pct(xs, 50).toFixed(1)} ms p99=${pct(xs, 99).toFixed(1)} ms max=${Math.max(...xs).toFixed(1)} ms`;

async function timed(agent: Agent, port: number, path: string): Promise<number> {
  const t = performance.now();
  const r = await call(agent, port, 'GET', path);
  if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
  return performance.now() - t;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kitting-pdf-load-'));
  const store = new SqliteStore({ file: join(dir, 'kitting.db') });
  const { app } = await createApp({ store, config: testConfig({ dataDir: dir, mode: 'bench' }) });
  const { server, port } = await listen(app);
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  try {
    const devices = Array.from({ length: CERT_MAX_DEVICES }, (_, i) => ({ model: 'iPhone 15', id: `35${String(i).padStart(13, '0')}`, storage: '128GB' }));
    const nos: string[] = [];
    for (let i = 0; i < PDFS; i += 1) {
      const body = JSON.stringify({ cust: `負荷試験株式会社${i}`, devices });
      const r = await new Promise<string>((resolve, reject) => {
        const req = postCert(port, body, resolve, reject);
        req.end(body);
      });
      nos.push((JSON.parse(r) as { cert: { no: string } }).cert.no);
    }
    // warm-up: JIT, the font, one worker
    for (let i = 0; i < 50; i += 1) await timed(agent, port, '/healthz');

    const idle: number[] = [];
    for (let i = 0; i < IDLE_SAMPLES; i += 1) {
      idle.push(await timed(agent, port, '/healthz'));
      await new Promise((r) => setTimeout(r, GAP));
    }

    const loaded: number[] = [];
    let pending = nos.length;
    const t0 = performance.now();
    const renders = nos.map((no) =>
      timed(agent, port, `/api/cert/${encodeURIComponent(no)}/pdf`).finally(() => {
        pending -= 1;
      }),
    );
    while (pending > 0) {
      loaded.push(await timed(agent, port, '/healthz'));
      await new Promise((r) => setTimeout(r, GAP));
    }
    const renderMs = await Promise.all(renders);
    const wall = performance.now() - t0;

    console.log(`PDF load benchmark: ${PDFS} certificates of ${CERT_MAX_DEVICES} devices rendering at once`);
    console.log(`  /healthz idle:        ${fmt(idle)}`);
    console.log(`  /healthz under load:  ${fmt(loaded)}`);
    console.log(`  PDF renders: ${renderMs.map((m) => `${(m / 1000).toFixed(1)} s`).join(', ')} (all done after ${(wall / 1000).toFixed(1)} s)`);
    console.log(`  p99 under load ${pct(loaded, 99) < 50 ? 'meets' : 'MISSES'} the 50 ms target (idle p99 ${pct(idle, 99).toFixed(1)} ms)`);
  } finally {
    agent.destroy();
    server.close();
    await closePdfPool();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function postCert(port: number, body: string, resolve: (s: string) => void, reject: (e: unknown) => void) {
  const req = request(
    { host: '127.0.0.1', port, method: 'POST', path: '/api/cert', headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } },
    (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`POST /api/cert: ${res.statusCode} ${text.slice(0, 200)}`))));
    },
  );
  req.on('error', reject);
  return req;
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
