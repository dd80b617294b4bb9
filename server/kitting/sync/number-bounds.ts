import type { SeriesRegistry } from '../store/series';
import type { LeaseRequest } from '../store/types';
import { SyncError } from './protocol';

/** Largest regular block one lease request may ask for (the contract's bound of a bench's block size). */
const MAX_LEASE_SIZE = 10_000;

/**
 * Central trusts no bench's word on numbers (docs/DESIGN.md §4). A number a bench names (a lease's
 * `atLeast`, its series levels at enrolment) is accepted only up to what central issued or leased for
 * that series plus one reserve block of it, only for a declared series, and only where every number
 * that follows stays inside the series' format (and far below Number.MAX_SAFE_INTEGER). A block is
 * at most MAX_LEASE_SIZE numbers, a reserve block at most the series' declared reserve.
 */
export class NumberBounds {
  constructor(
    private readonly series: SeriesRegistry,
    private readonly now: () => number,
  ) {}

  /** 422 series_out_of_range (the detail names the series and the bound, for the server's log). */
  private refuse(error: string, detail: string): never {
    const err = new SyncError(422, error, this.now());
    err.message = `${err.message}: ${detail}`;
    throw err;
  }

  /** The highest level a bench may name for `counter`, given central's `level` (undefined: never issued). */
  ceiling(counter: string, level: number | undefined): number | null {
    const found = this.series.find(counter);
    if (!found) return null;
    return (level ?? found.series.start - 1) + found.series.reserve;
  }

  /**
   * The lease requests central answers (undeclared series dropped: central leases none of them), in
   * order; 422 series_out_of_range for any beyond the bounds, before anything is leased.
   */
  leases(levels: Record<string, number>, requests: LeaseRequest[]): LeaseRequest[] {
    const cur: Record<string, number | undefined> = { ...levels };
    const out: LeaseRequest[] = [];
    for (const req of requests) {
      const found = this.series.find(req.series);
      if (!found) continue;
      const { series: s, period } = found;
      const level = cur[req.series];
      const ceiling = (level ?? s.start - 1) + s.reserve;
      if (req.atLeast > ceiling) this.refuse('series_out_of_range', `${req.series} atLeast ${req.atLeast} > ${ceiling}`);
      const most = req.overflow ? s.reserve : MAX_LEASE_SIZE;
      if (req.size > most) this.refuse('series_out_of_range', `${req.series} size ${req.size} > ${most}`);
      const hi = Math.max(level ?? s.start - 1, req.atLeast) + req.size;
      if (!s.fits(hi, period)) this.refuse('series_out_of_range', `${req.series} ${hi} is beyond the series' format`);
      cur[req.series] = hi;
      // A declared series starts where its declaration says, never where a bench says.
      out.push({ ...req, start: req.start === null ? null : s.start });
    }
    return out;
  }

  /** A bench's series levels (and seeded base) at enrolment: declared series only, each within bounds. */
  enrolLevels(levels: Record<string, number>, series: Record<string, number>, base: Record<string, number> | null): { series: Record<string, number>; base: Record<string, number> | null } {
    const kept: Record<string, number> = {};
    const keptBase: Record<string, number> | null = base === null ? null : {};
    for (const [counter, level] of Object.entries(series)) {
      const found = this.series.find(counter);
      if (!found) continue;
      const ceiling = (levels[counter] ?? found.series.start - 1) + found.series.reserve;
      if (level > ceiling) this.refuse('series_out_of_range', `${counter} level ${level} > ${ceiling}`);
      const from = Math.min(base?.[counter] ?? 0, level);
      // Where central issued the same numbers, the bench's move above both: that top must fit too.
      const top = Math.max(level, levels[counter] ?? 0) + (level - from);
      if (level > 0 && !found.series.fits(top, found.period)) this.refuse('series_out_of_range', `${counter} ${top} is beyond the series' format`);
      kept[counter] = level;
      if (keptBase && base && base[counter] !== undefined) keptBase[counter] = from;
    }
    return { series: kept, base: keptBase };
  }
}
