import { dayOfWeek, holidayName, shift } from '../../../../shared/jp-holidays';

/** The company's working calendar (company settings workdays, holidays, closedDates). */
export interface WorkCalendar {
  /** Working weekdays, 0 = Sunday … 6 = Saturday. */
  workdays: number[];
  /** Japanese public holidays are closed. */
  holidays: boolean;
  /** Extra closed dates YYYY-MM-DD. */
  closedDates: string[];
}

export const DOW = ['日', '月', '火', '水', '木', '金', '土'];

/** Why the floor is closed on a date (休業日, 祝日（文化の日）, 土曜休業), or null on a working day. */
export function closedReason(date: string, cal: WorkCalendar): string | null {
  if (cal.closedDates.includes(date)) return '休業日';
  const holiday = cal.holidays ? holidayName(date) : null;
  if (holiday) return `祝日（${holiday}）`;
  const d = dayOfWeek(date);
  return cal.workdays.includes(d) ? null : `${DOW[d]}曜休業`;
}

/** How far the search for an open day looks (a calendar without any working day finds none). */
const SEARCH_DAYS = 60;

/** The first working day on or after a date (the date itself when none is found). */
function openOnOrAfter(date: string, cal: WorkCalendar): string {
  for (let i = 0, d = date; i < SEARCH_DAYS; i++, d = shift(d, 1)) if (!closedReason(d, cal)) return d;
  return date;
}

/** The last working day on or before a date (the date itself when none is found). */
function openOnOrBefore(date: string, cal: WorkCalendar): string {
  for (let i = 0, d = date; i < SEARCH_DAYS; i++, d = shift(d, -1)) if (!closedReason(d, cal)) return d;
  return date;
}

/**
 * The day a card's units load the floor: work due on a closed day is done on the working day before;
 * a card already late (or due before the next working day) loads the first working day from today.
 */
export function workDay(due: string, today: string, cal: WorkCalendar): { day: string; overdue: boolean } {
  const first = openOnOrAfter(today, cal);
  if (due < today) return { day: first, overdue: true };
  const day = openOnOrBefore(due, cal);
  return { day: day < first ? first : day, overdue: false };
}
