/**
 * Offline day (not a test): `npx tsx perf/offline-day.bench.ts`.
 * A bench enrolled with central, then central stopped: over loopback HTTP the bench registers 5,000
 * devices (POST /api/device), issues 500 erasure certificates (POST /api/cert) and 200 shipments
 * (POST /api/shipment), counting every refusal. Central is started again on the same database and
 * port, and one sync cycle of the bench catches it up. Prints the time to catch up against a floor
 * measured in the same run (raw better-sqlite3 inserts of as many rows), and checks that central
 * holds every record and that every asset, certificate and shipment number is unique.
 * PERF_DEVICES / PERF_CERTS / PERF_SHIPMENTS change the sizes.
 */
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../server/kitting/app';
import type { Mode } from '../server/kitting/server-config';
import { testConfig } from '../server/kitting/testing/config.testkit';
import type { AppContext } from '../server/kitting/context';
import { seedSpecs } from '../server/kitting/modules/seeds';
import { ensureWorkspace } from '../server/kitting/store/seed';
import { SqliteStore } from '../server/kitting/store/sqlite-store';

const DEVICES = Number(process.env.PERF_DEVICES ?? 5000);
const CERTS = Number(process.env.PERF_CERTS ?? 500);
const SHIPMENTS = Number(process.env.PERF_SHIPMENTS ?? 200);
const IN_FLIGHT = 8;
const root = mkdtempSync(join(tmpdir(), 'kitting-offline-day-'));

interface Node {
  ctx: AppContext;
  store: SqliteStore;
  server: Server;
  url: string;
  port: number;
}

async function start(name: string, mode: Mode, port = 0): Promise<Node> {
  const dataDir = join(root, name);
  mkdirSync(dataDir, { recursive: true });
  const store = new SqliteStore({ file: join(dataDir, 'kitting.db') });
  const { app, ctx } = await createApp({ store, config: testConfig({ dataDir, mode }) });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(port, '127.0.0.1', () => resolve(s));
  });
  const p = (server.address() as AddressInfo).port;
  return { ctx, store, server, url: `http://127.0.0.1:${p}`, port: p };
}

async function stop(n: Node): Promise<void> {
  await n.ctx.sync?.bench?.stop();
  n.server.closeAllConnections();
  await new Promise<void>((r) => n.server.close(() => r()));
  n.store.close();
}

interface Outcome {
  ok: number;
  refused: Map<string, number>;
  values: string[];
  secs: number;
}

