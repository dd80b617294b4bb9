import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestStore, STORE_KINDS, type TestStore } from '../testing/stores.testkit';
import { declareLookup } from './lookups';
import type { Store } from './types';

const BY_OWNER = declareLookup('jobs', 'owner');

describe.each(STORE_KINDS)('store on %s', (kind) => {
  let opened: TestStore;
  let store: Store;
  let wall = 1_000;

  beforeEach(async () => {
    wall = 1_000;
    opened = await openTestStore(kind, null, { node: 'bench-a', wall: () => wall });
    store = opened.store;
  });
  afterEach(() => opened.dispose());

  const changes = async () => {
    const out = [];
    for (const ws of ['w1', 'w2']) for (const c of await store.replica.localChanges(ws, 0, 1000)) out.push({ ...c, fields: JSON.stringify(c.fields) });
    return out;
  };
  const stamps = async (id: string) => {
    for (const ws of ['w1', 'w2']) {
      const rec = (await store.replica.snapshotPage(ws, '', 1000)).records.find((r) => r.id === id);
      if (rec) return rec.stamps;
    }
    throw new Error(`no record ${id}`);
  };

  describe('store writes', () => {
    it('stamps every field with an HLC and appends the change in the same transaction', async () => {
      await store.transact('w1', (tx) => tx.put('jobs', 'j1', { id: 'j1', t: 'A', s: 0 }));
      const log = await changes();
      expect(log).toHaveLength(1);
      expect(JSON.parse(log[0].fields)).toEqual({ id: 'j1', t: 'A', s: 0 });
      expect(Object.keys((await stamps('j1'))).sort()).toEqual(['id', 's', 't']);
      expect((await stamps('j1')).t).toBe(log[0].hlc);
    });

    it('logs only the fields that changed, with a newer stamp', async () => {
      await store.transact('w1', (tx) => tx.put('jobs', 'j1', { id: 'j1', t: 'A', s: 0 }));
      const first = (await stamps('j1'));
      wall = 2_000;
      await store.transact('w1', (tx) => tx.patch('jobs', 'j1', { s: 3, t: 'A' }));
      const log = await changes();
      expect(JSON.parse(log[1].fields)).toEqual({ s: 3 });
      const second = (await stamps('j1'));
      expect(second.t).toBe(first.t);
      expect(second.s > first.s).toBe(true);
    });

    it('logs a patched field only when its value changes, whatever its type', async () => {
      const doc = { id: 'j1', t: 'A', n: 1, b: true, o: { x: [1, 2] }, z: 0 };
      await store.transact('w1', (tx) => tx.put('jobs', 'j1', doc));
      wall = 2_000;
      await store.transact('w1', (tx) => tx.patch('jobs', 'j1', { t: 'A', n: 1, b: true, o: { x: [1, 2] }, z: -0 }));
      expect(await changes()).toHaveLength(1);
      await store.transact('w1', (tx) => tx.patch('jobs', 'j1', { t: 'B', n: '1', b: false, o: { x: [2, 1] }, z: 0 }));
      const log = await changes();
      expect(log).toHaveLength(2);
      expect(JSON.parse(log[1].fields)).toEqual({ t: 'B', n: '1', b: false, o: { x: [2, 1] } });
      expect(await store.get('w1', 'jobs', 'j1')).toEqual({ id: 'j1', t: 'B', n: '1', b: false, o: { x: [2, 1] }, z: 0 });
    });

    it('rolls back every write of a failed transaction', async () => {
      await expect(
        store.transact('w1', async (tx) => {
          await tx.put('jobs', 'j1', { id: 'j1' });
          await tx.next('shipment');
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await store.get('w1', 'jobs', 'j1')).toBeNull();
      expect(await changes()).toHaveLength(0);
      expect(await store.transact('w1', (tx) => tx.next('shipment'))).toBe(1);
    });

    it('deletes with a tombstone that hides the record and is logged', async () => {
      await store.transact('w1', (tx) => tx.put('jobs', 'j1', { id: 'j1' }));
      expect(await store.transact('w1', (tx) => tx.remove('jobs', 'j1'))).toBe(true);
      expect(await store.get('w1', 'jobs', 'j1')).toBeNull();
      expect(await store.list('w1', 'jobs')).toEqual([]);
      expect(JSON.parse((await changes())[1].fields)).toEqual({ _deleted: true });
      expect((await stamps('j1'))._deleted).toBeDefined();
      expect(await store.transact('w1', (tx) => tx.remove('jobs', 'j1'))).toBe(false);
    });

    it('scopes every read by workspace', async () => {
      await store.transact('w1', (tx) => tx.put('jobs', 'j1', { id: 'j1', t: 'w1' }));
      await store.transact('w2', (tx) => tx.put('jobs', 'j1', { id: 'j1', t: 'w2' }));
      expect(await store.get('w1', 'jobs', 'j1')).toEqual({ id: 'j1', t: 'w1' });
      expect(await store.list('w2', 'jobs')).toEqual([{ id: 'j1', t: 'w2' }]);
      expect(await store.count('w3', 'jobs')).toBe(0);
    });
  });

  describe('getMany', () => {
    it('reads several records by key in the order asked: null for a missing, a deleted or another workspace\'s record', async () => {
      await store.transact('w1', async (tx) => {
        await tx.put('jobs', 'j1', { id: 'j1', t: 'A' });
        await tx.put('jobs', 'j2', { id: 'j2', t: 'B' });
        await tx.put('items', 'i1', { id: 'i1', n: 1 });
      });
      await store.transact('w1', (tx) => tx.remove('jobs', 'j2'));
      await store.transact('w2', (tx) => tx.put('jobs', 'j9', { id: 'j9', t: 'other' }));
      const got = await store.transact('w1', (tx) =>
        tx.getMany([
          ['items', 'i1'],
          ['jobs', 'missing'],
          ['jobs', 'j2'],
          ['jobs', 'j9'],
          ['jobs', 'j1'],
          ['items', 'i1'],
        ]),
      );
      expect(got).toEqual([{ id: 'i1', n: 1 }, null, null, null, { id: 'j1', t: 'A' }, { id: 'i1', n: 1 }]);
      // More keys than one statement takes (16), and none.
      const many = Array.from({ length: 40 }, (_, i) => ['jobs', i === 7 ? 'j1' : `nope-${i}`] as const);
      const wide = await store.transact('w1', (tx) => tx.getMany(many));
      expect(wide.filter(Boolean)).toEqual([{ id: 'j1', t: 'A' }]);
      expect(wide[7]).toEqual({ id: 'j1', t: 'A' });
      expect(await store.transact('w1', (tx) => tx.getMany([]))).toEqual([]);
    });

    it('sees the transaction\'s own writes, and a create after it still refuses an existing key', async () => {
      await store.transact('w1', (tx) => tx.put('jobs', 'j1', { id: 'j1', t: 'A' }));
      const seen = await store.transact('w1', async (tx) => {
        await tx.patch('jobs', 'j1', { t: 'A2' });
        const [j1, j3] = await tx.getMany([
          ['jobs', 'j1'],
          ['jobs', 'j3'],
        ]);
        await tx.create('jobs', 'j3', { id: 'j3', t: 'C' });
        const [again] = await tx.getMany([['jobs', 'j3']]);
        return { j1, j3, again };
      });
      expect(seen).toEqual({ j1: { id: 'j1', t: 'A2' }, j3: null, again: { id: 'j3', t: 'C' } });
      await expect(
        store.transact('w1', async (tx) => {
          await tx.getMany([['jobs', 'j1']]);
          await tx.create('jobs', 'j1', { id: 'j1', t: 'again' });
        }),
      ).rejects.toThrow('record_exists');
      expect(await store.get('w1', 'jobs', 'j1')).toEqual({ id: 'j1', t: 'A2' });
    });
  });

  describe('number series', () => {
    it('issues sequential numbers per workspace and series, from a start', async () => {
      const got = await store.transact('w1', async (tx) => [await tx.next('ticket', { start: 673 }), await tx.next('ticket', { start: 673 }), await tx.next('shipment')]);
      expect(got).toEqual([673, 674, 1]);
      expect(await store.transact('w2', (tx) => tx.next('ticket', { start: 673 }))).toBe(673);
    });

    it('continues after seeded numbers once bumped', async () => {
      const n = await store.transact('w1', async (tx) => {
        await tx.bumpSeries('shipment', 1008);
        await tx.bumpSeries('shipment', 5);
        return tx.next('shipment');
      });
      expect(n).toBe(1009);
    });
  });

  describe('lookups', () => {
    it('finds the live records whose field holds exactly a value, oldest first, in its workspace only', async () => {
      await store.ensureLookups([BY_OWNER]);
      await store.ensureLookups([BY_OWNER]); // idempotent
      await store.transact('w1', async (tx) => {
        await tx.put('jobs', 'j1', { id: 'j1', owner: 'sato' });
        await tx.put('jobs', 'j2', { id: 'j2', owner: 'tanaka' });
        await tx.put('jobs', 'j3', { id: 'j3', owner: 'sato' });
        await tx.put('jobs', 'j4', { id: 'j4', owner: 'Sato' });
        await tx.put('jobs', 'j5', { id: 'j5', owner: 5 });
        await tx.put('notes', 'n1', { id: 'n1', owner: 'sato' });
        // seen inside the writing transaction, removals included
        await tx.remove('jobs', 'j3');
        expect((await tx.find('jobs', 'owner', 'sato')).map((d) => d.id)).toEqual(['j1']);
      });
      await store.transact('w2', (tx) => tx.put('jobs', 'x1', { id: 'x1', owner: 'sato' }));
      await store.transact('w1', async (tx) => {
        await tx.put('jobs', 'j3', { id: 'j3', owner: 'sato' });
        await tx.patch('jobs', 'j2', { owner: 'sato' });
      });
      expect((await store.find('w1', 'jobs', 'owner', 'sato')).map((d) => d.id)).toEqual(['j1', 'j2', 'j3']);
      expect((await store.find('w1', 'jobs', 'owner', '5')).map((d) => d.id)).toEqual([]);
      expect(await store.find('w1', 'jobs', 'owner', 'nobody')).toEqual([]);
      expect((await store.find('w2', 'jobs', 'owner', 'sato')).map((d) => d.id)).toEqual(['x1']);
      await expect(store.find('w1', 'jobs', 'title', 'x')).rejects.toThrow('no lookup declared for jobs.title');
    });
  });

  describe('migrations', () => {
    it('records the applied migrations', () => {
      expect(store.replica.schemaVersion()).toBeGreaterThanOrEqual(1);
    });
  });
});
