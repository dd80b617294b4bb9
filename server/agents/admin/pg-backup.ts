import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { pipeline as pipelineCb, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import pg from 'pg';
import { exportSchema, loadExport, type ExportOptions, type LoadOptions, type LoadResult } from '../../core/db/pg-export';
import { sqlFor } from '../../core/db/migrate';
import { agentsMigrations } from '../db';

/** The service name written into (and required of) the platform's PostgreSQL exports. */
const AGENTS_EXPORT_SERVICE = 'agents';

/**
 * Writes a gzip'd logical export of the platform's tables (the pool's current schema) to `file`
 * (created 0600, never overwritten), streamed from one REPEATABLE READ snapshot on one connection of
 * the service's pool: the export never holds the event loop, and other requests go on meanwhile.
 */
export async function writeAgentsExport(pool: pg.Pool, file: string, opts: Pick<ExportOptions, 'fetchRows' | 'onSnapshot'> = {}): Promise<void> {
  const client = await pool.connect();
  let failed: Error | undefined;
  try {
    await pipeline(Readable.from(exportSchema(client, { ...opts, service: AGENTS_EXPORT_SERVICE })), createGzip(), createWriteStream(file, { mode: 0o600, flags: 'wx' }));
  } catch (err) {
    failed = err instanceof Error ? err : new Error(String(err));
    throw err;
  } finally {
    // A connection that failed mid-export is dropped rather than handed to the next request.
    client.release(failed);
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
    return await loadExport(client, lines, { ...opts, service: AGENTS_EXPORT_SERVICE, migrations: agentsMigrations().map((m) => ({ version: m.version, name: m.name, sql: sqlFor(m.text, 'postgres') })) });
  } finally {
    lines.close();
    input.destroy();
    await client.end().catch(() => undefined);
  }
}
