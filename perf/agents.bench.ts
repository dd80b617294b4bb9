/**
 * Agent Platform benchmark (not a test): `npm run perf:agents`.
 * (a) Public widget chat on both stores in one run, SQLite then PostgreSQL (a throwaway cluster, or the
 *     database TEST_DATABASE_URL names; the run creates and drops a database of its own there, so that
 *     role needs CREATEDB). Per store the platform runs in a child process of its own (perf/agents-server.ts)
 *     with an agent of 10,000 indexed passages and the local engine; 40 visitors chat through
 *     `POST /api/public/{id}/chat`, each from its own loopback address (127.0.0.2 …) and keeping its
 *     conversation, while a prober times `GET /api/billing/pricing` every 50 ms (one kept-alive connection from 127.0.0.1;
 *     the next probe goes at once when one took longer).
 *     Per store: turns/s, chat p50/p99, prober p50/p99, and the server's event-loop delay
 *     (perf_hooks.monitorEventLoopDelay inside the server process) over the measured window. Then the
 *     targets of issue 29 as MET/MISSED lines: PostgreSQL >= 70 % of SQLite's turns/s, and the event-loop
 *     delay p99 <= 50 ms on PostgreSQL under 40 visitors. The exit code is 0 whether or not they are met.
 * (b) PERF_RETRIEVAL=1: retrieval time (trigram FTS5 + scoring, SQLite) at 1,000 versus 100,000 passages.
 * Settings: PERF_SECONDS (measured window per store, default 15), PERF_WARM_SECONDS (3), PERF_VISITORS (40,
 * at most 200), PERF_PASSAGES (10,000), PERF_STORES (sqlite,postgres; empty skips the chat runs), PERF_RETRIEVAL_LARGE (100,000),
 * PERF_QUERIES (300).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { provisionPostgres, type PgCluster } from '../server/core/testing/pg-cluster.testkit';
import { createAgentsApp } from '../server/agents/app';
import { testAgentsConfig } from '../server/agents/config.testkit';
import { JA, NOUNS, VERBS, retrieve, rng, seedBenchAgent } from './agents-seed';
import type { FromServer, ToServer, WindowReport } from './agents-server';

const VISITORS = Math.min(200, Math.max(1, Number(process.env.PERF_VISITORS ?? 40)));
const SECONDS = Number(process.env.PERF_SECONDS ?? 15);
const WARM_SECONDS = Number(process.env.PERF_WARM_SECONDS ?? 3);
const PASSAGES = Number(process.env.PERF_PASSAGES ?? 10_000);
const QUERIES = Number(process.env.PERF_QUERIES ?? 300);
const PROBE_EVERY_MS = 50;
const STORES = (process.env.PERF_STORES ?? 'sqlite,postgres').split(',').map((s) => s.trim()).filter(Boolean) as Store[];
type Store = 'sqlite' | 'postgres';

const HERE = dirname(fileURLToPath(import.meta.url));

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};

// ---- the server child ----

interface Remote {
  port: number;
  publicId: string;
  questions: string[];
  indexSecs: number;
  start(): Promise<void>;
  stop(): Promise<WindowReport>;
  exit(): Promise<void>;
}

function startServer(store: Store, dir: string, databaseUrl: string): Promise<Remote> {
  const child: ChildProcess = fork(join(HERE, 'agents-server.ts'), [], {
    env: { ...process.env, NODE_ENV: 'production', BENCH_DIR: dir, BENCH_DATABASE_URL: databaseUrl, BENCH_PASSAGES: String(PASSAGES) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<FromServer>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`${store} server exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (m: FromServer) => {
        child.off('exit', onExit);
        if ('failed' in m) reject(new Error(`${store} server: ${m.failed}`));
        else resolve(m);
      });
    });
  const ask = (m: ToServer) => {
    const answer = next();
    child.send(m);
    return answer;
  };
  return next().then((m) => {
    if (!('ready' in m)) throw new Error(`${store} server: unexpected ${JSON.stringify(m)}`);
    return {
      ...m.ready,
      start: async () => void (await ask('start')),
      stop: async () => {
        const r = await ask('stop');
        if (!('stopped' in r)) throw new Error(`${store} server: unexpected ${JSON.stringify(r)}`);
        return r.stopped;
      },
      exit: () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.send('exit');
        }),
    };
  });
}

// ---- the load ----

function call(agent: Agent, port: number, method: 'GET' | 'POST', path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Visitor {
  agent: Agent;
  conversationId?: string;
  next: number;
}

/** Whether this host lets a socket bind 127.0.0.2 (Linux routes all of 127.0.0.0/8 to lo; macOS only 127.0.0.1). */
function loopbackRange(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: 9, localAddress: '127.0.0.2' });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code !== 'EADDRNOTAVAIL' && err.code !== 'EINVAL'));
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
  });
}

