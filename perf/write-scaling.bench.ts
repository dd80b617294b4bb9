/**
 * Write-scaling benchmark (not a test): `npx tsx perf/write-scaling.bench.ts`.
 * POST /api/device requests/s with 1,000, 10,000 and 100,000 devices in the workspace, in bench and
 * in central mode, each against a floor measured in the same run at the same size: bare express +
 * better-sqlite3, one row inserted per POST into a table holding as many rows. Every server runs in
 * its own process (NODE_ENV=production, request log off); this process is the client (16 requests in
 * flight over keep-alive connections). Floor and full stack take turns, round by round, so load from
 * elsewhere on the machine falls on both. Prints requests/s, the ratio at each size and the targets.
 */
import Database from 'better-sqlite3';
import express from 'express';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateImei } from '../shared/imei';
import { createApp } from '../server/app';
import { readConfig, type Mode } from '../server/config';
import { seedSpecs } from '../server/modules/seeds';
import { P, PLATFORM_WS, registerWorkspace } from '../server/security/platform';
import { tidCookie } from '../server/http/workspace';
import { ensureWorkspace } from '../server/store/seed';
import { SqliteStore } from '../server/store/sqlite-store';
import { drive, listen } from './http-client';

const SIZES = (process.env.PERF_SIZES ?? '1000,10000,100000').split(',').map(Number);
const REQUESTS = Number(process.env.PERF_REQUESTS ?? 1000);
const ROUNDS = Number(process.env.PERF_ROUNDS ?? 3);
const CONCURRENCY = 16;
const WARMUP = 500;
const MODES: Mode[] = (process.env.PERF_MODES ?? 'bench,central').split(',') as Mode[];

type Kind = 'floor' | Mode;
type ToServer = { fill: number };
type FromServer = { ready: { port: number; cookie: string | null } } | { filled: number };

const deviceBody = (i: number) => JSON.stringify({ model: 'iPhone 16', cust: 'ベンチ株式会社', status: '保管中', loc: `A-${i % 50}`, note: `perf ${i}` });
const fillDoc = (imei: string, i: number) => ({
  imei, serial: `IP16-${i}`, asset: `HK-26-F${i}`, model: 'iPhone 16', maker: 'Apple', cust: 'ベンチ株式会社', mdm: 'Microsoft Intune',
  status: '保管中', chip: 'c-blue', bat: 100, loc: 'A-01-01', user: '', note: '', created: 1_780_000_000_000, updated: 1_780_000_000_000,
});

// ---- server processes ----

/** Bare express + better-sqlite3: the floor. */
async function floorServer(dir: string): Promise<{ port: number; fill: (n: number) => number }> {
  const db = new Database(join(dir, 'floor.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE devices (imei TEXT PRIMARY KEY, data TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO devices (imei, data) VALUES (?, ?)');
  let rows = 0;
  const app = express();
  app.use(express.json());
  app.post('/api/device', (req, res) => {
    const imei = generateImei();
    const device = { imei, ...req.body };
    insert.run(imei, JSON.stringify(device));
    rows += 1;
    res.json({ ok: true, device });
  });
  const { port } = await listen(app);
  const fill = db.transaction((n: number) => {
    for (; rows < n; rows++) {
      const imei = generateImei();
      insert.run(imei, JSON.stringify(fillDoc(imei, rows)));
    }
    return rows;
  });
  return { port, fill };
}

/** The product in bench or central mode; central serves a tenant on a plan (checked on every device write). */
async function stackServer(dir: string, mode: Mode): Promise<{ port: number; cookie: string | null; fill: (n: number) => Promise<number> }> {
  const store = new SqliteStore({ file: join(dir, 'kitting.db') });
  const config = readConfig({ NODE_ENV: 'production', KITTING_MODE: mode, KITTING_LOG: '0', KITTING_DATA_DIR: dir, PORT: '0' });
  const { app, ctx } = await createApp({ store, config, secret: randomBytes(32) });
  let ws = ctx.benchWorkspace;
  let cookie: string | null = null;
  if (!ws) {
    ws = `w-${randomBytes(8).toString('hex')}`;
    await ensureWorkspace(store, ws, 'anonymous', seedSpecs);
    await registerWorkspace(ctx, ws, 'anonymous');
    await store.transact(PLATFORM_WS, (tx) => tx.patch(P.tenants, ws as string, { planKey: 'enterprise' }));
    cookie = tidCookie(ctx, ws).split(';')[0] as string;
  }
  const { port } = await listen(app);
  const target = ws;
  const fill = async (n: number) => {
    for (let have = await store.count(target, 'devices'); have < n; have = await store.count(target, 'devices')) {
      const upto = Math.min(n, have + 10_000);
      await store.transact(target, async (tx) => {
        for (let i = have; i < upto; i++) {
          const imei = generateImei();
          await tx.put('devices', imei, fillDoc(imei, i));
        }
      });
    }
    return store.count(target, 'devices');
  };
  return { port, cookie, fill };
}

async function serve(kind: Kind): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `kitting-scale-${kind}-`));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  process.on('disconnect', () => process.exit(0));
  const s = kind === 'floor' ? { ...(await floorServer(dir)), cookie: null } : await stackServer(dir, kind);
  process.on('message', (m: ToServer) => {
    void Promise.resolve(s.fill(m.fill)).then((filled) => process.send?.({ filled } satisfies FromServer));
  });
  process.send?.({ ready: { port: s.port, cookie: s.cookie } } satisfies FromServer);
}

