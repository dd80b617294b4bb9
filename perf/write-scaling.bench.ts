/**
 * Write-scaling benchmark (not a test): `npx tsx perf/write-scaling.bench.ts`.
 * POST /api/device requests/s with 1,000, 10,000 and 100,000 devices in the workspace, in bench and
 * in central mode, each against a floor measured in the same run at the same size: bare express +
 * better-sqlite3, one row inserted per POST into a table holding as many rows. Every server runs in
 * its own process (NODE_ENV=production, request log off); this process is the client (16 requests in
 * flight over keep-alive connections). Each round runs a burst against the floor and one against the full
 * stack back to back (who goes first alternates), so load from elsewhere on the machine falls on both; the
 * ratio at a size is the median of the rounds' ratios, so one burst of outside load cannot move it.
 * Prints requests/s (wall clock) and requests per CPU-second of each server process (what a write costs,
 * little affected by other load), each round's ratio, the medians and the targets.
 */
import Database from 'better-sqlite3';
import express from 'express';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { generateImei } from '../shared/imei';
import { createApp } from '../server/kitting/app';
import { readConfig, type Mode } from '../server/kitting/server-config';
import { seedSpecs } from '../server/kitting/modules/seeds';
import { P, PLATFORM_WS } from '../server/kitting/security/platform';
import { registerWorkspace } from '../server/kitting/security/tenants';
import { tidCookie } from '../server/kitting/http/workspace';
import { ensureWorkspace } from '../server/kitting/store/seed';
import { SqliteStore } from '../server/kitting/store/sqlite-store';
import { drive, listen } from './http-client.testkit';

const SIZES = (process.env.PERF_SIZES ?? '1000,10000,100000').split(',').map(Number);
const REQUESTS = Number(process.env.PERF_REQUESTS ?? 1000);
const ROUNDS = Number(process.env.PERF_ROUNDS ?? 15);
const CONCURRENCY = 16;
/** Requests that bring each server to steady state (JIT, caches); their rows are removed before measuring. */
const WARMUP = Number(process.env.PERF_WARMUP ?? 3000);
const MODES: Mode[] = (process.env.PERF_MODES ?? 'bench,central').split(',') as Mode[];

type Kind = 'floor' | Mode;
type ToServer = { fill: number } | { purge: true } | { cpu: true } | { profile: string | null };
type FromServer = { ready: { port: number; cookie: string | null } } | { value: number };

const deviceBody = (i: number) => JSON.stringify({ model: 'iPhone 16', cust: 'ベンチ株式会社', status: '保管中', loc: `A-${i % 50}`, note: `perf ${i}` });
const fillDoc = (imei: string, i: number) => ({
  imei, serial: `IP16-${i}`, asset: `HK-26-F${i}`, model: 'iPhone 16', maker: 'Apple', cust: 'ベンチ株式会社', mdm: 'Microsoft Intune',
  status: '保管中', chip: 'c-blue', bat: 100, loc: 'A-01-01', user: '', note: '', created: 1_780_000_000_000, updated: 1_780_000_000_000,
});

// ---- server processes ----

/** Bare express + better-sqlite3: the floor. */
async function floorServer(dir: string): Promise<{ port: number; fill: (n: number) => number; purge: () => number }> {
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
  const purge = () => {
    db.exec('DELETE FROM devices');
    rows = 0;
    return rows;
  };
  const fill = db.transaction((n: number) => {
    for (; rows < n; rows++) {
      const imei = generateImei();
      insert.run(imei, JSON.stringify(fillDoc(imei, rows)));
    }
    return rows;
  });
  return { port, fill, purge };
}

/** The product in bench or central mode; central serves a tenant on a plan (checked on every device write). */
async function stackServer(
  dir: string,
  mode: Mode,
): Promise<{ port: number; cookie: string | null; fill: (n: number) => Promise<number>; purge: () => Promise<number> }> {
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
  // The warm-up's devices (note "perf …") leave the database entirely, change log included.
  const purge = async () => {
    store.db.exec(`
      DELETE FROM changes WHERE coll = 'devices' AND id IN (SELECT id FROM records WHERE coll = 'devices' AND json_extract(data, '$.note') LIKE 'perf %');
      DELETE FROM records WHERE coll = 'devices' AND json_extract(data, '$.note') LIKE 'perf %';`);
    return store.count(target, 'devices');
  };
  return { port, cookie, fill, purge };
}

