import { jstYear, jstYymm } from '../../shared/dates';
import type { LeaseLevel, LeaseRequest } from '../store/types';
import { TOP_UP_BELOW } from './protocol';

/**
 * Periodic series carry their period after the last colon: YYMM (`invoice:2611`), YYYY (`erz:2026`)
 * or YYYYMM (`ao:202611`). For such a prefix the bench keeps blocks of the current and the next
 * period, so a new month or year starts with numbers even while central is unreachable.
 */
export function periodSiblings(series: string, now: number): string[] {
  const m = /^(.*:)(\d{4}|\d{6})$/.exec(series);
  if (!m) return [];
  const [, prefix, period] = m;
  const year = jstYear(now);
  const yymm = jstYymm(now);
  const mm = Number(yymm.slice(2));
  const nextYear = mm === 12 ? year + 1 : year;
  const nextMm = mm === 12 ? 1 : mm + 1;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (period.length === 6) return [`${prefix}${year}${pad(mm)}`, `${prefix}${nextYear}${pad(nextMm)}`];
  const yy = Number(period.slice(0, 2));
  const month = Number(period.slice(2));
  // 2611 is Nov 2026 (YYMM); 2026 and 2012 are years.
  if (month >= 1 && month <= 12 && yy >= 24) return [`${prefix}${yymm}`, `${prefix}${pad(nextYear % 100)}${pad(nextMm)}`];
  return [`${prefix}${year}`, `${prefix}${year + 1}`];
}

/** Lease requests that bring every known series back to at least 30% of a block. */
export function leasePlan(levels: LeaseLevel[], size: number, now: number): LeaseRequest[] {
  const byName = new Map(levels.map((l) => [l.series, l]));
  for (const l of levels) {
    for (const sib of periodSiblings(l.series, now)) {
      if (!byName.has(sib)) byName.set(sib, { series: sib, start: l.start, remaining: 0, floor: 0 });
    }
  }
  const out: LeaseRequest[] = [];
  for (const l of byName.values()) {
    const current = periodSiblings(l.series, now);
    // A past period (last month's invoices) needs no top-up, only a block when it has none left.
    if (current.length > 0 && !current.includes(l.series) && l.remaining > 0) continue;
    if (l.remaining < size * TOP_UP_BELOW) out.push({ series: l.series, size, start: l.start, atLeast: l.floor });
  }
  return out;
}
