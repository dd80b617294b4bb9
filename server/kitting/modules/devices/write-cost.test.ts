import type Database from 'better-sqlite3';
import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateImei } from '../../../../shared/imei';
import { createApp } from '../../app';
import { testConfig, type Mode } from '../../../core/config';
import { P, PLATFORM_WS } from '../../../core/security/platform';
import { loadOrCreateSecret } from '../../../core/security/signing';
import { SqliteStore } from '../../../core/store/sqlite-store';
import { Client } from '../../testing/harness';
import { DEVICES } from './devices.service';

/**
 * A write must cost the same with 1,000 or 50,000 devices in the workspace: the same statements,
 * each reaching its rows by a full unique key (no scan, no count or max over a range, no sort).
 * Checked on the SQL each request runs and on SQLite's query plans, never on time.
 */

interface Rig {
  store: SqliteStore;
  client: Client;
  ws: string;
  /** Statements run while `fn` runs. */
  statements(fn: () => Promise<unknown>): Promise<string[]>;
  close(): Promise<void>;
}

async function rig(mode: Mode): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'kitting-cost-'));
  let trace: string[] | null = null;
  const store = new SqliteStore({ file: join(dir, 'kitting.db'), verbose: (sql) => trace?.push(sql) });
  const { app, ctx } = await createApp({ store, config: testConfig({ dataDir: dir, mode }), secret: loadOrCreateSecret(dir) });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  // Filling 50,000 rows holds the event loop for seconds: keep the client's connection open meanwhile.
  server.keepAliveTimeout = 120_000;
  const addr = server.address();
  const client = new Client(`http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`);
  expect((await client.get('/api/devices')).status).toBe(200);
  const ws = ctx.benchWorkspace ?? (client.workspaceId() as string);
  if (mode === 'central') {
    // A tenant with a plan: every device write runs the plan check (enterprise: no device limit).
    await store.transact(PLATFORM_WS, (tx) => tx.patch(P.tenants, ws, { planKey: 'enterprise' }));
  }
  return {
    store,
    client,
    ws,
    async statements(fn) {
      trace = [];
      try {
        await fn();
        return trace;
      } finally {
        trace = null;
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function fillTo(store: SqliteStore, ws: string, target: number): Promise<void> {
  const have = await store.count(ws, DEVICES);
  await store.transact(ws, async (tx) => {
    for (let i = have; i < target; i++) {
      const imei = generateImei();
      await tx.put(DEVICES, imei, { imei, serial: `FILL-${i}`, asset: `HK-26-F${i}`, model: 'iPhone 16', cust: '検証', status: '保管中', chip: 'c-blue', bat: 100 });
    }
  });
}

/** The statement with its values replaced, so two runs compare by shape. */
const shape = (sql: string) => sql.replace(/'(?:[^']|'')*'/g, '?').replace(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/g, '?');

/** Columns of each unique index (and of a WITHOUT ROWID primary key) of a table. */
function uniqueKeys(db: Database.Database, table: string): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  const pk = (db.pragma(`table_info(${table})`) as { name: string; pk: number }[]).filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  if (pk.length) keys.set('PRIMARY KEY', pk.map((c) => c.name));
  for (const ix of db.pragma(`index_list(${table})`) as { name: string; unique: number }[]) {
    if (ix.unique) keys.set(ix.name, (db.pragma(`index_info(${ix.name})`) as { name: string }[]).map((c) => c.name));
  }
  return keys;
}

/** Plan steps of a statement that may visit more than one row of a table (empty: every access is by a full unique key). */
function unboundedSteps(db: Database.Database, sql: string): string[] {
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
  const bad: string[] = [];
  for (const { detail } of plan) {
    if (/^(SCAN CONSTANT ROW|SCALAR SUBQUERY|CORRELATED SCALAR SUBQUERY|LIST SUBQUERY)/.test(detail)) continue;
    if (/USING INTEGER PRIMARY KEY \(rowid=\?\)$/.test(detail)) continue;
    const m = /^SEARCH (\w+) USING (?:COVERING )?(?:INDEX (\w+)|(PRIMARY KEY)) \((.*)\)$/.exec(detail);
    if (m) {
      const [, table, index, primary, terms] = m as unknown as [string, string, string | undefined, string | undefined, string];
      const bound = new Set(terms.split(' AND ').filter((t) => /^\w+=\?$/.test(t)).map((t) => t.slice(0, -2)));
      const key = uniqueKeys(db, table).get(index ?? primary ?? '');
      if (key && key.every((c) => bound.has(c))) continue;
    }
    bad.push(`${detail}  <-  ${sql.slice(0, 160)}`);
  }
  return bad;
}

const isQuery = (sql: string) => /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(sql);

const body = (i: number) => ({ model: 'iPhone 16', cust: 'ベンチ株式会社', status: '保管中', loc: `A-${i}`, note: `cost ${i}` });

/** Statements of each device write: create, bulk, edit, delete. */
async function deviceWrites(r: Rig, round: number): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  let imei = '';
  out.create = await r.statements(async () => {
    const res = await r.client.post<{ device: { imei: string } }>('/api/device', body(round));
    expect(res.status).toBe(200);
    imei = res.body.device.imei;
  });
  out.createWithImei = await r.statements(async () => {
    expect((await r.client.post('/api/device', { ...body(round), imei: generateImei() })).status).toBe(200);
  });
  out.bulk = await r.statements(async () => {
    expect((await r.client.post('/api/devices/bulk', { qty: 5, model: 'Pixel 9' })).status).toBe(200);
  });
  out.edit = await r.statements(async () => {
    expect((await r.client.post(`/api/device/${imei}`, { status: '出荷済', loc: 'B-1' })).status).toBe(200);
  });
  out.remove = await r.statements(async () => {
    expect((await r.client.post(`/api/device/${imei}/delete`)).status).toBe(200);
  });
  return out;
}

describe.each(['bench', 'central'] as const)('device writes in %s mode cost the same at 1,000 and 50,000 devices', (mode) => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig(mode);
  });
  afterAll(() => r.close());

  it('runs the same statements, each by a full unique key', async () => {
    await fillTo(r.store, r.ws, 1_000);
    const small = await deviceWrites(r, 1);
    await fillTo(r.store, r.ws, 50_000);
    expect(await r.store.count(r.ws, DEVICES)).toBe(50_000);
    const large = await deviceWrites(r, 2);

    for (const op of Object.keys(small)) {
      expect(large[op]?.map(shape), op).toEqual(small[op]?.map(shape));
      const writes = (small[op] ?? []).filter(isQuery);
      expect(writes.length, op).toBeGreaterThan(0);
      const bad = [...new Set(writes)].flatMap((sql) => unboundedSteps(r.store.db, sql));
      expect(bad, op).toEqual([]);
    }
  }, 120_000);
});
