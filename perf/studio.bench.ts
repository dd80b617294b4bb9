/**
 * Publishing Studio benchmark (not a test): `npm run perf:studio`.
 * (1) Round trip submit → poll until terminal → save against the built-in local platform, driven by
 *     50 concurrent clients (API keys over several workspaces): jobs per second and round-trip time.
 * (2) The studio's own cost per job without platform time: the same three-step sequence (generate,
 *     one poll that finds it finished, save) against an instant in-process platform, versus the same
 *     three HTTP requests to a bare express route, both with 50 clients in this one run.
 * (3) Both stores in one run: the studio as its own process (perf/studio-server.ts, instant platform) on
 *     SQLite and on PostgreSQL, the same round trips from 50 clients: jobs per second, p50/p95, and the
 *     server process's event-loop delay p99 (perf_hooks.monitorEventLoopDelay). Targets: PostgreSQL at
 *     least 70 % of SQLite's jobs/s, event-loop delay p99 at most 50 ms. PostgreSQL: PERF_DATABASE_URL,
 *     else a throwaway cluster (server/core/testing/pg-cluster.ts). PERF_ONLY=stores runs only (3).
 */
import express from 'express';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { provisionPostgres } from '../server/core/testing/pg-cluster.testkit';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStudioApp } from '../server/studio/app';
import { readStudioConfig } from '../server/studio/config';
import type { StudioContext } from '../server/studio/context';
import { instantPlatform } from './studio-instant-platform';

const CLIENTS = Number(process.env.PERF_CLIENTS ?? 50);
const JOBS = Number(process.env.PERF_JOBS ?? 400);
const PLATFORM_MS = Number(process.env.PERF_PLATFORM_MS ?? 1500);
const POLL_MS = Number(process.env.PERF_POLL_MS ?? 250);
const FAST_JOBS = Number(process.env.PERF_FAST_JOBS ?? 1500);
const WORKSPACES = 10;

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

function call(agent: Agent, port: number, method: string, path: string, auth: string, body?: unknown): Promise<Reply> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${auth}` };
    if (payload) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString() || '{}') as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const listen = (app: express.Express): Promise<Server> => new Promise((resolve) => {
  const s = app.listen(0, '127.0.0.1', () => resolve(s));
});
const portOf = (s: Server) => (s.address() as AddressInfo).port;

async function startStudio(platformMs: number, instant: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-bench-'));
  const config = { ...readStudioConfig({ NODE_ENV: 'test' }), port: 0, dataDir, adminSecret: 'bench', localPlatformMs: platformMs, log: false };
  let ctxRef: StudioContext | null = null;
  const platform = instant ? instantPlatform(() => ctxRef!, join(dataDir, 'platform')) : undefined;
  const { app, ctx } = await createStudioApp({ config, platform });
  ctxRef = ctx;
  const server = await listen(app);
  ctx.publicUrl = `http://127.0.0.1:${portOf(server)}`;
  const port = portOf(server);
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const keys: string[] = [];
  for (let w = 0; w < WORKSPACES; w++) {
    const reg = await call(agent, port, 'POST', '/api/auth/register', '', { email: `bench${w}@studio.bench`, password: 'benchmark pw' });
    const token = String(reg.body.token);
    await call(agent, port, 'POST', '/api/billing/plan', token, { plan: 'business' });
    const key = await call(agent, port, 'POST', '/api/settings/api-keys', token, { name: 'bench' });
    keys.push(String(key.body.key));
  }
  return {
    port, agent, keys, ctx,
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await ctx.database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Studio = Awaited<ReturnType<typeof startStudio>>;

/** One job from submit to saved media; returns its round-trip milliseconds. */
async function roundTrip(s: Studio, key: string, i: number, pollMs: number): Promise<number> {
  const t0 = performance.now();
  const sub = await call(s.agent, s.port, 'POST', '/api/hf/generate', key, { model: 'studio/image-v1', prompt: `bench image ${i}` });
  if (sub.status !== 200) throw new Error(`generate answered ${sub.status} ${JSON.stringify(sub.body)}`);
  const id = (sub.body.job as { id: string }).id;
  for (;;) {
    if (pollMs) await sleep(pollMs);
    const p = await call(s.agent, s.port, 'GET', `/api/hf/jobs/${id}`, key);
    const status = (p.body.job as { status: string }).status;
    if (status === 'completed') break;
    if (status === 'failed' || status === 'nsfw') throw new Error(`job ${id} ended ${status}`);
  }
  const saved = await call(s.agent, s.port, 'POST', `/api/hf/jobs/${id}/save`, key);
  if (saved.status !== 200) throw new Error(`save answered ${saved.status}`);
  return performance.now() - t0;
}

async function drive(count: number, each: (client: number, i: number) => Promise<number>) {
  let next = 0;
  const times: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      while (next < count) times.push(await each(c, next++));
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  times.sort((a, b) => a - b);
  return { perSecond: count / seconds, seconds, p50: times[Math.floor(times.length / 2)], p95: times[Math.floor(times.length * 0.95)] };
}

interface Child {
  port: number;
  proc: ChildProcess;
  ask: (m: string) => Promise<Record<string, number>>;
  stop: () => Promise<void>;
}

/** perf/studio-server.ts as a child process; resolves once it listens. */
function startChild(env: Record<string, string>): Promise<Child> {
  const file = fileURLToPath(new URL('./studio-server.ts', import.meta.url));
  const proc = fork(file, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, NODE_ENV: 'production', STUDIO_LOG: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let out = '';
  return new Promise((resolve, reject) => {
    proc.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    proc.on('exit', (code) => reject(new Error(`bench server exited ${code}: ${out}`)));
    proc.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (!m) return;
      resolve({
        port: Number(m[1]), proc,
        ask: (msg) => new Promise((res) => {
          proc.once('message', (reply) => res(reply as Record<string, number>));
          proc.send(msg);
        }),
        stop: () => new Promise((res) => {
          proc.removeAllListeners('exit');
          proc.once('exit', () => res());
          proc.kill('SIGTERM');
        }),
      });
    });
  });
}

