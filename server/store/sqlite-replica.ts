import type Database from 'better-sqlite3';
import { HttpError } from '../http/errors';
import type { HlcClock } from '../../shared/hlc';
import { declaredCap } from './caps';
import { schemaVersion } from './migrate';
import { prepareReplicaStatements, toBench, toChange, type ReplicaStatements } from './replica-statements';
import type {
  ApplyOptions,
  BenchRow,
  Doc,
  LeaseBlock,
  LeaseLevel,
  LeaseRequest,
  PushOutcome,
  RenumberJob,
  ReplicaStore,
  WireChange,
  WireRecord,
} from './types';

type Runner = <T>(fn: () => Promise<T>) => Promise<T>;

const LEASED_WS_KEY = 'sync_leased_ws';

/** How long central remembers the answer of a push batch. */
const BATCH_MEMORY_MS = 7 * 24 * 3_600_000;

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

/** 503 for a number that cannot be issued offline: never a guessed or duplicate number. */
export function seriesUnavailable(series: string): HttpError {
  return new HttpError(503, 'series_exhausted', {
    series,
    message: `番号「${series}」の払い出し枠がありません。中央サーバーに接続してから再度お試しください`,
  });
}

/** The SQLite implementation of the replication primitives (shares the store's connection and lock). */
export class SqliteReplica implements ReplicaStore {
  onWanted: ((series: string) => void) | null = null;
  private leasedWs: string | null;
  private readonly caps = new Map<string, number>();
  /** Series a request needed while no block was leased (kept in memory: that request rolled back). */
  private readonly wanted = new Map<string, { ws: string; series: string; start: number | null }>();
  private readonly q: ReplicaStatements;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: HlcClock,
    private readonly exclusive: Runner,
  ) {
    this.q = prepareReplicaStatements(db);
    for (const c of this.q.caps.all()) this.caps.set(c.coll, c.keep);
    this.leasedWs = this.q.getMeta.get(LEASED_WS_KEY)?.value ?? null;
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
  private mergeChange(ws: string, c: WireChange, origin: string | null): boolean {
    const row = this.q.row.get(ws, c.coll, c.id);
    const data: Doc = row ? (JSON.parse(row.data) as Doc) : {};
    const stamps: Record<string, string> = row ? (JSON.parse(row.stamps) as Record<string, string>) : {};
    let deleted = row ? row.deleted === 1 : false;
    const won: Doc = {};
    let any = false;
    for (const [k, v] of Object.entries(c.fields)) {
      const cur = stamps[k];
      if (cur !== undefined && cur >= c.hlc) continue;
      stamps[k] = c.hlc;
      won[k] = v;
      any = true;
      if (k === '_deleted') deleted = v === true;
      else if (v === null || v === undefined) delete data[k];
      else data[k] = v;
    }
    if (!any) return false;
    const hlc = row && row.hlc > c.hlc ? row.hlc : c.hlc;
    this.q.upsert.run(ws, c.coll, c.id, JSON.stringify(data), JSON.stringify(stamps), deleted ? 1 : 0, hlc);
    if (origin !== null) this.q.change.run(ws, c.coll, c.id, c.hlc, JSON.stringify(won), origin);
    return true;
  }

  private mergeRecord(ws: string, r: WireRecord): boolean {
    const row = this.q.row.get(ws, r.coll, r.id);
    if (!row) {
      let hlc = '';
      for (const s of Object.values(r.stamps)) if (s > hlc) hlc = s;
      this.q.upsert.run(ws, r.coll, r.id, JSON.stringify(r.data), JSON.stringify(r.stamps), r.deleted ? 1 : 0, hlc);
      return true;
    }
    const data = JSON.parse(row.data) as Doc;
    const stamps = JSON.parse(row.stamps) as Record<string, string>;
    let deleted = row.deleted === 1;
    let hlc = row.hlc;
    let any = false;
    for (const [k, s] of Object.entries(r.stamps)) {
      const cur = stamps[k];
      if (cur !== undefined && cur >= s) continue;
      stamps[k] = s;
      any = true;
      if (s > hlc) hlc = s;
      if (k === '_deleted') deleted = r.deleted;
      else if (r.data[k] === undefined || r.data[k] === null) delete data[k];
      else data[k] = r.data[k];
    }
    if (any) this.q.upsert.run(ws, r.coll, r.id, JSON.stringify(data), JSON.stringify(stamps), deleted ? 1 : 0, hlc);
    return any;
  }

  private trimTouched(ws: string, colls: Iterable<string>): void {
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

  private observe(maxHlc: string): void {
    if (maxHlc) this.clock.observe(maxHlc);
  }

  /** Run `fn` in one SQLite transaction under the store's write lock. */
  private atomically<T>(fn: () => T): Promise<T> {
    return this.exclusive(async () => this.db.transaction(fn).immediate());
  }

  private finish(opts: ApplyOptions | undefined): void {
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

  // ---- bench: leased number blocks ----

  leasedWorkspace(): string | null {
    return this.leasedWs;
  }

  async setLeasedWorkspace(ws: string | null): Promise<void> {
    if (ws) this.q.setMeta.run(LEASED_WS_KEY, ws);
    else this.q.delMeta.run(LEASED_WS_KEY);
    this.leasedWs = ws;
  }

  /** Next number of a series from the leased blocks (inside the caller's transaction); 503 when none is left. */
  issueLeased(ws: string, series: string, start: number): number {
    this.q.lsAdd.run(ws, series, start);
    const floor = this.q.seriesGet.get(ws, series)?.next ?? 0;
    for (;;) {
      const b = this.q.block.get(ws, series);
      if (!b) {
        this.wanted.set(`${ws}\n${series}`, { ws, series, start });
        this.onWanted?.(series);
        throw seriesUnavailable(series);
      }
      const n = Math.max(b.next, floor + 1);
      if (n > b.hi) {
        this.q.blockUse.run(b.hi + 1, ws, series, b.lo);
        continue;
      }
      this.q.blockUse.run(n + 1, ws, series, b.lo);
      this.q.seriesSet.run(ws, series, n);
      return n;
    }
  }

  addBlocks(ws: string, blocks: LeaseBlock[]): Promise<void> {
    return this.atomically(() => {
      for (const b of blocks) {
        this.q.blockAdd.run(ws, b.series, b.lo, b.hi, b.lo);
        this.q.lsAdd.run(ws, b.series, null);
        this.wanted.delete(`${ws}\n${b.series}`);
      }
      this.q.dropSpent.run(ws);
    });
  }

  wantSeries(ws: string, series: string, start: number | null): Promise<void> {
    return this.atomically(() => {
      this.q.lsAdd.run(ws, series, start);
    });
  }

  leaseLevels(ws: string): Promise<LeaseLevel[]> {
    return this.exclusive(async () => {
      const levels = new Map<string, LeaseLevel>();
      const floors = new Map(this.q.seriesRows.all(ws).map((r) => [r.name, r.next]));
      const level = (series: string, start: number | null) => {
        let l = levels.get(series);
        if (!l) levels.set(series, (l = { series, start, remaining: 0, floor: floors.get(series) ?? 0 }));
        if (l.start === null) l.start = start;
        return l;
      };
      for (const s of this.q.lsAll.all(ws)) level(s.name, s.start);
      for (const w of this.wanted.values()) if (w.ws === ws) level(w.series, w.start);
      for (const b of this.q.blocksOf.all(ws)) {
        const l = level(b.name, null);
        l.remaining += Math.max(0, b.hi - Math.max(b.next, l.floor + 1) + 1);
      }
      return [...levels.values()].sort((a, b) => a.series.localeCompare(b.series));
    });
  }

  // ---- central ----

  pushBatch(ws: string, bench: string, batch: string, changes: WireChange[], opts?: ApplyOptions): Promise<PushOutcome> {
    return this.atomically(() => {
      const seen = this.q.batchGet.get(ws, bench, batch);
      if (seen) return { ...(JSON.parse(seen.answer) as PushOutcome), duplicate: true };
      const row = this.q.benchGet.get(ws, bench);
      let acked = row?.acked ?? 0;
      let applied = 0;
      let max = '';
      const colls = new Set<string>();
      for (const c of [...changes].sort((a, b) => a.seq - b.seq)) {
        if (c.seq <= acked) continue;
        if (this.mergeChange(ws, c, bench)) applied += 1;
        acked = c.seq;
        colls.add(c.coll);
        if (c.hlc > max) max = c.hlc;
      }
      this.trimTouched(ws, colls);
      const outcome: PushOutcome = { acked, applied, duplicate: false };
      this.q.benchAck.run(acked, Date.now(), ws, bench);
      this.q.batchAdd.run(ws, bench, batch, JSON.stringify(outcome), Date.now());
      // Old answers are not needed: a batch replayed later is still harmless (its seqs are acked).
      this.q.batchPrune.run(ws, bench, Date.now() - BATCH_MEMORY_MS);
      this.finish(opts);
      this.observe(max);
      return outcome;
    });
  }

  leaseBlock(ws: string, req: LeaseRequest): Promise<LeaseBlock | null> {
    return this.atomically(() => {
      const cur = this.q.seriesGet.get(ws, req.series)?.next;
      if (cur === undefined && req.start === null) return null;
      const base = Math.max(cur ?? (req.start as number) - 1, req.atLeast);
      const hi = base + req.size;
      this.q.seriesSet.run(ws, req.series, hi);
      return { series: req.series, lo: base + 1, hi };
    });
  }

  reserveForBench(ws: string, levels: Record<string, number>, base: Record<string, number> | null): Promise<Record<string, number>> {
    return this.atomically(() => {
      const offsets: Record<string, number> = {};
      for (const [series, level] of Object.entries(levels)) {
        const cur = this.q.seriesGet.get(ws, series)?.next ?? 0;
        // Without the bench's seeded base nothing tells its own numbers from demo ones: only keep above them.
        const from = base === null ? null : (base[series] ?? 0);
        if (from !== null && level > from && cur > from) {
          const top = Math.max(level, cur);
          offsets[series] = top - from;
          this.q.seriesSet.run(ws, series, top + (level - from));
        } else {
          this.q.seriesSet.run(ws, series, level);
        }
      }
      return offsets;
    });
  }

  async createEnrolCode(ws: string, codeHash: string, expires: number): Promise<void> {
    await this.atomically(() => this.q.codeAdd.run(codeHash, ws, Date.now(), expires));
  }

  redeemEnrolCode(codeHash: string, bench: string, now: number): Promise<string | null> {
    return this.atomically(() => {
      const c = this.q.codeGet.get(codeHash);
      if (!c || c.used_by !== null || c.expires < now) return null;
      this.q.codeUse.run(bench, codeHash);
      return c.ws;
    });
  }

  async saveBench(ws: string, bench: string, tokenHash: string, name: string): Promise<void> {
    await this.atomically(() => this.q.benchSave.run(ws, bench, tokenHash, name, Date.now(), Date.now()));
  }

  benchByToken(tokenHash: string): Promise<BenchRow | null> {
    return this.exclusive(async () => {
      const r = this.q.benchByToken.get(tokenHash);
      return r ? toBench(r) : null;
    });
  }

  async touchBench(ws: string, bench: string): Promise<void> {
    await this.atomically(() => this.q.benchTouch.run(Date.now(), ws, bench));
  }

  listBenches(ws: string): Promise<BenchRow[]> {
    return this.exclusive(async () => this.q.benches.all(ws).map(toBench));
  }

  revokeBench(ws: string, bench: string): Promise<boolean> {
    return this.atomically(() => this.q.benchRevoke.run(ws, bench).changes > 0);
  }
}
