import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../core/db/database';
import { openAgentsStore } from './db';
import type { AgentsDB, AgentsDb } from './schema';

/**
 * Which store the agents suites run on: SQLite by default, PostgreSQL when the vitest project sets
 * AGENTS_TEST_STORE=pg (the database of server/core/testing/pg-global-setup.ts; each test server
 * gets a schema of its own, dropped when it closes).
 */
export const testStore = (): 'sqlite' | 'pg' => (process.env.AGENTS_TEST_STORE === 'pg' ? 'pg' : 'sqlite');

export interface TestDatabase {
  url: string;
  drop: () => Promise<void>;
}

function baseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('AGENTS_TEST_STORE=pg needs TEST_DATABASE_URL (set by server/core/testing/pg-global-setup.ts)');
  return url;
}

/** Runs statements on the test PostgreSQL's default schema, on a connection of its own. */
async function onBase(run: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl() });
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** pg_trgm lives in the public schema, shared by every test schema (created once; a parallel creator may win the race). */
async function ensureTrigram(client: pg.Client): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
      return;
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

/** A fresh, empty schema on the test PostgreSQL: the URL selects it through search_path. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const schema = `agents_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onBase(async (client) => {
    await ensureTrigram(client);
    await client.query(`CREATE SCHEMA ${schema}`);
  });
  const url = new URL(baseUrl());
  url.searchParams.set('options', `-c search_path=${schema},public`);
  return {
    url: url.toString(),
    drop: () => onBase(async (client) => void (await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`))),
  };
}

export interface TestStore {
  db: AgentsDb;
  database: Database<AgentsDB>;
  close: () => Promise<void>;
}

/** A migrated database on the store under test (SQLite in memory, or a fresh PostgreSQL schema), for suites that use the service functions directly. */
export async function openTestStore(): Promise<TestStore> {
  const t = testStore() === 'pg' ? await createTestDatabase() : null;
  const { database } = await openAgentsStore({ file: ':memory:', databaseUrl: t?.url ?? null, statementTimeoutMs: 15_000, lockTimeoutMs: 5_000, poolMax: 4 });
  return {
    db: database.db,
    database,
    close: async () => {
      await database.close();
      await t?.drop();
    },
  };
}
