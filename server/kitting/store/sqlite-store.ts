import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { formatHlc, HlcClock, type Hlc } from '../../../shared/hlc';
import { assertDeclared, lookupIndexName, matches, type Lookup } from './lookups';
import { stampPatch, stampPut } from './merge';
import { migrate } from './migrate';
import { SqliteReplica } from './sqlite-replica';
import { SqliteCounters } from './counters';
import { recordExists } from './record-exists';
import { seriesExhausted } from './series';
import type { Counter, Doc, ListOptions, RecordKey, Store, StoreHealth, TransactOptions, Tx, WorkspaceRow } from './types';
import { sharedStatements } from './sqlite-statements';
import { KeyReads } from './sqlite-key-reads';
import { WalCheckpointer } from '../../core/db/wal-checkpointer';

/** A change row waiting for the commit: collection, id, stamp, changed fields (JSON). */
type ChangeRow = [coll: string, id: string, hlc: Hlc, fields: string];

/** Rows per INSERT INTO changes (6 values each, far below SQLite's limit of bound values). */
const CHANGES_PER_INSERT = 100;

interface RecordRow {
  data: string;
  stamps: string;
  deleted: number;
}

export interface SqliteStoreOptions {
  /** Path of the database file, or ':memory:'. */
  file: string;
  /** HLC node id; defaults to one generated and kept in the database. */
  node?: string;
  wall?: () => number;
  /** Called with every SQL statement run, values inlined (tests check what a write costs). */
  verbose?: (sql: string) => void;
  /**
   * Records written between two copies of the write-ahead log into the file on a worker thread (default 400,
   * at most 25 counted per transaction; false: none, SQLite's own checkpoint in the committing request only).
   * See WalCheckpointer.
   */
  checkpointEvery?: number | false;
}

/** Serialises write transactions so an awaited step can never interleave two of them. */
class WriteLock {
  private tail: Promise<void> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

export class SqliteStore implements Store {
  readonly db: Database.Database;
  readonly clock: HlcClock;
  readonly node: string;
  readonly replica: SqliteReplica;
  private readonly lock = new WriteLock();
  private readonly q;
  /** One statement per lookup, reaching its rows through the lookup's partial index. */
  private readonly finders = new Map<string, Database.Statement<[string, string], { data: string }>>();
  private readonly counters: SqliteCounters;
  /** INSERT INTO changes of n rows, by n (a transaction logs its changes in one statement at commit). */
  private readonly changeInserts = new Map<number, Database.Statement>();
  private readonly keyReads: KeyReads;
  /** Copies the write-ahead log into the file off the event loop (a file database only). */
  readonly checkpointer: WalCheckpointer | null;