/**
 * CPU seconds used so far by a local PostgreSQL cluster: its postmaster and every process it started (the
 * backends serving the pool, the WAL writer, the checkpointer), from /proc (Linux; clock ticks of 10 ms).
 * null when the cluster is not on this machine or /proc is not readable.
 */
function clusterCpuMs(postmaster: number | null): number | null {
  if (postmaster === null || !existsSync('/proc')) return null;
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name (which may hold spaces): state ppid ... utime(14) stime(15).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(entry) === postmaster || Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks * 10;
}

async function postmasterOf(admin: pg.Client): Promise<number | null> {
  try {
    const dir = String((await admin.query('SHOW data_directory')).rows[0].data_directory);
    return Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]) || null;
  } catch {
    return null;
  }
}

async function benchStore(name: string, env: Record<string, string>, postmaster: number | null = null) {
  const child = await startChild(env);
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const keys: string[] = [];
  for (let w = 0; w < WORKSPACES; w++) {
    const reg = await call(agent, child.port, 'POST', '/api/auth/register', '', { email: `bench${w}@studio.bench`, password: 'benchmark pw' });
    const token = String(reg.body.token);
    await call(agent, child.port, 'POST', '/api/billing/plan', token, { plan: 'business' });
    keys.push(String((await call(agent, child.port, 'POST', '/api/settings/api-keys', token, { name: 'bench' })).body.key));
  }
  const s = { port: child.port, agent, keys } as unknown as Studio;
  await drive(200, (c, i) => roundTrip(s, keys[c % WORKSPACES], i, 0));
  await child.ask('reset');
  const db0 = clusterCpuMs(postmaster);
  const own0 = process.cpuUsage();
  const r = await drive(FAST_JOBS, (c, i) => roundTrip(s, keys[c % WORKSPACES], i, 0));
  const own = process.cpuUsage(own0);
  const db1 = clusterCpuMs(postmaster);
  const loop = await child.ask('report');
  agent.destroy();
  await child.stop();
  const perJob = (ms: number | null) => (ms === null ? null : ms / FAST_JOBS);
  return {
    name, ...r, loopP99: loop.p99, loopMax: loop.max,
    serverCpu: perJob(loop.cpuMs), dbCpu: db0 === null || db1 === null ? null : perJob(db1 - db0), clientCpu: perJob((own.user + own.system) / 1000),
  };
}

