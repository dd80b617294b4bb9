import type pg from 'pg';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMigrations, type Migration } from './migrate';

const PG_MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'pg-migrations');

export const loadPgMigrations = (): Migration[] => loadMigrations(PG_MIGRATIONS_DIR);

/** Thrown when the database was migrated by a newer release than this server. */
export class NewerSchemaError extends Error {
  constructor(readonly found: number, readonly known: number) {
    super(
      `The database schema is version ${found}, newer than this server's ${known}: it was upgraded by a newer release. ` +
        'Start that release (or newer) instead; this server will not run against it.',
    );
  }
}

/**
 * Apply the numbered PostgreSQL migrations in order, each in its own transaction, recorded in
 * schema_migrations. Several central processes may start at once: a session advisory lock lets one
 * migrate while the others wait. Refuses a database whose schema is newer than the migrations known here.
 */
export async function migratePg(client: pg.PoolClient, migrations = loadPgMigrations()): Promise<number> {
  await client.query("SELECT pg_advisory_lock(hashtextextended('kitting:migrate', 0))");
  try {
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied bigint NOT NULL)');
    const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
    const known = Math.max(0, ...migrations.map((m) => m.version));
    const found = Math.max(0, ...done);
    if (found > known) throw new NewerSchemaError(found, known);
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied) VALUES ($1, $2, $3)', [m.version, m.name, Date.now()]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
    }
    return Math.max(found, known);
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtextextended('kitting:migrate', 0))");
  }
}
