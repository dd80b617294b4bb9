import type Database from 'better-sqlite3';
import { seriesExhausted } from './series';
import type { HlcClock } from '../../../shared/hlc';
import { DomainError, unavailable } from '../../core/errors';
import { ReplicaCore, type Runner } from './replica-core';
import { toBench } from './replica-statements';
import { compactLog, hlcBefore, horizonOf, type CompactionPolicy, type CompactionReport, type LogSize } from './compaction';
import type { ApplyOptions, BenchRow, Doc, LeaseBlock, LeaseLevel, LeaseRequest, PushOutcome, ReplicaStore, WireChange } from './types';

const LEASED_WS_KEY = 'sync_leased_ws';

/** How long central remembers the answer of a push batch. */
const BATCH_MEMORY_MS = 7 * 24 * 3_600_000;

/** 503 for a number that cannot be issued offline (block and reserve spent): never a guessed or duplicate number. */
function seriesUnavailable(series: string): DomainError {
  return unavailable('series_exhausted', {
    series,
    message: `番号「${series}」の払い出し枠がありません。中央サーバーに接続してから再度お試しください`,
  });
}

/** The SQLite implementation of the replication primitives: the core plus number leases and central's side. */
export class SqliteReplica extends ReplicaCore implements ReplicaStore {
  onWanted: ((series: string) => void) | null = null;
  /** Numbers issued from a reserve (overflow range) since start: regular blocks ran dry before a top-up. */
  overflowIssued = 0;
  private leasedWs: string | null;
  /** Series a request needed while no block was leased (kept in memory: that request rolled back). */
  private readonly wanted = new Map<string, { ws: string; series: string; start: number | null }>();

  constructor(db: Database.Database, clock: HlcClock, exclusive: Runner) {
    super(db, clock, exclusive);
    this.leasedWs = this.q.getMeta.get(LEASED_WS_KEY)?.value ?? null;
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

  /**
   * Next number of a series from the leased blocks (inside the caller's transaction): the regular
   * blocks first, then the reserve; 503 only when both are spent.
   */
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
      if (b.overflow === 1) {
        this.overflowIssued += 1;
        // The reserve came into use: the sync loop refills it as soon as central answers.
        if (n === b.lo) this.onWanted?.(series);
      }
      return n;
    }
  }

  addBlocks(ws: string, blocks: LeaseBlock[], opts?: { meta?: Record<string, string> }): Promise<void> {
    return this.atomically(() => {
      for (const b of blocks) {
        this.q.blockAdd.run(ws, b.series, b.lo, b.hi, b.lo, b.overflow ? 1 : 0);
        this.q.lsAdd.run(ws, b.series, null);
        this.wanted.delete(`${ws}\n${b.series}`);
      }
      this.q.dropSpent.run(ws);
      for (const [k, v] of Object.entries(opts?.meta ?? {})) this.q.setMeta.run(k, v);
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
        if (!l) levels.set(series, (l = { series, start, remaining: 0, reserve: 0, floor: floors.get(series) ?? 0 }));
        if (l.start === null) l.start = start;
        return l;
      };
      for (const s of this.q.lsAll.all(ws)) level(s.name, s.start);
      for (const w of this.wanted.values()) if (w.ws === ws) level(w.series, w.start);
      for (const b of this.q.blocksOf.all(ws)) {
        const l = level(b.name, null);
        const left = Math.max(0, b.hi - Math.max(b.next, l.floor + 1) + 1);
        if (b.overflow === 1) l.reserve += left;
        else l.remaining += left;
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
      if (!Number.isSafeInteger(hi) || hi >= Number.MAX_SAFE_INTEGER) throw seriesExhausted(req.series);
      this.q.seriesSet.run(ws, req.series, hi);
      return { series: req.series, lo: base + 1, hi, ...(req.overflow ? { overflow: true } : {}) };
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

  enrolCodeWorkspace(codeHash: string, now: number): Promise<string | null> {
    return this.exclusive(async () => {
      const c = this.q.codeGet.get(codeHash);
      return c && c.used_by === null && c.expires >= now ? c.ws : null;
    });
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

  async touchBench(ws: string, bench: string, pulled?: number): Promise<void> {
    await this.atomically(() => (pulled === undefined ? this.q.benchTouch.run(Date.now(), ws, bench) : this.q.benchPulled.run(Date.now(), pulled, ws, bench)));
  }

  listBenches(ws: string): Promise<BenchRow[]> {
    return this.exclusive(async () => this.q.benches.all(ws).map(toBench));
  }

  revokeBench(ws: string, bench: string): Promise<boolean> {
    return this.atomically(() => this.q.benchRevoke.run(ws, bench).changes > 0);
  }

  // ---- central: change-log compaction ----

  logWorkspaces(): Promise<string[]> {
    return this.exclusive(async () => this.q.logWorkspaces.all().map((r) => r.id));
  }

  compactedThrough(ws: string): Promise<number> {
    return this.exclusive(async () => this.q.compacted.get(ws)?.through ?? 0);
  }

  logSize(ws: string): Promise<LogSize> {
    return this.exclusive(async () => {
      const r = this.q.logSize.get(ws);
      return { changes: r?.n ?? 0, bytes: r?.b ?? 0 };
    });
  }

  async compactLog(ws: string, policy: CompactionPolicy): Promise<CompactionReport> {
    const before = await this.logSize(ws);
    const { from, through } = await this.exclusive(async () => ({
      from: this.q.compacted.get(ws)?.through ?? 0,
      through: horizonOf(
        this.q.lastSeq.get(ws)?.s ?? 0,
        this.q.firstRecent.get(ws, hlcBefore(policy.now - policy.retentionMs))?.seq ?? null,
        this.q.oldestCursor.get(ws, policy.now - policy.activeMs)?.c ?? null,
      ),
    }));
    if (through <= from) return { ws, through: from, before, after: before };
    await compactLog(
      {
        page: (after, upTo, limit) =>
          this.exclusive(async () =>
            this.q.logPage.all(ws, after, upTo, limit).map((r) => ({ seq: r.seq, coll: r.coll, id: r.id, fields: JSON.parse(r.fields) as Doc })),
          ),
        apply: (rewrite, drop) =>
          this.atomically(() => {
            for (const r of rewrite) this.q.logRewrite.run(JSON.stringify(r.fields), ws, r.seq);
            for (const seq of drop) this.q.logDrop.run(ws, seq);
          }),
      },
      from,
      through,
    );
    await this.atomically(() => this.q.setCompacted.run(ws, through, policy.now));
    return { ws, through, before, after: await this.logSize(ws) };
  }
}
