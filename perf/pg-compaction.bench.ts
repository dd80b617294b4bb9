/**
 * Change-log compaction benchmark (not a test): `npx tsx perf/pg-compaction.bench.ts`. PERF_EDITS changes the
 * size (default 1,000,000 edits of PERF_DEVICES = 10,000 devices); KITTING_TEST_DATABASE_URL uses an existing
 * PostgreSQL database, else a throwaway cluster is started. For central on SQLite and on PostgreSQL, in one run:
 *   - benches push the edits through central's push path (batches of 5,000): each device is created once, then
 *     edited (status, location, battery) until the log holds PERF_EDITS changes;
 *   - before compaction: log rows and JSON bytes, and the time to pull the whole log from cursor 0 in pages of
 *     5,000 (central's pull query), against the time to load a snapshot of the workspace (pages of 10,000);
 *   - compaction with every bench caught up and no retention window, its duration, then the same figures after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatHlc } from '../shared/hlc';
import { PgStore } from '../server/kitting/store/pg-store';
import { SqliteStore } from '../server/kitting/store/sqlite-store';
import type { Store, WireChange } from '../server/kitting/store/types';
import { provisionPostgres } from '../server/core/testing/pg-cluster.testkit';

const EDITS = Number(process.env.PERF_EDITS ?? 1_000_000);
const DEVICES = Number(process.env.PERF_DEVICES ?? 10_000);
const BATCH = 5_000;
const PULL_PAGE = 5_000;
const SNAPSHOT_PAGE = 10_000;
const BENCHES = 10;
const WS = 'w-perf';
const root = mkdtempSync(join(tmpdir(), 'kitting-compact-perf-'));

const imei = (i: number) => `35${String(i).padStart(13, '0')}`;
const STATUSES = ['入荷待ち', '受入済', 'キッティング中', '検品待ち', '出荷準備', '出荷済'];

function created(i: number) {
  return { imei: imei(i), serial: `IP16-${String(i).padStart(6, '0')}`, asset: `HK-26-${i}`, model: 'iPhone 16', maker: 'Apple', os: 'iOS', cust: '株式会社山下電設', mdm: 'Jamf Pro', status: STATUSES[0], bat: 100, loc: '受入棚A-01' };
}

/** The k-th change of the run: the first DEVICES create the devices, the rest edit one to three fields. */
function change(k: number, bench: number, seq: number, ms: number): WireChange {
  const d = k % DEVICES;
  const round = Math.floor(k / DEVICES);
  const fields =
    round === 0
      ? created(d)
      : k % 3 === 0
        ? { status: STATUSES[round % STATUSES.length], loc: `作業台${(k % 20) + 1}` }
        : k % 3 === 1
          ? { bat: 100 - (round % 60) }
          : { loc: `棚${String.fromCharCode(65 + (round % 6))}-${String(d % 50).padStart(2, '0')}`, status: STATUSES[(round + 1) % STATUSES.length], bat: 99 };
  return { seq, coll: 'devices', id: imei(d), hlc: formatHlc({ ms, counter: k % 100_000, node: `bench${bench}` }), fields };
}

async function fill(store: Store): Promise<number> {
  await store.createWorkspace(WS, 'central');
  for (let b = 0; b < BENCHES; b += 1) await store.replica.saveBench(WS, `bench${b}`, `perf-token-${b}-${Math.random()}`, `bench ${b}`);
  const seqs = new Array<number>(BENCHES).fill(0);
  const t = performance.now();
  const base = Date.now() - 3_600_000;
  for (let k = 0, batch = 0; k < EDITS; batch += 1) {
    const bench = batch % BENCHES;
    const n = Math.min(BATCH, EDITS - k);
    // One millisecond per batch: stamps grow with the log, as edits arriving over time.
    const changes = Array.from({ length: n }, (_, i) => change(k + i, bench, (seqs[bench] as number) + i + 1, base + batch));
    await store.replica.pushBatch(WS, `bench${bench}`, `b${batch}`, changes);
    seqs[bench] = (seqs[bench] as number) + n;
    k += n;
    if (batch % 20 === 0) process.stderr.write(`\r  pushed ${k.toLocaleString('en-US')} / ${EDITS.toLocaleString('en-US')}`);
  }
  process.stderr.write('\n');
  return (performance.now() - t) / 1000;
}

