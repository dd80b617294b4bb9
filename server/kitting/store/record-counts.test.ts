import { formatHlc } from '../../../shared/hlc';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { guardCounts, type Growth } from './count-guard';
import { SqliteStore } from './sqlite-store';
import type { WireRecord } from './types';

let store: SqliteStore;
beforeEach(() => {
  store = new SqliteStore({ file: ':memory:', node: 'bench-a' });
});
afterEach(() => store.close());

/** Every (ws, coll) count as kept by the writes, next to the same count taken by scanning. */
function counts(): { kept: string[]; scanned: string[] } {
  const kept = store.db.prepare('SELECT ws, coll, live, total FROM record_counts WHERE total > 0 ORDER BY ws, coll').all() as Record<string, unknown>[];
  const scanned = store.db
    .prepare('SELECT ws, coll, SUM(deleted = 0) AS live, COUNT(*) AS total FROM records GROUP BY ws, coll ORDER BY ws, coll')
    .all() as Record<string, unknown>[];
  const line = (r: Record<string, unknown>) => `${String(r.ws)}/${String(r.coll)}: ${String(r.live)} live of ${String(r.total)}`;
  return { kept: kept.map(line), scanned: scanned.map(line) };
}

function expectExact(): void {
  const { kept, scanned } = counts();
  expect(kept).toEqual(scanned);
}

const h = (ms: number, counter: number, node: string) => formatHlc({ ms, counter, node });

const rec = (coll: string, id: string, hlc: string, deleted = false): WireRecord => ({
  coll,
  id,
  data: { id, n: 1 },
  stamps: { id: hlc, n: hlc, ...(deleted ? { _deleted: hlc } : {}) },
  deleted,
});

describe('record counts', () => {
  it('stay exact through puts, re-puts, tombstones, re-creation and trims', async () => {
    await store.transact('w1', async (tx) => {
      for (let i = 0; i < 5; i++) await tx.put('devices', `d${i}`, { id: `d${i}` });
      await tx.put('devices', 'd0', { id: 'd0', note: 'again' });
      await tx.put('jobs', 'j1', { id: 'j1' });
    });
    expect(await store.count('w1', 'devices')).toBe(5);
    await store.transact('w1', async (tx) => {
      expect(await tx.remove('devices', 'd1')).toBe(true);
      expect(await tx.remove('devices', 'd1')).toBe(false);
      expect(await tx.count('devices')).toBe(4);
      await tx.patch('devices', 'd2', { note: 'x' });
    });
    expect(await store.count('w1', 'devices')).toBe(4);
    await store.transact('w1', (tx) => tx.put('devices', 'd1', { id: 'd1' }));
    expect(await store.count('w1', 'devices')).toBe(5);
    expectExact();
    await store.transact('w1', async (tx) => {
      for (let i = 0; i < 8; i++) await tx.put('log', `l${i}`, { id: `l${i}` });
      await tx.trimLocal('log', 3);
    });
    expect(await store.count('w1', 'log')).toBe(3);
    expectExact();
  });

  it('roll back with the transaction', async () => {
    await store.transact('w1', (tx) => tx.put('devices', 'a', { id: 'a' }));
    await expect(
      store.transact('w1', async (tx) => {
        await tx.put('devices', 'b', { id: 'b' });
        expect(await tx.count('devices')).toBe(2);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await store.count('w1', 'devices')).toBe(1);
    expectExact();
  });

  it('stay exact through replication: merged changes and records, rekey and renumber', async () => {
    const r = store.replica;
    await r.applyChanges('w1', [
      { seq: 1, coll: 'devices', id: 'x1', hlc: h(1000, 0, 'n2'), fields: { id: 'x1' } },
      { seq: 2, coll: 'devices', id: 'x2', hlc: h(1000, 1, 'n2'), fields: { id: 'x2' } },
      { seq: 3, coll: 'devices', id: 'x1', hlc: h(1000, 2, 'n2'), fields: { _deleted: true } },
    ]);
    expect(await store.count('w1', 'devices')).toBe(1);
    await r.applyRecords('w1', [rec('devices', 'x3', h(2000, 0, 'n2')), rec('devices', 'x4', h(2000, 0, 'n2'), true), rec('devices', 'x1', h(3000, 0, 'n2'))]);
    expectExact();
    await store.transact('local', async (tx) => {
      await tx.put('devices', 'l1', { id: 'l1' });
      await tx.put('jobs', 'j1', { id: 'j1' });
    });
    await r.rekey('local', 'w1');
    expect(await store.count('local', 'devices')).toBe(0);
    expectExact();
    await r.renumber('w1', {
      levels: {},
      bump: {},
      plan: (records) => records.filter((x) => x.coll === 'jobs').map((x) => ({ coll: x.coll, from: x.id, to: `${x.id}-n`, data: { ...x.data, id: `${x.id}-n` }, changed: ['id'] })),
    });
    expect(await store.count('w1', 'jobs')).toBe(1);
    expectExact();
    await r.pushBatch('w2', 'bench-1', 'b1', [{ seq: 1, coll: 'devices', id: 'p1', hlc: h(4000, 0, 'n3'), fields: { id: 'p1' } }]);
    expect(await store.count('w2', 'devices')).toBe(1);
    expectExact();
  });
});

describe('count guard', () => {
  it('sees how much each transaction grew a counted collection and can refuse it before commit', async () => {
    const seen: Growth[] = [];
    const guarded = guardCounts(store, {
      counted: [{ coll: 'devices', resource: 'devices' }],
      applies: async (_store, tx) => tx.ws !== 'w-unlimited',
      async check(_store, _tx, g) {
        seen.push(g);
        if (g.after > 3) throw new Error(`limit ${g.after}`);
      },
    });
    await guarded.transact('w1', async (tx) => {
      await tx.put('devices', 'a', { id: 'a' });
      await tx.put('devices', 'b', { id: 'b' });
      await tx.put('jobs', 'j', { id: 'j' });
    });
    // edits and removals never grow a collection: no check
    await guarded.transact('w1', async (tx) => {
      await tx.put('devices', 'a', { id: 'a', note: 'edited' });
      await tx.patch('devices', 'b', { note: 'x' });
      await tx.remove('devices', 'b');
    });
    await expect(
      guarded.transact('w1', async (tx) => {
        for (const id of ['c', 'd', 'e']) await tx.put('devices', id, { id });
      }),
    ).rejects.toThrow('limit 4');
    expect(await store.count('w1', 'devices')).toBe(1);
    expect(await store.get('w1', 'devices', 'c')).toBeNull();
    // demo data loads are not checked
    await guarded.transact('w1', async (tx) => {
      for (const id of ['s1', 's2', 's3', 's4']) await tx.put('devices', id, { id });
    }, { seed: true });
    // a workspace no limit applies to is neither counted nor checked
    await guarded.transact('w-unlimited', async (tx) => {
      for (const id of ['u1', 'u2', 'u3', 'u4', 'u5']) await tx.put('devices', id, { id });
    });
    expect(await store.count('w-unlimited', 'devices')).toBe(5);
    expect(seen.map((g) => [g.ws, g.coll, g.resource, g.before, g.after])).toEqual([
      ['w1', 'devices', 'devices', 0, 2],
      ['w1', 'devices', 'devices', 1, 4],
    ]);
  });
});
