import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMigrations, migrate, type Migration } from '../core/db/migrate';
import { PgSyncDb } from '../core/sql/pg-sync';
import type { SqlDb, SqlDialect, SqlStatement } from '../core/sql/types';
import { openDatabase, type Database as CoreDatabase } from '../core/db/database';
import type { AgentsDB } from './schema';

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

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** The platform's migrations: one folder, one numbering, each file with its SQLite and PostgreSQL sections. */
export const agentsMigrations = (): Migration[] => loadMigrations(MIGRATIONS);

/** Where the data lives: a SQLite file (default) or a PostgreSQL URL. */
interface AgentsDbLocation {
  file: string;
  databaseUrl?: string | null;
}

export interface AgentsStore {
  database: CoreDatabase<AgentsDB>;
  /** TRANSITIONAL: the synchronous handle of code not yet on repositories (SQLite: the same connection). */
  legacy: Db;
}

/**
 * Open the platform's store: Kysely over the SQLite file (the default) or a PostgreSQL pool, schema brought
 * up to date by the one migration runner (server/core/db/migrate.ts; on PostgreSQL under its advisory lock).
 * Databases migrated by the former runners open as they are: both recorded their versions in the same
 * `schema_migrations (version, name, applied)` table under the same numbers. A database at a newer
 * version than this build knows is refused (SchemaTooNewError).
 */
export async function openAgentsStore(where: AgentsDbLocation & { statementTimeoutMs: number; lockTimeoutMs: number; poolMax?: number; log?: (line: string) => void }): Promise<AgentsStore> {
  const database = openDatabase<AgentsDB>({
    file: where.file, url: where.databaseUrl, statementTimeoutMs: where.statementTimeoutMs, lockTimeoutMs: where.lockTimeoutMs, max: where.poolMax,
    onConnectionError: (err) => where.log?.(`database connection lost (replaced on next use): ${err.message}`),
  });
  try {
    await migrate(database, 'agents', agentsMigrations());
    // TRANSITIONAL: opened after migrating and never migrates itself (SQLite: the same connection).
    const legacy: Db = database.sqlite ?? new PgSyncDb(where.databaseUrl!);
    return { database, legacy };
  } catch (err) {
    await database.close();
    throw err;
  }
}

/** SQL text of a top-level string field of a JSON text column (key: letters, digits, underscores). */
export function jsonText(db: Db, column: string, key: string): string {
  if (!/^\w+$/.test(key)) throw new Error(`invalid JSON key ${key}`);
  return dialectOf(db) === 'postgres' ? `(${column}::jsonb ->> '${key}')` : `json_extract(${column}, '$.${key}')`;
}

/** SQL text of the UTC month (YYYY-MM) of an epoch-milliseconds expression. */
export function utcMonthOfMs(db: Db, expr: string): string {
  return dialectOf(db) === 'postgres' ? `to_char(to_timestamp((${expr}) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM')` : `strftime('%Y-%m', (${expr}) / 1000, 'unixepoch')`;
}

/** True when the table exists in the database (current schema on PostgreSQL). */
export function tableExists(db: Db, name: string): boolean {
  const sql =
    dialectOf(db) === 'postgres'
      ? 'SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?'
      : "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?";
  return !!db.prepare(sql).get(name);
}
