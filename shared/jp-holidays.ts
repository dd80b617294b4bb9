/**
 * Japanese public holidays (国民の祝日) as the current law sets them (dates in force since 2020), computed
 * for any year 2000–2099: fixed-date holidays, the Happy Monday holidays, the equinox days from the
 * usual astronomical approximation, 振替休日 (a holiday on a Sunday moves to the next day that is not a
 * holiday) and 国民の休日 (a day between two holidays). Checked against the Cabinet Office's published
 * lists for 2026 and 2027 in jp-holidays.test.ts.
 */

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;
const dow = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).getUTCDay();

/** The n-th Monday of a month. */
function nthMonday(y: number, m: number, n: number): number {
  const first = dow(y, m, 1);
  return 1 + ((8 - first) % 7) + (n - 1) * 7;
}

const vernal = (y: number) => Math.floor(20.8431 + 0.242194 * (y - 1980) - Math.floor((y - 1980) / 4));
const autumnal = (y: number) => Math.floor(23.2488 + 0.242194 * (y - 1980) - Math.floor((y - 1980) / 4));

const cache = new Map<number, Map<string, string>>();

/** Date (YYYY-MM-DD) → holiday name, for one year. */
export function japaneseHolidays(year: number): Map<string, string> {
  const hit = cache.get(year);
  if (hit) return hit;
  const out = new Map<string, string>();
  if (!Number.isInteger(year) || year < 2000 || year > 2099) return out;
  const add = (m: number, d: number, name: string) => out.set(iso(year, m, d), name);
  add(1, 1, '元日');
  add(1, nthMonday(year, 1, 2), '成人の日');
  add(2, 11, '建国記念の日');
  add(2, 23, '天皇誕生日');
  add(3, vernal(year), '春分の日');
  add(4, 29, '昭和の日');
  add(5, 3, '憲法記念日');
  add(5, 4, 'みどりの日');
  add(5, 5, 'こどもの日');
  add(7, nthMonday(year, 7, 3), '海の日');
  add(8, 11, '山の日');
  add(9, nthMonday(year, 9, 3), '敬老の日');
  add(9, autumnal(year), '秋分の日');
  add(10, nthMonday(year, 10, 2), 'スポーツの日');
  add(11, 3, '文化の日');
  add(11, 23, '勤労感謝の日');
  const base = [...out.keys()].sort();
  // 国民の休日: a weekday squeezed between two holidays.
  for (const day of base) {
    const next2 = shift(day, 2);
    const between = shift(day, 1);
    if (out.has(next2) && !out.has(between) && dayOfWeek(between) !== 0) out.set(between, '国民の休日');
  }
  // 振替休日: a holiday on a Sunday gives the next day that is not a holiday.
  for (const day of base) {
    if (dayOfWeek(day) !== 0) continue;
    let d = shift(day, 1);
    while (out.has(d)) d = shift(d, 1);
    out.set(d, '振替休日');
  }
  const sorted = new Map([...out.entries()].sort(([a], [b]) => a.localeCompare(b)));
  cache.set(year, sorted);
  return sorted;
}

/** The holiday's name on a date, or null. */
export function holidayName(date: string): string | null {
  return japaneseHolidays(Number(date.slice(0, 4))).get(date) ?? null;
}

/** 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** The date n days later (or earlier). */
export function shift(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
