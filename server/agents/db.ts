import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMigrations, migrate } from '../core/store/migrate';

export type Db = Database.Database;

const statements = new WeakMap<Db, Map<string, Database.Statement>>();

/**
 * A prepared statement kept per connection for SQL run on every chat turn (preparing costs more
 * than running a small indexed query). Only fixed SQL text; never change its mode (pluck, raw).
 */
export function stmt(db: Db, sql: string): Database.Statement {
  let m = statements.get(db);
  if (!m) statements.set(db, (m = new Map()));
  let s = m.get(sql);
  if (!s) {
    if (m.size >= 200) m.clear();
    s = db.prepare(sql);
    m.set(sql, s);
  }
  return s;
}

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** One connection per process, WAL, foreign keys on, numbered migrations applied in order. */
export function openAgentsDb(file: string): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, loadMigrations(MIGRATIONS));
  return db;
}
