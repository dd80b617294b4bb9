import { mkdtempSync, rmSync } from 'node:fs';
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
