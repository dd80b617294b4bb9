/**
 * A job card's 期限 as a date. Cards made before the board used a date picker carry text such as
 * `12/10`, `12月10日` or `2026/12/10`; they are read as dates, never dropped:
 * - a full date (2026-12-10, 2026/12/10, 2026年12月10日) is that date;
 * - a month and day (12/10, 12月10日, 12-10) is the next such date from today, except that a date up to
 *   RECENT_PAST_DAYS days ago is read as this year's (an open card whose day has just passed is late, not
 *   due in a year); such a date is marked `guessed` so the screen asks the user to confirm it;
 * - anything else (来週, 2/30, empty) has no date and is listed for the user to fix.
 */

const RECENT_PAST_DAYS = 90;

export type DueReading =
  | { date: string; guessed: boolean }
  | { date: null; reason: 'empty' | 'unreadable' };

const pad = (n: number) => String(n).padStart(2, '0');

function realDate(y: number, m: number, d: number): string | null {
  if (!(m >= 1 && m <= 12 && d >= 1 && d <= 31)) return null;
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d ? `${y}-${pad(m)}-${pad(d)}` : null;
}

const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/** Read a 期限 relative to today (YYYY-MM-DD, Japan time). */
export function readDue(raw: unknown, today: string): DueReading {
  const text = typeof raw === 'string' ? raw.normalize('NFKC').trim() : '';
  if (!text) return { date: null, reason: 'empty' };
  const full = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?$/.exec(text);
  if (full) {
    const date = realDate(Number(full[1]), Number(full[2]), Number(full[3]));
    return date ? { date, guessed: false } : { date: null, reason: 'unreadable' };
  }
  const md = /^(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?(\s*[(（][^)）]*[)）])?$/.exec(text);
  if (md) {
    const m = Number(md[1]);
    const d = Number(md[2]);
    const year = Number(today.slice(0, 4));
    const thisYear = realDate(year, m, d);
    const nextYear = realDate(year + 1, m, d);
    if (!thisYear && !nextYear) return { date: null, reason: 'unreadable' };
    if (thisYear && thisYear >= today) return { date: thisYear, guessed: false };
    if (thisYear && daysBetween(thisYear, today) <= RECENT_PAST_DAYS) return { date: thisYear, guessed: true };
    return nextYear ? { date: nextYear, guessed: false } : { date: null, reason: 'unreadable' };
  }
  return { date: null, reason: 'unreadable' };
}
