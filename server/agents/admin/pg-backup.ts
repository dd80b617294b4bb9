import { createReadStream, createWriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline as pipelineCb, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createGunzip, createGzip } from 'node:zlib';
import pg from 'pg';
import { exportSchema, loadExport, type ExportOptions, type LoadOptions, type LoadResult } from '../../core/db/pg-export';
import { loadMigrations } from '../../core/sql/sqlite-migrate';

/** The service name written into (and required of) the platform's PostgreSQL exports. */
const AGENTS_EXPORT_SERVICE = 'agents';
const PG_MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), '..', 'pg-migrations');

/**
 * Writes a gzip'd logical export of the platform's tables (the URL's current schema) to `file`
 * (created 0600, never overwritten), on a connection of its own through the async client: the
 * export never holds the event loop nor the service's own connection.
 */
export async function writeAgentsExport(databaseUrl: string, file: string, opts: Pick<ExportOptions, 'fetchRows' | 'onSnapshot'> = {}): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'agents-backup' });
  await client.connect();
  try {
    await pipeline(Readable.from(exportSchema(client, { ...opts, service: AGENTS_EXPORT_SERVICE })), createGzip(), createWriteStream(file, { mode: 0o600, flags: 'wx' }));
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Loads an export written by writeAgentsExport into the (empty) database of `databaseUrl`. */
export async function restoreAgentsExport(databaseUrl: string, file: string, opts: Pick<LoadOptions, 'batchRows' | 'batchBytes'> = {}): Promise<LoadResult> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'agents-restore' });
  await client.connect();
  const input = createGunzip();
  // pipeline hands a read error (missing file) on to gunzip, hence to the line reader
  pipelineCb(createReadStream(file), input, () => undefined);
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    return await loadExport(client, lines, { ...opts, service: AGENTS_EXPORT_SERVICE, migrations: loadMigrations(PG_MIGRATIONS) });
  } finally {
    lines.close();
    input.destroy();
    await client.end().catch(() => undefined);
  }
}
