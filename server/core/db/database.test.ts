import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type Database, type Dialect } from './database';
import { adminQuery, createTestSchema, type TestSchema } from './postgres.testkit';
import { StatementNames } from './prepared';

interface TestDB {
  items: { id: number; owner: number; label: string };
}

async function open(dialect: Dialect, schema: TestSchema | null, extra: { statementTimeoutMs?: number; max?: number; prepare?: boolean; onConnectionError?: (e: Error) => void } = {}) {
  const d = openDatabase<TestDB>({ url: schema?.url, file: ':memory:', statementTimeoutMs: extra.statementTimeoutMs ?? 5000, lockTimeoutMs: 2000, max: extra.max, prepare: extra.prepare, onConnectionError: extra.onConnectionError });
  await d.script(d.db, 'CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, owner INTEGER NOT NULL, label TEXT NOT NULL)');
  return d;
}

describe.each(['sqlite', 'postgres'] as const)('openDatabase on %s', (dialect) => {
  let schema: TestSchema | null = null;
  let d: Database<TestDB>;
  beforeAll(async () => {
    if (dialect === 'postgres') schema = await createTestSchema('coredb');
    d = await open(dialect, schema);
  });
  afterAll(async () => {
    await d?.close();
    await schema?.drop();
  });

  it('names its dialect and answers typed rows', async () => {
    expect(d.dialect).toBe(dialect);
    await d.db.insertInto('items').values([{ id: 1, owner: 7, label: 'a' }, { id: 2, owner: 8, label: 'b' }]).execute();
    expect(await d.db.selectFrom('items').select(['id', 'label']).where('owner', '=', 7).execute()).toEqual([{ id: 1, label: 'a' }]);
  });

  it('counts arrive as numbers, not strings', async () => {
    const r = await d.db.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(r.n).toBe(2);
    const s = await sql<{ total: number }>`SELECT SUM(owner) AS total FROM items`.execute(d.db);
    expect(s.rows[0].total).toBe(15);
  });

  it('a transaction that throws leaves nothing behind', async () => {
    await expect(
      d.db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ id: 3, owner: 9, label: 'rolled back' }).execute();
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await d.db.selectFrom('items').select('id').where('id', '=', 3).execute()).toEqual([]);
  });
});

