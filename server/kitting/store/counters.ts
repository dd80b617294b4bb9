import type Database from 'better-sqlite3';
import type pg from 'pg';
import type { Counter } from './types';

/**
 * Attempt counters in the database (migration 006 of both stores): every read-modify-write runs in one
 * transaction holding the row (SQLite: BEGIN IMMEDIATE; PostgreSQL: SELECT ... FOR UPDATE), so processes
 * sharing the database never lose an attempt.
 */
interface Row {
  n: number | string;
  since: number | string;
  last: number | string;
  until: number | string;
}
const toCounter = (r: Row | undefined): Counter | null =>
  r ? { n: Number(r.n), since: Number(r.since), last: Number(r.last), until: Number(r.until) } : null;

export class SqliteCounters {
  private readonly read: Database.Statement<[string], Row>;
  private readonly write: Database.Statement<[string, number, number, number, number]>;
  private readonly remove: Database.Statement<[string]>;
  private readonly prune: Database.Statement<[number]>;
  private readonly update: (key: string, next: (cur: Counter | null) => Counter | null) => Counter | null;

  constructor(db: Database.Database) {
    this.read = db.prepare<[string], Row>('SELECT n, since, last, until FROM counters WHERE key = ?');
    this.write = db.prepare<[string, number, number, number, number]>(
      'INSERT INTO counters (key, n, since, last, until) VALUES (?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET n = excluded.n, since = excluded.since, last = excluded.last, until = excluded.until',
    );
    this.remove = db.prepare<[string]>('DELETE FROM counters WHERE key = ?');
    this.prune = db.prepare<[number]>('DELETE FROM counters WHERE last < ?');
    const tx = db.transaction((key: string, next: (cur: Counter | null) => Counter | null) => {
      const out = next(toCounter(this.read.get(key)));
      if (out) this.write.run(key, out.n, out.since, out.last, out.until);
      else this.remove.run(key);
      return out;
    });
    this.update = (key, next) => tx.immediate(key, next);
  }

  get(key: string): Counter | null {
    return toCounter(this.read.get(key));
  }

  set(key: string, next: (cur: Counter | null) => Counter | null): Counter | null {
    return this.update(key, next);
  }

  pruneBefore(before: number): number {
    return this.prune.run(before).changes;
  }
}

export async function readPgCounter(pool: pg.Pool, key: string): Promise<Counter | null> {
  const r = await pool.query<Row>('SELECT n, since, last, until FROM counters WHERE key = $1', [key]);
  return toCounter(r.rows[0]);
}

export async function updatePgCounter(pool: pg.Pool, key: string, next: (cur: Counter | null) => Counter | null): Promise<Counter | null> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // A placeholder row (n = 0) gives a first attempt a row to lock, so two processes never both insert.
    await client.query('INSERT INTO counters (key, n, since, last, until) VALUES ($1, 0, 0, 0, 0) ON CONFLICT (key) DO NOTHING', [key]);
    const r = await client.query<Row>('SELECT n, since, last, until FROM counters WHERE key = $1 FOR UPDATE', [key]);
    const found = toCounter(r.rows[0]);
    const out = next(found && found.n > 0 ? found : null);
    if (out) await client.query('UPDATE counters SET n = $2, since = $3, last = $4, until = $5 WHERE key = $1', [key, out.n, out.since, out.last, out.until]);
    else await client.query('DELETE FROM counters WHERE key = $1', [key]);
    await client.query('COMMIT');
    return out;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

export async function prunePgCounters(pool: pg.Pool, before: number): Promise<number> {
  const r = await pool.query('DELETE FROM counters WHERE last < $1', [before]);
  return r.rowCount ?? 0;
}
