import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { sqlFor } from '../core/db/migrate';
import { migrate as migrateWithFormerSqliteRunner } from '../core/db/former-sqlite-migrate.testkit';
import { agentsMigrations, openAgentsStore, type AgentsStore } from './db';
import { createTestDatabase, testStore } from './store.testkit';

const here = dirname(fileURLToPath(import.meta.url));
const migrations = agentsMigrations();
const newest = migrations[migrations.length - 1].version;
const timeouts = { statementTimeoutMs: 15_000, lockTimeoutMs: 5_000 };

interface Recorded {
  version: number;
  name: string;
  applied: number;
}
const recordedIn = async (store: AgentsStore): Promise<Recorded[]> =>
  (await sql<Recorded>`SELECT version, name, applied FROM schema_migrations ORDER BY version`.execute(store.database.db)).rows.map((r) => ({ version: Number(r.version), name: r.name, applied: Number(r.applied) }));
const emailsIn = async (store: AgentsStore) => (await store.database.db.selectFrom('users').select('email').orderBy('email').execute()).map((r) => r.email);

async function close(store: AgentsStore): Promise<void> {
  await store.database.close();
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('agents database migrations', () => {
  it('live in one folder, numbered as before, each with statements for both stores', () => {
    expect(existsSync(join(here, 'pg-migrations'))).toBe(false);
    expect(migrations.map((m) => m.version)).toEqual([1, 10, 20, 21, 22, 23, 30, 40, 47, 57, 58, 59, 60]);
    for (const m of migrations) {
      expect([m.name, /\b(CREATE|ALTER|UPDATE|INSERT|DROP)\b/.test(sqlFor(m.text, 'sqlite')), /\b(CREATE|ALTER|UPDATE|INSERT|DROP)\b/.test(sqlFor(m.text, 'postgres'))]).toEqual([m.name, true, true]);
    }
    // 001 gave PostgreSQL pg_trgm indexes on passages (never on SQLite) ...
    expect(sqlFor(migrations[0].text, 'postgres')).toContain('CREATE INDEX passages_text_trgm ON passages USING gin (text gin_trgm_ops)');
    expect(sqlFor(migrations[0].text, 'sqlite')).not.toContain('gin_trgm_ops');
    // ... which 060 drops: retrieval reads the full-text and trigram-array indexes of 059 instead
    const dropTrigram = migrations.find((m) => m.version === 60)!;
    expect(sqlFor(dropTrigram.text, 'postgres')).toContain('DROP INDEX IF EXISTS passages_question_trgm;\nDROP INDEX IF EXISTS passages_text_trgm;');
    expect(sqlFor(dropTrigram.text, 'sqlite')).not.toContain('DROP');
    // and word-separated text through a full-text index (059): a small vocabulary makes every trigram common
    const fullText = migrations.find((m) => m.version === 59)!;
    expect(sqlFor(fullText.text, 'postgres')).toContain('CREATE INDEX passages_tsv ON passages USING gin (tsv)');
    expect(sqlFor(fullText.text, 'sqlite')).not.toContain('tsv');
  });
});

describe('a SQLite file migrated by the former runner (server/core/sql/sqlite-migrate.ts)', () => {
  /** An agents.db as the former release left it: every migration applied and recorded, one user in it. */
  function formerFile(): string {
    const dir = mkdtempSync(join(tmpdir(), 'agents-db-'));
    dirs.push(dir);
    const file = join(dir, 'agents.db');
    const conn = new Database(file);
    try {
      expect(migrateWithFormerSqliteRunner(conn, migrations.map((m) => ({ version: m.version, name: m.name, sql: sqlFor(m.text, 'sqlite') })))).toBe(newest);
      conn.prepare("INSERT INTO users (id, email, password_hash, created_at) VALUES ('u1', 'kept@example.com', 'x', 1)").run();
    } finally {
      conn.close();
    }
    return file;
  }

  it('opens without re-running any migration and keeps its rows', async () => {
    const file = formerFile();
    const before = new Database(file, { readonly: true });
    const recorded = (before.prepare('SELECT version, name, applied FROM schema_migrations ORDER BY version').all() as Recorded[]).map((r) => ({ ...r }));
    before.close();
    expect(recorded).toHaveLength(migrations.length);
    const store = await openAgentsStore({ file, ...timeouts });
    try {
      expect(await recordedIn(store)).toEqual(recorded);
      expect(await emailsIn(store)).toEqual(['kept@example.com']);
    } finally {
      await close(store);
    }
  });

  it('is refused when it records a newer schema than this build knows, naming both versions', async () => {
    const file = formerFile();
    const conn = new Database(file);
    conn.prepare("INSERT INTO schema_migrations (version, name, applied) VALUES (999, '999-future.sql', 1)").run();
    conn.close();
    await expect(openAgentsStore({ file, ...timeouts })).rejects.toThrow(`The database is at schema version 999, newer than ${newest}, the newest migration this build knows.`);
    const after = new Database(file, { readonly: true });
    expect((after.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number }).n).toBe(migrations.length + 1);
    after.close();
  });
});

