/** Calendar values in Japan time (Asia/Tokyo, UTC+9, no DST), as a kitting center in Japan reads them. */
const JST_OFFSET_MS = 9 * 3_600_000;

function jst(ms: number): Date {
  return new Date(ms + JST_OFFSET_MS);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** YYYY-MM-DD */
export function jstDate(ms: number = Date.now()): string {
  const d = jst(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** YYMM (invoice and report months) */
export function jstYymm(ms: number = Date.now()): string {
  const d = jst(ms);
  return `${pad(d.getUTCFullYear() % 100)}${pad(d.getUTCMonth() + 1)}`;
}

/** YYYY-MM */
export function jstMonth(ms: number = Date.now()): string {
  return jstDate(ms).slice(0, 7);
}

export function jstYear(ms: number = Date.now()): number {
  return jst(ms).getUTCFullYear();
}

/** HH:MM */
export function jstTime(ms: number = Date.now()): string {
  const d = jst(ms);
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** 'YYYY-MM-DD HH:mm' (audit rows) */
export function jstStamp(ms: number = Date.now()): string {
  return `${jstDate(ms)} ${jstTime(ms)}`;
}

/** A YYYY-MM-DD date as written on Japanese documents: 2026年11月4日. */
export const dateJa = (d: string): string => `${d.slice(0, 4)}年${Number(d.slice(5, 7))}月${Number(d.slice(8, 10))}日`;
