import type Database from 'better-sqlite3';
import type { HlcClock } from '../../../shared/hlc';
import { declaredCap } from './caps';
import { mergeChange, mergeRecord, type RowState } from './merge';
import { schemaVersion } from './migrate';
import { prepareReplicaStatements, toChange, type ReplicaStatements } from './replica-statements';
import type { ApplyOptions, Doc, RenumberJob, WireChange, WireRecord } from './types';

export type Runner = <T>(fn: () => Promise<T>) => Promise<T>;

/** Most JSON one pull or snapshot page carries (a company logo alone may be 6 MB). */
const PAGE_BYTES = 8 * 1024 * 1024;

/** The leading rows that fit in PAGE_BYTES (at least one). */
function capBytes<T>(rows: T[], size: (r: T) => number): T[] {
  let total = 0;
  for (let i = 0; i < rows.length; i += 1) {
    total += size(rows[i] as T);
    if (total > PAGE_BYTES && i > 0) return rows.slice(0, i);
  }
  return rows;
}

/**
 * Reads, merging and local rewrites of the SQLite replica (shares the store's connection and lock).
 * SqliteReplica adds the bench's number leases and central's side of the protocol.
 */
export abstract class ReplicaCore {
  private readonly caps = new Map<string, number>();
  protected readonly q: ReplicaStatements;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: HlcClock,
    protected readonly exclusive: Runner,
  ) {
    this.q = prepareReplicaStatements(db);
    for (const c of this.q.caps.all()) this.caps.set(c.coll, c.keep);
    // After a restart (or with a wall clock set back) new stamps still sort after every stored one.
    const max = db.prepare<[], { h: string | null }>('SELECT MAX(hlc) AS h FROM records').get()?.h;
    if (max) this.clock.observe(max);
  }

  schemaVersion(): number {
    return schemaVersion(this.db);
  }

  now(): number {
    return this.clock.now();
  }

  adjustClock(serverTime: number): void {
    if (Number.isFinite(serverTime)) this.clock.offsetMs = serverTime - (this.clock.now() - this.clock.offsetMs);
  }

  // ---- reads (under the write lock, so no open transaction's rows are ever seen) ----

  lastSeq(ws: string): Promise<number> {
    return this.exclusive(async () => this.q.lastSeq.get(ws)?.s ?? 0);
  }

  localChanges(ws: string, afterSeq: number, limit: number): Promise<WireChange[]> {
    return this.exclusive(async () => this.q.local.all(ws, afterSeq, limit).map(toChange));
  }

  pendingCount(ws: string, afterSeq: number): Promise<number> {
    return this.exclusive(async () => this.q.pending.get(ws, afterSeq)?.n ?? 0);
  }

  changesSince(ws: string, afterSeq: number, limit: number, excludeOrigin: string): Promise<WireChange[]> {
    return this.exclusive(async () => capBytes(this.q.since.all(ws, afterSeq, excludeOrigin, limit), (r) => r.fields.length).map(toChange));
  }

  snapshotPage(ws: string, afterKey: string, limit: number): Promise<{ records: WireRecord[]; nextKey: string | null }> {
    return this.exclusive(async () => {
      const [coll, id] = afterKey ? (JSON.parse(afterKey) as [string, string]) : ['', ''];
      const all = this.q.snap.all(ws, coll, coll, id, limit);
      const rows = capBytes(all, (r) => r.data.length + r.stamps.length);
      const records = rows.map((r) => ({
        coll: r.coll,
        id: r.id,
        data: JSON.parse(r.data) as Doc,
        stamps: JSON.parse(r.stamps) as Record<string, string>,
        deleted: r.deleted === 1,
      }));
      const last = rows[rows.length - 1];
      const cut = rows.length < all.length || all.length === limit;
      return { records, nextKey: cut && last ? JSON.stringify([last.coll, last.id]) : null };
    });
  }

  localSeries(ws: string): Promise<Record<string, number>> {
    return this.exclusive(async () => Object.fromEntries(this.q.seriesRows.all(ws).map((r) => [r.name, r.next])));
  }

  seriesNames(ws: string): Promise<string[]> {
    return this.exclusive(async () => this.q.seriesRows.all(ws).map((r) => r.name));
  }

  // ---- merging ----

  /** Per-field LWW of one change into its record; true when a field won. Logs the winners when `origin` is given. */
  protected mergeChange(ws: string, c: WireChange, origin: string | null): boolean {
    const merged = mergeChange(this.rowState(ws, c.coll, c.id), c);
    if (!merged) return false;
    this.writeRow(ws, c.coll, c.id, merged.row);
    if (origin !== null) this.q.change.run(ws, c.coll, c.id, c.hlc, JSON.stringify(merged.won), origin);
    return true;
  }

  /** Per-field LWW of a whole record (snapshot); true when a field won. */
  private mergeRecord(ws: string, r: WireRecord): boolean {
    const merged = mergeRecord(this.rowState(ws, r.coll, r.id), r);
    if (merged) this.writeRow(ws, r.coll, r.id, merged);
    return merged !== null;
  }

  private rowState(ws: string, coll: string, id: string): RowState | null {
    const row = this.q.row.get(ws, coll, id);
    if (!row) return null;
    return { data: JSON.parse(row.data) as Doc, stamps: JSON.parse(row.stamps) as Record<string, string>, deleted: row.deleted === 1, hlc: row.hlc };
  }

  private writeRow(ws: string, coll: string, id: string, s: RowState): void {
    this.q.upsert.run(ws, coll, id, JSON.stringify(s.data), JSON.stringify(s.stamps), s.deleted ? 1 : 0, s.hlc);
  }

  protected trimTouched(ws: string, colls: Iterable<string>): void {
    for (const coll of colls) {
      const keep = this.caps.get(coll) ?? declaredCap(coll);
      if (keep !== undefined) this.q.trim.run(ws, coll, keep);
    }
  }

  /** Local trim of a capped collection; remembers the cap for records arriving later. */
  trimNow(ws: string, coll: string, keep: number): number {
    if (this.caps.get(coll) !== keep) {
      this.q.setCap.run(coll, keep);
      this.caps.set(coll, keep);
    }
    return this.q.trim.run(ws, coll, keep).changes;
  }

  protected observe(maxHlc: string): void {
    if (maxHlc) this.clock.observe(maxHlc);
  }

  /** Run `fn` in one SQLite transaction under the store's write lock. */
  protected atomically<T>(fn: () => T): Promise<T> {
    return this.exclusive(async () => this.db.transaction(fn).immediate());
  }

  protected finish(opts: ApplyOptions | undefined): void {
    for (const [k, v] of Object.entries(opts?.meta ?? {})) this.q.setMeta.run(k, v);
    opts?.inside?.();
  }

  applyChanges(ws: string, changes: WireChange[], opts?: ApplyOptions): Promise<number> {
    return this.atomically(() => {
      let applied = 0;
      let max = '';
      const colls = new Set<string>();
      for (const c of changes) {
        if (this.mergeChange(ws, c, null)) applied += 1;
        colls.add(c.coll);
        if (c.hlc > max) max = c.hlc;
      }
      this.trimTouched(ws, colls);
      this.finish(opts);
      this.observe(max);
      return applied;
    });
  }

  applyRecords(ws: string, records: WireRecord[], opts?: ApplyOptions): Promise<number> {
    return this.atomically(() => {
      let applied = 0;
      let max = '';
      const colls = new Set<string>();
      for (const r of records) {
        if (this.mergeRecord(ws, r)) applied += 1;
        colls.add(r.coll);
        for (const s of Object.values(r.stamps)) if (s > max) max = s;
      }
      this.trimTouched(ws, colls);
      this.finish(opts);
      this.observe(max);
      return applied;
    });
  }

  rekey(from: string, to: string): Promise<number> {
    return this.atomically(() => {
      let moved = 0;
      let max = '';
      const colls = new Set<string>();
      for (const r of this.q.wsRows.all(from)) {
        const data = JSON.parse(r.data) as Doc;
        const stamps = JSON.parse(r.stamps) as Record<string, string>;
        const groups = new Map<string, Doc>();
        for (const [k, s] of Object.entries(stamps)) {
          const g = groups.get(s) ?? {};
          g[k] = k === '_deleted' ? r.deleted === 1 : (data[k] ?? null);
          groups.set(s, g);
        }
        for (const hlc of [...groups.keys()].sort()) {
          this.mergeChange(to, { seq: 0, coll: r.coll, id: r.id, hlc, fields: groups.get(hlc) as Doc }, '');
          if (hlc > max) max = hlc;
        }
        colls.add(r.coll);
        moved += 1;
      }
      this.q.dropWs.run(from);
      this.trimTouched(to, colls);
      this.observe(max);
      return moved;
    });
  }

  renumber(ws: string, job: RenumberJob): Promise<number> {
    return this.atomically(() => {
      for (const [series, level] of Object.entries(job.levels)) {
        const cur = this.q.seriesGet.get(ws, series)?.next ?? 0;
        if (cur > level) throw new Error(`series ${series} issued ${cur} after enrolment began (planned for ${level}); enrol again`);
      }
      const records: WireRecord[] = this.q.wsRows.all(ws).map((r) => ({
        coll: r.coll,
        id: r.id,
        data: JSON.parse(r.data) as Doc,
        stamps: JSON.parse(r.stamps) as Record<string, string>,
        deleted: r.deleted === 1,
      }));
      const byKey = new Map(records.map((r) => [`${r.coll}\u0001${r.id}`, r]));
      const rewrites = job.plan(records);
      const leaving = new Set(rewrites.map((w) => `${w.coll}\u0001${w.from}`));
      for (const w of rewrites) {
        const target = `${w.coll}\u0001${w.to}`;
        if (w.to !== w.from && byKey.has(target) && !leaving.has(target)) throw new Error(`renumbering ${w.coll}/${w.from}: ${w.to} exists already`);
      }
      for (const w of rewrites) this.q.dropRow.run(ws, w.coll, w.from);
      for (const w of rewrites) {
        const old = byKey.get(`${w.coll}\u0001${w.from}`);
        const stamps: Record<string, string> = { ...(old?.stamps ?? {}) };
        const hlc = this.clock.tick();
        for (const k of w.changed) stamps[k] = hlc;
        for (const k of Object.keys(w.data)) stamps[k] ??= hlc;
        const deleted = old?.deleted ?? false;
        let max = '';
        const groups = new Map<string, Doc>();
        for (const [k, st] of Object.entries(stamps)) {
          if (st > max) max = st;
          const g = groups.get(st) ?? {};
          g[k] = k === '_deleted' ? deleted : (w.data[k] ?? null);
          groups.set(st, g);
        }
        this.q.upsert.run(ws, w.coll, w.to, JSON.stringify(w.data), JSON.stringify(stamps), deleted ? 1 : 0, max);
        for (const st of [...groups.keys()].sort()) this.q.change.run(ws, w.coll, w.to, st, JSON.stringify(groups.get(st)), '');
      }
      for (const [series, atLeast] of Object.entries(job.bump)) this.q.seriesSet.run(ws, series, atLeast);
      for (const [k, v] of Object.entries(job.meta ?? {})) this.q.setMeta.run(k, v);
      return rewrites.length;
    });
  }
}