describe.runIf(testStore() === 'pg')('a PostgreSQL schema migrated by the former runner (server/core/sql/migrate.ts)', () => {
  /**
   * A schema as the former release left it: what its runner did over pg-sync (schema_migrations with
   * BIGINT columns, each migration in a transaction under the schema's advisory lock), one user in it.
   */
  async function formerSchema() {
    const target = await createTestDatabase();
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)');
      for (const m of migrations) {
        await client.query('BEGIN; SELECT pg_advisory_xact_lock(hashtext(current_schema()))');
        await client.query(sqlFor(m.text, 'postgres'));
        await client.query('INSERT INTO schema_migrations (version, name, applied) VALUES ($1, $2, $3)', [m.version, m.name, 1_700_000_000_000 + m.version]);
        await client.query('COMMIT');
      }
      await client.query("INSERT INTO users (id, email, password_hash, created_at) VALUES ('u1', 'kept@example.com', 'x', 1)");
    } finally {
      await client.end();
    }
    return target;
  }

  it('opens without re-running any migration and keeps its rows', async () => {
    const target = await formerSchema();
    try {
      const store = await openAgentsStore({ file: ':memory:', databaseUrl: target.url, ...timeouts });
      try {
        expect(await recordedIn(store)).toEqual(migrations.map((m) => ({ version: m.version, name: m.name, applied: 1_700_000_000_000 + m.version })));
        expect(await emailsIn(store)).toEqual(['kept@example.com']);
      } finally {
        await close(store);
      }
    } finally {
      await target.drop();
    }
  });

  it('is refused when it records a newer schema than this build knows, naming both versions', async () => {
    const target = await formerSchema();
    try {
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      await client.query("INSERT INTO schema_migrations (version, name, applied) VALUES (999, '999-future.sql', 1)");
      await client.end();
      await expect(openAgentsStore({ file: ':memory:', databaseUrl: target.url, ...timeouts })).rejects.toThrow(
        `The database is at schema version 999, newer than ${newest}, the newest migration this build knows.`,
      );
    } finally {
      await target.drop();
    }
  });
});

describe('AGENTS_DB_PREPARE', () => {
  it('prepared statements on PostgreSQL are on unless the variable is 0 (a pooler that cannot keep them)', async () => {
    const { readAgentsConfig } = await import('./config');
    expect(readAgentsConfig({}).dbPrepare).toBe(true);
    expect(readAgentsConfig({ AGENTS_DB_PREPARE: '0' }).dbPrepare).toBe(false);
    expect(() => readAgentsConfig({ AGENTS_DB_PREPARE: 'no' })).toThrow('AGENTS_DB_PREPARE must be 0 or 1, got no');
  });
});
