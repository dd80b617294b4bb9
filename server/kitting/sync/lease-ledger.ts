import { PLATFORM_WS } from '../security/platform';
import type { SeriesRegistry } from '../store/series';
import type { Doc, Store } from '../store/types';
import { SyncError, type PushBody } from './protocol';

/** Platform collection: the number ranges central leased to each bench (one record per workspace and bench). */
const BENCH_LEASES = 'benchLeases';

type Range = [number, number];
interface LeaseDoc extends Doc {
  id: string;
  ws: string;
  bench: string;
  /** counter -> ranges [lo, hi], sorted and merged where they touch. */
  ranges: Record<string, Range[]>;
}

const docId = (ws: string, bench: string) => `${ws}\u0001${bench}`;

function addRange(list: Range[], lo: number, hi: number): Range[] {
  const all = [...list, [lo, hi] as Range].sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  for (const r of all) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

/**
 * What central leased to each bench, so a pushed numbered record can be checked against it: a bench
 * creates records only with numbers of its own ranges (blocks, reserves, and its numbers from before
 * enrolment that central kept for it). Kept in the platform workspace, never synced to a bench.
 */
export class LeaseLedger {
  constructor(
    private readonly store: Store,
    private readonly series: SeriesRegistry,
  ) {}

  async record(ws: string, bench: string, ranges: { series: string; lo: number; hi: number }[]): Promise<void> {
    const real = ranges.filter((r) => r.hi >= r.lo);
    if (real.length === 0) return;
    await this.store.transact(PLATFORM_WS, async (tx) => {
      const id = docId(ws, bench);
      const cur = (await tx.get<LeaseDoc>(BENCH_LEASES, id)) ?? { id, ws, bench, ranges: {} };
      const next: Record<string, Range[]> = { ...cur.ranges };
      for (const r of real) next[r.series] = addRange(next[r.series] ?? [], r.lo, r.hi);
      await tx.put(BENCH_LEASES, id, { ...cur, ranges: next });
    });
  }

  private async ranges(ws: string, bench: string): Promise<Record<string, Range[]>> {
    return (await this.store.get<LeaseDoc>(PLATFORM_WS, BENCH_LEASES, docId(ws, bench)))?.ranges ?? {};
  }

  /**
   * 422 number_not_leased when the push creates a record keyed by a number of a declared series that
   * lies outside every range leased to this bench (nothing of the batch is stored). Changes to records
   * central already holds (live or deleted) are not creations and pass.
   */
  async checkPush(ws: string, bench: string, changes: PushBody['changes'], now: number): Promise<void> {
    const keyed = this.series.all().filter((s) => s.keyed);
    let ranges: Record<string, Range[]> | null = null;
    const seen = new Set<string>();
    for (const c of changes) {
      const s = keyed.find((x) => x.coll === c.coll);
      if (!s) continue;
      const m = s.pattern.exec(c.id);
      if (!m || seen.has(`${c.coll}\u0001${c.id}`)) continue;
      seen.add(`${c.coll}\u0001${c.id}`);
      const n = Number(m.groups?.n);
      const counter = s.counter(m.groups?.p ?? '');
      if (await this.exists(ws, c.coll, c.id)) continue;
      ranges ??= await this.ranges(ws, bench);
      const own = (ranges[counter] ?? []).some(([lo, hi]) => n >= lo && n <= hi);
      if (!own) {
        const err = new SyncError(422, 'number_not_leased', now);
        err.message = `${err.message}: ${c.coll} ${c.id} is outside the ranges leased to ${bench}`;
        throw err;
      }
    }
  }

  private async exists(ws: string, coll: string, id: string): Promise<boolean> {
    if (await this.store.get(ws, coll, id)) return true;
    // A deleted record still holds its key (its tombstone).
    return this.store.transact(ws, (tx) => tx.has(coll, id));
  }
}