// ---- the client ----

interface Remote {
  kind: Kind;
  port: number;
  headers: Record<string, string>;
  fill(n: number): Promise<number>;
  stop(): void;
}

function start(kind: Kind): Promise<Remote> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['serve', kind], {
    env: { ...process.env, NODE_ENV: 'production', KITTING_LOG: '0' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', (m: FromServer) => {
      if (!('ready' in m)) return reject(new Error(`${kind}: unexpected ${JSON.stringify(m)}`));
      resolve({
        kind,
        port: m.ready.port,
        headers: m.ready.cookie ? { cookie: m.ready.cookie } : {},
        fill: (n) =>
          new Promise((done) => {
            child.once('message', (r: FromServer) => done('filled' in r ? r.filled : -1));
            child.send({ fill: n } satisfies ToServer);
          }),
        stop: () => child.kill('SIGTERM'),
      });
    });
  });
}

const post = (r: Remote, count: number) => drive(r.port, '/api/device', deviceBody, { count, concurrency: CONCURRENCY, headers: r.headers });

interface Row {
  mode: Mode;
  size: number;
  floor: number;
  stack: number;
}

async function measureMode(mode: Mode): Promise<Row[]> {
  const [floor, stack] = await Promise.all([start('floor'), start(mode)]);
  try {
    await post(floor, WARMUP);
    await post(stack, WARMUP);
    const rows: Row[] = [];
    for (const size of SIZES) {
      const [f, s] = await Promise.all([floor.fill(size), stack.fill(size)]);
      let floorSecs = 0;
      let stackSecs = 0;
      for (let round = 0; round < ROUNDS; round++) {
        // alternate who goes first, so a burst of load elsewhere does not always hit the same one
        const order = round % 2 === 0 ? [floor, stack] : [stack, floor];
        for (const r of order) {
          const secs = REQUESTS / (await post(r, REQUESTS));
          if (r === floor) floorSecs += secs;
          else stackSecs += secs;
        }
      }
      const row = { mode, size, floor: (REQUESTS * ROUNDS) / floorSecs, stack: (REQUESTS * ROUNDS) / stackSecs };
      console.log(
        `${mode.padEnd(7)} ${size.toLocaleString('en').padStart(7)} devices (floor table ${f.toLocaleString('en')}, workspace ${s.toLocaleString('en')}): ` +
          `floor ${row.floor.toFixed(0)} req/s, POST /api/device ${row.stack.toFixed(0)} req/s, ${((row.stack / row.floor) * 100).toFixed(1)} %`,
      );
      rows.push(row);
    }
    return rows;
  } finally {
    floor.stop();
    stack.stop();
  }
}

async function main(): Promise<void> {
  console.log(`${REQUESTS} POSTs x ${ROUNDS} rounds per server and size, ${CONCURRENCY} in flight, after ${WARMUP} warm-up; each size adds ${REQUESTS * ROUNDS} devices while measured`);
  const all: Row[] = [];
  for (const mode of MODES) all.push(...(await measureMode(mode)));
  console.log('\n| mode | devices | floor req/s | POST /api/device req/s | of floor | vs ratio at 1,000 |');
  console.log('|---|---|---|---|---|---|');
  for (const r of all) {
    const first = all.find((x) => x.mode === r.mode && x.size === SIZES[0]) as Row;
    const ratio = r.stack / r.floor;
    const drift = (ratio / (first.stack / first.floor) - 1) * 100;
    console.log(`| ${r.mode} | ${r.size.toLocaleString('en')} | ${r.floor.toFixed(0)} | ${r.stack.toFixed(0)} | ${(ratio * 100).toFixed(1)} % | ${r.size === SIZES[0] ? '–' : `${drift >= 0 ? '+' : ''}${drift.toFixed(1)} %`} |`);
  }
  console.log('targets: at least 50 % of the floor at every size; the ratio at 100,000 within 15 % of the ratio at 1,000');
}

if (process.argv[2] === 'serve') {
  serve(process.argv[3] as Kind).catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
