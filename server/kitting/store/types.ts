/**
 * The store interface every module writes through. Asynchronous at its edges so a
 * PostgreSQL implementation for central deployments can sit behind it; the SQLite
 * implementation resolves at once.
 */
import type { CompactionPolicy, CompactionReport, LogSize } from './compaction';
import type { Lookup } from './lookups';

export type Doc = Record<string, unknown>;

export interface ListOptions {
  /** Newest first by insertion order (default oldest first). */
  reverse?: boolean;
  limit?: number;
}

/** A record's collection and key. */
export type RecordKey = readonly [coll: string, id: string];

export interface Tx {
  readonly ws: string;
  get<T extends Doc = Doc>(coll: string, id: string): Promise<T | null>;
  /**
   * Several records by key in one read (null where none is live), in the order asked: a request that needs a
   * few records reaches the database once instead of once each. A later get, create or patch of the same key
   * in the transaction reads nothing more.
   */
  getMany(keys: readonly RecordKey[]): Promise<(Doc | null)[]>;
  list<T extends Doc = Doc>(coll: string, opts?: ListOptions): Promise<T[]>;
  /** Live records of a collection as this transaction sees them; O(1), never a scan (kept by the writes). */
  count(coll: string): Promise<number>;
  /**
   * Live records whose `field` holds exactly `value`, oldest first, through the index of a declared
   * lookup (server/store/lookups.ts): what it reads grows with the matches, never with the collection.
   */
  find<T extends Doc = Doc>(coll: string, field: string, value: string): Promise<T[]>;
  /** Whether a record with this key exists, live or deleted (a tombstone still holds its key). */
  has(coll: string, id: string): Promise<boolean>;
  /**
   * Insert a new record. A create never overwrites: when a record with this key exists (live or
   * deleted) it fails with 409 record_exists and writes nothing.
   */
  create<T extends Doc>(coll: string, id: string, doc: T): Promise<T>;
  /** Insert or replace a whole record (fields missing from `doc` are removed). */
  put<T extends Doc>(coll: string, id: string, doc: T): Promise<T>;
  /** Merge fields into an existing record; returns null when it does not exist. */
  patch<T extends Doc = Doc>(coll: string, id: string, fields: Doc): Promise<T | null>;
  /** Tombstone a record; false when it did not exist. */
  remove(coll: string, id: string): Promise<boolean>;
  /** Next number of a sequential series (SHP, TK, INV-2611, ...). */
  next(series: string, opts?: { start?: number }): Promise<number>;
  /** Make sure the series issues numbers above `atLeast` (used by seeds and imports). */
  bumpSeries(series: string, atLeast: number): Promise<void>;
  /**
   * Keep only the `keep` most recently written records of a capped collection (logs). The trim is
   * local: it writes no change and is never synced; the cap is remembered and re-applied after
   * records of this collection arrive from another replica.
   */
  trimLocal(coll: string, keep: number): Promise<number>;
}

export interface TransactOptions {
  /**
   * Demo data: writes carry the lowest possible stamp (time 0, this node), so every real edit on
   * any replica wins over them and identical demo rows of two replicas merge without a trace.
   */
  seed?: boolean;
}

export interface WorkspaceRow {
  id: string;
  created: number;
  kind: string;
  seeded: boolean;
}

/** What /healthz reports of the database. */
export interface StoreHealth {
  kind: 'sqlite' | 'postgres';
  reachable: boolean;
  /** Applied schema version (null when unreachable). */
  schema: number | null;
}

/** An attempt counter: `n` attempts since `since`, the latest at `last`, refused until `until` (ms). */
export interface Counter {
  n: number;
  since: number;
  last: number;
  until: number;
}

