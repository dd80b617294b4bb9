/**
 * PostgreSQL store specifics: several central processes (here: two stores with their own pools and clocks)
 * on one database, and the refusal of a schema newer than this release.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dropSchema, freshSchema, schemaUrl } from '../testing/stores.testkit';
import { readConfig } from '../server-config';
import { SchemaTooNewError } from '../../core/db/migrate';
import { loadMigrations, migratePg } from './migrate';
import { CentralOnlyStoreError } from './pg-replica';
import { parseDatabaseUrl, PgStore } from './pg-store';
import { createPool } from './pg-txn';

const schemas: string[] = [];
let a: PgStore;
let b: PgStore;
let schema: string;

beforeEach(async () => {
  schema = freshSchema();
  schemas.push(schema);
  [a, b] = await Promise.all([PgStore.open({ url: schemaUrl(schema), poolSize: 4 }), PgStore.open({ url: schemaUrl(schema), poolSize: 4 })]);
});
afterEach(async () => {
  await a?.end();
  await b?.end();
});
afterAll(async () => {
  for (const s of schemas) await dropSchema(s);
});

describe('two central processes on one database', () => {
  it('never issue the same number of a series', async () => {
    const runs = Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).transact('w1', (tx) => tx.next('shipment', { start: 1001 })));
    const got = await Promise.all(runs);
    expect(new Set(got).size).toBe(40);
    expect(Math.min(...got)).toBe(1001);
    expect(Math.max(...got)).toBe(1040);
  });

  it('lose no update of one record and number the change log without gaps in commit order', async () => {
    await a.transact('w1', (tx) => tx.put('counters', 'c', { n: 0 }));
    const bump = (s: PgStore) => s.transact('w1', async (tx) => tx.patch('counters', 'c', { n: Number((await tx.get('counters', 'c'))?.n) + 1 }));
    await Promise.all(Array.from({ length: 30 }, (_, i) => bump(i % 2 ? a : b)));
    expect(await b.get('w1', 'counters', 'c')).toEqual({ n: 30 });
    const log = await a.replica.localChanges('w1', 0, 1000);
    expect(log.map((c) => c.seq)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    expect(log.map((c) => c.fields.n)).toEqual(Array.from({ length: 31 }, (_, i) => i));
    // Stamps keep increasing although the two processes have their own clocks.
    for (let i = 1; i < log.length; i += 1) expect(log[i]!.hlc > log[i - 1]!.hlc).toBe(true);
  });

  it('accept one push batch once, whichever process gets it twice', async () => {
    await a.replica.saveBench('w1', 'bench-a', 'tok', '1番台');
    const hlc = `${String(Date.now()).padStart(13, '0')}:0000:bench-a`;
    const changes = [{ seq: 1, coll: 'devices', id: '35001', hlc, fields: { imei: '35001' } }];
    const answers = await Promise.all([a.replica.pushBatch('w1', 'bench-a', 'b1', changes), b.replica.pushBatch('w1', 'bench-a', 'b1', changes)]);
    expect(answers.filter((x) => x.duplicate)).toHaveLength(1);
    expect(answers.map((x) => x.acked)).toEqual([1, 1]);
    expect(await a.replica.changesSince('w1', 0, 100, '')).toHaveLength(1);
  });

  it('redeem an enrolment code exactly once', async () => {
    await a.replica.createEnrolCode('w1', 'code-hash', Date.now() + 60_000);
    const got = await Promise.all([a.replica.redeemEnrolCode('code-hash', 'b1', Date.now()), b.replica.redeemEnrolCode('code-hash', 'b2', Date.now())]);
    expect(got.filter((w) => w === 'w1')).toHaveLength(1);
    expect(got.filter((w) => w === null)).toHaveLength(1);
  });

  it('lease disjoint number blocks', async () => {
    const req = { series: 'shipment', size: 10, start: 1001, atLeast: 0 };
    const blocks = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).replica.leaseBlock('w1', req)));
    const nums = blocks.flatMap((x) => Array.from({ length: x!.hi - x!.lo + 1 }, (_, i) => x!.lo + i));
    expect(new Set(nums).size).toBe(100);
  });
});

describe('central only', () => {
  it('refuses every bench-only replica method with a clear error, and holds no leased numbers', async () => {
    const job = { levels: {}, bump: {}, plan: () => [] };
    const calls: [string, () => Promise<unknown>][] = [
      ['renumber', () => a.replica.renumber('w1', job)],
      ['setLeasedWorkspace', () => a.replica.setLeasedWorkspace('w1')],
      ['addBlocks', () => a.replica.addBlocks('w1', [{ series: 'shipment', lo: 1, hi: 10 }])],
      ['wantSeries', () => a.replica.wantSeries('w1', 'shipment', 1)],
    ];
    for (const [method, call] of calls) {
      const err = await call().then(() => null, (e: unknown) => e);
      expect(err, method).toBeInstanceOf(CentralOnlyStoreError);
      expect((err as CentralOnlyStoreError).method).toBe(method);
      expect((err as Error).message).toContain('the PostgreSQL store serves central only');
    }
    // Status reads answer what central holds: no leased workspace, no blocks.
    expect(a.replica.leasedWorkspace()).toBeNull();
    await a.replica.setLeasedWorkspace(null);
    expect(await a.replica.leaseLevels('w1')).toEqual([]);
  });

  it('is refused as a bench store by the configuration', () => {
    expect(() => readConfig({ KITTING_MODE: 'bench', KITTING_DATABASE_URL: 'postgres://u:p@localhost:5432/kitting' })).toThrow(
      'KITTING_DATABASE_URL is for central mode (KITTING_MODE=central); a bench keeps its SQLite replica',
    );
  });
});

describe('schema versions', () => {
  it('refuses to start against a database migrated by a newer release', async () => {
    await a.pool.query("INSERT INTO schema_migrations (version, name, applied) VALUES (999, '999-future.sql', 0)");
    const err = await PgStore.open({ url: schemaUrl(schema), poolSize: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaTooNewError);
    expect((err as Error).message).toMatch(/schema version 999, newer than \d+, the newest migration this build knows/);
    // nothing was changed: the newer release's record is still there
    expect((await a.pool.query('SELECT name FROM schema_migrations WHERE version = 999')).rows).toEqual([{ name: '999-future.sql' }]);
  });

  it('reports the database in health', async () => {
    expect(await a.health()).toEqual({ kind: 'postgres', reachable: true, schema: expect.any(Number) });
  });
});

describe('documents stored as jsonb', () => {
  it('keeps documents and logged fields as jsonb, usable by lookups, whatever the field order', async () => {
    await a.transact('w1', (tx) => tx.put('devices', 'd1', { z: 1, imei: '350000000000001', a: { y: [1, 'x'], b: null } }));
    const types = await a.pool.query<{ table_name: string; column_name: string; data_type: string }>(
      "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND column_name IN ('data', 'fields') ORDER BY table_name",
      [schema],
    );
    expect(types.rows.map((r) => `${r.table_name}.${r.column_name}:${r.data_type}`)).toEqual(['changes.fields:jsonb', 'records.data:jsonb']);
    expect(await b.get('w1', 'devices', 'd1')).toEqual({ z: 1, imei: '350000000000001', a: { y: [1, 'x'], b: null } });
    const pulled = await b.replica.changesSince('w1', 0, 10, 'none');
    expect(pulled.map((c) => c.fields)).toEqual([{ z: 1, imei: '350000000000001', a: { y: [1, 'x'], b: null } }]);
  });

  it('writes the character U+0000, which jsonb cannot hold, as U+FFFD and keeps an escaped backslash as written', async () => {
    await a.transact('w1', (tx) => tx.put('notes', 'n1', { text: 'a\u0000b', path: 'C:\\u0000', 'k\u0000': 'v' }));
    expect(await b.get('w1', 'notes', 'n1')).toEqual({ text: 'a\uFFFDb', path: 'C:\\u0000', 'k\uFFFD': 'v' });
    await a.replica.saveBench('w1', 'bench1', 'tok-1', '1番台');
    const hlc = `${String(Date.now()).padStart(13, '0')}:0000:bench1`;
    const pushed = await b.replica.pushBatch('w1', 'bench1', 'batch-1', [{ seq: 1, coll: 'notes', id: 'n2', hlc, fields: { text: '\u0000' } }]);
    expect(pushed.applied).toBe(1);
    expect(await a.get('w1', 'notes', 'n2')).toEqual({ text: '\uFFFD' });
  });
});

describe('migration 008 (json to jsonb)', () => {
  it('converts stored documents and changes, NUL characters included', async () => {
    const old = freshSchema();
    schemas.push(old);
    const boot = createPool(parseDatabaseUrl(schemaUrl(schema)).url, null, 1);
    await boot.query(`CREATE SCHEMA ${old}`);
    await boot.end();
    const pool = createPool(parseDatabaseUrl(schemaUrl(schema)).url, old, 1);
    try {
      await migratePg(pool, loadMigrations().filter((m) => m.version < 8));
      const doc = '{"b": "x\\u0000y", "a": "\\\\u0000", "c": "\\u0000\\u0000"}';
      await pool.query("INSERT INTO records (ws, coll, id, data, stamps, hlc) VALUES ('w1', 'notes', 'n1', $1, '{}', 'h')", [doc]);
      await pool.query("INSERT INTO changes (ws, seq, coll, id, hlc, fields) VALUES ('w1', 1, 'notes', 'n1', 'h', $1)", [doc]);
      await migratePg(pool);
      const want = { b: 'x\uFFFDy', a: '\\u0000', c: '\uFFFD\uFFFD' };
      expect((await pool.query('SELECT data FROM records')).rows[0].data).toEqual(want);
      expect((await pool.query('SELECT fields FROM changes')).rows[0].fields).toEqual(want);
      expect((await pool.query("SELECT pg_typeof(data)::text AS t FROM records")).rows[0].t).toBe('jsonb');
    } finally {
      await pool.end();
    }
  });
});
