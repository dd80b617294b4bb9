/**
 * PostgreSQL store specifics: several central processes (here: two stores with their own pools and clocks)
 * on one database, and the refusal of a schema newer than this release.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dropSchema, freshSchema, schemaUrl } from '../testing/stores';
import { NewerSchemaError } from './pg-migrate';
import { PgStore } from './pg-store';

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

describe('schema versions', () => {
  it('refuses to start against a database migrated by a newer release', async () => {
    await a.pool.query("INSERT INTO schema_migrations (version, name, applied) VALUES (999, '999-future.sql', 0)");
    const err = await PgStore.open({ url: schemaUrl(schema), poolSize: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NewerSchemaError);
    expect((err as Error).message).toMatch(/schema is version 999, newer than this server's \d+/);
  });

  it('reports the database in health', async () => {
    expect(await a.health()).toEqual({ kind: 'postgres', reachable: true, schema: expect.any(Number) });
  });
});
