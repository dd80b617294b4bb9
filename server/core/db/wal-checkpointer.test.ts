import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WalCheckpointer } from './wal-checkpointer';

/**
 * The write-ahead log is copied into the database file by a worker thread: checked on the file itself (a
 * copy of the database file alone, without its log, holds the rows only once they were copied), never on time.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function walDatabase(): { file: string; db: Database.Database; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'wal-checkpointer-'));
  dirs.push(dir);
  const file = join(dir, 'data.db');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // SQLite's own checkpoint off: whatever reaches the file here was copied by the worker.
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT NOT NULL)');
  return { file, db, dir };
}

/** Rows in the database file alone (a copy of it without its -wal). */
function rowsInFile(file: string, dir: string): number {
  const copy = join(dir, `copy-${Math.random().toString(36).slice(2)}.db`);
  copyFileSync(file, copy);
  const db = new Database(copy, { readonly: true });
  try {
    const has = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'items'").get() as { n: number };
    return has.n === 0 ? 0 : (db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('WalCheckpointer', () => {
  it('copies the log into the file on a worker once `every` records are written, not before', async () => {
    const { file, db, dir } = walDatabase();
    const cp = new WalCheckpointer(file, { every: 10 });
    try {
      const insert = db.prepare('INSERT INTO items (label) VALUES (?)');
      for (let i = 0; i < 4; i++) {
        insert.run(`row ${i}`);
        cp.committed(2);
      }
      await cp.idle();
      expect(cp.stats.passes).toBe(0);
      expect(rowsInFile(file, dir)).toBe(0);

      insert.run('row 4');
      cp.committed(2); // the tenth record: a pass starts
      await cp.idle();
      expect(cp.stats).toMatchObject({ passes: 1, failures: 0 });
      expect(cp.stats.checkpointed).toBe(cp.stats.log);
      expect(cp.stats.log).toBeGreaterThan(0);
      expect(rowsInFile(file, dir)).toBe(5);
      // The server's connection still reads and writes as before.
      insert.run('row 5');
      expect((db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n).toBe(6);
    } finally {
      await cp.close();
      db.close();
    }
  }, 60_000);

  it('runs one pass at a time, and none after close', async () => {
    const { file, db, dir } = walDatabase();
    const cp = new WalCheckpointer(file, { every: 1 });
    try {
      db.prepare("INSERT INTO items (label) VALUES ('a')").run();
      cp.committed(1);
      cp.committed(1); // a pass is running: not a second one
      await cp.idle();
      expect(cp.stats.passes).toBe(1);
      await cp.close();
      db.prepare("INSERT INTO items (label) VALUES ('b')").run();
      cp.committed(5);
      await cp.idle();
      expect(cp.stats.passes).toBe(1);
      expect(rowsInFile(file, dir)).toBe(1);
    } finally {
      await cp.close();
      db.close();
    }
  }, 60_000);

  it('counts a failed pass and leaves the work to SQLite (a file that is gone)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wal-checkpointer-'));
    dirs.push(dir);
    const cp = new WalCheckpointer(join(dir, 'missing.db'), { every: 1 });
    try {
      cp.committed(1);
      await cp.idle();
      expect(cp.stats).toMatchObject({ passes: 0, failures: 1 });
    } finally {
      await cp.close();
    }
  }, 60_000);
});