/**
 * With PERF_PROFILE=<folder>, each product server records a V8 CPU profile of its measured rounds at
 * each size (warm-up and fill excluded): <folder>/<mode>-<size>.cpuprofile.
 */
const profiler = { session: null as Session | null, name: '' };
function profile(name: string | null): number {
  if (!profiler.session) {
    profiler.session = new Session();
    profiler.session.connect();
  }
  const session = profiler.session;
  if (name) {
    session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 200 }, () => session.post('Profiler.start')));
    return 0;
  }
  let written = 0;
  session.post('Profiler.stop', (err, res) => {
    if (!err && process.env.PERF_PROFILE) {
      writeFileSync(join(process.env.PERF_PROFILE, `${profiler.name}.cpuprofile`), JSON.stringify(res.profile));
      written = 1;
    }
  });
  return written;
}

/** CPU time this server process has used (user + system), seconds. */
function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

async function serve(kind: Kind): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `kitting-scale-${kind}-`));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  process.on('disconnect', () => process.exit(0));
  // A clean exit on stop, so `node --cpu-prof` writes each server's profile.
  process.on('SIGTERM', () => process.exit(0));
  const s = kind === 'floor' ? { ...(await floorServer(dir)), cookie: null } : await stackServer(dir, kind);
  process.on('message', (m: ToServer) => {
    if ('profile' in m && m.profile) profiler.name = `${kind}-${m.profile}`;
    const answer = 'profile' in m ? profile(m.profile) : 'cpu' in m ? cpuSeconds() : 'purge' in m ? s.purge() : s.fill(m.fill);
    void Promise.resolve(answer).then((value) => process.send?.({ value } satisfies FromServer));
  });
  process.send?.({ ready: { port: s.port, cookie: s.cookie } } satisfies FromServer);
}

// ---- the client ----

interface Remote {
  kind: Kind;
  port: number;
  headers: Record<string, string>;
  fill(n: number): Promise<number>;
  /** Remove the devices the warm-up wrote; answers the devices left. */
  purge(): Promise<number>;
  /** CPU seconds the server process has used so far. */
  cpu(): Promise<number>;
  /** Start (name) or stop and write (null) the server's CPU profile. */
  profile(name: string | null): Promise<number>;
  stop(): void;
}

function start(kind: Kind): Promise<Remote> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['serve', kind], {
    env: { ...process.env, NODE_ENV: 'production', KITTING_LOG: '0' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    const ask = (m: ToServer) =>
      new Promise<number>((done) => {
        child.once('message', (r: FromServer) => done('value' in r ? r.value : -1));
        child.send(m);
      });
    child.once('message', (m: FromServer) => {
      if (!('ready' in m)) return reject(new Error(`${kind}: unexpected ${JSON.stringify(m)}`));
      resolve({
        kind,
        port: m.ready.port,
        headers: m.ready.cookie ? { cookie: m.ready.cookie } : {},
        fill: (n) => ask({ fill: n }),
        purge: () => ask({ purge: true }),
        cpu: () => ask({ cpu: true }),
        profile: (name) => ask({ profile: name }),
        stop: () => child.kill('SIGTERM'),
      });
    });
  });
}

const post = (r: Remote, count: number) => drive(r.port, '/api/device', deviceBody, { count, concurrency: CONCURRENCY, headers: r.headers });

