import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
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
 *
 * A migration that an earlier numbering recorded under another number says so in a line
 * `-- formerly: NNN-name.sql` (the file name that was recorded). At start, inside the migration lock,
 * a row recorded under exactly that version and name is moved to the migration's version and name
 * (its `applied` kept): the migration counts as applied and is not run again.
 */
export interface Migration {
  version: number;
  /** The file name, as recorded in schema_migrations. */
  name: string;
  text: string;
  /** The file name an earlier numbering recorded this migration under (`-- formerly:` line). */
  formerly?: string;
}

const FILE = /^(\d{3})-.+\.sql$/;
const MARKER = /^--\s*dialect:\s*(sqlite|postgres|all)\s*$/;
const FORMERLY = /^--\s*formerly:\s*(\d{3}-\S+\.sql)\s*$/m;

export function loadMigrations(dir: string): Migration[] {
  const out = readdirSync(dir)
    .filter((f) => FILE.test(f))
    .sort()
    .map((f): Migration => {
      const text = readFileSync(join(dir, f), 'utf8');
      const formerly = FORMERLY.exec(text)?.[1];
      return { version: Number(FILE.exec(f)![1]), name: f, text, ...(formerly ? { formerly } : {}) };
    });
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

interface Renumbering {
  fromVersion: number;
  fromName: string;
  to: Migration;
}

/** The `-- formerly:` declarations of a list of migrations. */
function renumberings(migrations: Migration[]): Renumbering[] {
  return migrations.flatMap((to) => (to.formerly ? [{ fromVersion: Number(to.formerly.slice(0, 3)), fromName: to.formerly, to }] : []));
}

/**
 * Former rows found are all deleted first, then inserted under their new numbers (so chains, 4 to 5 and 5 to 6,
 * work); a new number still recorded after the deletes belongs to another migration: refused, the transaction
 * rolled back.
 */
function refuseTakenNumbers(found: { r: Renumbering }[], recordedAfterDelete: (version: number) => boolean): void {
  for (const { r } of found) {
    if (recordedAfterDelete(r.to.version))
      throw new Error(`schema_migrations records ${r.fromName} (now ${r.to.name}) and also version ${r.to.version} under another name: the migration history is inconsistent, nothing was changed`);
  }
}

/** The highest version recorded in a SQLite database's schema_migrations (0 when none is). */
export function sqliteSchemaVersion(conn: BetterSqlite3.Database): number {
  const has = conn.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  return has ? ((conn.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0) : 0;
}

/**
 * SQLite, synchronously (for a store that opens its connection synchronously): each migration in its own
 * BEGIN IMMEDIATE transaction (the write lock), re-checked inside it; former numbers moved first, under
 * the same lock. Returns the schema version; refuses (SchemaTooNewError) a newer schema, changing nothing.
 */
export function migrateSqlite(conn: BetterSqlite3.Database, migrations: Migration[]): number {
  conn.exec(CREATE.sqlite);
  const current = () => sqliteSchemaVersion(conn);
  refuseNewer(current(), migrations);
  const moves = renumberings(migrations);
  if (moves.length) {
    conn.exec('BEGIN IMMEDIATE');
    try {
      const row = conn.prepare('SELECT applied FROM schema_migrations WHERE version = ? AND name = ?');
      const found = moves.flatMap((r) => {
        const hit = row.get(r.fromVersion, r.fromName) as { applied: number } | undefined;
        return hit ? [{ r, applied: hit.applied }] : [];
      });
      const del = conn.prepare('DELETE FROM schema_migrations WHERE version = ? AND name = ?');
      for (const { r } of found) del.run(r.fromVersion, r.fromName);
      const seen = conn.prepare('SELECT 1 FROM schema_migrations WHERE version = ?');
      const ins = conn.prepare('INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)');
      refuseTakenNumbers(found, (v) => !!seen.get(v));
      for (const { r, applied } of found) ins.run(r.to.version, r.to.name, applied);
      conn.exec('COMMIT');
    } catch (err) {
      if (conn.inTransaction) conn.exec('ROLLBACK');
      throw err;
    }
  }
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
      const moves = renumberings(migrations);
      if (moves.length) {
        await client.query('BEGIN');
        try {
          const found: { r: Renumbering; applied: number }[] = [];
          for (const r of moves) {
            const hit = await client.query('SELECT applied FROM schema_migrations WHERE version = $1 AND name = $2', [r.fromVersion, r.fromName]);
            if (hit.rowCount) found.push({ r, applied: Number(hit.rows[0].applied) });
          }
          for (const { r } of found) await client.query('DELETE FROM schema_migrations WHERE version = $1 AND name = $2', [r.fromVersion, r.fromName]);
          const recorded = new Set((await client.query('SELECT version FROM schema_migrations')).rows.map((x: { version: unknown }) => Number(x.version)));
          refuseTakenNumbers(found, (v) => recorded.has(v));
          for (const { r, applied } of found)
            await client.query('INSERT INTO schema_migrations (version, name, applied) VALUES ($1, $2, $3)', [r.to.version, r.to.name, applied]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw err;
        }
      }
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