export interface Store {
  readonly node: string;
  get<T extends Doc = Doc>(ws: string, coll: string, id: string): Promise<T | null>;
  list<T extends Doc = Doc>(ws: string, coll: string, opts?: ListOptions): Promise<T[]>;
  /** Records as stored JSON text, for lists too large to parse and re-serialise. */
  listJson(ws: string, coll: string, opts?: ListOptions): Promise<string[]>;
  /** Live records of a collection; O(1), never a scan: kept by every write in its own transaction. */
  count(ws: string, coll: string): Promise<number>;
  /** Live records whose `field` holds exactly `value`, oldest first (see Tx.find). */
  find<T extends Doc = Doc>(ws: string, coll: string, field: string, value: string): Promise<T[]>;
  /** Create the index of each lookup where missing (at start, once the modules have declared theirs). */
  ensureLookups(lookups: readonly Lookup[]): Promise<void>;
  /** Run `fn` atomically: every write in it lands, or none does. */
  transact<T>(ws: string, fn: (tx: Tx) => Promise<T>, opts?: TransactOptions): Promise<T>;
  workspace(id: string): Promise<WorkspaceRow | null>;
  createWorkspace(id: string, kind: string): Promise<WorkspaceRow>;
  markSeeded(id: string): Promise<void>;
  meta(key: string): Promise<string | null>;
  setMeta(key: string, value: string): Promise<void>;
  /** One attempt counter (lockouts, publish limits), shared by every process over this database. */
  readCounter(key: string): Promise<Counter | null>;
  /** Replace a counter atomically with `next` of its current value (null removes it); answers what was stored. */
  updateCounter(key: string, next: (cur: Counter | null) => Counter | null): Promise<Counter | null>;
  /** Remove counters last touched before `before` (ms); answers how many. */
  pruneCounters(before: number): Promise<number>;
  /** Is the database reachable, and at which schema version? */
  health(): Promise<StoreHealth>;
  close(): void;
  /** Replication primitives for server/kitting/sync (not for modules). */
  readonly replica: ReplicaStore;
}

/** One logged write: the fields it set (null = removed; `_deleted` = tombstone) under one stamp. */
export interface WireChange {
  /** Local change seq on a bench; the workspace's server_seq on central. */
  seq: number;
  coll: string;
  id: string;
  hlc: string;
  fields: Doc;
}

/** A whole record with its per-field stamps (snapshot). */
export interface WireRecord {
  coll: string;
  id: string;
  data: Doc;
  stamps: Record<string, string>;
  deleted: boolean;
}

export interface LeaseRequest {
  series: string;
  size: number;
  /** First number of a series that has never issued one; null: lease only a series central already has. */
  start: number | null;
  /** The block must lie above this number (the bench's seeded or imported level). */
  atLeast: number;
  /** A block for the bench's reserve (overflow range), used only once its regular blocks are spent. */
  overflow?: boolean;
}

export interface LeaseBlock {
  series: string;
  lo: number;
  hi: number;
  /** Held in reserve: issued from only once the regular blocks of the series are spent. */
  overflow?: boolean;
}

export interface LeaseLevel {
  series: string;
  start: number | null;
  /** Numbers left in the regular blocks. */
  remaining: number;
  /** Numbers left in the reserve (overflow range). */
  reserve: number;
  floor: number;
}

export interface BenchRow {
  ws: string;
  bench: string;
  name: string;
  created: number;
  revoked: boolean;
  lastSeen: number;
  acked: number;
}

export interface PushOutcome {
  /** Highest change seq of this bench now accepted. */
  acked: number;
  /** Changes of the batch that changed at least one field. */
  applied: number;
  duplicate: boolean;
}

/** One record rewritten by a renumbering: `from` is dropped, `to` written with `data`. */
export interface Rewrite {
  coll: string;
  from: string;
  to: string;
  data: Doc;
  /** Fields whose value changed (stamped anew; the others keep their stamps). */
  changed: string[];
}

export interface RenumberJob {
  /** Series levels the rewrite was planned for: refused when a counter moved past one since. */
  levels: Record<string, number>;
  /** Counters raised to at least these after the rewrite. */
  bump: Record<string, number>;
  /** The rewrites, computed from every record of the workspace (tombstones included). */
  plan: (records: WireRecord[]) => Rewrite[];
  /** Meta keys written in the same transaction. */
  meta?: Record<string, string>;
}

/** Options of a batch applied from another replica. */
export interface ApplyOptions {
  /** Meta keys written in the same transaction (a pull cursor advances with its page). */
  meta?: Record<string, string>;
  /** Called inside the transaction before commit (fault injection in the simulation). */
  inside?: () => void;
}

/**
 * Replication primitives behind the sync protocol, kept out of the module-facing API. Every method
 * is atomic. A PostgreSQL implementation provides the same set.
 */
