/**
 * Sync benchmark (not a test): `npx tsx perf/sync.bench.ts` (PERF_SYNC_N to change the size).
 * In one run: (a) raw better-sqlite3 inserts of N device rows in one transaction, the floor cost;
 * (b) a bench pushing N changes to a fresh central over loopback HTTP; (c) a new bench loading the
 * N-device workspace by snapshot; (d) a bench pulling the same N changes by cursor.
 * Prints changes/s and the ratio to the raw insert rate.
 */
import Database from 'better-sqlite3';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateImei } from '../shared/imei';
import { createApp } from '../server/kitting/app';
import type { Mode } from '../server/kitting/server-config';
import { testConfig } from '../server/kitting/testing/config.testkit';
import type { AppContext } from '../server/kitting/context';
import { SqliteStore } from '../server/kitting/store/sqlite-store';

const N = Number(process.env.PERF_SYNC_N ?? 100_000);
const root = mkdtempSync(join(tmpdir(), 'kitting-sync-perf-'));

function device(i: number) {
  return {
    imei: generateImei(),
    serial: `IP16-${String(i).padStart(6, '0')}`,
    asset: `HK-26-${i}`,
    model: 'iPhone 16',
    maker: 'Apple',
    os: 'iOS',
    cust: '株式会社山下電設',
    mdm: 'Jamf Pro',
    status: '入荷待ち',
    chip: 'c-gray',
    bat: 100,
    loc: '受入棚A-01',
    user: '',
    note: '',
  };
}

interface Node {
  ctx: AppContext;
  store: SqliteStore;
  server: Server;
  url: string;
}

async function start(name: string, mode: Mode): Promise<Node> {
  const dataDir = join(root, name);
  const store = new SqliteStore({ file: join(root, `${name}.db`) });
  const { app, ctx } = await createApp({ store, config: testConfig({ dataDir, mode }) });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { ctx, store, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function stop(n: Node): Promise<void> {
  await n.ctx.sync?.bench?.stop();
  n.server.closeAllConnections();
  await new Promise<void>((r) => n.server.close(() => r()));
  n.store.close();
}

async function timed<T>(fn: () => Promise<T>): Promise<number> {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
}

function rawInsertRate(docs: ReturnType<typeof device>[]): number {
  const db = new Database(join(root, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE records (ws TEXT, coll TEXT, id TEXT, data TEXT, stamps TEXT, deleted INTEGER, hlc TEXT, PRIMARY KEY (ws, coll, id))');
  const ins = db.prepare('INSERT INTO records VALUES (?, ?, ?, ?, ?, 0, ?)');
  const hlc = '001795300000000:000000:raw';
  const secs = (() => {
    const t = performance.now();
    db.transaction(() => {
      for (const d of docs) ins.run('w', 'devices', d.imei, JSON.stringify(d), JSON.stringify(Object.fromEntries(Object.keys(d).map((k) => [k, hlc]))), hlc);
    })();
    return (performance.now() - t) / 1000;
  })();
  db.close();
  return N / secs;
}

async function enrol(bench: Node, central: Node, ws: string): Promise<void> {
  const { code } = await (central.ctx.sync?.central as NonNullable<AppContext['sync']>['central'] & object).createCode(ws);
  await bench.ctx.sync?.bench?.enrol(central.url, code);
}

async function main(): Promise<void> {
  const docs = Array.from({ length: N }, (_, i) => device(i + 1));
  const raw = rawInsertRate(docs);

  const central = await start('central', 'central');
  const ws = 'w-perf';
  await central.store.createWorkspace(ws, 'anonymous');
  await central.store.markSeeded(ws);

  // (b) push: N devices written on an enrolled bench, then one cycle sends them.
  const writer = await start('writer', 'bench');
  await enrol(writer, central, ws);
  const writerSync = writer.ctx.sync?.bench as NonNullable<AppContext['sync']>['bench'] & object;
  await writerSync.cycle(); // initial (empty) snapshot, so the measured cycle is the push
  for (let i = 0; i < N; i += 5000) {
    await writer.store.transact(ws, async (tx) => {
      for (const d of docs.slice(i, i + 5000)) await tx.put('devices', d.imei, d);
    });
  }
  const pending = (await writer.ctx.sync?.bench?.status())?.pending ?? 0;
  const pushSecs = await timed(() => writerSync.cycle());
  await stop(writer);

  // (c) snapshot: a new bench loads the N-device workspace.
  const fresh = await start('fresh', 'bench');
  await enrol(fresh, central, ws);
  const freshSync = fresh.ctx.sync?.bench as NonNullable<AppContext['sync']>['bench'] & object;
  const snapSecs = await timed(() => freshSync.cycle());
  const loaded = await fresh.store.count(ws, 'devices');
  await stop(fresh);

  // (d) pull by cursor: a bench that follows the change log from the start.
  const follower = await start('follower', 'bench');
  await enrol(follower, central, ws);
  await follower.store.setMeta('sync_pull_cursor', '1');
  const followerSync = follower.ctx.sync?.bench as NonNullable<AppContext['sync']>['bench'] & object;
  const pullSecs = await timed(() => followerSync.cycle());
  const pulled = await follower.store.count(ws, 'devices');
  await stop(follower);
  await stop(central);

  const line = (label: string, n: number, secs: number) =>
    console.log(`${label.padEnd(34)} ${String(n).padStart(7)} in ${secs.toFixed(2).padStart(6)} s = ${Math.round(n / secs).toLocaleString('en-US').padStart(9)}/s  (${((n / secs / raw) * 100).toFixed(0)}% of raw)`);
  console.log(`sync benchmark, N = ${N.toLocaleString('en-US')} devices`);
  console.log(`${'raw SQLite inserts, one transaction'.padEnd(34)} ${String(N).padStart(7)}            = ${Math.round(raw).toLocaleString('en-US').padStart(9)}/s`);
  line('push bench -> fresh central', pending, pushSecs);
  line('snapshot, new bench', loaded, snapSecs);
  line('pull by cursor, new bench', pulled, pullSecs);
  console.log(`snapshot target < 10 s: ${snapSecs < 10 ? 'met' : 'MISSED'}; push/pull target >= 20% of raw: ${
    pending / pushSecs >= 0.2 * raw && pulled / pullSecs >= 0.2 * raw ? 'met' : 'MISSED'
  }`);
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(root, { recursive: true, force: true }));
