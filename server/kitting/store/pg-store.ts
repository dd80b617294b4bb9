/**
 * The PostgreSQL implementation of the store, for central deployments (KITTING_DATABASE_URL). Several
 * central processes may share one database: every write transaction of a workspace holds that
 * workspace's advisory lock, so server_seq follows commit order and no update is lost between them.
 */
import { randomBytes } from 'node:crypto';
import { assertDeclared, lookupIndexName, matches, type Lookup } from './lookups';
import type pg from 'pg';
import { formatHlc, HlcClock, type Hlc } from '../../../shared/hlc';
import { stampPatch, stampPut, type RowState } from './merge';
import { migratePg } from './migrate';
import { PgReplica } from './pg-replica';
import { createPool, inWorkspace, keyOf, type WsWriter } from './pg-txn';
import { recordExists } from './record-exists';
import { seriesExhausted } from './series';
import { prunePgCounters, readPgCounter, updatePgCounter } from './counters';
import type { Counter, Doc, ListOptions, RecordKey, Store, StoreHealth, TransactOptions, Tx, WorkspaceRow } from './types';

export interface PgStoreOptions {
  /** postgres://… ; a `schema` query parameter selects a schema (created when missing). */
  url: string;
  /** HLC node id; defaults to a fresh one per process (two processes never share one). */
  node?: string;
  wall?: () => number;
  /** Connections in the pool (default 10). */
  poolSize?: number;
}

