import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from './sqlite-store';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('SQLite connection settings', () => {
  it('writes through a WAL that is checkpointed every 8,000 pages, with a 32 MB page cache', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kitting-sqlite-'));
    dirs.push(dir);
    const store = new SqliteStore({ file: join(dir, 'kitting.db') });
    try {
      expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(store.db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL: durable at every checkpoint
      expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(8000);
      expect(store.db.pragma('cache_size', { simple: true })).toBe(-32768);
    } finally {
      store.close();
    }
  });
});

describe('the write-ahead log is copied off the event loop', () => {
  it('a worker copies it into the file every `checkpointEvery` records written (at most 25 counted per transaction)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kitting-sqlite-'));
    dirs.push(dir);
    const store = new SqliteStore({ file: join(dir, 'kitting.db'), checkpointEvery: 30 });
    try {
      const ws = 'w-checkpoint';
      await store.createWorkspace(ws, 'bench');
      // One transaction of 100 records counts 25: no pass yet.
      await store.transact(ws, async (tx) => {
        for (let i = 0; i < 100; i++) await tx.create('devices', `d${i}`, { imei: `d${i}` });
      });
      await store.checkpointer?.idle();
      expect(store.checkpointer?.stats.passes).toBe(0);
      await store.transact(ws, async (tx) => {
        for (let i = 100; i < 105; i++) await tx.create('devices', `d${i}`, { imei: `d${i}` });
      });
      await store.checkpointer?.idle();
      expect(store.checkpointer?.stats).toMatchObject({ passes: 1, failures: 0 });
      expect(store.checkpointer?.stats.checkpointed).toBe(store.checkpointer?.stats.log);
      // The file alone (without its log) holds the records.
      const copy = join(dir, 'copy.db');
      copyFileSync(join(dir, 'kitting.db'), copy);
      const db = new Database(copy, { readonly: true });
      expect((db.prepare("SELECT count(*) AS n FROM records WHERE coll = 'devices'").get() as { n: number }).n).toBe(105);
      db.close();
    } finally {
      store.close();
    }
    // Reopened: every record there.
    const again = new SqliteStore({ file: join(dir, 'kitting.db'), checkpointEvery: false });
    expect(await again.count('w-checkpoint', 'devices')).toBe(105);
    expect(again.checkpointer).toBeNull();
    again.close();
  }, 60_000);

  it('an in-memory database has no checkpointer', () => {
    const store = new SqliteStore({ file: ':memory:' });
    expect(store.checkpointer).toBeNull();
    store.close();
  });
});

