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

/** `\u0000` escapes that stand for a NUL character (after an even run of backslashes). */
const NUL_ESCAPE = /(?<!\\)((?:\\\\)*)\\u0000/g;

/**
 * JSON text for a jsonb column. jsonb refuses the character U+0000 in strings (PostgreSQL text holds no
 * NUL): it is written as U+FFFD, the replacement character (migration 008 converts stored ones alike).
 */
export function jsonbText(json: string): string {
  if (!json.includes('\\u0000')) return json;
  return json.replace(NUL_ESCAPE, '$1\\ufffd');
}

export const toJsonb = (value: unknown): string => jsonbText(JSON.stringify(value));

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

export const SEQ_UPSERT = 'INSERT INTO change_seq (ws, seq) VALUES ($1, $2) ON CONFLICT (ws) DO UPDATE SET seq = excluded.seq';

/** One write transaction of one workspace: allocates server_seq and writes records and changes in bulk. */
export class WsWriter {
  private seq: number | null = null;
  private dirty = false;

  constructor(
    readonly client: pg.PoolClient,
    readonly ws: string,
  ) {}

  /** The rows the transaction's first round trip read (see inWorkspace's `head`). */
  head: Record<string, unknown> | undefined;

  /** Callbacks run once the transaction has committed (never after a rollback). */
  readonly committed: (() => void)[] = [];

  /** The workspace's last server_seq, read by the caller already (spares reserve its query). */
  knowSeq(seq: number): void {
    this.seq ??= seq;
  }

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
    await this.client.query(SEQ_UPSERT, [this.ws, this.seq]);
    this.dirty = false;
  }

  /**
   * The last server_seq to record, to write within the caller's own statement (`SEQ_UPSERT` with the
   * workspace as $1 and this as $2), or null when nothing was reserved; the transaction's end then skips it.
   */
  takeSeq(): number | null {
    if (!this.dirty) return null;
    this.dirty = false;
    return this.seq;
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
      // One primary-key probe per key: the LIMIT keeps the planner from flattening the lateral subquery into a
      // join, which it would run as a hash of every record of the workspace (a 500-key push batch took 60 ms
      // at 50,000 devices, growing with the workspace; probes take the same few ms at any size).
      const r = await this.client.query<DbRecord>(
        `SELECT r.coll, r.id, r.data, r.stamps, r.deleted, r.hlc FROM unnest($2::text[], $3::text[]) AS k(coll, id)
         CROSS JOIN LATERAL (SELECT coll, id, data, stamps, deleted, hlc FROM records WHERE ws = $1 AND coll = k.coll AND id = k.id ORDER BY ws, coll, id LIMIT 1) r`,
        [this.ws, part.map((k) => k.coll), part.map((k) => k.id)],
      );
      for (const row of r.rows) out.set(keyOf(row.coll, row.id), row);
    }
    return out;
  }

  /** Insert or replace whole rows (one per key). */
  async upsert(rows: { coll: string; id: string; row: RowState }[]): Promise<void> {
    const json = rows.map((r) => toJsonb({ coll: r.coll, id: r.id, data: r.row.data, stamps: r.row.stamps, deleted: r.row.deleted, hlc: r.row.hlc }));
    for (const part of chunks(json, (s) => s.length)) {
      await this.client.query(
        `INSERT INTO records (ws, coll, id, data, stamps, deleted, hlc)
         SELECT $1, x.coll, x.id, x.data, x.stamps, x.deleted, x.hlc
           FROM jsonb_to_recordset($2::jsonb) AS x(coll text, id text, data jsonb, stamps jsonb, deleted boolean, hlc text)
         ON CONFLICT (ws, coll, id) DO UPDATE SET data = excluded.data, stamps = excluded.stamps, deleted = excluded.deleted, hlc = excluded.hlc`,
        [this.ws, `[${part.join(',')}]`],
      );
    }
  }

  /**
   * Upsert `rows` and append `changes` (fresh server_seq numbers, in order): one statement when both fit in
   * one chunk (a push batch), else upsert and log in turn.
   */
  async write(rows: { coll: string; id: string; row: RowState }[], changes: ChangeInsert[]): Promise<void> {
    const recs = rows.map((r) => toJsonb({ coll: r.coll, id: r.id, data: r.row.data, stamps: r.row.stamps, deleted: r.row.deleted, hlc: r.row.hlc }));
    const recBytes = recs.reduce((n, x) => n + x.length, 0);
    if (rows.length === 0 || changes.length === 0 || recBytes > CHUNK_BYTES) {
      await this.upsert(rows);
      await this.log(changes);
      return;
    }
    let seq = await this.reserve(changes.length);
    const logged = changes.map((c) => toJsonb({ seq: seq++, coll: c.coll, id: c.id, hlc: c.hlc, fields: c.fields, origin: c.origin }));
    if (logged.reduce((n, x) => n + x.length, 0) > CHUNK_BYTES) {
      this.seq = (this.seq as number) - changes.length;
      await this.upsert(rows);
      await this.log(changes);
      return;
    }
    await this.client.query(
      `WITH r AS (
         INSERT INTO records (ws, coll, id, data, stamps, deleted, hlc)
         SELECT $1, x.coll, x.id, x.data, x.stamps, x.deleted, x.hlc
           FROM jsonb_to_recordset($2::jsonb) AS x(coll text, id text, data jsonb, stamps jsonb, deleted boolean, hlc text)
         ON CONFLICT (ws, coll, id) DO UPDATE SET data = excluded.data, stamps = excluded.stamps, deleted = excluded.deleted, hlc = excluded.hlc)
       INSERT INTO changes (ws, seq, coll, id, hlc, fields, origin)
       SELECT $1, x.seq, x.coll, x.id, x.hlc, x.fields, x.origin
         FROM jsonb_to_recordset($3::jsonb) AS x(seq bigint, coll text, id text, hlc text, fields jsonb, origin text)`,
      [this.ws, `[${recs.join(',')}]`, `[${logged.join(',')}]`],
    );
  }

  /** Append changes with fresh server_seq numbers, in order. */
  async log(changes: ChangeInsert[]): Promise<void> {
    if (changes.length === 0) return;
    let seq = await this.reserve(changes.length);
    const json = changes.map((c) => toJsonb({ seq: seq++, coll: c.coll, id: c.id, hlc: c.hlc, fields: c.fields, origin: c.origin }));
    for (const part of chunks(json, (s) => s.length)) {
      await this.client.query(
        `INSERT INTO changes (ws, seq, coll, id, hlc, fields, origin)
         SELECT $1, x.seq, x.coll, x.id, x.hlc, x.fields, x.origin
           FROM jsonb_to_recordset($2::jsonb) AS x(seq bigint, coll text, id text, hlc text, fields jsonb, origin text)`,
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
      [this.ws, coll, id, toJsonb(row.data), toJsonb(row.stamps), row.deleted, row.hlc, seq, toJsonb(fields)],
    );
  }
}