/** Split `?schema=` off a database URL. */
export function parseDatabaseUrl(url: string): { url: string; schema: string | null } {
  const u = new URL(url);
  const schema = u.searchParams.get('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`schema must be a lowercase identifier, got ${schema}`);
  u.searchParams.delete('schema');
  return { url: u.toString(), schema };
}

const isPostgresUrl = (url: string | undefined | null): url is string => !!url && /^postgres(ql)?:\/\//.test(url);

/** A lookup's query, written so PostgreSQL can use the lookup's partial index (see ensureLookups). */
function findSql(coll: string, field: string): string {
  const l = assertDeclared(coll, field);
  return `SELECT data FROM records WHERE ws = $1 AND coll = '${l.coll}' AND NOT deleted AND (data->>'${l.field}') = $2 ORDER BY ord`;
}

export class PgStore implements Store {
  readonly clock: HlcClock;
  readonly replica: PgReplica;
  private closed: Promise<void> | null = null;

  private constructor(
    readonly pool: pg.Pool,
    readonly node: string,
    wall: (() => number) | undefined,
    readonly schema: string | null,
  ) {
    this.clock = new HlcClock(node, wall);
    this.replica = new PgReplica(pool, this.clock);
  }

  /** Connect, create the schema if asked, migrate (refusing a newer schema) and resume the clock. */
  static async open(opts: PgStoreOptions): Promise<PgStore> {
    const { url, schema } = parseDatabaseUrl(opts.url);
    if (schema) {
      const boot = createPool(url, null, 1);
      try {
        // Under a lock of its own: two processes creating the schema at once would otherwise race.
        await boot.query("SELECT pg_advisory_lock(hashtextextended('kitting:migrate', 0))");
        await boot.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
        await boot.query("SELECT pg_advisory_unlock(hashtextextended('kitting:migrate', 0))");
      } finally {
        await boot.end();
      }
    }
    const pool = createPool(url, schema, opts.poolSize ?? 10);
    pool.on('error', () => undefined);
    const node = opts.node ?? `c${randomBytes(6).toString('hex')}`;
    const store = new PgStore(pool, node, opts.wall, schema);
    try {
      store.replica.pgSchema = await migratePg(pool);
      await store.replica.resumeClock();
    } catch (err) {
      await pool.end();
      throw err;
    }
    return store;
  }

  async get<T extends Doc = Doc>(ws: string, coll: string, id: string): Promise<T | null> {
    const r = await this.pool.query<{ data: T }>('SELECT data FROM records WHERE ws = $1 AND coll = $2 AND id = $3 AND NOT deleted', [ws, coll, id]);
    return r.rows[0]?.data ?? null;
  }

  async list<T extends Doc = Doc>(ws: string, coll: string, opts?: ListOptions): Promise<T[]> {
    const r = await this.pool.query<{ data: T }>(
      `SELECT data FROM records WHERE ws = $1 AND coll = $2 AND NOT deleted ORDER BY ord ${opts?.reverse ? 'DESC' : 'ASC'} LIMIT $3`,
      [ws, coll, opts?.limit ?? null],
    );
    return r.rows.map((x) => x.data);
  }

  async listJson(ws: string, coll: string, opts?: ListOptions): Promise<string[]> {
    const r = await this.pool.query<{ data: string }>(
      `SELECT data::text AS data FROM records WHERE ws = $1 AND coll = $2 AND NOT deleted ORDER BY ord ${opts?.reverse ? 'DESC' : 'ASC'} LIMIT $3`,
      [ws, coll, opts?.limit ?? null],
    );
    return r.rows.map((x) => x.data);
  }

  async count(ws: string, coll: string): Promise<number> {
    // Kept by triggers on records (migration 003): one key lookup, whatever the collection's size.
    const r = await this.pool.query<{ n: number }>('SELECT live AS n FROM record_counts WHERE ws = $1 AND coll = $2', [ws, coll]);
    return r.rows[0]?.n ?? 0;
  }

  async find<T extends Doc = Doc>(ws: string, coll: string, field: string, value: string): Promise<T[]> {
    const r = await this.pool.query<{ data: Doc }>(findSql(coll, field), [ws, value]);
    return r.rows.map((x) => x.data).filter((d) => matches(d, field, value)) as T[];
  }

  async ensureLookups(lookups: readonly Lookup[]): Promise<void> {
    if (lookups.length === 0) return;
    const client = await this.pool.connect();
    try {
      // One process at a time (several central processes may start together).
      await client.query("SELECT pg_advisory_lock(hashtextextended('kitting:lookups', 0))");
      try {
        for (const l of lookups) {
          await client.query(
            `CREATE INDEX IF NOT EXISTS ${lookupIndexName(l)} ON records (ws, (data->>'${l.field}'), ord) WHERE coll = '${l.coll}' AND NOT deleted`,
          );
        }
      } finally {
        await client.query("SELECT pg_advisory_unlock(hashtextextended('kitting:lookups', 0))");
      }
    } finally {
      client.release();
    }
  }

  transact<T>(ws: string, fn: (tx: Tx) => Promise<T>, opts?: TransactOptions): Promise<T> {
    const seedStamp = formatHlc({ ms: 0, counter: 0, node: this.node });
    return inWorkspace(this.pool, ws, (w) => fn(this.txFor(w, opts?.seed ? null : () => this.clock.tick(), seedStamp)));
  }

  async workspace(id: string): Promise<WorkspaceRow | null> {
    const r = await this.pool.query<WorkspaceRow>('SELECT id, created, kind, seeded FROM workspaces WHERE id = $1', [id]);
    return r.rows[0] ?? null;
  }

  async createWorkspace(id: string, kind: string): Promise<WorkspaceRow> {
    await this.pool.query('INSERT INTO workspaces (id, created, kind) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [id, Date.now(), kind]);
    return (await this.workspace(id)) as WorkspaceRow;
  }

  async markSeeded(id: string): Promise<void> {
    await this.pool.query('UPDATE workspaces SET seeded = true WHERE id = $1', [id]);
  }

  async meta(key: string): Promise<string | null> {
    const r = await this.pool.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [key]);
    return r.rows[0]?.value ?? null;
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.pool.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
  }

  readCounter(key: string): Promise<Counter | null> {
    return readPgCounter(this.pool, key);
  }

  updateCounter(key: string, next: (cur: Counter | null) => Counter | null): Promise<Counter | null> {
    return updatePgCounter(this.pool, key, next);
  }

  pruneCounters(before: number): Promise<number> {
    return prunePgCounters(this.pool, before);
  }

  /** Set a meta key unless it is set already; returns the value kept (first writer wins across processes). */
  async claimMeta(key: string, value: string): Promise<string> {
    await this.pool.query('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, value]);
    return (await this.meta(key)) ?? value;
  }

  async health(): Promise<StoreHealth> {
    try {
      const r = await this.pool.query<{ v: number }>('SELECT MAX(version)::int AS v FROM schema_migrations');
      return { kind: 'postgres', reachable: true, schema: r.rows[0]?.v ?? 0 };
    } catch {
      return { kind: 'postgres', reachable: false, schema: null };
    }
  }

  close(): void {
    void this.end();
  }

  /** Close the pool and wait for it. */
  end(): Promise<void> {
    this.closed ??= this.pool.end().catch(() => undefined);
    return this.closed;
  }

  private txFor(w: WsWriter, stamp: (() => Hlc) | null, seedStamp: Hlc): Tx {
    const store = this;
    const ws = w.ws;
    const client = w.client;
    /** A stamp after the record's own (another process may have written it with a clock ahead of ours). */
    const stampAfter = (row: { hlc: string } | null): Hlc => {
      if (!stamp) return seedStamp;
      if (row) store.clock.observe(row.hlc);
      return stamp();
    };
    const listRows = async (coll: string, opts?: ListOptions) =>
      (
        await client.query<{ data: Doc }>(
          `SELECT data FROM records WHERE ws = $1 AND coll = $2 AND NOT deleted ORDER BY ord ${opts?.reverse ? 'DESC' : 'ASC'} LIMIT $3`,
          [ws, coll, opts?.limit ?? null],
        )
      ).rows.map((r) => r.data);
    return {
      ws,
      async get<T extends Doc = Doc>(coll: string, id: string) {
        const row = await w.row(coll, id);
        return row && !row.deleted ? (row.data as T) : null;
      },
      async getMany(keys: readonly RecordKey[]) {
        const rows = await w.rows(keys.map(([coll, id]) => ({ coll, id })));
        return keys.map(([coll, id]) => {
          const row = rows.get(keyOf(coll, id));
          return row && !row.deleted ? row.data : null;
        });
      },
      async list<T extends Doc = Doc>(coll: string, opts?: ListOptions) {
        return (await listRows(coll, opts)) as T[];
      },
      async find<T extends Doc = Doc>(coll: string, field: string, value: string) {
        const r = await client.query<{ data: Doc }>(findSql(coll, field), [ws, value]);
        return r.rows.map((x) => x.data).filter((d) => matches(d, field, value)) as T[];
      },
      async count(coll: string) {
        const r = await client.query<{ n: number }>('SELECT live AS n FROM record_counts WHERE ws = $1 AND coll = $2', [ws, coll]);
        return r.rows[0]?.n ?? 0;
      },
      async has(coll: string, id: string) {
        return (await w.row(coll, id)) !== null;
      },
      async create<T extends Doc>(coll: string, id: string, doc: T) {
        // Under the workspace's lock: no other write of the workspace runs between the probe and the insert.
        if (await w.row(coll, id)) throw recordExists(coll, id);
        const hlc = stampAfter(null);
        const put = stampPut(null, doc, hlc);
        if (put) await w.writeOne(coll, id, { data: JSON.parse(JSON.stringify(doc)) as Doc, stamps: put.stamps, deleted: false, hlc }, put.changed);
        return doc;
      },
      async put<T extends Doc>(coll: string, id: string, doc: T) {
        const row = await w.row(coll, id);
        const hlc = stampAfter(row);
        const put = stampPut(row, doc, hlc);
        if (put) {
          const state: RowState = { data: JSON.parse(JSON.stringify(doc)) as Doc, stamps: put.stamps, deleted: false, hlc };
          await w.writeOne(coll, id, state, put.changed);
        }
        return doc;
      },
      async patch<T extends Doc = Doc>(coll: string, id: string, fields: Doc) {
        const row = await w.row(coll, id);
        if (!row || row.deleted) return null;
        const hlc = stampAfter(row);
        const p = stampPatch(row, fields, hlc);
        if (!p) return row.data as T;
        await w.writeOne(coll, id, { data: p.data, stamps: p.stamps, deleted: false, hlc }, p.changed);
        return p.data as T;
      },
      async remove(coll: string, id: string) {
        const row = await w.row(coll, id);
        if (!row || row.deleted) return false;
        const hlc = stampAfter(row);
        const stamps = { ...row.stamps, _deleted: hlc };
        await w.writeOne(coll, id, { data: row.data, stamps, deleted: true, hlc }, { _deleted: true });
        return true;
      },
      async next(series: string, opts?: { start?: number }) {
        // Never past Number.MAX_SAFE_INTEGER: a number that lost precision would be issued twice.
        const r = await client.query<{ next: number }>(
          `INSERT INTO series (ws, name, next) VALUES ($1, $2, $3) ON CONFLICT (ws, name) DO UPDATE SET next = series.next + 1 WHERE series.next < ${Number.MAX_SAFE_INTEGER} RETURNING next`,
          [ws, series, opts?.start ?? 1],
        );
        const row = r.rows[0];
        if (!row) throw seriesExhausted(series);
        return row.next;
      },
      async bumpSeries(series: string, atLeast: number) {
        await client.query(
          'INSERT INTO series (ws, name, next) VALUES ($1, $2, $3) ON CONFLICT (ws, name) DO UPDATE SET next = GREATEST(series.next, excluded.next)',
          [ws, series, atLeast],
        );
      },
      async trimLocal(coll: string, keep: number) {
        return store.replica.trimNow(client, ws, coll, keep);
      },
    };
  }
}
