import type Database from 'better-sqlite3';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMigrations as loadFrom, migrate as runMigrations, type Migration } from '../../core/sql/sqlite-migrate';

export { schemaVersion, type Migration } from '../../core/sql/sqlite-migrate';

/** Kitting's SQLite schema, numbered SQL files beside this module. */
const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return loadFrom(dir);
}

/** Apply kitting's migrations (or the given ones) in order, each in its own transaction. */
export function migrate(db: Database.Database, migrations = loadMigrations()): number {
  return runMigrations(db, migrations);
}
