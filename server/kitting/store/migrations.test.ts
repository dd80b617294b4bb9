/**
 * Kitting's one migrations folder on both stores, and databases left by the former runners opening unchanged:
 * a SQLite replica migrated by the former SQLite runner (server/core/sql/sqlite-migrate.ts, now core/db/former-sqlite-migrate.testkit.ts) at 006, and a PostgreSQL central migrated
 * by the former pg-migrate.ts from the former pg-migrations/ folder (at 009, its 004 being change-compaction).
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SchemaTooNewError, sqlFor } from '../../core/db/migrate';
import { migrate as migrateWithFormerSqliteRunner } from '../../core/db/former-sqlite-migrate.testkit';
import { dropSchema, freshSchema, schemaUrl } from '../testing/stores.testkit';
import { loadMigrations } from './migrate';
import { parseDatabaseUrl, PgStore } from './pg-store';
import { createPool } from './pg-txn';
import { SqliteStore } from './sqlite-store';

const here = dirname(fileURLToPath(import.meta.url));
const migrations = loadMigrations();
const byVersion = new Map(migrations.map((m) => [m.version, m]));
const dirs: string[] = [];
const schemas: string[] = [];
afterAll(async () => {
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  for (const s of schemas) await dropSchema(s);
});

interface Recorded {
  version: number;
  name: string;
  applied: number;
}

describe('kitting migrations', () => {
  it('live in one folder with one numbering, each file with a section for each store', () => {
    expect(existsSync(join(here, 'pg-migrations'))).toBe(false);
    expect(migrations.map((m) => m.name)).toEqual([
      '001-init.sql', '002-sync.sql', '003-record-counts.sql', '004-lease-reserve.sql', '005-change-compaction.sql',
      '006-counters.sql', '008-jsonb-documents.sql', '009-record-counts-per-statement.sql',
    ]);
    for (const m of migrations) expect(m.text, m.name).toMatch(/^-- dialect: sqlite$[\s\S]*^-- dialect: postgres$/m);
    // the same migration on both stores: 004 is the bench's reserve blocks (PostgreSQL, central only, has none),
    // 005 change-compaction everywhere
    expect(sqlFor(byVersion.get(4)!.text, 'sqlite')).toContain('ALTER TABLE lease_blocks ADD COLUMN overflow');
    expect(sqlFor(byVersion.get(4)!.text, 'postgres')).not.toMatch(/^\s*(ALTER|CREATE)/m);
    for (const d of ['sqlite', 'postgres'] as const) expect(sqlFor(byVersion.get(5)!.text, d)).toContain('CREATE TABLE change_compaction');
    expect(byVersion.get(5)!.formerly).toBe('004-change-compaction.sql');
  });
});

describe('a SQLite replica migrated by the former runner (at 006)', () => {
  function formerFile(): string {
    const dir = mkdtempSync(join(tmpdir(), 'kitting-mig-'));
    dirs.push(dir);
    const file = join(dir, 'kitting.db');
    const conn = new Database(file);
    try {
      const former = migrations.filter((m) => m.version <= 6).map((m) => ({ version: m.version, name: m.name, sql: sqlFor(m.text, 'sqlite') }));
      expect(migrateWithFormerSqliteRunner(conn, former)).toBe(6);
      conn.prepare(`INSERT INTO records (ws, coll, id, data, stamps, hlc) VALUES ('w1', 'devices', 'd1', '{"imei":"350000000000001"}', '{}', '0000000000001:0000:n')`).run();
      conn.prepare("INSERT INTO lease_blocks (ws, name, lo, hi, next, overflow) VALUES ('w1', 'shipment', 100, 199, 120, 1)").run();
      conn.prepare("INSERT INTO change_compaction (ws, through, at) VALUES ('w1', 7, 1)").run();
    } finally {
      conn.close();
    }
    return file;
  }
  const recorded = (file: string): Recorded[] => {
    const c = new Database(file, { readonly: true });
    try {
      return c.prepare('SELECT version, name, applied FROM schema_migrations ORDER BY version').all() as Recorded[];
    } finally {
      c.close();
    }
  };

  it('opens without re-running a migration, keeps its rows and records 008 and 009 (nothing to do on SQLite)', async () => {
    const file = formerFile();
    const before = recorded(file);
    expect(before.map((r) => r.version)).toEqual([1, 2, 3, 4, 5, 6]);
    const store = new SqliteStore({ file });
    try {
      expect(store.replica.schemaVersion()).toBe(9);
      expect(await store.get('w1', 'devices', 'd1')).toEqual({ imei: '350000000000001' });
      expect(store.db.prepare('SELECT next, overflow FROM lease_blocks').all()).toEqual([{ next: 120, overflow: 1 }]);
      expect(store.db.prepare('SELECT through FROM change_compaction').all()).toEqual([{ through: 7 }]);
      expect(await store.count('w1', 'devices')).toBe(1);
    } finally {
      store.close();
    }
    const after = recorded(file);
    expect(after.slice(0, 6)).toEqual(before);
    expect(after.slice(6).map((r) => [r.version, r.name])).toEqual([[8, '008-jsonb-documents.sql'], [9, '009-record-counts-per-statement.sql']]);
    new SqliteStore({ file }).close();
    expect(recorded(file)).toEqual(after);
  });

  it('is refused when it records a newer schema than this build knows, and left as it is', () => {
    const file = formerFile();
    const c = new Database(file);
    c.prepare("INSERT INTO schema_migrations (version, name, applied) VALUES (999, '999-future.sql', 1)").run();
    c.close();
    const before = recorded(file);
    const err = (() => {
      try {
        new SqliteStore({ file }).close();
        return null;
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(SchemaTooNewError);
    expect((err as Error).message).toMatch(/schema version 999, newer than 9, the newest migration this build knows/);
    expect(recorded(file)).toEqual(before);
  });
});

describe('a PostgreSQL central migrated by the former runner (former numbering: 004 = change-compaction)', () => {
  /** The former pg-migrations/ folder: its file names and numbers, each the same SQL as the PostgreSQL section now. */
  const FORMER_PG: [number, string, number][] = [
    [1, '001-init.sql', 1], [2, '002-sync.sql', 2], [3, '003-record-counts.sql', 3], [4, '004-change-compaction.sql', 5],
    [6, '006-counters.sql', 6], [8, '008-jsonb-documents.sql', 8], [9, '009-record-counts-per-statement.sql', 9],
  ];

  /** A schema as the former pg-migrate.ts left it (its lock, its table, one transaction per migration), with data in it. */
  async function formerSchema(upTo: number): Promise<string> {
    const schema = freshSchema();
    schemas.push(schema);
    const base = parseDatabaseUrl(schemaUrl(schema)).url;
    const boot = createPool(base, null, 1);
    await boot.query(`CREATE SCHEMA ${schema}`);
    await boot.end();
    const pool = createPool(base, schema, 1);
    const client = await pool.connect();
    try {
      await client.query("SELECT pg_advisory_lock(hashtextextended('kitting:migrate', 0))");
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied bigint NOT NULL)');
      for (const [version, name, now] of FORMER_PG.filter(([v]) => v <= upTo)) {
        await client.query('BEGIN');
        await client.query(sqlFor(byVersion.get(now)!.text, 'postgres'));
        await client.query('INSERT INTO schema_migrations (version, name, applied) VALUES ($1, $2, $3)', [version, name, 1_700_000_000_000 + version]);
        await client.query('COMMIT');
      }
      await client.query("SELECT pg_advisory_unlock(hashtextextended('kitting:migrate', 0))");
      await client.query(`INSERT INTO records (ws, coll, id, data, stamps, hlc) VALUES ('w1', 'devices', 'd1', '{"imei":"350000000000001"}', '{}', '0000000000001:0000:n')`);
      await client.query("INSERT INTO sync_benches (ws, bench, token_hash, created, pulled) VALUES ('w1', 'b1', 'h', 1, 42)");
    } finally {
      client.release();
      await pool.end();
    }
    return schema;
  }

  async function recordedIn(store: PgStore): Promise<Recorded[]> {
    return (await store.pool.query<Recorded>('SELECT version, name, applied FROM schema_migrations ORDER BY version')).rows.map((r) => ({ ...r, applied: Number(r.applied) }));
  }

  it('at 009: opens with its records moved to the one numbering once, nothing re-run, rows kept', async () => {
    const schema = await formerSchema(9);
    const store = await PgStore.open({ url: schemaUrl(schema), poolSize: 2 });
    let after: Recorded[];
    try {
      after = await recordedIn(store);
      expect(after.map((r) => [r.version, r.name])).toEqual(migrations.map((m) => [m.version, m.name]));
      const applied = new Map(after.map((r) => [r.version, r.applied]));
      // change-compaction keeps the time it was applied under its former number; the others theirs
      expect(applied.get(5)).toBe(1_700_000_000_004);
      for (const v of [1, 2, 3, 6, 8, 9]) expect(applied.get(v)).toBe(1_700_000_000_000 + v);
      // 004 (lease-reserve, nothing to do on PostgreSQL) is recorded now
      expect(applied.get(4)).toBeGreaterThan(1_700_000_000_009);
      expect(await store.get('w1', 'devices', 'd1')).toEqual({ imei: '350000000000001' });
      expect(await store.count('w1', 'devices')).toBe(1);
      expect((await store.pool.query('SELECT pulled FROM sync_benches')).rows).toEqual([{ pulled: 42 }]);
      expect(await store.health()).toEqual({ kind: 'postgres', reachable: true, schema: 9 });
    } finally {
      await store.end();
    }
    const again = await PgStore.open({ url: schemaUrl(schema), poolSize: 2 });
    try {
      expect(await recordedIn(again)).toEqual(after);
    } finally {
      await again.end();
    }
  });

  it('at its 004 (change-compaction): moved to 005 and not re-run; 004, 006, 008 and 009 applied, none skipped', async () => {
    const schema = await formerSchema(4);
    const store = await PgStore.open({ url: schemaUrl(schema), poolSize: 2 });
    try {
      const after = await recordedIn(store);
      expect(after.map((r) => [r.version, r.name])).toEqual(migrations.map((m) => [m.version, m.name]));
      expect(after.find((r) => r.version === 5)?.applied).toBe(1_700_000_000_004);
      // 006 and 008 ran: the counters table exists and documents are jsonb
      expect((await store.pool.query('SELECT COUNT(*)::int AS n FROM counters')).rows).toEqual([{ n: 0 }]);
      expect((await store.pool.query('SELECT pg_typeof(data)::text AS t FROM records')).rows).toEqual([{ t: 'jsonb' }]);
      expect(await store.get('w1', 'devices', 'd1')).toEqual({ imei: '350000000000001' });
      expect((await store.pool.query('SELECT pulled FROM sync_benches')).rows).toEqual([{ pulled: 42 }]);
    } finally {
      await store.end();
    }
  });

  it('at 009 plus a newer release: refused, nothing renumbered', async () => {
    const schema = await formerSchema(9);
    const pool = createPool(parseDatabaseUrl(schemaUrl(schema)).url, schema, 1);
    try {
      await pool.query("INSERT INTO schema_migrations (version, name, applied) VALUES (999, '999-future.sql', 1)");
      const err = await PgStore.open({ url: schemaUrl(schema), poolSize: 1 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SchemaTooNewError);
      expect((err as Error).message).toMatch(/schema version 999, newer than 9/);
      expect((await pool.query('SELECT version, name FROM schema_migrations ORDER BY version')).rows).toEqual([
        ...FORMER_PG.map(([version, name]) => ({ version, name })),
        { version: 999, name: '999-future.sql' },
      ]);
    } finally {
      await pool.end();
    }
  });
});