  constructor(opts: SqliteStoreOptions) {
    this.db = new Database(opts.file, opts.verbose ? { verbose: (sql) => opts.verbose?.(String(sql)) } : {});
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = ON');
    this.db.pragma('busy_timeout = 5000');
    // A write reaches a random leaf of each index (an IMEI key); with 100,000 devices the indexes
    // outgrow SQLite's default 2 MB page cache, and each write would re-read pages. Up to 32 MB.
    this.db.pragma('cache_size = -32768');
    // A write dirties about seven pages (record, key index, change log, counts, series); at SQLite's default
    // of a checkpoint every 1,000 WAL pages, one write in ~140 would copy the WAL back and wait for fsync in
    // the request's path. Every 8,000 pages (32 MB of WAL) checkpoints run ~8x less often and copy a hot
    // page once instead of many times (perf/write-scaling.bench.ts: about +6 points of the floor).
    // Past it only as a fallback: the checkpointer below copies the log on a worker thread long before.
    this.db.pragma('wal_autocheckpoint = 8000');
    try {
      migrate(this.db);
    } catch (err) {
      // e.g. a file migrated by a newer release (SchemaTooNewError): refused, and the file left as it is
      this.db.close();
      throw err;
    }
    const db = this.db;
    this.counters = new SqliteCounters(db);
    this.keyReads = new KeyReads(db);
    this.q = {
      ...sharedStatements(db),
      getRow: db.prepare<[string, string, string], RecordRow>('SELECT data, stamps, deleted FROM records WHERE ws = ? AND coll = ? AND id = ?'),
      // A read needs the document only: the field stamps stay in the database.
      getLive: db.prepare<[string, string, string], { data: string }>('SELECT data FROM records WHERE ws = ? AND coll = ? AND id = ? AND deleted = 0'),
      listAsc: db.prepare<[string, string, number], { data: string }>(
        'SELECT data FROM records WHERE ws = ? AND coll = ? AND deleted = 0 ORDER BY rowid LIMIT ?',
      ),
      listDesc: db.prepare<[string, string, number], { data: string }>(
        'SELECT data FROM records WHERE ws = ? AND coll = ? AND deleted = 0 ORDER BY rowid DESC LIMIT ?',
      ),
      // Kept by triggers on records (migration 003): one key lookup, whatever the collection's size.
      count: db.prepare<[string, string], { n: number }>('SELECT live AS n FROM record_counts WHERE ws = ? AND coll = ?'),
      seriesNext: db.prepare<[string, string, number], { next: number }>(
        `INSERT INTO series (ws, name, next) VALUES (?, ?, ?) ON CONFLICT(ws, name) DO UPDATE SET next = next + 1 WHERE next < ${Number.MAX_SAFE_INTEGER} RETURNING next`,
      ),
      seriesBump: db.prepare(
        'INSERT INTO series (ws, name, next) VALUES (?, ?, ?) ON CONFLICT(ws, name) DO UPDATE SET next = MAX(next, excluded.next)',
      ),
      getWs: db.prepare<[string], { id: string; created: number; kind: string; seeded: number }>(
        'SELECT id, created, kind, seeded FROM workspaces WHERE id = ?',
      ),
      addWs: db.prepare('INSERT OR IGNORE INTO workspaces (id, created, kind) VALUES (?, ?, ?)'),
      seeded: db.prepare('UPDATE workspaces SET seeded = 1 WHERE id = ?'),
      // A live record rewritten (patch): no insert attempt first, and the counts trigger (on deleted) is not run.
      update: db.prepare('UPDATE records SET data = ?, stamps = ?, hlc = ? WHERE ws = ? AND coll = ? AND id = ?'),
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
    };
    let node = opts.node ?? this.q.getMeta.get('node_id')?.value;
    if (!node) {
      node = `n${randomBytes(6).toString('hex')}`;
      this.q.setMeta.run('node_id', node);
    }
    this.node = node;
    this.clock = new HlcClock(node, opts.wall);
    this.replica = new SqliteReplica(this.db, this.clock, (fn) => this.lock.run(fn));
    const every = opts.checkpointEvery ?? 400;
    this.checkpointer = opts.file === ':memory:' || every === false ? null : new WalCheckpointer(opts.file, { every });
  }

  async get<T extends Doc = Doc>(ws: string, coll: string, id: string): Promise<T | null> {
    return this.readOne<T>(ws, coll, id);
  }

  async list<T extends Doc = Doc>(ws: string, coll: string, opts?: ListOptions): Promise<T[]> {
    return this.readJson(ws, coll, opts).map((s) => JSON.parse(s) as T);
  }

  async listJson(ws: string, coll: string, opts?: ListOptions): Promise<string[]> {
    return this.readJson(ws, coll, opts);
  }

  async count(ws: string, coll: string): Promise<number> {
    return this.q.count.get(ws, coll)?.n ?? 0;
  }

  async find<T extends Doc = Doc>(ws: string, coll: string, field: string, value: string): Promise<T[]> {
    return this.findRows<T>(ws, coll, field, value);
  }

  async ensureLookups(lookups: readonly Lookup[]): Promise<void> {
    for (const l of lookups) {
      // Partial index: only the collection's live records, by workspace and the field's value.
      this.db.exec(
        `CREATE INDEX IF NOT EXISTS ${lookupIndexName(l)} ON records (ws, json_extract(data, '$.${l.field}')) WHERE coll = '${l.coll}' AND deleted = 0`,
      );
    }
  }

  transact<T>(ws: string, fn: (tx: Tx) => Promise<T>, opts?: TransactOptions): Promise<T> {
    return this.lock.run(async () => {
      this.q.begin.run();
      try {
        const seedStamp = formatHlc({ ms: 0, counter: 0, node: this.node });
        const log: ChangeRow[] = [];
        const result = await fn(this.txFor(ws, opts?.seed ? () => seedStamp : () => this.clock.tick(), log));
        this.logChanges(ws, log);
        this.q.commit.run();
        if (log.length > 0) this.checkpointer?.committed(Math.min(log.length, 25));
        return result;
      } catch (err) {
        if (this.db.inTransaction) this.q.rollback.run();
        throw err;
      }
    });
  }

  async workspace(id: string): Promise<WorkspaceRow | null> {
    const row = this.q.getWs.get(id);
    return row ? { ...row, seeded: row.seeded === 1 } : null;
  }

  async createWorkspace(id: string, kind: string): Promise<WorkspaceRow> {
    this.q.addWs.run(id, Date.now(), kind);
    return (await this.workspace(id)) as WorkspaceRow;
  }

  async markSeeded(id: string): Promise<void> {
    this.q.seeded.run(id);
  }

