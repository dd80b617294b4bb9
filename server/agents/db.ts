import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMigrations, migrate } from '../core/store/migrate';
import { migratePostgres } from '../core/sql/migrate';
import { PgSyncDb } from '../core/sql/pg-sync';
import type { SqlDb, SqlDialect, SqlStatement } from '../core/sql/types';

/** The platform's database: SQLite (better-sqlite3) by default, PostgreSQL with AGENTS_DATABASE_URL. */
export type Db = SqlDb;

const statements = new WeakMap<Db, Map<string, SqlStatement>>();

/**
 * A prepared statement kept per connection for SQL run on every chat turn (preparing costs more
 * than running a small indexed query). Only fixed SQL text.
 */
export function stmt(db: Db, sql: string): SqlStatement {
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

export const dialectOf = (db: Db): SqlDialect => (db instanceof PgSyncDb ? 'postgres' : 'sqlite');

/** The SQLite connection behind db, or null on PostgreSQL (file snapshots exist only for SQLite). */
export const sqliteOf = (db: Db): Database.Database | null => (db instanceof Database ? db : null);

const HERE = dirname(fileURLToPath(import.meta.url));

/** Where the data lives: a SQLite file (default) or a PostgreSQL URL. */
export interface AgentsDbLocation {
  file: string;
  databaseUrl?: string | null;
}

/** One connection per process, numbered migrations applied in order (SQLite: WAL, foreign keys on). */
export function openAgentsDb(where: string | AgentsDbLocation): Db {
  const loc = typeof where === 'string' ? { file: where } : where;
  if (loc.databaseUrl) {
    const db = new PgSyncDb(loc.databaseUrl);
    try {
      migratePostgres(db, loadMigrations(join(HERE, 'pg-migrations')));
    } catch (err) {
      db.close();
      throw err;
    }
    return db;
  }
  const file = loc.file;
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, loadMigrations(join(HERE, 'migrations')));
  return db;
}
