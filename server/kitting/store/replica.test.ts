import { afterEach, describe, expect, it } from 'vitest';
import { openTestStore, STORE_KINDS, type StoreKind, type TestStore } from '../testing/stores.testkit';
import type { Store } from './types';

const WS = 'w-merge';
const open: TestStore[] = [];

afterEach(async () => {
  for (const s of open.splice(0)) await s.dispose();
});

/** Send every local change of `from` to `to` (what a push then a pull amounts to). */
async function send(from: Store, to: Store): Promise<void> {
  await to.replica.applyChanges(WS, await from.replica.localChanges(WS, 0, 10_000));
}

describe.each(STORE_KINDS)('replica on %s', (kind: StoreKind) => {
  async function replica(node: string, wall: () => number): Promise<Store> {
    const s = await openTestStore(kind, null, { node, wall });
    open.push(s);
    return s.store;
  }

  describe('per-field last-writer-wins merge', () => {
    it('keeps the later write of each field, whatever order the changes arrive in', async () => {
      let t = 1_000;
      const a = await replica('a', () => t);
      const b = await replica('b', () => t);
      await a.transact(WS, (tx) => tx.put('devices', '1', { imei: '1', loc: 'A', bat: 10 }));
      await send(a, b);
      t = 2_000;
      await b.transact(WS, (tx) => tx.patch('devices', '1', { loc: 'B' }));
      t = 3_000;
      await a.transact(WS, (tx) => tx.patch('devices', '1', { bat: 99 }));
      await send(a, b);
      await send(b, a);
      for (const s of [a, b]) expect(await s.get(WS, 'devices', '1')).toEqual({ imei: '1', loc: 'B', bat: 99 });
    });

    it('breaks a tie of equal time by the bench id', async () => {
      const a = await replica('bench-a', () => 5_000);
      const b = await replica('bench-b', () => 5_000);
      await a.transact(WS, (tx) => tx.put('settings', 'company', { name: 'A社' }));
      await b.transact(WS, (tx) => tx.put('settings', 'company', { name: 'B社' }));
      await send(a, b);
      await send(b, a);
      expect(await a.get(WS, 'settings', 'company')).toEqual({ name: 'B社' });
      expect(await b.get(WS, 'settings', 'company')).toEqual({ name: 'B社' });
    });

    it('a tombstone wins over a concurrent update, even a later one', async () => {
      let t = 1_000;
      const a = await replica('a', () => t);
      const b = await replica('b', () => t);
      await a.transact(WS, (tx) => tx.put('jobs', 'J1', { id: 'J1', qty: 1 }));
      await send(a, b);
      t = 2_000;
      await a.transact(WS, (tx) => tx.remove('jobs', 'J1'));
      t = 3_000;
      await b.transact(WS, (tx) => tx.patch('jobs', 'J1', { qty: 5 }));
      await send(a, b);
      await send(b, a);
      expect(await a.get(WS, 'jobs', 'J1')).toBeNull();
      expect(await b.get(WS, 'jobs', 'J1')).toBeNull();
    });

    it('a record created again after its deletion carries none of its old fields anywhere', async () => {
      let t = 1_000;
      const a = await replica('a', () => t);
      const b = await replica('b', () => t);
      await a.transact(WS, (tx) => tx.put('devices', '9', { imei: '9', note: '古いメモ', user: '佐藤' }));
      t = 2_000;
      await a.transact(WS, (tx) => tx.remove('devices', '9'));
      t = 3_000;
      await a.transact(WS, (tx) => tx.put('devices', '9', { imei: '9', model: 'Pixel 9' }));
      await send(a, b);
      expect(await b.get(WS, 'devices', '9')).toEqual({ imei: '9', model: 'Pixel 9' });
    });

    it('keeps stamps increasing after a restart with the wall clock set back', async () => {
      let t = 10_000;
      const s = await replica('a', () => t);
      await s.transact(WS, (tx) => tx.put('devices', '2', { imei: '2', loc: 'X' }));
      t = 1_000;
      await s.transact(WS, (tx) => tx.patch('devices', '2', { loc: 'Y' }));
      const [first, second] = await s.replica.localChanges(WS, 0, 10);
      expect(second.hlc > first.hlc).toBe(true);
    });
  });

  describe('tx.trimLocal', () => {
    it('keeps the newest records of a capped collection and writes no change', async () => {
      let t = 1_000;
      const s = await replica('a', () => t);
      for (let i = 1; i <= 5; i += 1) {
        t += 1;
        await s.transact(WS, (tx) => tx.put('syncLog', `LOG-${i}`, { id: `LOG-${i}` }));
      }
      const before = (await s.replica.localChanges(WS, 0, 100)).length;
      const removed = await s.transact(WS, (tx) => tx.trimLocal('syncLog', 3));
      expect(removed).toBe(2);
      expect((await s.list(WS, 'syncLog')).map((d) => d.id)).toEqual(['LOG-3', 'LOG-4', 'LOG-5']);
      expect((await s.replica.localChanges(WS, 0, 100)).length).toBe(before);
    });
  });
});