  async meta(key: string): Promise<string | null> {
    return this.q.getMeta.get(key)?.value ?? null;
  }

  async setMeta(key: string, value: string): Promise<void> {
    this.q.setMeta.run(key, value);
  }

  async readCounter(key: string): Promise<Counter | null> {
    return this.counters.get(key);
  }

  /** In the write queue: a transaction awaiting a step holds the connection's BEGIN. */
  updateCounter(key: string, next: (cur: Counter | null) => Counter | null): Promise<Counter | null> {
    return this.lock.run(async () => this.counters.set(key, next));
  }

  pruneCounters(before: number): Promise<number> {
    return this.lock.run(async () => this.counters.pruneBefore(before));
  }

  async health(): Promise<StoreHealth> {
    return this.db.open ? { kind: 'sqlite', reachable: true, schema: this.replica.schemaVersion() } : { kind: 'sqlite', reachable: false, schema: null };
  }

  /** Checkpoint the WAL into the main file and close (clean shutdown). */
  close(): void {
    if (!this.db.open) return;
    void this.checkpointer?.close();
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.close();
  }

  private readOne<T>(ws: string, coll: string, id: string): T | null {
    const row = this.q.getLive.get(ws, coll, id);
    return row ? (JSON.parse(row.data) as T) : null;
  }

  private findRows<T>(ws: string, coll: string, field: string, value: string): T[] {
    const l = assertDeclared(coll, field);
    const name = lookupIndexName(l);
    let stmt = this.finders.get(name);
    if (!stmt) {
      // The collection and the field are written into the statement so SQLite can use the partial index.
      stmt = this.db.prepare<[string, string], { data: string }>(
        `SELECT data FROM records WHERE coll = '${l.coll}' AND ws = ? AND json_extract(data, '$.${l.field}') = ? AND deleted = 0 ORDER BY rowid`,
      );
      this.finders.set(name, stmt);
    }
    return stmt
      .all(ws, value)
      .map((r) => JSON.parse(r.data) as Record<string, unknown>)
      .filter((d) => matches(d, field, value)) as T[];
  }

  private readJson(ws: string, coll: string, opts?: ListOptions): string[] {
    const stmt = opts?.reverse ? this.q.listDesc : this.q.listAsc;
    return stmt.all(ws, coll, opts?.limit ?? -1).map((r) => r.data);
  }

  /**
   * Writes the record row; its change row goes to `log`, written at commit. `live`: the record exists and
   * stays live (a patch), so a plain UPDATE rewrites it.
   */
  private write(ws: string, coll: string, id: string, data: Doc, stamps: Record<string, Hlc>, changed: Doc, hlc: Hlc, deleted: boolean, log: ChangeRow[], live = false): RecordRow {
    const row = { data: JSON.stringify(data), stamps: JSON.stringify(stamps), deleted: deleted ? 1 : 0 };
    if (live) this.q.update.run(row.data, row.stamps, hlc, ws, coll, id);
    else this.q.upsert.run(ws, coll, id, row.data, row.stamps, row.deleted, hlc);
    log.push([coll, id, hlc, JSON.stringify(changed)]);
    return row;
  }

  /**
   * The change rows of a transaction, in the order of its writes (their seq follows that order), in one
   * INSERT of up to CHANGES_PER_INSERT rows: a scan that registers a device and marks its line logs two
   * changes with one statement, an import batch of 250 lines with three.
   */
  private logChanges(ws: string, log: ChangeRow[]): void {
    if (log.length === 1) {
      const [coll, id, hlc, fields] = log[0] as ChangeRow;
      this.q.change.run(ws, coll, id, hlc, fields, '');
      return;
    }
    for (let i = 0; i < log.length; i += CHANGES_PER_INSERT) {
      const rows = log.slice(i, i + CHANGES_PER_INSERT);
      let stmt = this.changeInserts.get(rows.length);
      if (!stmt) {
        stmt = this.db.prepare(`INSERT INTO changes (ws, coll, id, hlc, fields, origin) VALUES ${Array.from(rows, () => "(?, ?, ?, ?, ?, '')").join(', ')}`);
        this.changeInserts.set(rows.length, stmt);
      }
      const args: string[] = [];
      for (const [coll, id, hlc, fields] of rows) args.push(ws, coll, id, hlc, fields);
      stmt.run(...args);
    }
  }