export interface ReplicaStore {
  schemaVersion(): number;
  /** This replica's clock (wall clock plus the offset learnt from central), ms. */
  now(): number;
  /** Keep the offset between the local wall clock and central's time (bench). */
  adjustClock(serverTime: number): void;
  /** Highest server_seq of a workspace (0 when none). */
  lastSeq(ws: string): Promise<number>;
  /** Local writes of a bench not yet pushed: change rows of origin '' after `afterSeq`. */
  localChanges(ws: string, afterSeq: number, limit: number): Promise<WireChange[]>;
  pendingCount(ws: string, afterSeq: number): Promise<number>;
  /** Changes of a workspace after a server_seq, leaving out those a given bench sent. */
  changesSince(ws: string, afterSeq: number, limit: number, excludeOrigin: string): Promise<WireChange[]>;
  /** Merge remote changes by per-field LWW; not logged (bench side). */
  applyChanges(ws: string, changes: WireChange[], opts?: ApplyOptions): Promise<number>;
  /** Records of a workspace ordered by (coll, id) after a key, tombstones included. */
  snapshotPage(ws: string, afterKey: string, limit: number): Promise<{ records: WireRecord[]; nextKey: string | null }>;
  /** Merge whole records by per-field LWW; not logged (bench side). */
  applyRecords(ws: string, records: WireRecord[], opts?: ApplyOptions): Promise<number>;
  /** Move every record of `from` into `to` (stamps kept), logging them as local changes of `to`. */
  rekey(from: string, to: string): Promise<number>;
  /** Local series counters (name -> last issued). */
  localSeries(ws: string): Promise<Record<string, number>>;
  /**
   * Bench, before its local records move into the central workspace: rewrite records atomically
   * (new keys and fields; see server/kitting/sync/numbered.ts). Old keys are dropped without a tombstone
   * (no other replica has seen them), new rows are logged as local changes.
   */
  renumber(ws: string, job: RenumberJob): Promise<number>;

  // bench: leased number blocks
  leasedWorkspace(): string | null;
  setLeasedWorkspace(ws: string | null): Promise<void>;
  /** Keep leased blocks; `meta` is written in the same transaction (the enrolment with its first blocks). */
  addBlocks(ws: string, blocks: LeaseBlock[], opts?: { meta?: Record<string, string> }): Promise<void>;
  leaseLevels(ws: string): Promise<LeaseLevel[]>;
  /** Note a series the bench needs a block of (first used while none was leased). */
  wantSeries(ws: string, series: string, start: number | null): Promise<void>;
  /** Called when a request needed a series no block was leased for (the sync loop leases it). */
  onWanted: ((series: string) => void) | null;

  // central
  /** Central: accept a bench's push batch atomically (idempotent by batch id and change seq). */
  pushBatch(ws: string, bench: string, batch: string, changes: WireChange[], opts?: ApplyOptions): Promise<PushOutcome>;
  /** Central: reserve a block of a series (null when start is unknown and the series unused). */
  leaseBlock(ws: string, req: LeaseRequest): Promise<LeaseBlock | null>;
  /**
   * Central, at enrolment: for each series of a bench (its level, and its seeded base when known),
   * keep the workspace's series above the bench's level; where both issued numbers above the base,
   * reserve a fresh range and answer the offset the bench adds to its numbers (series -> offset).
   */
  reserveForBench(ws: string, levels: Record<string, number>, base: Record<string, number> | null): Promise<Record<string, number>>;
  /** Central: names of every series of a workspace. */
  seriesNames(ws: string): Promise<string[]>;
  createEnrolCode(ws: string, codeHash: string, expires: number): Promise<void>;
  /** Marks the code used and returns its workspace; null when unknown, used or expired. */
  /** Central: the workspace an unused, unexpired enrolment code is for (null otherwise); does not redeem it. */
  enrolCodeWorkspace(codeHash: string, now: number): Promise<string | null>;
  redeemEnrolCode(codeHash: string, bench: string, now: number): Promise<string | null>;
  saveBench(ws: string, bench: string, tokenHash: string, name: string): Promise<void>;
  benchByToken(tokenHash: string): Promise<BenchRow | null>;
  /** Note a bench's call; `pulled`: the cursor it pulled from (it holds every change up to it). */
  touchBench(ws: string, bench: string, pulled?: number): Promise<void>;
  listBenches(ws: string): Promise<BenchRow[]>;
  revokeBench(ws: string, bench: string): Promise<boolean>;
  /** Central: workspaces that have a change log. */
  logWorkspaces(): Promise<string[]>;
  /**
   * Central: compact a workspace's log below the oldest cursor of its active benches and the retention
   * window, to the latest change of each record field (server/store/compaction.ts).
   */
  compactLog(ws: string, policy: CompactionPolicy): Promise<CompactionReport>;
  /** Central: the seq through which a workspace's log is compacted (0: never). */
  compactedThrough(ws: string): Promise<number>;
  /** Change rows of a workspace and their JSON bytes. */
  logSize(ws: string): Promise<LogSize>;
}
