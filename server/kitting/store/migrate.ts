import type Database from 'better-sqlite3';
import type pg from 'pg';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMigrations as loadFrom, migrate as runMigrations, migrateSqlite, sqliteSchemaVersion, type Migration } from '../../core/db/migrate';

/**
 * Kitting's schema: one folder of numbered SQL files beside this module, one numbering on both stores, each
 * file with its SQLite section (bench and central) and its PostgreSQL one (central), run by the core runner.
 */
const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export function loadMigrations(): Migration[] {
  return loadFrom(MIGRATIONS_DIR);
}

/** SQLite (the store opens synchronously): apply the migrations in order; refuses a newer schema. */
export function migrate(db: Database.Database, migrations = loadMigrations()): number {
  return migrateSqlite(db, migrations);
}

/** PostgreSQL: the same migrations, under the runner's advisory lock (per schema); refuses a newer schema. */
export function migratePg(pool: pg.Pool, migrations = loadMigrations()): Promise<number> {
  return runMigrations({ sqlite: null, pool }, 'kitting', migrations);
}

export function schemaVersion(db: Database.Database): number {
  return sqliteSchemaVersion(db);
}
