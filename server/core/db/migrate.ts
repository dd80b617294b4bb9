import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database, Dialect } from './database';

/** What the runner needs of a database handle. */
export type MigratableDatabase = Pick<Database<unknown>, 'sqlite' | 'pool'>;

/**
 * One migration runner for every service and both dialects. A service keeps one folder of
 * `NNN-name.sql` files (one numbering). A file holds SQL for both dialects; where they differ, a line
 * `-- dialect: sqlite` or `-- dialect: postgres` starts a section only that dialect runs, and
 * `-- dialect: all` returns to SQL both run. Applied migrations are recorded in
 * `schema_migrations (version, name, applied)`, the table existing databases already have.
 */
export interface Migration {
  version: number;
  /** The file name, as recorded in schema_migrations. */
  name: string;
  text: string;
}

const FILE = /^(\d{3})-.+\.sql$/;
const MARKER = /^--\s*dialect:\s*(sqlite|postgres|all)\s*$/;

export function loadMigrations(dir: string): Migration[] {
  const out = readdirSync(dir)
    .filter((f) => FILE.test(f))
    .sort()
    .map((f) => ({ version: Number(FILE.exec(f)![1]), name: f, text: readFileSync(join(dir, f), 'utf8') }));
  for (let i = 1; i < out.length; i++) {
    if (out[i].version === out[i - 1].version) throw new Error(`two migrations numbered ${out[i].version} in ${dir}: ${out[i - 1].name}, ${out[i].name}`);
  }
  return out;
}

/** The statements of a migration file that `dialect` runs (the other dialect's sections left out). */
export function sqlFor(text: string, dialect: Dialect): string {
  let current: Dialect | 'all' = 'all';
  const keep: string[] = [];
  for (const line of text.split('\n')) {
    const m = MARKER.exec(line.trim());
    if (m) {
      current = m[1] as Dialect | 'all';
      continue;
    }
    if (current === 'all' || current === dialect) keep.push(line);
  }
  return keep.join('\n');
}

export class SchemaTooNewError extends Error {
  constructor(
    readonly databaseVersion: number,
    readonly newestKnown: number,
  ) {
    super(
      `The database is at schema version ${databaseVersion}, newer than ${newestKnown}, the newest migration this build knows. ` +
        'It was migrated by a newer release: run that release (or restore a backup taken before the upgrade).',
    );
  }
}

const CREATE: Record<Dialect, string> = {
  sqlite: 'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied INTEGER NOT NULL)',
  postgres: 'CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)',
};

function refuseNewer(current: number, migrations: Migration[]): void {
  const newest = migrations.length ? migrations[migrations.length - 1].version : 0;
  if (current > newest) throw new SchemaTooNewError(current, newest);
}

/** SQLite: each migration in its own BEGIN IMMEDIATE transaction (the write lock), re-checked inside it. */
function migrateSqlite(conn: NonNullable<MigratableDatabase['sqlite']>, migrations: Migration[]): number {
  conn.exec(CREATE.sqlite);
  const current = () => (conn.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
  refuseNewer(current(), migrations);
  const done = conn.prepare('SELECT 1 FROM schema_migrations WHERE version = ?');
  const record = conn.prepare('INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)');
  for (const m of migrations) {
    conn.exec('BEGIN IMMEDIATE');
    try {
      if (!done.get(m.version)) {
        conn.exec(sqlFor(m.text, 'sqlite'));
        record.run(m.version, m.name, Date.now());
      }
      conn.exec('COMMIT');
    } catch (err) {
      if (conn.inTransaction) conn.exec('ROLLBACK');
      throw err;
    }
  }
  return current();
}

/**
 * PostgreSQL: an advisory lock (keyed by schema and service) held on a dedicated connection for the
 * whole run, so processes started together apply each migration once; each migration in its own transaction.
 */
async function migratePostgres(pool: NonNullable<MigratableDatabase['pool']>, service: string, migrations: Migration[]): Promise<number> {
  const client = await pool.connect();
  const key = `schema_migrations:${service}`;
  try {
    // Waiting for another process's migration may take longer than one statement may.
    await client.query('SET statement_timeout = 0');
    await client.query('SET lock_timeout = 0');
    await client.query("SELECT pg_advisory_lock(hashtext(current_schema() || ':' || $1))", [key]);
    try {
      await client.query(CREATE.postgres);
      const current = async () => Number((await client.query('SELECT MAX(version) AS v FROM schema_migrations')).rows[0].v ?? 0);
      refuseNewer(await current(), migrations);
      for (const m of migrations) {
        await client.query('BEGIN');
        try {
          const seen = await client.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
          if (seen.rowCount === 0) {
            await client.query(sqlFor(m.text, 'postgres'));
            await client.query('INSERT INTO schema_migrations (version, name, applied) VALUES ($1, $2, $3)', [m.version, m.name, Date.now()]);
          }
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw err;
        }
      }
      return await current();
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext(current_schema() || ':' || $1))", [key]).catch(() => {});
    }
  } finally {
    // Back to the pool with the pool's own timeouts: the session settings changed above are reset.
    await client.query('RESET ALL').catch(() => {});
    client.release();
  }
}

/**
 * Apply a service's migrations in order; returns the schema version. Refuses (SchemaTooNewError) when
 * the database records a version newer than the newest migration given.
 */
export async function migrate(database: MigratableDatabase, service: string, migrations: Migration[]): Promise<number> {
  if (database.sqlite) return migrateSqlite(database.sqlite, migrations);
  if (database.pool) return migratePostgres(database.pool, service, migrations);
  throw new Error('migrate: the database has neither a SQLite connection nor a PostgreSQL pool');
}

/** The highest applied migration (0 on an empty database). */
async function schemaVersion<DB>(db: Kysely<DB>): Promise<number> {
  const r = await sql<{ v: number | null }>`SELECT MAX(version) AS v FROM schema_migrations`.execute(db);
  return Number(r.rows[0]?.v ?? 0);
}
