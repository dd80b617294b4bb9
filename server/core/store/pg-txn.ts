/** Transactions, per-workspace locking and bulk writes of the PostgreSQL store. */
import pg from 'pg';
import type { RowState } from './merge';
import type { Doc } from './types';

/**
 * Every write transaction of a workspace holds this lock until it ends: server_seq follows commit order.
 * Sent with BEGIN as one simple query (one round trip), the workspace id as an escaped literal.
 */
const beginLocked = (client: pg.PoolClient, ws: string) => `BEGIN; SELECT pg_advisory_xact_lock(hashtextextended(${client.escapeLiteral(ws)}, 0))`;

/** Most JSON one bulk statement carries. */
const CHUNK_BYTES = 4 * 1024 * 1024;

export interface DbRecord {
  coll: string;
  id: string;
  data: Doc;
  stamps: Record<string, string>;
  deleted: boolean;
  hlc: string;
}

export interface ChangeInsert {
  coll: string;
  id: string;
  hlc: string;
  fields: Doc;
  origin: string;
}

export const keyOf = (coll: string, id: string) => `${coll}\u0001${id}`;

function chunks<T>(rows: T[], size: (r: T) => number): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  let bytes = 0;
  for (const r of rows) {
    const n = size(r);
    if (cur.length > 0 && bytes + n > CHUNK_BYTES) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(r);
    bytes += n;
  }
  if (cur.length) out.push(cur);
  return out;
}

/** One write transaction of one workspace: allocates server_seq and writes records and changes in bulk. */
export class WsWriter {
  private seq: number | null = null;
  private dirty = false;

  constructor(
    readonly client: pg.PoolClient,
    readonly ws: string,
  ) {}

  /** Reserve `n` consecutive server_seq numbers; returns the first. */
  async reserve(n: number): Promise<number> {
    if (this.seq === null) {
      const r = await this.client.query<{ seq: number }>('SELECT seq FROM change_seq WHERE ws = $1', [this.ws]);
      this.seq = r.rows[0]?.seq ?? 0;
    }
    const first = this.seq + 1;
    this.seq += n;
    if (n > 0) this.dirty = true;
    return first;
  }

  async flush(): Promise<void> {
    if (!this.dirty) return;
    await this.client.query('INSERT INTO change_seq (ws, seq) VALUES ($1, $2) ON CONFLICT (ws) DO UPDATE SET seq = excluded.seq', [this.ws, this.seq]);
    this.dirty = false;
  }

  async row(coll: string, id: string): Promise<DbRecord | null> {
    const r = await this.client.query<DbRecord>('SELECT coll, id, data, stamps, deleted, hlc FROM records WHERE ws = $1 AND coll = $2 AND id = $3', [
      this.ws,
      coll,
      id,
    ]);
    return r.rows[0] ?? null;
  }

  /** Current rows of the given keys (missing ones absent from the map). */
  async rows(keys: { coll: string; id: string }[]): Promise<Map<string, RowState>> {
    const out = new Map<string, RowState>();
    const uniq = [...new Map(keys.map((k) => [keyOf(k.coll, k.id), k])).values()];
    for (let i = 0; i < uniq.length; i += 5000) {
      const part = uniq.slice(i, i + 5000);
      const r = await this.client.query<DbRecord>(
        `SELECT r.coll, r.id, r.data, r.stamps, r.deleted, r.hlc FROM records r
         JOIN unnest($2::text[], $3::text[]) AS k(coll, id) ON r.coll = k.coll AND r.id = k.id WHERE r.ws = $1`,
        [this.ws, part.map((k) => k.coll), part.map((k) => k.id)],
      );
      for (const row of r.rows) out.set(keyOf(row.coll, row.id), row);
    }
    return out;
  }

