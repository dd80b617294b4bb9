/**
 * API benchmark (not a test): `npm run perf`.
 * (a) bare express + better-sqlite3, one row inserted per POST, versus (b) POST /api/device through
 * the full stack (validation, workspace, store with HLC stamps and change log), driven by the same
 * loopback client for the same number of requests; then GET /api/devices latency at 10,000 and
 * 100,000 devices. Prints requests/s and ratios measured in this one run.
 */
import Database from 'better-sqlite3';
import express from 'express';
import { Agent } from 'node:http';
import type { Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateImei } from '../shared/imei';
import { createApp } from '../server/kitting/app';
import { testConfig } from '../server/kitting/testing/config.testkit';
import { SqliteStore } from '../server/kitting/store/sqlite-store';
import { call, drive, listen } from './http-client.testkit';

const REQUESTS = Number(process.env.PERF_REQUESTS ?? 5000);
const CONCURRENCY = Number(process.env.PERF_CONCURRENCY ?? 16);
/** Requests sent to each server before measuring, so both run JIT-warm. */
const WARMUP = Math.ceil(REQUESTS / 5);

/** The same client for both servers: REQUESTS POSTs, CONCURRENCY in flight, keep-alive. */
const post = (port: number, path: string, bodyFor: (i: number) => string, count = REQUESTS) =>
  drive(port, path, bodyFor, { count, concurrency: CONCURRENCY });

const deviceBody = (i: number) => JSON.stringify({ model: 'iPhone 16', cust: 'ベンチ株式会社', status: '保管中', loc: `A-${i % 50}`, note: `perf ${i}` });

async function bare(dir: string): Promise<number> {
  const db = new Database(join(dir, 'bare.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE devices (imei TEXT PRIMARY KEY, data TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO devices (imei, data) VALUES (?, ?)');
  const app = express();
  app.use(express.json());
  app.post('/device', (req, res) => {
    const imei = generateImei();
    const device = { imei, ...req.body };
    insert.run(imei, JSON.stringify(device));
    res.json({ ok: true, device });
  });
  const { server, port } = await listen(app);
  await post(port, '/device', deviceBody, WARMUP);
  const rate = await post(port, '/device', deviceBody);
  server.close();
  db.close();
  return rate;
}

async function fullStack(dir: string): Promise<{ rate: number; store: SqliteStore; port: number; server: Server; ws: string }> {
  const store = new SqliteStore({ file: join(dir, 'kitting.db') });
  const { app, ctx } = await createApp({ store, config: testConfig({ dataDir: dir, mode: 'bench' }) });
  const { server, port } = await listen(app);
  await post(port, '/api/device', deviceBody, WARMUP);
  const rate = await post(port, '/api/device', deviceBody);
  return { rate, store, port, server, ws: ctx.benchWorkspace as string };
}

async function fillTo(store: SqliteStore, ws: string, target: number): Promise<void> {
  const have = await store.count(ws, 'devices');
  await store.transact(ws, async (tx) => {
    for (let i = have; i < target; i++) {
      const imei = generateImei();
      await tx.put('devices', imei, { imei, serial: `IP16-${i}`, asset: `HK-26-${i}`, model: 'iPhone 16', maker: 'Apple', cust: 'ベンチ株式会社', mdm: 'Microsoft Intune', status: '保管中', chip: 'c-blue', bat: 100, loc: 'A-01-01', user: '', note: '' });
    }
  });
}

async function listLatency(port: number): Promise<{ ms: number; bytes: number }> {
  const agent = new Agent({ keepAlive: true });
  await call(agent, port, 'GET', '/api/devices');
  const runs: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    bytes = (await call(agent, port, 'GET', '/api/devices')).bytes;
    runs.push(performance.now() - t);
  }
  agent.destroy();
  runs.sort((a, b) => a - b);
  return { ms: runs[2], bytes };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kitting-perf-'));
  try {
    console.log(`requests: ${REQUESTS}, concurrency: ${CONCURRENCY}`);
    const a = await bare(dir);
    const b = await fullStack(dir);
    console.log(`(a) bare express + better-sqlite3 POST: ${a.toFixed(0)} req/s`);
    console.log(`(b) full stack POST /api/device:      ${b.rate.toFixed(0)} req/s`);
    console.log(`ratio (b)/(a): ${((b.rate / a) * 100).toFixed(1)}% (target >= 50%)`);
    for (const n of [10_000, 100_000]) {
      await fillTo(b.store, b.ws, n);
      const { ms, bytes } = await listLatency(b.port);
      console.log(`GET /api/devices with ${n.toLocaleString('en')} devices: ${ms.toFixed(0)} ms median of 5 (${(bytes / 1e6).toFixed(1)} MB)${n === 100_000 ? ' (target < 1000 ms)' : ''}`);
    }
    b.server.close();
    b.store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