  private txFor(ws: string, stamp: () => Hlc, log: ChangeRow[]): Tx {
    const store = this;
    const q = this.q;
    // The rows this transaction has read or written (null: none under that key), so a write after a read of the
    // same record (read a line, then patch it) does not read it again. Only this transaction writes while it
    // runs (the write lock), and every record write below passes through `remember`; a trim forgets all.
    const seen = new Map<string, RecordRow | null>();
    const remember = (coll: string, id: string, row: RecordRow | null) => {
      if (seen.size >= 256) seen.clear();
      seen.set(`${coll}\u0000${id}`, row);
    };
    const rowOf = (coll: string, id: string): RecordRow | null => {
      const held = seen.get(`${coll}\u0000${id}`);
      if (held !== undefined) return held;
      const row = q.getRow.get(ws, coll, id) ?? null;
      remember(coll, id, row);
      return row;
    };
    const write = (coll: string, id: string, data: Doc, stamps: Record<string, Hlc>, changed: Doc, hlc: Hlc, deleted: boolean, live = false) =>
      remember(coll, id, store.write(ws, coll, id, data, stamps, changed, hlc, deleted, log, live));
    return {
      ws,
      async get<T extends Doc = Doc>(coll: string, id: string) {
        const row = rowOf(coll, id);
        return row && row.deleted === 0 ? (JSON.parse(row.data) as T) : null;
      },
      async getMany(keys: readonly RecordKey[]) {
        const unread = [...new Map(keys.filter(([c, i]) => !seen.has(`${c}\u0000${i}`)).map((k) => [`${k[0]}\u0000${k[1]}`, k])).values()];
        if (unread.length > 0) {
          const found = new Map(store.keyReads.read(ws, unread).map((r) => [`${r.coll}\u0000${r.id}`, { data: r.data, stamps: r.stamps, deleted: r.deleted }]));
          for (const [c, i] of unread) remember(c, i, found.get(`${c}\u0000${i}`) ?? null);
        }
        return keys.map(([c, i]) => {
          const row = rowOf(c, i);
          return row && row.deleted === 0 ? (JSON.parse(row.data) as Doc) : null;
        });
      },
      async list<T extends Doc = Doc>(coll: string, opts?: ListOptions) {
        return store.readJson(ws, coll, opts).map((s) => JSON.parse(s) as T);
      },
      async count(coll: string) {
        return q.count.get(ws, coll)?.n ?? 0;
      },
      async find<T extends Doc = Doc>(coll: string, field: string, value: string) {
        return store.findRows<T>(ws, coll, field, value);
      },
      async has(coll: string, id: string) {
        return rowOf(coll, id) !== null;
      },
      async create<T extends Doc>(coll: string, id: string, doc: T) {
        if (rowOf(coll, id)) throw recordExists(coll, id);
        const hlc = stamp();
        const w = stampPut(null, doc, hlc);
        if (w) write(coll, id, doc, w.stamps, w.changed, hlc, false);
        return doc;
      },
      async put<T extends Doc>(coll: string, id: string, doc: T) {
        const row = rowOf(coll, id);
        const hlc = stamp();
        const stored = row ? { data: JSON.parse(row.data) as Doc, stamps: JSON.parse(row.stamps) as Record<string, Hlc>, deleted: row.deleted === 1 } : null;
        const w = stampPut(stored, doc, hlc);
        if (w) write(coll, id, doc, w.stamps, w.changed, hlc, false);
        return doc;
      },
      async patch<T extends Doc = Doc>(coll: string, id: string, fields: Doc) {
        const row = rowOf(coll, id);
        if (!row || row.deleted === 1) return null;
        const stored = { data: JSON.parse(row.data) as Doc, stamps: JSON.parse(row.stamps) as Record<string, Hlc>, deleted: false };
        const hlc = stamp();
        const w = stampPatch(stored, fields, hlc);
        if (!w) return stored.data as T;
        write(coll, id, w.data, w.stamps, w.changed, hlc, false, true);
        return w.data as T;
      },
      async remove(coll: string, id: string) {
        const row = rowOf(coll, id);
        if (!row || row.deleted === 1) return false;
        const hlc = stamp();
        const stamps: Record<string, Hlc> = JSON.parse(row.stamps);
        stamps._deleted = hlc;
        write(coll, id, JSON.parse(row.data), stamps, { _deleted: true }, hlc, true);
        return true;
      },
      async next(series: string, opts?: { start?: number }) {
        if (store.replica.leasedWorkspace() === ws) return store.replica.issueLeased(ws, series, opts?.start ?? 1);
        // Never past Number.MAX_SAFE_INTEGER: a number that lost precision would be issued twice.
        const r = q.seriesNext.get(ws, series, opts?.start ?? 1);
        if (!r) throw seriesExhausted(series);
        return r.next;
      },
      async bumpSeries(series: string, atLeast: number) {
        q.seriesBump.run(ws, series, atLeast);
      },
      async trimLocal(coll: string, keep: number) {
        seen.clear();
        return store.replica.trimNow(ws, coll, keep);
      },
    };
  }
}
