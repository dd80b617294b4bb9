import type { SeriesRegistry } from '../store/series';
import type { LeaseLevel, LeaseRequest } from '../store/types';
import { TOP_UP_BELOW } from './protocol';

/**
 * The lease requests that keep an enrolled bench able to number everything offline, ahead of need:
 * - every counter a bench must hold at `now` (each declared series; the current and the next period
 *   of a periodic one, so December already holds next year's certificates and a month's end next
 *   month's invoices) gets a regular block when fewer than 30% of one remain (its low-water mark),
 *   and its reserve refilled to the declared size;
 * - a past period (last month's invoices) or a series no module declares gets a block only when it
 *   has nothing left.
 */
export function leasePlan(levels: LeaseLevel[], series: SeriesRegistry, size: number, now: number): LeaseRequest[] {
  const byName = new Map(levels.map((l) => [l.series, l]));
  const out: LeaseRequest[] = [];
  const planned = new Set<string>();
  for (const c of series.countersAt(now)) {
    planned.add(c.counter);
    const l = byName.get(c.counter);
    const remaining = l?.remaining ?? 0;
    const reserve = l?.reserve ?? 0;
    const atLeast = l?.floor ?? 0;
    if (remaining < size * TOP_UP_BELOW) out.push({ series: c.counter, size, start: c.start, atLeast });
    if (reserve < c.reserve) out.push({ series: c.counter, size: c.reserve - reserve, start: c.start, atLeast, overflow: true });
  }
  for (const l of levels) {
    if (planned.has(l.series)) continue;
    const declared = series.find(l.series);
    const start = l.start ?? declared?.series.start ?? null;
    if (declared ? l.remaining + l.reserve === 0 : l.remaining < size * TOP_UP_BELOW) out.push({ series: l.series, size, start, atLeast: l.floor });
  }
  return out;
}
