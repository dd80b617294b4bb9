/**
 * Demo data that lives: seed files are written for one day (their `asOf`), and every date in them moves
 * by the same whole number of days so that day becomes today (Japan time). Relations between dates
 * (overdue, due in 3 days, shipped yesterday) stay as written on every day the demo is started.
 *
 * Moved: string values that are a date (2026-11-26, 2026/11/26, 2026-11-26 09:12, 11/26), month/day
 * dates inside text (「11/24 出荷予定の…」) and epoch-millisecond numbers of the years 2020–2030.
 */

const DAY = 86_400_000;
const JST = 9 * 3_600_000;
const EPOCH_MIN = Date.UTC(2020, 0, 1);
const EPOCH_MAX = Date.UTC(2031, 0, 1);

/** Whole days from the `asOf` day (YYYY-MM-DD) to the Japan-time day of `now`. */
export function daysSince(asOf: string, now: number): number {
  const from = Date.parse(`${asOf}T00:00:00Z`);
  const today = Math.floor((now + JST) / DAY) * DAY;
  return Math.round((today - from) / DAY);
}

const pad = (n: number) => String(n).padStart(2, '0');
/** The calendar day `days` after y-m-d (UTC arithmetic on calendar dates: no zone involved). */
function move(y: number, m: number, d: number, days: number): Date | null {
  const t = Date.UTC(y, m - 1, d);
  const back = new Date(t);
  if (back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return null; // not a date (13/45)
  return new Date(t + days * DAY);
}

/** The year a month/day written for `asOf` falls in: the one nearest to the asOf day. */
function yearOf(asOf: string, m: number, d: number): number {
  const [y] = asOf.split('-').map(Number) as [number];
  const base = Date.parse(`${asOf}T00:00:00Z`);
  let best = y;
  for (const cand of [y - 1, y, y + 1]) if (Math.abs(Date.UTC(cand, m - 1, d) - base) < Math.abs(Date.UTC(best, m - 1, d) - base)) best = cand;
  return best;
}

const FULL = /^(\d{4})([-/])(\d{2})\2(\d{2})((?: \d{2}:\d{2})?)$/;
const MONTH_DAY = /(^|[^\d/])(\d{1,2})\/(\d{1,2})(?![\d/])/g;

export function shiftText(value: string, days: number, asOf: string): string {
  if (days === 0) return value;
  const full = FULL.exec(value);
  if (full) {
    const at = move(Number(full[1]), Number(full[3]), Number(full[4]), days);
    if (!at) return value;
    const sep = full[2]!;
    return `${at.getUTCFullYear()}${sep}${pad(at.getUTCMonth() + 1)}${sep}${pad(at.getUTCDate())}${full[5]}`;
  }
  return value.replace(MONTH_DAY, (whole, lead: string, ms: string, ds: string) => {
    const m = Number(ms);
    const d = Number(ds);
    if (m < 1 || m > 12) return whole;
    const at = move(yearOf(asOf, m, d), m, d, days);
    if (!at) return whole;
    const width = ms.length === 2 || ds.length === 2 ? 2 : 1;
    const fmt = (n: number) => (width === 2 ? pad(n) : String(n));
    return `${lead}${fmt(at.getUTCMonth() + 1)}/${fmt(at.getUTCDate())}`;
  });
}

/** A copy of a seed record with every date moved by `days`. */
export function shiftDates<T>(value: T, days: number, asOf: string): T {
  if (days === 0) return value;
  if (typeof value === 'string') return shiftText(value, days, asOf) as T;
  if (typeof value === 'number') return (Number.isInteger(value) && value >= EPOCH_MIN && value < EPOCH_MAX ? value + days * DAY : value) as T;
  if (Array.isArray(value)) return value.map((v) => shiftDates(v, days, asOf)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = shiftDates(v, days, asOf);
    return out as T;
  }
  return value;
}