interface Row {
  mode: Mode;
  size: number;
  /** Requests per second (wall clock), over all rounds. */
  floor: number;
  stack: number;
  /** Requests per CPU-second of the server process over all rounds: what one write costs, whatever else the machine runs. */
  floorCpu: number;
  stackCpu: number;
  /** Median over the rounds of product ÷ floor, each round's two bursts run back to back (wall clock, CPU). */
  ratio: number;
  cpuRatio: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/** One burst of REQUESTS posts: wall seconds and server CPU seconds. */
async function burst(r: Remote): Promise<{ wall: number; cpu: number }> {
  const cpu0 = await r.cpu();
  const wall = REQUESTS / (await post(r, REQUESTS));
  return { wall, cpu: (await r.cpu()) - cpu0 };
}

async function measureMode(mode: Mode): Promise<Row[]> {
  const [floor, stack] = await Promise.all([start('floor'), start(mode)]);
  try {
    await post(floor, WARMUP);
    await post(stack, WARMUP);
    await Promise.all([floor.purge(), stack.purge()]);
    const rows: Row[] = [];
    for (const size of SIZES) {
      const [f, s] = await Promise.all([floor.fill(size), stack.fill(size)]);
      const sum = { fw: 0, sw: 0, fc: 0, sc: 0 };
      const ratios: number[] = [];
      const cpuRatios: number[] = [];
      if (process.env.PERF_PROFILE) await stack.profile(`${size}-${rows.length}`);
      for (let round = 0; round < ROUNDS; round++) {
        // Alternate who goes first, so a burst of load elsewhere does not always hit the same one; each
        // round's ratio compares two bursts run back to back, under the same load.
        const [a, b] = round % 2 === 0 ? [floor, stack] : [stack, floor];
        const first = await burst(a);
        const second = await burst(b);
        const [fl, st] = a === floor ? [first, second] : [second, first];
        sum.fw += fl.wall;
        sum.sw += st.wall;
        sum.fc += fl.cpu;
        sum.sc += st.cpu;
        ratios.push(fl.wall / st.wall);
        cpuRatios.push(fl.cpu / st.cpu);
      }
      if (process.env.PERF_PROFILE) await stack.profile(null);
      const total = REQUESTS * ROUNDS;
      const row: Row = {
        mode, size,
        floor: total / sum.fw, stack: total / sum.sw, floorCpu: total / sum.fc, stackCpu: total / sum.sc,
        ratio: median(ratios), cpuRatio: median(cpuRatios),
      };
      console.log(
        `${mode.padEnd(7)} ${size.toLocaleString('en').padStart(7)} devices (floor table ${f.toLocaleString('en')}, workspace ${s.toLocaleString('en')}): ` +
          `floor ${row.floor.toFixed(0)} req/s, POST /api/device ${row.stack.toFixed(0)} req/s; per server CPU-second ${row.floorCpu.toFixed(0)} / ${row.stackCpu.toFixed(0)}; ` +
          `rounds (of floor): ${ratios.map((x) => `${(x * 100).toFixed(0)}`).join(' ')} %, median ${(row.ratio * 100).toFixed(1)} %`,
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
  console.log(`${REQUESTS} POSTs x ${ROUNDS} rounds per server and size, ${CONCURRENCY} in flight, after ${WARMUP} warm-up; warm-up rows removed; each size adds ${REQUESTS * ROUNDS} devices while measured`);
  const all: Row[] = [];
  for (const mode of MODES) all.push(...(await measureMode(mode)));
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const drift = (x: number, first: number) => `${x >= first ? '+' : ''}${((x / first - 1) * 100).toFixed(1)} %`;
  console.log('\n| mode | devices | floor req/s | POST /api/device req/s | of floor (median of rounds) | vs first size | floor req/CPU-s | POST req/CPU-s | of floor by CPU (median) | vs first size (CPU) |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of all) {
    const first = all.find((x) => x.mode === r.mode && x.size === SIZES[0]) as Row;
    const isFirst = r === first;
    console.log(
      `| ${r.mode} | ${r.size.toLocaleString('en')} | ${r.floor.toFixed(0)} | ${r.stack.toFixed(0)} | ${pct(r.ratio)} | ${isFirst ? '–' : drift(r.ratio, first.ratio)} ` +
        `| ${r.floorCpu.toFixed(0)} | ${r.stackCpu.toFixed(0)} | ${pct(r.cpuRatio)} | ${isFirst ? '–' : drift(r.cpuRatio, first.cpuRatio)} |`,
    );
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