/** Seconds to pull the whole log from cursor 0, as a bench outside the workspace would (nothing excluded). */
async function pullAll(store: Store): Promise<{ s: number; changes: number }> {
  const t = performance.now();
  let after = 0;
  let n = 0;
  for (;;) {
    const page = await store.replica.changesSince(WS, after, PULL_PAGE, 'nobody');
    if (page.length === 0) break;
    n += page.length;
    after = (page[page.length - 1] as WireChange).seq;
  }
  return { s: (performance.now() - t) / 1000, changes: n };
}

async function snapshotAll(store: Store): Promise<{ s: number; records: number }> {
  const t = performance.now();
  let key = '';
  let n = 0;
  for (;;) {
    const page = await store.replica.snapshotPage(WS, key, SNAPSHOT_PAGE);
    n += page.records.length;
    if (page.nextKey === null) break;
    key = page.nextKey;
  }
  return { s: (performance.now() - t) / 1000, records: n };
}

interface Figures {
  store: string;
  fillS: number;
  before: { rows: number; mb: number; pull: { s: number; changes: number } };
  snapshot: { s: number; records: number };
  compactS: number;
  after: { rows: number; mb: number; pull: { s: number; changes: number } };
}

async function measure(name: string, store: Store): Promise<Figures> {
  console.error(`${name}: pushing ${EDITS.toLocaleString('en-US')} edits of ${DEVICES.toLocaleString('en-US')} devices`);
  const fillS = await fill(store);
  const last = await store.replica.lastSeq(WS);
  const size0 = await store.replica.logSize(WS);
  const pull0 = await pullAll(store);
  const snapshot = await snapshotAll(store);
  // Every bench has pulled everything; no retention window: the whole log is compactable.
  for (let b = 0; b < BENCHES; b += 1) await store.replica.touchBench(WS, `bench${b}`, last);
  const t = performance.now();
  const report = await store.replica.compactLog(WS, { now: Date.now(), retentionMs: 0, activeMs: 24 * 3_600_000 });
  const compactS = (performance.now() - t) / 1000;
  if (report.through !== last) throw new Error(`compacted through ${report.through}, expected ${last}`);
  const size1 = await store.replica.logSize(WS);
  const pull1 = await pullAll(store);
  const mb = (b: number) => b / 1_048_576;
  return { store: name, fillS, before: { rows: size0.changes, mb: mb(size0.bytes), pull: pull0 }, snapshot, compactS, after: { rows: size1.changes, mb: mb(size1.bytes), pull: pull1 } };
}

function print(f: Figures): void {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  console.log(`central on ${f.store}: ${n(EDITS)} edits of ${n(DEVICES)} devices pushed in ${f.fillS.toFixed(1)} s`);
  console.log(`  before compaction: log ${n(f.before.rows)} changes, ${f.before.mb.toFixed(1)} MB; pull from cursor 0: ${f.before.pull.s.toFixed(2)} s`);
  console.log(`  snapshot of the workspace (${n(f.snapshot.records)} records): ${f.snapshot.s.toFixed(2)} s`);
  console.log(`  compaction: ${f.compactS.toFixed(1)} s`);
  console.log(
    `  after compaction:  log ${n(f.after.rows)} changes, ${f.after.mb.toFixed(1)} MB (${((f.after.rows / f.before.rows) * 100).toFixed(1)} % of the rows); ` +
      `pull from cursor 0: ${f.after.pull.s.toFixed(2)} s (${(f.before.pull.s / Math.max(f.after.pull.s, 1e-6)).toFixed(0)}x faster)`,
  );
}

async function main(): Promise<void> {
  const only = process.env.PERF_STORES ?? 'sqlite,pg';
  if (only.includes('sqlite')) {
    const sqlite = new SqliteStore({ file: join(root, 'central.db') });
    try {
      print(await measure('SQLite', sqlite));
    } finally {
      sqlite.close();
    }
  }
  if (only.includes('pg')) {
    const cluster = await provisionPostgres((l) => console.error(l), 'KITTING_TEST_DATABASE_URL');
    try {
      const u = new URL(cluster.url);
      u.searchParams.set('schema', `perf_compact_${Date.now()}`);
      const store = await PgStore.open({ url: u.toString() });
      try {
        print(await measure('PostgreSQL', store));
      } finally {
        await store.end();
      }
    } finally {
      cluster.stop();
    }
  }
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(root, { recursive: true, force: true }));
