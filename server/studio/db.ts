import Database from 'better-sqlite3';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMigrations, migrate } from '../core/sql/sqlite-migrate';
import { prepareSqliteFile } from '../core/security/private-files';

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export type StudioDb = Database.Database;

/** One connection per process, WAL, the studio's own numbered migrations. */
export function openStudioDb(file: string): StudioDb {
  prepareSqliteFile(file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, loadMigrations(MIGRATIONS));
  return db;
}

export function closeStudioDb(db: StudioDb): void {
  if (!db.open) return;
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

export const nowIso = (): string => new Date().toISOString();

const cache = new WeakMap<StudioDb, Map<string, Database.Statement>>();

/** A prepared statement, compiled once per connection and reused (SQL text is the key). */
export function stmt(db: StudioDb, sql: string): Database.Statement {
  let byText = cache.get(db);
  if (!byText) cache.set(db, (byText = new Map()));
  let s = byText.get(sql);
  if (!s) byText.set(sql, (s = db.prepare(sql)));
  return s;
}
