import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Tests only: a fresh, empty schema on the test PostgreSQL of server/core/testing/pg-global-setup.ts
 * (its URL arrives as TEST_DATABASE_URL). The returned URL selects the schema through
 * search_path; `drop` removes it with everything in it.
 */
export interface TestSchema {
  url: string;
  schema: string;
  drop: () => Promise<void>;
}

function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('PostgreSQL tests need the URL set by server/core/testing/pg-global-setup.ts');
  return url;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: testDatabaseUrl() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** pg_trgm lives in the public schema, shared by every test schema (a parallel creator may win the race). */
async function ensureTrigram(c: pg.Client): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await c.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
      return;
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

export async function createTestSchema(prefix = 'test'): Promise<TestSchema> {
  const schema = `${prefix.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(async (c) => {
    await ensureTrigram(c);
    await c.query(`CREATE SCHEMA ${schema}`);
  });
  const url = new URL(testDatabaseUrl());
  url.searchParams.set('options', `-c search_path=${schema},public`);
  return {
    url: url.toString(),
    schema,
    drop: () => admin(async (c) => void (await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`))),
  };
}

/** Runs one statement on its own connection to the test database (e.g. pg_terminate_backend). */
export function adminQuery<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
  return admin((c) => c.query<R>(text, params));
}