  /** Insert or replace whole rows (one per key). */
  async upsert(rows: { coll: string; id: string; row: RowState }[]): Promise<void> {
    const json = rows.map((r) => JSON.stringify({ coll: r.coll, id: r.id, data: r.row.data, stamps: r.row.stamps, deleted: r.row.deleted, hlc: r.row.hlc }));
    for (const part of chunks(json, (s) => s.length)) {
      await this.client.query(
        `INSERT INTO records (ws, coll, id, data, stamps, deleted, hlc)
         SELECT $1, x.coll, x.id, x.data, x.stamps, x.deleted, x.hlc
           FROM json_to_recordset($2::json) AS x(coll text, id text, data json, stamps jsonb, deleted boolean, hlc text)
         ON CONFLICT (ws, coll, id) DO UPDATE SET data = excluded.data, stamps = excluded.stamps, deleted = excluded.deleted, hlc = excluded.hlc`,
        [this.ws, `[${part.join(',')}]`],
      );
    }
  }

  /** Append changes with fresh server_seq numbers, in order. */
  async log(changes: ChangeInsert[]): Promise<void> {
    if (changes.length === 0) return;
    let seq = await this.reserve(changes.length);
    const json = changes.map((c) => JSON.stringify({ seq: seq++, coll: c.coll, id: c.id, hlc: c.hlc, fields: c.fields, origin: c.origin }));
    for (const part of chunks(json, (s) => s.length)) {
      await this.client.query(
        `INSERT INTO changes (ws, seq, coll, id, hlc, fields, origin)
         SELECT $1, x.seq, x.coll, x.id, x.hlc, x.fields, x.origin
           FROM json_to_recordset($2::json) AS x(seq bigint, coll text, id text, hlc text, fields json, origin text)`,
        [this.ws, `[${part.join(',')}]`],
      );
    }
  }

  /** One record write and its change in one round trip (module writes). */
  async writeOne(coll: string, id: string, row: RowState, fields: Doc): Promise<void> {
    const seq = await this.reserve(1);
    await this.client.query(
      `WITH r AS (
         INSERT INTO records (ws, coll, id, data, stamps, deleted, hlc) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (ws, coll, id) DO UPDATE SET data = excluded.data, stamps = excluded.stamps, deleted = excluded.deleted, hlc = excluded.hlc)
       INSERT INTO changes (ws, seq, coll, id, hlc, fields, origin) VALUES ($1, $8, $2, $3, $7, $9, '')`,
      [this.ws, coll, id, JSON.stringify(row.data), JSON.stringify(row.stamps), row.deleted, row.hlc, seq, JSON.stringify(fields)],
    );
  }
}

async function run<T>(pool: pg.Pool, ws: string | null, fn: (client: pg.PoolClient, w: WsWriter | null) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    let w: WsWriter | null = null;
    if (ws !== null) {
      await client.query(beginLocked(client, ws));
      w = new WsWriter(client, ws);
    } else {
      await client.query('BEGIN');
    }
    const out = await fn(client, w);
    await w?.flush();
    await client.query('COMMIT');
    return out;
  } catch (err) {
    try {
      await client.query('ROLLBACK');
    } catch (e) {
      broken = e as Error;
    }
    throw err;
  } finally {
    client.release(broken);
  }
}

/** Per pool: the tail of each workspace's queue of write transactions in this process. */
const queues = new WeakMap<pg.Pool, Map<string, Promise<void>>>();

/**
 * A write transaction of one workspace, serialised with every other one of it across processes (advisory
 * lock) and, first, within this process (a queue), so that waiting writers never hold pooled connections the
 * lock holder may need for its own reads.
 */
export function inWorkspace<T>(pool: pg.Pool, ws: string, fn: (w: WsWriter) => Promise<T>): Promise<T> {
  let m = queues.get(pool);
  if (!m) queues.set(pool, (m = new Map()));
  const tail = m.get(ws) ?? Promise.resolve();
  const result = tail.then(() => run(pool, ws, (_c, w) => fn(w as WsWriter)));
  const done = result.then(
    () => undefined,
    () => undefined,
  );
  m.set(ws, done);
  void done.then(() => {
    if (m.get(ws) === done) m.delete(ws);
  });
  return result;
}

/** A transaction that touches no workspace's records or log. */
export function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return run(pool, null, (c) => fn(c));
}

/** A pool whose int8 columns read as numbers (server_seq and times stay far below 2^53). */
export function createPool(url: string, schema: string | null, max: number): pg.Pool {
  return new pg.Pool({
    connectionString: url,
    max,
    options: schema ? `-c search_path=${schema}` : undefined,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
}
