import type { Lookup } from './lookups';
import type { Counter, Doc, ListOptions, RecordKey, ReplicaStore, Store, StoreHealth, TransactOptions, Tx, WorkspaceRow } from './types';

/**
 * A collection whose live records count against a per-workspace limit, declared by the module
 * that owns the collection (devices, customers, team members count against a tenant's plan).
 */
export interface CountedCollection {
  coll: string;
  /** Name of the limit that applies (the plan's `devices`, `members`, `customers`). */
  resource: string;
}

/** A counted collection that grew in one transaction. */
export interface Growth extends CountedCollection {
  ws: string;
  /** Live records before the transaction's first write to the collection. */
  before: number;
  /** Live records after the transaction's last write, before commit. */
  after: number;
}

/**
 * Checks writes that add records to counted collections. Runs inside the write's transaction,
 * before commit, only when a collection grew; throwing rolls the whole transaction back.
 */
export interface CountGuard {
  readonly counted: readonly CountedCollection[];
  /**
   * Whether any limit applies to the workspace at all (asked once per transaction, before its first
   * write to a counted collection): when none does, the transaction counts nothing.
   */
  applies(store: Store, tx: Tx): Promise<boolean>;
  check(store: Store, tx: Tx, growth: Growth): Promise<void>;
}

/** A transaction that records the live count of each counted collection before its first write. */
function watchedTx(tx: Tx, watched: ReadonlyMap<string, CountedCollection>, before: Map<string, number>, applies: () => Promise<boolean>): Tx {
  let limited: boolean | null = null;
  const note = async (coll: string) => {
    if (!watched.has(coll) || before.has(coll)) return;
    limited ??= await applies();
    if (limited) before.set(coll, await tx.count(coll));
  };
  return {
    ws: tx.ws,
    get: <T extends Doc = Doc>(coll: string, id: string) => tx.get<T>(coll, id),
    getMany: (keys: readonly RecordKey[]) => tx.getMany(keys),
    list: <T extends Doc = Doc>(coll: string, opts?: ListOptions) => tx.list<T>(coll, opts),
    count: (coll: string) => tx.count(coll),
    find: <T extends Doc = Doc>(coll: string, field: string, value: string) => tx.find<T>(coll, field, value),
    has: (coll: string, id: string) => tx.has(coll, id),
    async create<T extends Doc>(coll: string, id: string, doc: T) {
      await note(coll);
      return tx.create(coll, id, doc);
    },
    async put<T extends Doc>(coll: string, id: string, doc: T) {
      await note(coll);
      return tx.put(coll, id, doc);
    },
    // A patch never creates a record, so it cannot grow a collection.
    patch: <T extends Doc = Doc>(coll: string, id: string, fields: Doc) => tx.patch<T>(coll, id, fields),
    async remove(coll: string, id: string) {
      await note(coll);
      return tx.remove(coll, id);
    },
    next: (series: string, opts?: { start?: number }) => tx.next(series, opts),
    bumpSeries: (series: string, atLeast: number) => tx.bumpSeries(series, atLeast),
    trimLocal: (coll: string, keep: number) => tx.trimLocal(coll, keep),
  };
}

/**
 * The store with `guard` applied to every transaction that writes a counted collection (demo-data
 * loads excepted). The cost per write is what the guard reads to know whether a limit applies, and
 * where one does two count lookups: never a scan. Replication merges are not transactions of this API and are not checked.
 */
class GuardedStore implements Store {
  private readonly watched: ReadonlyMap<string, CountedCollection>;

  constructor(
    private readonly inner: Store,
    private readonly guard: CountGuard,
  ) {
    this.watched = new Map(guard.counted.map((c) => [c.coll, c]));
  }

  get node(): string {
    return this.inner.node;
  }

  get replica(): ReplicaStore {
    return this.inner.replica;
  }

  get<T extends Doc = Doc>(ws: string, coll: string, id: string): Promise<T | null> {
    return this.inner.get<T>(ws, coll, id);
  }

  list<T extends Doc = Doc>(ws: string, coll: string, opts?: ListOptions): Promise<T[]> {
    return this.inner.list<T>(ws, coll, opts);
  }

  listJson(ws: string, coll: string, opts?: ListOptions): Promise<string[]> {
    return this.inner.listJson(ws, coll, opts);
  }

  count(ws: string, coll: string): Promise<number> {
    return this.inner.count(ws, coll);
  }

  find<T extends Doc = Doc>(ws: string, coll: string, field: string, value: string): Promise<T[]> {
    return this.inner.find<T>(ws, coll, field, value);
  }

  ensureLookups(lookups: readonly Lookup[]): Promise<void> {
    return this.inner.ensureLookups(lookups);
  }

  readCounter(key: string): Promise<Counter | null> {
    return this.inner.readCounter(key);
  }

  updateCounter(key: string, next: (cur: Counter | null) => Counter | null): Promise<Counter | null> {
    return this.inner.updateCounter(key, next);
  }

  pruneCounters(before: number): Promise<number> {
    return this.inner.pruneCounters(before);
  }

  transact<T>(ws: string, fn: (tx: Tx) => Promise<T>, opts?: TransactOptions): Promise<T> {
    if (opts?.seed) return this.inner.transact(ws, fn, opts);
    return this.inner.transact(
      ws,
      async (tx) => {
        const before = new Map<string, number>();
        const result = await fn(watchedTx(tx, this.watched, before, () => this.guard.applies(this, tx)));
        for (const [coll, was] of before) {
          const now = await tx.count(coll);
          const counted = this.watched.get(coll) as CountedCollection;
          if (now > was) await this.guard.check(this, tx, { ...counted, ws, before: was, after: now });
        }
        return result;
      },
      opts,
    );
  }

  workspace(id: string): Promise<WorkspaceRow | null> {
    return this.inner.workspace(id);
  }

  createWorkspace(id: string, kind: string): Promise<WorkspaceRow> {
    return this.inner.createWorkspace(id, kind);
  }

  markSeeded(id: string): Promise<void> {
    return this.inner.markSeeded(id);
  }

  meta(key: string): Promise<string | null> {
    return this.inner.meta(key);
  }

  setMeta(key: string, value: string): Promise<void> {
    return this.inner.setMeta(key, value);
  }

  health(): Promise<StoreHealth> {
    return this.inner.health();
  }

  close(): void {
    this.inner.close();
  }
}

export function guardCounts(store: Store, guard: CountGuard): Store {
  return new GuardedStore(store, guard);
}