/**
 * SQL sent with BEGIN and the lock in the first round trip, built with the client's literal escaping; its one
 * row must carry the workspace's last server_seq as `seq` (null when none).
 */
export type HeadQuery = (lit: (v: string) => string) => string;

async function run<T>(
  pool: pg.Pool,
  ws: string | null,
  fn: (client: pg.PoolClient, w: WsWriter | null) => Promise<T>,
  head?: HeadQuery,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    let w: WsWriter | null = null;
    if (ws !== null) {
      w = new WsWriter(client, ws);
      // The workspace's last server_seq comes with the lock (the head query reads it as `seq` too).
      const first = head ?? ((lit) => `SELECT seq FROM change_seq WHERE ws = ${lit(ws)}`);
      const results = (await client.query(`${beginLocked(client, ws)}; ${first((v) => client.escapeLiteral(v))}`)) as unknown as pg.QueryResult[];
      w.head = results[results.length - 1]?.rows[0] as Record<string, unknown> | undefined;
      w.knowSeq((w.head?.seq as number | null | undefined) ?? 0);
    } else {
      await client.query('BEGIN');
    }
    const out = await fn(client, w);
    await w?.flush();
    await client.query('COMMIT');
    for (const done of w?.committed ?? []) done();
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
export function inWorkspace<T>(pool: pg.Pool, ws: string, fn: (w: WsWriter) => Promise<T>, head?: HeadQuery): Promise<T> {
  let m = queues.get(pool);
  if (!m) queues.set(pool, (m = new Map()));
  const tail = m.get(ws) ?? Promise.resolve();
  const result = tail.then(() => run(pool, ws, (_c, w) => fn(w as WsWriter), head));
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
function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
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