/** (3) The same job round trips on SQLite and on PostgreSQL, the server in its own process. */
async function stores(): Promise<void> {
  const sqliteDir = mkdtempSync(join(tmpdir(), 'studio-bench-sqlite-'));
  const pgDir = mkdtempSync(join(tmpdir(), 'studio-bench-pg-'));
  const cluster = process.env.PERF_DATABASE_URL ? null : await provisionPostgres();
  const base = process.env.PERF_DATABASE_URL ?? cluster!.url;
  const schema = `studio_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  try {
    const lite = await benchStore('SQLite', { STUDIO_DATA_DIR: sqliteDir });
    const post = await benchStore('PostgreSQL', { STUDIO_DATA_DIR: pgDir, STUDIO_DATABASE_URL: url.toString() }, await postmasterOf(admin));
    const fmt = (n: number, d = 1) => n.toFixed(d);
    console.log(`\nstores, ${FAST_JOBS} round trips (generate, poll, save) from ${CLIENTS} clients, studio in its own process, instant platform:`);
    console.log('| store | jobs/s | p50 | p95 | event-loop delay p99 | max | CPU per job: studio / database server / load generator |');
    console.log('|---|---|---|---|---|---|---|');
    const ms = (n: number | null) => (n === null ? '–' : `${fmt(n, 2)} ms`);
    for (const r of [lite, post]) {
      const db = r.name === 'SQLite' ? 'in the studio' : ms(r.dbCpu);
      console.log(`| ${r.name} | ${fmt(r.perSecond)} | ${fmt(r.p50, 0)} ms | ${fmt(r.p95, 0)} ms | ${fmt(r.loopP99)} ms | ${fmt(r.loopMax)} ms | ${ms(r.serverCpu)} / ${db} / ${ms(r.clientCpu)} |`);
    }
    const ratio = post.perSecond / lite.perSecond;
    console.log(`PostgreSQL at ${fmt(ratio * 100, 0)} % of SQLite's jobs/s (target ≥ 70 %): ${ratio >= 0.7 ? 'met' : 'NOT met'}`);
    console.log(`event-loop delay p99 on PostgreSQL ${fmt(post.loopP99)} ms (target ≤ 50 ms): ${post.loopP99 <= 50 ? 'met' : 'NOT met'}`);
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await admin.end();
    cluster?.stop();
    rmSync(sqliteDir, { recursive: true, force: true });
    rmSync(pgDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (process.env.PERF_ONLY === 'stores') return stores();
  // (1) Round trip against the local platform.
  const local = await startStudio(PLATFORM_MS, false);
  await drive(CLIENTS, (c, i) => roundTrip(local, local.keys[c % WORKSPACES], i, POLL_MS));
  const rt = await drive(JOBS, (c, i) => roundTrip(local, local.keys[c % WORKSPACES], i, POLL_MS));
  await local.close();

  // (2) The studio's own work per job versus a bare express route, same client, same request count.
  const instant = await startStudio(0, true);
  await drive(200, (c, i) => roundTrip(instant, instant.keys[c % WORKSPACES], i, 0));
  const studio = await drive(FAST_JOBS, (c, i) => roundTrip(instant, instant.keys[c % WORKSPACES], i, 0));
  await instant.close();

  const bare = express();
  bare.use(express.json());
  bare.post('/api/hf/generate', (_req, res) => void res.json({ ok: true, job: { id: 'job_bare', status: 'queued' } }));
  bare.get('/api/hf/jobs/:id', (_req, res) => void res.json({ ok: true, job: { status: 'completed' } }));
  bare.post('/api/hf/jobs/:id/save', (_req, res) => void res.json({ ok: true, media: { id: 'm' } }));
  const bareServer = await listen(bare);
  const bareStudio = { port: portOf(bareServer), agent: new Agent({ keepAlive: true, maxSockets: CLIENTS }) } as Studio;
  await drive(200, (_c, i) => roundTrip(bareStudio, 'k', i, 0));
  const baseline = await drive(FAST_JOBS, (_c, i) => roundTrip(bareStudio, 'k', i, 0));
  bareStudio.agent.destroy();
  bareServer.closeAllConnections();
  bareServer.close();

  const perJobStudio = 1000 / studio.perSecond;
  const perJobBare = 1000 / baseline.perSecond;
  const fmt = (n: number, d = 1) => n.toFixed(d);
  console.log(`clients ${CLIENTS}, local platform ${PLATFORM_MS} ms per job, poll every ${POLL_MS} ms`);
  console.log(`round trip (submit → terminal → save), ${JOBS} jobs: ${fmt(rt.perSecond)} jobs/s, p50 ${fmt(rt.p50, 0)} ms, p95 ${fmt(rt.p95, 0)} ms`);
  console.log(`studio without platform time, ${FAST_JOBS} jobs: ${fmt(studio.perSecond)} jobs/s = ${fmt(perJobStudio, 2)} ms of server time per job`);
  console.log(`bare express, same 3 requests per job: ${fmt(baseline.perSecond)} jobs/s = ${fmt(perJobBare, 2)} ms per job`);
  console.log(`studio overhead per job: ${fmt(perJobStudio - perJobBare, 2)} ms (${fmt(perJobStudio / perJobBare, 1)}× the bare route)`);
  await stores();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
