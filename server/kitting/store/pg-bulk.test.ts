/**
 * PostgreSQL bulk writes (a bench's push batches): record counts kept once per statement stay exact, and
 * the planner's statistics are refreshed while the records grow, so a batch's key lookups probe the
 * primary key instead of hashing or scanning the workspace.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatHlc } from '../../../shared/hlc';
import { dropSchema, freshSchema, schemaUrl } from '../testing/stores.testkit';
import { PgStore } from './pg-store';
import type { WireChange } from './types';

const schemas: string[] = [];
let store: PgStore;

beforeEach(async () => {
  const schema = freshSchema();
  schemas.push(schema);
  store = await PgStore.open({ url: schemaUrl(schema), poolSize: 4 });
});
afterEach(async () => {
  await store.end();
});
afterAll(async () => {
  for (const s of schemas) await dropSchema(s);
});

const hlc = (counter: number) => formatHlc({ ms: 1_790_000_000_000, counter, node: 'bench1' });
const imei = (i: number) => `35${String(i).padStart(13, '0')}`;
const device = (i: number, counter: number, extra: Record<string, unknown> = {}): WireChange => ({
  seq: counter,
  coll: 'devices',
  id: imei(i),
  hlc: hlc(counter),
  fields: { imei: imei(i), model: 'iPhone 16', ...extra },
});

async function kept(): Promise<string[]> {
  const r = await store.pool.query<{ ws: string; coll: string; live: number; total: number }>(
    'SELECT ws, coll, live, total FROM record_counts WHERE total > 0 ORDER BY ws, coll',
  );
  return r.rows.map((x) => `${x.ws}/${x.coll}: ${Number(x.live)} live of ${Number(x.total)}`);
}

async function scanned(): Promise<string[]> {
  const r = await store.pool.query<{ ws: string; coll: string; live: string; total: string }>(
    'SELECT ws, coll, COUNT(*) FILTER (WHERE NOT deleted) AS live, COUNT(*) AS total FROM records GROUP BY ws, coll ORDER BY ws, coll',
  );
  return r.rows.map((x) => `${x.ws}/${x.coll}: ${Number(x.live)} live of ${Number(x.total)}`);
}

describe('PostgreSQL bulk writes', () => {
  it('keep record counts exact through batch inserts, mixed upserts, tombstones and trims', async () => {
    await store.replica.applyChanges('w1', Array.from({ length: 300 }, (_, i) => device(i, i + 1)));
    await store.replica.applyChanges('w2', Array.from({ length: 40 }, (_, i) => device(i, i + 1)));
    // one statement both updating 100 known devices and inserting 100 new ones, tombstoning 20 of the known
    await store.replica.applyChanges(
      'w1',
      Array.from({ length: 200 }, (_, i) => device(200 + i, 1000 + i, 200 + i < 220 ? { _deleted: true } : { loc: 'B-2' })),
    );
    expect(await kept()).toEqual(['w1/devices: 380 live of 400', 'w2/devices: 40 live of 40']);
    expect(await kept()).toEqual(await scanned());
    await store.transact('w2', async (tx) => {
      await tx.remove('devices', imei(0));
      await tx.trimLocal('devices', 10);
    });
    expect(await kept()).toEqual(await scanned());
    expect(await store.count('w2', 'devices')).toBe(9); // ten kept, the newest one the tombstone
  });

  it('count the rows a write grew only once they are committed, so an ANALYZE it starts sees them', async () => {
    // the order of COMMITs sent and writes counted (a count before its COMMIT starts an ANALYZE that finds none of the rows)
    const events: string[] = [];
    const stats = (store.replica as unknown as { stats: { wrote: (n: number) => void } }).stats;
    const original = stats.wrote.bind(stats);
    stats.wrote = (n: number) => {
      events.push(`counted ${n}`);
      original(n);
    };
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (args[0] === 'COMMIT') events.push('commit');
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      await store.replica.applyChanges('w1', Array.from({ length: 300 }, (_, i) => device(i, i + 1)));
      await store.replica.pushBatch('w1', 'bench1', 'b0', Array.from({ length: 200 }, (_, i) => device(300 + i, 301 + i)));
    } finally {
      pg.Client.prototype.query = query;
    }
    expect(events).toEqual(['commit', 'counted 300', 'commit', 'counted 200']);
  });

  it('analyze the records once a push has grown them, so lookups by key probe the primary key', async () => {
    const reltuples = async () => Number((await store.pool.query<{ n: number }>("SELECT reltuples AS n FROM pg_class WHERE oid = 'records'::regclass")).rows[0]?.n);
    expect(await reltuples()).toBe(-1); // never analyzed
    for (let b = 0; b < 4; b += 1) {
      await store.replica.pushBatch('w1', 'bench1', `b${b}`, Array.from({ length: 500 }, (_, i) => device(b * 500 + i, b * 500 + i + 1)));
    }
    // the refresh runs beside the pushes; wait for it (no timing asserted)
    for (let i = 0; i < 2400 && (await reltuples()) < 0; i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(await reltuples()).toBeGreaterThanOrEqual(500);
    const ids = Array.from({ length: 500 }, (_, i) => imei(1000 + i));
    const plan = await store.pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT r.coll, r.id FROM unnest($2::text[], $3::text[]) AS k(coll, id)
         CROSS JOIN LATERAL (SELECT coll, id FROM records WHERE ws = $1 AND coll = k.coll AND id = k.id LIMIT 1) r`,
      ['w1', ids.map(() => 'devices'), ids],
    );
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('records_pkey');
    expect(text).not.toMatch(/Hash|Seq Scan on records|records_by_hlc/);
  });
});
