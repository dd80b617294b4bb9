import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestStore, STORE_KINDS, type TestStore } from '../testing/stores.testkit';
import { mergeChange, type RowState } from './merge';
import type { Store, WireChange } from './types';

const DAY = 24 * 3_600_000;
const T0 = Date.UTC(2026, 10, 1);

/** Per-field LWW of changes into plain record states (what a bench holds after applying them). */
function replay(changes: WireChange[], start = new Map<string, RowState>()): Map<string, RowState> {
  const state = new Map(start);
  for (const c of changes) {
    const key = `${c.coll}/${c.id}`;
    const merged = mergeChange(state.get(key) ?? null, c);
    if (merged) state.set(key, merged.row);
  }
  return state;
}

/** Records with their fields and stamps, key order aside (replicas compare by value). */
const view = (m: Map<string, RowState>) =>
  [...m]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, r]) => `${k} ${JSON.stringify(Object.entries(r.data).sort())} ${JSON.stringify(Object.entries(r.stamps).sort())} ${r.deleted}`);

describe.each(STORE_KINDS)('change-log compaction on %s', (kind) => {
  let opened: TestStore;
  let store: Store;
  let wall = T0;

  beforeEach(async () => {
    wall = T0;
    opened = await openTestStore(kind, null, { node: 'central', wall: () => wall });
    store = opened.store;
    await store.createWorkspace('w1', 'central');
  });
  afterEach(() => opened.dispose());

  const log = () => store.replica.localChanges('w1', 0, 100_000);

  /** 3 devices edited 40 times each, over 40 minutes, plus a removal. */
  async function edits(): Promise<void> {
    for (let i = 0; i < 40; i += 1) {
      wall += 60_000;
      for (const d of ['d1', 'd2', 'd3']) {
        await store.transact('w1', async (tx) => {
          if (i === 0) await tx.put('devices', d, { imei: d, status: 'new', n: 0, note: 'first' });
          else await tx.patch('devices', d, i % 3 === 0 ? { status: `s${i}`, n: i } : { n: i });
        });
      }
    }
    await store.transact('w1', (tx) => tx.remove('devices', 'd3'));
  }

  it('keeps only the latest change of each record field: a replica pulling from any cursor ends where the full log leads', async () => {
    await edits();
    const full = await log();
    const before = await store.replica.logSize('w1');
    expect(before.changes).toBe(full.length);

    const report = await store.replica.compactLog('w1', { now: wall + DAY, retentionMs: 0, activeMs: DAY });
    const compacted = await log();
    expect(report.through).toBe(full[full.length - 1]?.seq);
    expect(await store.replica.compactedThrough('w1')).toBe(report.through);
    expect(report.before).toEqual(before);
    expect(report.after.changes).toBe(compacted.length);
    expect(report.after.bytes).toBeLessThan(before.bytes);
    // One change per surviving (record, field) group: imei and note from the put, the last status, the last n, the removal.
    expect(compacted.length).toBeLessThanOrEqual(3 * 4 + 1);
    // Every kept row is an original change (same seq and stamp) with a subset of its fields, in their order.
    const bySeq = new Map(full.map((c) => [c.seq, c]));
    for (const c of compacted) {
      const orig = bySeq.get(c.seq);
      expect(orig?.hlc).toBe(c.hlc);
      const keys = Object.keys(orig?.fields ?? {});
      expect(Object.keys(c.fields)).toEqual(keys.filter((k) => k in c.fields));
    }
    const expected = view(replay(full));
    for (const cursor of [0, 7, 40, 61, 100, full.length]) {
      const seen = replay(full.filter((c) => c.seq <= cursor));
      expect(view(replay(compacted.filter((c) => c.seq > cursor), seen)), `cursor ${cursor}`).toEqual(expected);
    }
  });

  it('keeps every change an active bench has not pulled, and those inside the retention window', async () => {
    await edits();
    const full = await log();
    const mid = full[Math.floor(full.length / 2)]?.seq as number;
    await store.replica.saveBench('w1', 'b1', 'token-b1', 'bench 1');
    await store.replica.touchBench('w1', 'b1', mid);
    const now = Date.now();
    const byBench = await store.replica.compactLog('w1', { now, retentionMs: 0, activeMs: DAY });
    expect(byBench.through).toBe(mid);
    expect((await log()).filter((c) => c.seq > mid)).toEqual(full.filter((c) => c.seq > mid));

    // The bench is away for good: now the retention window (the last 10 minutes of edits) holds the horizon.
    await store.replica.revokeBench('w1', 'b1');
    const recent = full.find((c) => Number(c.hlc.slice(0, 15)) >= wall - 10 * 60_000)?.seq as number;
    const byAge = await store.replica.compactLog('w1', { now: wall, retentionMs: 10 * 60_000, activeMs: DAY });
    expect(byAge.through).toBe(recent - 1);
    expect((await log()).filter((c) => c.seq >= recent)).toEqual(full.filter((c) => c.seq >= recent));
    const expected = view(replay(full));
    expect(view(replay(await log()))).toEqual(expected);
  });

  it('compacts again after more edits, dropping older fields superseded since, and never past the last change', async () => {
    await edits();
    await store.replica.compactLog('w1', { now: wall + DAY, retentionMs: 0, activeMs: DAY });
    const first = await log();
    wall += 60_000;
    await store.transact('w1', (tx) => tx.patch('devices', 'd1', { n: 1000, status: 'done' }));
    const again = await store.replica.compactLog('w1', { now: wall + DAY, retentionMs: 0, activeMs: DAY });
    const second = await log();
    expect(again.through).toBe(await store.replica.lastSeq('w1'));
    expect(second.length).toBeLessThan(first.length + 1);
    const d1 = second.filter((c) => c.id === 'd1');
    expect(d1.filter((c) => 'n' in c.fields)).toHaveLength(1);
    expect(d1.filter((c) => 'status' in c.fields)).toHaveLength(1);
    expect(view(replay(second))).toEqual(view(replay([...first, ...second.filter((c) => c.seq > (first[first.length - 1]?.seq ?? 0))])));
    // Nothing left to do: a third run changes nothing.
    const third = await store.replica.compactLog('w1', { now: wall + DAY, retentionMs: 0, activeMs: DAY });
    expect(third.after).toEqual(third.before);
  });
});
