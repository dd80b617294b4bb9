/**
 * The store a test runs against: SQLite by default, PostgreSQL when KITTING_TEST_STORE=pg (the `pg`
 * vitest project; the global setup provisions the database). Each PostgreSQL test store lives in its own
 * schema, kept in the data folder so that a restarted server finds its data again.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { PgStore } from '../store/pg-store';
import { SqliteStore } from '../store/sqlite-store';
import type { Store } from '../store/types';

export type StoreKind = 'sqlite' | 'pg';

export const STORE_KINDS: StoreKind[] = ['sqlite', 'pg'];

/** The store kind of this test run (KITTING_TEST_STORE). */
export function testStoreKind(): StoreKind {
  return process.env.KITTING_TEST_STORE === 'pg' ? 'pg' : 'sqlite';
}

function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run the tests through vitest (its global setup provisions PostgreSQL) or set it');
  return url;
}

/** A database URL naming a schema of the test database. */
export function schemaUrl(schema: string): string {
  const u = new URL(testDatabaseUrl());
  u.searchParams.set('schema', schema);
  return u.toString();
}

export const freshSchema = () => `t_${randomBytes(6).toString('hex')}`;

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

export interface TestStore {
  store: Store;
  kind: StoreKind;
  /** Close the store; drops its data unless keepData. */
  dispose(keepData?: boolean): Promise<void>;
}

export interface TestStoreOptions {
  node?: string;
  wall?: () => number;
}

/** Open a store of the given kind whose data lives in `dataDir` (SQLite file, or the name of its PostgreSQL schema). */
export async function openTestStore(kind: StoreKind, dataDir: string | null, opts: TestStoreOptions = {}): Promise<TestStore> {
  if (kind === 'sqlite') {
    const store = new SqliteStore({ file: dataDir ? join(dataDir, 'kitting.db') : ':memory:', ...opts });
    return { store, kind, dispose: async () => store.close() };
  }
  const marker = dataDir ? join(dataDir, 'pg-schema') : null;
  const schema = marker && existsSync(marker) ? readFileSync(marker, 'utf8').trim() : freshSchema();
  if (marker) writeFileSync(marker, schema);
  const store = await PgStore.open({ url: schemaUrl(schema), poolSize: 4, ...opts });
  return {
    store,
    kind,
    dispose: async (keepData = false) => {
      await store.end();
      if (!keepData) await dropSchema(schema);
    },
  };
}
