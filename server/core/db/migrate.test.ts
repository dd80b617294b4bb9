import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database';
import { loadMigrations, migrate, migrateSqlite, SchemaTooNewError, sqliteSchemaVersion, sqlFor, type Migration } from './migrate';
import { createTestSchema, type TestSchema } from './postgres.testkit';

const FILE = `CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
-- dialect: sqlite
CREATE TABLE which (name TEXT); INSERT INTO which VALUES ('sqlite');
-- dialect: postgres
CREATE TABLE which (name TEXT); INSERT INTO which VALUES ('postgres');
-- dialect: all
INSERT INTO notes (id, body) VALUES (1, 'both');
`;

const m = (version: number, text: string): Migration => ({ version, name: `${String(version).padStart(3, '0')}-m.sql`, text });

describe('migration files', () => {
  it('a dialect section runs on its dialect only; text outside sections runs on both', () => {
    expect(sqlFor(FILE, 'sqlite')).toContain("VALUES ('sqlite')");
    expect(sqlFor(FILE, 'sqlite')).not.toContain("'postgres'");
    expect(sqlFor(FILE, 'postgres')).toContain("VALUES ('postgres')");
    expect(sqlFor(FILE, 'postgres')).not.toContain("'sqlite'");
    for (const d of ['sqlite', 'postgres'] as const) expect(sqlFor(FILE, d)).toContain("(1, 'both')");
  });

  it('one folder, files in version order, the file name recorded as the name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    try {
      writeFileSync(join(dir, '002-b.sql'), 'SELECT 2;');
      writeFileSync(join(dir, '001-a.sql'), 'SELECT 1;');
      writeFileSync(join(dir, 'README.md'), 'not a migration');
      expect(loadMigrations(dir).map((x) => [x.version, x.name])).toEqual([[1, '001-a.sql'], [2, '002-b.sql']]);
      writeFileSync(join(dir, '003-d.sql'), '-- formerly: 002-old-d.sql\nSELECT 4;');
      expect(loadMigrations(dir).map((x) => x.formerly)).toEqual([undefined, undefined, '002-old-d.sql']);
      writeFileSync(join(dir, '002-c.sql'), 'SELECT 3;');
      expect(() => loadMigrations(dir)).toThrow(/two migrations numbered 2/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(['sqlite', 'postgres'] as const)('migrate on %s', (dialect) => {
  let schema: TestSchema | null = null;
  const opened: Database<unknown>[] = [];
  const open = () => {
    const d = openDatabase<unknown>({ url: schema?.url, file: ':memory:', statementTimeoutMs: 5000, lockTimeoutMs: 2000 });
    opened.push(d);
    return d;
  };
  beforeAll(async () => {
    if (dialect === 'postgres') schema = await createTestSchema('migrate');
  });
  afterAll(async () => {
    for (const d of opened) await d.close();
    await schema?.drop();
  });

  it('applies its dialect section, records each version once, and applying again changes nothing', async () => {
    const d = open();
    expect(await migrate(d, 'svc', [m(1, FILE)])).toBe(1);
    expect(await migrate(d, 'svc', [m(1, FILE)])).toBe(1);
    expect((await sql<{ name: string }>`SELECT name FROM which`.execute(d.db)).rows).toEqual([{ name: dialect }]);
    expect((await sql`SELECT id, body FROM notes`.execute(d.db)).rows).toEqual([{ id: 1, body: 'both' }]);
    const recorded = (await sql<{ version: number; name: string }>`SELECT version, name FROM schema_migrations`.execute(d.db)).rows;
    expect(recorded).toEqual([{ version: 1, name: '001-m.sql' }]);
  });

  it('a failing migration leaves nothing of itself and is not recorded', async () => {
    const d = open();
    await expect(migrate(d, 'svc', [m(1, FILE), m(2, "INSERT INTO notes (id, body) VALUES (2, 'half'); INSERT INTO missing VALUES (1);")])).rejects.toThrow(/missing/);
    expect((await sql`SELECT id FROM notes WHERE id = 2`.execute(d.db)).rows).toEqual([]);
    expect((await sql<{ v: number }>`SELECT MAX(version) AS v FROM schema_migrations`.execute(d.db)).rows[0].v).toBe(1);
  });

  it('refuses to start on a database migrated by a newer build, naming both versions', async () => {
    const d = open();
    await migrate(d, 'svc', [m(1, FILE), m(2, 'CREATE TABLE later (x INTEGER);')]);
    const err = await migrate(d, 'svc', [m(1, FILE)]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaTooNewError);
    expect((err as Error).message).toMatch(/schema version 2, newer than 1/);
  });
});

describe.each(['sqlite', 'postgres'] as const)('a migration recorded under a former number, on %s', (dialect) => {
  const schemas: TestSchema[] = [];
  const opened: Database<unknown>[] = [];
  afterAll(async () => {
    for (const d of opened) await d.close();
    for (const s of schemas) await s.drop();
  });
  /** A fresh database (SQLite in memory, or a PostgreSQL schema of its own). */
  const open = async () => {
    let url: string | undefined;
    if (dialect === 'postgres') {
      const s = await createTestSchema('migrate-formerly');
      schemas.push(s);
      url = s.url;
    }
    const d = openDatabase<unknown>({ url, file: ':memory:', statementTimeoutMs: 5000, lockTimeoutMs: 2000 });
    opened.push(d);
    return d;
  };
  const rows = async (d: Database<unknown>) =>
    (await sql<{ version: number; name: string; applied: number }>`SELECT version, name, applied FROM schema_migrations ORDER BY version`.execute(d.db)).rows.map((r) => ({ version: Number(r.version), name: r.name, applied: Number(r.applied) }));

  // Formerly: 1 = a, 2 = b. Now: 1 = a, 2 = c (new, between), 3 = b (formerly 002-b.sql).
  const a = m(1, 'CREATE TABLE ta (x INTEGER);');
  const b: Migration = { version: 3, name: '003-b.sql', text: '-- formerly: 002-b.sql\nCREATE TABLE tb (x INTEGER);', formerly: '002-b.sql' };
  const c = m(2, 'CREATE TABLE tc (x INTEGER);');

  it('is moved to its new number once, keeping when it was applied, and never run again; the one between runs', async () => {
    const d = await open();
    await migrate(d, 'svc', [a, { version: 2, name: '002-b.sql', text: b.text }]);
    const before = await rows(d);
    expect(await migrate(d, 'svc', [a, c, b])).toBe(3);
    const after = await rows(d);
    expect(after.map((r) => [r.version, r.name])).toEqual([[1, '001-m.sql'], [2, '002-m.sql'], [3, '003-b.sql']]);
    expect(after[2].applied).toBe(before[1].applied);
    expect(after[0]).toEqual(before[0]);
    await sql`INSERT INTO tc (x) VALUES (1)`.execute(d.db);
    expect(await migrate(d, 'svc', [a, c, b])).toBe(3);
    expect(await rows(d)).toEqual(after);
  });

  it('is refused, changing nothing, when its new number is recorded under another name', async () => {
    const d = await open();
    await migrate(d, 'svc', [a, { version: 2, name: '002-b.sql', text: b.text }, { version: 3, name: '003-x.sql', text: 'SELECT 1;' }]);
    const before = await rows(d);
    await expect(migrate(d, 'svc', [a, c, b])).rejects.toThrow('schema_migrations records 002-b.sql (now 003-b.sql) and also version 3 under another name');
    expect(await rows(d)).toEqual(before);
  });
});

describe('migrateSqlite, the synchronous entry point', () => {
  it('applies, records and refuses a newer schema on a better-sqlite3 connection, as migrate does', () => {
    const conn = new BetterSqlite3(':memory:');
    try {
      expect(sqliteSchemaVersion(conn)).toBe(0);
      expect(migrateSqlite(conn, [m(1, FILE)])).toBe(1);
      expect(conn.prepare('SELECT name FROM which').all()).toEqual([{ name: 'sqlite' }]);
      expect(migrateSqlite(conn, [m(1, FILE), m(2, 'CREATE TABLE later (x INTEGER);')])).toBe(2);
      expect(sqliteSchemaVersion(conn)).toBe(2);
      expect(() => migrateSqlite(conn, [m(1, FILE)])).toThrow(SchemaTooNewError);
    } finally {
      conn.close();
    }
  });
});

describe('migrate on PostgreSQL, two runners at once', () => {
  let schema: TestSchema;
  beforeAll(async () => {
    schema = await createTestSchema('migrate');
  });
  afterAll(async () => {
    await schema?.drop();
  });

  it('apply each migration once', async () => {
    const a = openDatabase<unknown>({ url: schema.url, statementTimeoutMs: 5000, lockTimeoutMs: 2000 });
    const b = openDatabase<unknown>({ url: schema.url, statementTimeoutMs: 5000, lockTimeoutMs: 2000 });
    try {
      // The first migration takes a while, so the second runner arrives while it runs.
      const list = [
        m(1, 'CREATE TABLE applied (n INTEGER NOT NULL); SELECT pg_sleep(0.3); INSERT INTO applied VALUES (1);'),
        m(2, 'INSERT INTO applied VALUES (2);'),
      ];
      expect(await Promise.all([migrate(a, 'svc', list), migrate(b, 'svc', list)])).toEqual([2, 2]);
      expect((await sql`SELECT n FROM applied ORDER BY n`.execute(a.db)).rows).toEqual([{ n: 1 }, { n: 2 }]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
