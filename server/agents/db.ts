import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMigrations, migrate, type Migration } from '../core/db/migrate';
import { openDatabase, type Database as CoreDatabase } from '../core/db/database';
import type { AgentsDB } from './schema';

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
}

/**
 * Open the platform's store: Kysely over the SQLite file (the default) or a PostgreSQL pool, schema brought
 * up to date by the one migration runner (server/core/db/migrate.ts; on PostgreSQL under its advisory lock).
 * Databases migrated by the former runners open as they are: both recorded their versions in the same
 * `schema_migrations (version, name, applied)` table under the same numbers. A database at a newer
 * version than this build knows is refused (SchemaTooNewError).
 */
export async function openAgentsStore(where: AgentsDbLocation & { statementTimeoutMs: number; lockTimeoutMs: number; poolMax?: number; prepare?: boolean; log?: (line: string) => void }): Promise<AgentsStore> {
  const database = openDatabase<AgentsDB>({
    file: where.file, url: where.databaseUrl, statementTimeoutMs: where.statementTimeoutMs, lockTimeoutMs: where.lockTimeoutMs, max: where.poolMax, prepare: where.prepare,
    onConnectionError: (err) => where.log?.(`database connection lost (replaced on next use): ${err.message}`),
  });
  try {
    await migrate(database, 'agents', agentsMigrations());
    return { database };
  } catch (err) {
    await database.close();
    throw err;
  }
}