/** `count` POSTs with IN_FLIGHT in flight; `pick` reads the issued number from a 200 answer. */
async function post(url: string, count: number, body: (i: number) => object, pick: (b: Record<string, unknown>) => string): Promise<Outcome> {
  const out: Outcome = { ok: 0, refused: new Map(), values: [], secs: 0 };
  let next = 0;
  const t = performance.now();
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body(i)) });
      const json = (await res.json()) as Record<string, unknown>;
      if (res.status === 200) {
        out.ok += 1;
        out.values.push(pick(json));
      } else {
        const key = `${res.status} ${String(json.error)}`;
        out.refused.set(key, (out.refused.get(key) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  out.secs = (performance.now() - t) / 1000;
  return out;
}

/** Floor: raw inserts of `n` rows of the record table's shape in one transaction (rows/s). */
function rawInsertRate(n: number): number {
  const db = new Database(join(root, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE records (ws TEXT, coll TEXT, id TEXT, data TEXT, stamps TEXT, deleted INTEGER, hlc TEXT, PRIMARY KEY (ws, coll, id))');
  const ins = db.prepare('INSERT INTO records VALUES (?, ?, ?, ?, ?, 0, ?)');
  const hlc = '001795300000000:000000:raw';
  const doc = { model: 'Pixel 9', status: '入荷待ち', asset: 'HK-26-1000', serial: 'PXL-001000', note: 'オフライン登録', bat: 100 };
  const stamps = JSON.stringify(Object.fromEntries(Object.keys(doc).map((k) => [k, hlc])));
  const t = performance.now();
  db.transaction(() => {
    for (let i = 0; i < n; i += 1) ins.run('w', 'devices', String(350000000000000 + i), JSON.stringify({ ...doc, i }), stamps, hlc);
  })();
  const secs = (performance.now() - t) / 1000;
  db.close();
  return n / secs;
}

const dupes = (xs: string[]) => xs.length - new Set(xs).size;

async function main(): Promise<void> {
  let central = await start('central', 'central');
  const ws = 'w-offline-day';
  await ensureWorkspace(central.store, ws, 'anonymous', seedSpecs);
  const bench = await start('bench', 'bench');
  const sync = bench.ctx.sync?.bench;
  const centralSync = central.ctx.sync?.central;
  if (!sync || !centralSync) throw new Error('sync runtime missing');
  const { code } = await centralSync.createCode(ws);
  await sync.enrol(central.url, code);
  await sync.cycle();

  // Central goes away for the day.
  const port = central.port;
  await stop(central);

  const devices = await post(`${bench.url}/api/device`, DEVICES, (i) => ({ model: i % 2 ? 'iPhone 16' : 'Pixel 9', note: `オフライン ${i}` }), (b) => String((b.device as Record<string, unknown>).asset));
  const certs = await post(`${bench.url}/api/cert`, CERTS, (i) => ({ cust: '株式会社山下電設', count: 1 + (i % 10) }), (b) => String((b.cert as Record<string, unknown>).no));
  const ships = await post(`${bench.url}/api/shipment`, SHIPMENTS, (i) => ({ customer: '株式会社山下電設', detail: `便 ${i}` }), (b) => String((b.shipment as Record<string, unknown>).id));
  const pending = (await sync.status()).pending;
  const fromReserve = bench.store.replica.overflowIssued;

  // Central back on the same database and address: one catch-up cycle.
  central = await start('central', 'central', port);
  const t = performance.now();
  await sync.cycle();
  const catchUp = (performance.now() - t) / 1000;
  const after = await sync.status();
  const raw = rawInsertRate(pending);

  const onCentral = {
    devices: (await central.store.list(ws, 'devices')).map((d) => String(d.asset)),
    certs: (await central.store.list(ws, 'erasureCerts')).map((c) => String(c.no)),
    ships: (await central.store.list(ws, 'shipments')).map((s) => String(s.id)),
  };
  const missing = (mine: string[], theirs: string[]) => {
    const have = new Set(theirs);
    return mine.filter((v) => !have.has(v)).length;
  };

  const refusals = [devices, certs, ships].reduce((n, o) => n + [...o.refused.values()].reduce((a, b) => a + b, 0), 0);
  const rate = (o: Outcome) => `${o.ok.toLocaleString('en-US')} in ${o.secs.toFixed(1)} s (${Math.round(o.ok / o.secs)}/s)`;
  console.log(`offline day: bench with central stopped (${IN_FLIGHT} requests in flight over loopback)`);
  console.log(`  POST /api/device    ${rate(devices)}  refused: ${JSON.stringify(Object.fromEntries(devices.refused))}`);
  console.log(`  POST /api/cert      ${rate(certs)}  refused: ${JSON.stringify(Object.fromEntries(certs.refused))}`);
  console.log(`  POST /api/shipment  ${rate(ships)}  refused: ${JSON.stringify(Object.fromEntries(ships.refused))}`);
  console.log(`  numbers issued from the reserve (blocks spent offline): ${fromReserve}`);
  console.log(`catch-up: one cycle pushed ${pending.toLocaleString('en-US')} changes in ${catchUp.toFixed(2)} s = ${Math.round(pending / catchUp).toLocaleString('en-US')}/s`);
  console.log(`  floor: raw SQLite inserts of as many rows, one transaction = ${Math.round(raw).toLocaleString('en-US')}/s; catch-up at ${((pending / catchUp / raw) * 100).toFixed(0)}% of it`);
  console.log(`  pending after catch-up: ${after.pending}; lastError: ${after.lastError}`);
  console.log(`central: ${missing(devices.values, onCentral.devices)} devices, ${missing(certs.values, onCentral.certs)} certificates, ${missing(ships.values, onCentral.ships)} shipments missing`);
  console.log(
    `unique numbers: assets ${dupes(onCentral.devices) === 0 ? 'yes' : `NO (${dupes(onCentral.devices)} duplicates)`}, certificates ${dupes(onCentral.certs) === 0 ? 'yes' : 'NO'}, shipments ${dupes(onCentral.ships) === 0 ? 'yes' : 'NO'}`,
  );
  const ok = refusals === 0 && after.pending === 0 && dupes(onCentral.devices) + dupes(onCentral.certs) + dupes(onCentral.ships) === 0;
  console.log(`target (no refusal, everything arrives in one catch-up, every number unique): ${ok ? 'met' : 'MISSED'}`);
  await stop(bench);
  await stop(central);
  if (!ok) process.exitCode = 1;
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(root, { recursive: true, force: true }));