/** One visitor per loopback address 127.0.0.2 …, or all from 127.0.0.1 where the host has only that one. */
const visitors = (spread: boolean): Visitor[] =>
  Array.from({ length: VISITORS }, (_, i) => ({ agent: new Agent({ keepAlive: true, maxSockets: 1, ...(spread ? { localAddress: `127.0.0.${2 + i}` } : {}) }), next: i * 7 }));

interface Load {
  turns: number;
  secs: number;
  chat: number[];
  probe: number[];
  errors: number;
  firstError: string;
}

/** Every visitor chats turn after turn until `seconds` are up (turns in flight finish); the prober fires every 50 ms. */
async function load(port: number, publicId: string, messages: string[], vs: Visitor[], seconds: number): Promise<Load> {
  const path = `/api/public/${publicId}/chat`;
  const out: Load = { turns: 0, secs: 0, chat: [], probe: [], errors: 0, firstError: '' };
  const fail = (what: string) => {
    out.errors++;
    out.firstError ||= what;
  };
  // One prober on one kept-alive connection: a request every 50 ms, or at once when the last took longer.
  const prober = new Agent({ keepAlive: true, maxSockets: 1, localAddress: '127.0.0.1' });
  const start = performance.now();
  const end = start + seconds * 1000;
  const probing = (async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        const r = await call(prober, port, 'GET', '/api/billing/pricing');
        if (r.status === 200) out.probe.push(performance.now() - t0);
        else fail(`pricing answered ${r.status}: ${r.text.slice(0, 200)}`);
      } catch (err) {
        fail(`pricing: ${(err as Error).message}`);
      }
      const wait = t0 + PROBE_EVERY_MS - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  })();
  await Promise.all(
    vs.map(async (v) => {
      while (performance.now() < end) {
        const message = messages[v.next++ % messages.length] as string;
        const body = JSON.stringify({ message, ...(v.conversationId ? { conversationId: v.conversationId } : {}) });
        const t0 = performance.now();
        try {
          const r = await call(v.agent, port, 'POST', path, body);
          if (r.status !== 200) {
            fail(`chat answered ${r.status}: ${r.text.slice(0, 200)}`);
            continue;
          }
          out.chat.push(performance.now() - t0);
          out.turns++;
          v.conversationId ??= (JSON.parse(r.text) as { conversationId?: string }).conversationId;
        } catch (err) {
          fail(`chat: ${(err as Error).message}`);
        }
      }
    }),
  );
  out.secs = (performance.now() - start) / 1000;
  await probing;
  prober.destroy();
  return out;
}

interface StoreResult {
  store: Store;
  indexSecs: number;
  load: Load;
  server: WindowReport;
}

