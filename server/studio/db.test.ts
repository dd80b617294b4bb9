import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../core/db/database';
import { loadMigrations, migrate } from '../core/db/migrate';
import { createTestSchema } from '../core/db/postgres.testkit';
import { credit, debit } from './billing';
import { openStudioDb } from './db';
import type { StudioDB } from './schema';
import { testStore } from './testing.testkit';

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const dirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The store under test, empty: a SQLite file or a fresh PostgreSQL schema. */
async function emptyStore(): Promise<{ file: string; url: string | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'studio-db-'));
  dirs.push(dir);
  if (testStore() === 'sqlite') return { file: join(dir, 'studio.db'), url: null };
  const schema = await createTestSchema('studiodb');
  cleanups.push(schema.drop);
  return { file: join(dir, 'studio.db'), url: schema.url };
}

const opts = { statementTimeoutMs: 5000, lockTimeoutMs: 5000 };

describe('the studio store', () => {
  it.skipIf(testStore() !== 'sqlite')('a SQLite database of version 3 (balance kept by a trigger) keeps its balance, and after the upgrade a grant counts once', async () => {
    const { file } = await emptyStore();
    const old = openDatabase<StudioDB>({ file, ...opts });
    expect(await migrate(old, 'studio', loadMigrations(MIGRATIONS).filter((m) => m.version <= 3))).toBe(3);
    await sql`INSERT INTO workspaces (name, plan, created_at) VALUES ('old', 'free', '2026-01-01T00:00:00.000Z')`.execute(old.db);
    await sql`INSERT INTO credit_ledger (workspace_id, amount, reason, created_at) VALUES (1, 40, 'grant', '2026-01-01T00:00:00.000Z')`.execute(old.db);
    await old.close();

    const upgraded = await openStudioDb({ file, ...opts });
    try {
      const versions = await upgraded.db.selectFrom('credit_balances').select('balance').where('workspace_id', '=', 1).executeTakeFirstOrThrow();
      expect(versions.balance).toBe(40);
      expect(await upgraded.db.transaction().execute((trx) => credit(trx, 1, 5, 'grant'))).toBe(45);
      expect(await upgraded.db.transaction().execute((trx) => debit(trx, 1, 50, 'analyze', { overdraw: false }))).toBeNull();
      expect(await upgraded.db.transaction().execute((trx) => debit(trx, 1, 45, 'analyze', { overdraw: false }))).toBe(0);
      const ledger = await upgraded.db.selectFrom('credit_ledger').select((eb) => eb.fn.sum<number>('amount').as('total')).executeTakeFirstOrThrow();
      expect(Number(ledger.total)).toBe(0);
    } finally {
      await upgraded.close();
    }
  });

  it('refuses to start on a database a newer release migrated, naming both versions', async () => {
    const store = await emptyStore();
    const first = await openStudioDb({ ...store, ...opts });
    const newest = Math.max(...loadMigrations(MIGRATIONS).map((m) => m.version));
    await first.db.insertInto('schema_migrations' as never).values({ version: 999, name: '999-future.sql', applied: Date.now() } as never).execute();
    await first.close();
    await expect(openStudioDb({ ...store, ...opts })).rejects.toThrow(`schema version 999, newer than ${newest}`);
  });
});

describe('STUDIO_DB_PREPARE', () => {
  it('prepared statements on PostgreSQL are on unless the variable is 0 (a pooler that cannot keep them)', async () => {
    const { readStudioConfig } = await import('./config');
    expect(readStudioConfig({}).dbPrepare).toBe(true);
    expect(readStudioConfig({ STUDIO_DB_PREPARE: '1' }).dbPrepare).toBe(true);
    expect(readStudioConfig({ STUDIO_DB_PREPARE: '0' }).dbPrepare).toBe(false);
    expect(() => readStudioConfig({ STUDIO_DB_PREPARE: 'off' })).toThrow('STUDIO_DB_PREPARE must be 0 or 1, got off');
  });
});
