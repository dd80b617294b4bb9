/**
 * The store interface every module writes through. Asynchronous at its edges so a
 * PostgreSQL implementation for central deployments can sit behind it; the SQLite
 * implementation resolves at once.
 */
export type Doc = Record<string, unknown>;

export interface ListOptions {
  /** Newest first by insertion order (default oldest first). */
  reverse?: boolean;
  limit?: number;
}

export interface Tx {
  readonly ws: string;
  get<T extends Doc = Doc>(coll: string, id: string): Promise<T | null>;
  list<T extends Doc = Doc>(coll: string, opts?: ListOptions): Promise<T[]>;
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
}

export interface WorkspaceRow {
  id: string;
  created: number;
  kind: string;
  seeded: boolean;
}

export interface Store {
  readonly node: string;
  get<T extends Doc = Doc>(ws: string, coll: string, id: string): Promise<T | null>;
  list<T extends Doc = Doc>(ws: string, coll: string, opts?: ListOptions): Promise<T[]>;
  /** Records as stored JSON text, for lists too large to parse and re-serialise. */
  listJson(ws: string, coll: string, opts?: ListOptions): Promise<string[]>;
  count(ws: string, coll: string): Promise<number>;
  /** Run `fn` atomically: every write in it lands, or none does. */
  transact<T>(ws: string, fn: (tx: Tx) => Promise<T>): Promise<T>;
  workspace(id: string): Promise<WorkspaceRow | null>;
  createWorkspace(id: string, kind: string): Promise<WorkspaceRow>;
  markSeeded(id: string): Promise<void>;
  meta(key: string): Promise<string | null>;
  setMeta(key: string, value: string): Promise<void>;
  close(): void;
}
