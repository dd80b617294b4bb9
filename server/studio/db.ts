import type { Kysely } from 'kysely';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, type Database } from '../core/db/database';
import { loadMigrations, migrate } from '../core/db/migrate';
import type { StudioDB } from './schema';

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** A connection (SQLite) or pool (PostgreSQL) of the studio's tables; a transaction is one too. */
export type StudioDb = Kysely<StudioDB>;
export type StudioDatabase = Database<StudioDB>;

export interface StudioDbOptions {
  /** SQLite file (the default store). */
  file: string;
  /** STUDIO_DATABASE_URL: PostgreSQL instead of the file. */
  url?: string | null;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  poolMax?: number;
  /** PostgreSQL: prepare statements once per connection (default true). */
  prepare?: boolean;
  log?: (line: string) => void;
}

/** Open the studio's store and bring its schema up to date (one migration runner, one numbering for both dialects). */
export async function openStudioDb(opts: StudioDbOptions): Promise<StudioDatabase> {
  const database = openDatabase<StudioDB>({
    file: opts.file, url: opts.url, statementTimeoutMs: opts.statementTimeoutMs, lockTimeoutMs: opts.lockTimeoutMs, max: opts.poolMax, prepare: opts.prepare,
    onConnectionError: (err) => opts.log?.(`database connection lost (replaced on next use): ${err.message}`),
  });
  try {
    await migrate(database, 'studio', loadMigrations(MIGRATIONS));
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

export const nowIso = (): string => new Date().toISOString();