describe('PostgreSQL connections', () => {
  let schema: TestSchema;
  beforeAll(async () => {
    schema = await createTestSchema('coredb');
  });
  afterAll(async () => {
    await schema?.drop();
  });

  it('a statement that times out never hands its rows to the next statement', async () => {
    // One connection: the late statement and the next one share it.
    const d = await open('postgres', schema, { statementTimeoutMs: 300, max: 1 });
    try {
      await d.db.insertInto('items').values([{ id: 10, owner: 1, label: 'first' }, { id: 11, owner: 2, label: 'second' }]).execute();
      await expect(sql`SELECT pg_sleep(3), 'late' AS label`.execute(d.db)).rejects.toThrow(/statement timeout/);
      const next = await d.db.selectFrom('items').select(['id', 'label']).where('owner', '=', 2).execute();
      expect(next).toEqual([{ id: 11, label: 'second' }]);
      const other = await sql<{ who: string }>`SELECT 'mine' AS who`.execute(d.db);
      expect(other.rows).toEqual([{ who: 'mine' }]);
    } finally {
      await d.close();
    }
  });

  it('a killed connection is replaced and the next query works', async () => {
    const lost: Error[] = [];
    const d = await open('postgres', schema, { max: 1, onConnectionError: (e) => lost.push(e) });
    try {
      const pid = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(d.db)).rows[0].pid;
      await adminQuery('SELECT pg_terminate_backend($1)', [pid]);
      // The idle connection's end reaches the pool as an error event: logged, not fatal.
      for (let i = 0; i < 100 && lost.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(lost.length).toBe(1);
      const again = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(d.db);
      expect(again.rows[0].pid).not.toBe(pid);
    } finally {
      await d.close();
    }
  });

  it('every pooled connection carries the statement and lock timeouts', async () => {
    const d = await open('postgres', schema, { statementTimeoutMs: 1234, max: 2 });
    try {
      const r = await sql<{ s: string; l: string }>`SELECT current_setting('statement_timeout') AS s, current_setting('lock_timeout') AS l`.execute(d.db);
      expect(r.rows[0]).toEqual({ s: '1234ms', l: '2s' });
    } finally {
      await d.close();
    }
  });

  /** The statements prepared on the connection answering this query (one connection: max 1). */
  const prepared = async (d: Database<TestDB>) =>
    (await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements ORDER BY statement`.execute(d.db)).rows.map((r) => r.statement);

  it('a statement with parameters is prepared once per connection and then reused', async () => {
    const d = await open('postgres', schema, { max: 1 });
    try {
      await d.db.insertInto('items').values({ id: 20, owner: 31, label: 'x' }).onConflict((oc) => oc.doNothing()).execute();
      for (const owner of [31, 32, 31]) await d.db.selectFrom('items').select('label').where('owner', '=', owner).execute();
      const statements = (await prepared(d)).filter((t) => /from "items" where "owner"/.test(t));
      expect(statements).toHaveLength(1);
      // Run three times under one name: PostgreSQL parsed it once (pg_prepared_statements counts the plans).
      const plans = await sql<{ n: number }>`SELECT (generic_plans + custom_plans)::int AS n FROM pg_prepared_statements WHERE statement LIKE '%from "items" where "owner"%'`.execute(d.db);
      expect(plans.rows[0].n).toBe(3);
    } finally {
      await d.close();
    }
  });

  it('prepare: false runs every statement unnamed (a pooler that cannot keep them)', async () => {
    const d = await open('postgres', schema, { max: 1, prepare: false });
    try {
      await d.db.selectFrom('items').select('label').where('owner', '=', 31).execute();
      expect((await prepared(d)).filter((t) => /"items"/.test(t))).toEqual([]);
    } finally {
      await d.close();
    }
  });

  it('a prepared statement whose columns changed fails once, and the next request gets a fresh connection', async () => {
    const d = await open('postgres', schema, { max: 1 });
    try {
      await sql`CREATE TABLE widening (id INTEGER PRIMARY KEY)`.execute(d.db);
      await sql`INSERT INTO widening VALUES (1)`.execute(d.db);
      const read = () => sql<Record<string, unknown>>`SELECT * FROM widening WHERE id = ${1}`.execute(d.db);
      expect((await read()).rows).toEqual([{ id: 1 }]);
      const pid = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(d.db)).rows[0].pid;
      // Another process's migration adds a column under the prepared statement.
      await adminQuery(`ALTER TABLE ${schema.schema}.widening ADD COLUMN note TEXT NOT NULL DEFAULT 'n'`);
      await expect(read()).rejects.toThrow(/cached plan must not change result type/);
      expect((await read()).rows).toEqual([{ id: 1, note: 'n' }]);
      const after = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(d.db)).rows[0].pid;
      expect(after).not.toBe(pid);
    } finally {
      await sql`DROP TABLE IF EXISTS widening`.execute(d.db).catch(() => {});
      await d.close();
    }
  });
});

describe('StatementNames', () => {
  it('names a text the same way every time, different texts differently, and stops naming at its limit', () => {
    const names = new StatementNames(2);
    const a = names.nameOf('SELECT 1 WHERE a = $1');
    expect(a).toMatch(/^k_[0-9a-f]{24}$/);
    expect(names.nameOf('SELECT 1 WHERE a = $1')).toBe(a);
    const b = names.nameOf('SELECT 2 WHERE a = $1');
    expect(b).not.toBe(a);
    expect(names.nameOf('SELECT 3 WHERE a = $1')).toBeUndefined();
    expect(names.nameOf('SELECT 2 WHERE a = $1')).toBe(b);
    expect(names.size).toBe(2);
  });
});