describe('a transaction reads each record once', () => {
  function open(trace: string[]): SqliteStore {
    const dir = mkdtempSync(join(tmpdir(), 'kitting-sqlite-'));
    dirs.push(dir);
    return new SqliteStore({ file: join(dir, 'kitting.db'), verbose: (sql) => trace.push(sql) });
  }
  const reads = (trace: string[]) => trace.filter((s) => /^\s*SELECT .* FROM records/.test(s));

  it('writes a record it has read without reading it again, and sees its own writes afterwards', async () => {
    const trace: string[] = [];
    const store = open(trace);
    try {
      await store.createWorkspace('w', 'bench');
      await store.transact('w', (tx) => tx.create('items', 'a', { id: 'a', n: 1 }));
      trace.length = 0;
      const seen = await store.transact('w', async (tx) => {
        const before = await tx.get('items', 'a');
        await tx.patch('items', 'a', { n: 2 });
        const after = await tx.get('items', 'a');
        const missing = await tx.get('items', 'b');
        await tx.create('items', 'b', { id: 'b', n: 3 });
        const created = await tx.get('items', 'b');
        await tx.remove('items', 'a');
        return { before, after, missing, created, gone: await tx.get('items', 'a'), tombstone: await tx.has('items', 'a'), again: await tx.patch('items', 'a', { n: 4 }) };
      });
      expect(seen).toEqual({ before: { id: 'a', n: 1 }, after: { id: 'a', n: 2 }, missing: null, created: { id: 'b', n: 3 }, gone: null, tombstone: true, again: null });
      // One read per record (a and b), though each was read and written several times.
      expect(reads(trace)).toHaveLength(2);
      // A create over a record this transaction removed is still refused, and nothing is left half written.
      await expect(store.transact('w', async (tx) => {
        await tx.get('items', 'a');
        await tx.create('items', 'a', { id: 'a', n: 5 });
      })).rejects.toThrow('record_exists');
      expect(await store.get('w', 'items', 'a')).toBeNull();
      expect(await store.get('w', 'items', 'b')).toEqual({ id: 'b', n: 3 });
      // getMany: one statement for the keys not read yet, and nothing more for a later get or patch of them.
      trace.length = 0;
      const many = await store.transact('w', async (tx) => {
        await tx.get('items', 'b');
        const got = await tx.getMany([
          ['items', 'b'],
          ['items', 'c'],
          ['items', 'd'],
        ]);
        await tx.get('items', 'c');
        await tx.create('items', 'c', { id: 'c', n: 6 });
        return got;
      });
      expect(many).toEqual([{ id: 'b', n: 3 }, null, null]);
      expect(reads(trace)).toHaveLength(2);
      expect(reads(trace)[1]).toMatch(/coll = 'items' AND id = 'c' UNION ALL SELECT .* coll = 'items' AND id = 'd'$/);
      // A later transaction reads again (nothing is kept between transactions).
      trace.length = 0;
      await store.transact('w', (tx) => tx.get('items', 'b'));
      expect(reads(trace)).toHaveLength(1);
    } finally {
      store.close();
    }
  });

  it('logs the changes of a transaction with one INSERT at commit, in the order of its writes; a rolled back one logs none', async () => {
    const trace: string[] = [];
    const store = open(trace);
    try {
      await store.createWorkspace('w', 'bench');
      await store.transact('w', (tx) => tx.create('items', 'a', { id: 'a', n: 1 }));
      trace.length = 0;
      await store.transact('w', async (tx) => {
        await tx.create('items', 'b', { id: 'b', n: 1 });
        await tx.patch('items', 'a', { n: 2 });
        await tx.patch('items', 'b', { n: 3 });
        await tx.remove('items', 'a');
      });
      const logs = trace.filter((s) => /^\s*INSERT INTO changes/.test(s));
      expect(logs).toHaveLength(1);
      expect(trace.indexOf(logs[0] as string)).toBe(trace.length - 2);
      // A patch of a live record rewrites it in place.
      expect(trace.filter((s) => /^\s*UPDATE records SET data/.test(s))).toHaveLength(2);
      const rows = () => store.db.prepare("SELECT id, fields FROM changes WHERE ws = 'w' ORDER BY seq").all() as { id: string; fields: string }[];
      expect(rows().map((r) => [r.id, JSON.parse(r.fields)])).toEqual([
        ['a', { id: 'a', n: 1 }],
        ['b', { id: 'b', n: 1 }],
        ['a', { n: 2 }],
        ['b', { n: 3 }],
        ['a', { _deleted: true }],
      ]);
      await expect(store.transact('w', async (tx) => {
        await tx.patch('items', 'b', { n: 4 });
        throw new Error('refused');
      })).rejects.toThrow('refused');
      expect(rows()).toHaveLength(5);
      expect(await store.get('w', 'items', 'b')).toEqual({ id: 'b', n: 3 });
      // More changes than one INSERT carries: all logged, in order.
      await store.transact('w', async (tx) => {
        for (let i = 0; i < 250; i++) await tx.create('items', `c${i}`, { id: `c${i}` });
      });
      expect(rows().slice(5).map((r) => r.id)).toEqual(Array.from({ length: 250 }, (_, i) => `c${i}`));
    } finally {
      store.close();
    }
  });
});