async function benchStore(store: Store, databaseUrl: string): Promise<StoreResult> {
  const dir = mkdtempSync(join(tmpdir(), `agents-bench-${store}-`));
  try {
    const remote = await startServer(store, dir, databaseUrl);
    try {
      const messages = [...remote.questions.slice(0, 40), 'Who won the world cup in 1998?', 'How do I return a damaged parcel?', '配送について教えてください', 'hello'];
      const vs = visitors(await loopbackRange());
      await load(remote.port, remote.publicId, messages, vs, WARM_SECONDS);
      await remote.start();
      const measured = await load(remote.port, remote.publicId, messages, vs, SECONDS);
      const server = await remote.stop();
      for (const v of vs) v.agent.destroy();
      return { store, indexSecs: remote.indexSecs, load: measured, server };
    } finally {
      await remote.exit();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A database of its own in the cluster for one run; dropped afterwards. */
async function withDatabase<T>(clusterUrl: string, fn: (url: string) => Promise<T>): Promise<T> {
  const name = `agents_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(clusterUrl);
    url.pathname = `/${name}`;
    try {
      return await fn(url.toString());
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    }
  } finally {
    await admin.end();
  }
}

// ---- (b) retrieval ----

async function retrievalAt(count: number) {
  const dir = mkdtempSync(join(tmpdir(), 'agents-retrieval-'));
  const { ctx, close } = await createAgentsApp({ config: testAgentsConfig(dir, { signupCredits: 0 }), log: () => {}, webhookWorker: false });
  try {
    const seeded = await seedBenchAgent(ctx, count, 11);
    const r = rng(3);
    const queries = Array.from({ length: QUERIES }, (_, i) =>
      i % 4 === 0 ? (seeded.questions[Math.floor(r() * seeded.questions.length)] as string) : i % 4 === 1 ? `can you ${VERBS[i % VERBS.length]} the ${NOUNS[(i * 7) % NOUNS.length]}` : i % 4 === 2 ? `${JA[i % JA.length]}について教えて` : 'what is the capital of australia',
    );
    for (const q of queries.slice(0, 20)) await retrieve(ctx, seeded.agentId, q);
    const lat: number[] = [];
    let hits = 0;
    for (const q of queries) {
      const s = performance.now();
      const found = await retrieve(ctx, seeded.agentId, q);
      lat.push(performance.now() - s);
      if (found) hits++;
    }
    return { count, indexSecs: seeded.indexSecs, mean: lat.reduce((a, x) => a + x, 0) / lat.length, p99: pct(lat, 99), hits };
  } finally {
    await close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- report ----

const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : 'n/a');

function printStore(r: StoreResult): void {
  const l = r.load;
  const perSec = l.turns / l.secs;
  console.log(`${r.store}:`);
  console.log(`  seeding ${PASSAGES.toLocaleString('en')} passages through the sources service: ${r.indexSecs.toFixed(1)} s`);
  console.log(`  widget chat      : ${perSec.toFixed(1)} turns/s (${l.turns} turns in ${l.secs.toFixed(1)} s), p50 ${ms(pct(l.chat, 50))}, p99 ${ms(pct(l.chat, 99))}`);
  console.log(`  prober (pricing) : p50 ${ms(pct(l.probe, 50))}, p99 ${ms(pct(l.probe, 99))} (${l.probe.length} probes)`);
  console.log(`  event-loop delay : p50 ${r.server.loop.p50.toFixed(1)} ms, p90 ${r.server.loop.p90.toFixed(1)} ms, p99 ${r.server.loop.p99.toFixed(1)} ms, max ${r.server.loop.max.toFixed(1)} ms (${r.server.loop.samples} samples)`);
  console.log(`  server CPU       : ${(r.server.cpuMs / Math.max(1, l.turns)).toFixed(2)} ms per turn; client addresses seen: ${r.server.addresses}${r.server.addresses > 1 ? '' : ' (this host binds only 127.0.0.1: the visitors share one address)'}`);
  if (l.errors) console.log(`  errors           : ${l.errors} (first: ${l.firstError})`);
}

const loadavg = () => {
  try {
    return readFileSync('/proc/loadavg', 'utf8').trim().split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
};

async function main() {
  if (STORES.length) console.log(`agents benchmark: ${VISITORS} visitors for ${SECONDS} s per store (after ${WARM_SECONDS} s warm-up), ${PASSAGES.toLocaleString('en')} passages, prober every ${PROBE_EVERY_MS} ms; load average ${loadavg()}`);
  const results: StoreResult[] = [];
  let cluster: PgCluster | null = null;
  try {
    for (const store of STORES) {
      if (store === 'sqlite') results.push(await benchStore('sqlite', ''));
      else if (store === 'postgres') {
        cluster ??= await provisionPostgres((l) => console.error(l));
        const url = cluster.url;
        results.push(await withDatabase(url, (db) => benchStore('postgres', db)));
      } else throw new Error(`PERF_STORES: unknown store ${store as string}`);
      printStore(results[results.length - 1] as StoreResult);
    }
  } finally {
    cluster?.stop();
  }
  if (STORES.length) console.log(`load average after the chat runs: ${loadavg()}`);

  const sqlite = results.find((r) => r.store === 'sqlite');
  const postgres = results.find((r) => r.store === 'postgres');
  const rate = (r: StoreResult) => r.load.turns / r.load.secs;
  if (sqlite && postgres) {
    const share = rate(postgres) / rate(sqlite);
    console.log(`${share >= 0.7 ? 'MET   ' : 'MISSED'} PostgreSQL turns/s >= 70 % of SQLite's: ${(share * 100).toFixed(1)} % (${rate(postgres).toFixed(1)} vs ${rate(sqlite).toFixed(1)})`);
  }
  if (postgres) {
    const p99 = postgres.server.loop.p99;
    console.log(`${p99 <= 50 ? 'MET   ' : 'MISSED'} event-loop delay p99 <= 50 ms on PostgreSQL under ${VISITORS} visitors: ${p99.toFixed(1)} ms`);
  }

  if (process.env.PERF_RETRIEVAL === '1') {
    const small = await retrievalAt(1_000);
    const large = await retrievalAt(Number(process.env.PERF_RETRIEVAL_LARGE ?? 100_000));
    for (const x of [small, large]) console.log(`retrieval @ ${x.count.toLocaleString('en')} passages: mean ${x.mean.toFixed(2)} ms, p99 ${x.p99.toFixed(2)} ms (indexed in ${x.indexSecs.toFixed(1)} s, ${x.hits}/${QUERIES} queries with candidates)`);
    console.log(`retrieval ${large.count / 1000}k / 1k: ${(large.mean / small.mean).toFixed(1)}x mean time for ${large.count / small.count}x passages`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
