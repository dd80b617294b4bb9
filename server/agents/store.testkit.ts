import { randomBytes } from 'node:crypto';
import { PgSyncDb } from '../core/sql/pg-sync';
import { openAgentsDb, type Db } from './db';

/**
 * Which store the agents suites run on: SQLite by default, PostgreSQL when the vitest project sets
 * AGENTS_TEST_STORE=pg (the database of server/core/testing/pg-global-setup.ts; each test server
 * gets a schema of its own, dropped when it closes).
 */
export const testStore = (): 'sqlite' | 'pg' => (process.env.AGENTS_TEST_STORE === 'pg' ? 'pg' : 'sqlite');

export interface TestDatabase {
  url: string;
  drop: () => void;
}

function baseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('AGENTS_TEST_STORE=pg needs TEST_DATABASE_URL (set by server/core/testing/pg-global-setup.ts)');
  return url;
}

/** pg_trgm lives in the public schema, shared by every test schema (created once; a parallel creator may win the race). */
function ensureTrigram(admin: PgSyncDb): void {
  for (let attempt = 0; ; attempt++) {
    try {
      admin.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
      return;
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

/** A fresh, empty schema on the test PostgreSQL: the URL selects it through search_path. */
export function createTestDatabase(): TestDatabase {
  const base = baseUrl();
  const schema = `agents_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new PgSyncDb(base);
  try {
    ensureTrigram(admin);
    admin.exec(`CREATE SCHEMA ${schema}`);
  } finally {
    admin.close();
  }
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  return {
    url: url.toString(),
    drop: () => {
      const db = new PgSyncDb(base);
      try {
        db.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        db.close();
      }
    },
  };
}

/** A migrated database on the store under test, for suites that use the service functions directly. */
export function openTestDb(): { db: Db; close: () => void } {
  if (testStore() === 'sqlite') {
    const db = openAgentsDb(':memory:');
    return { db, close: () => db.close() };
  }
  const t = createTestDatabase();
  const db = openAgentsDb({ file: ':memory:', databaseUrl: t.url });
  return {
    db,
    close: () => {
      db.close();
      t.drop();
    },
  };
}
