import { Reply } from '../core/http/route-core';

/** Exports stop at this many rows. */
export const CSV_MAX_ROWS = 5000;

/** A cell a spreadsheet will not run as a formula: leading = + - @ tab or CR gets a quote prefix. */
function csvCell(v: unknown): string {
  let s = v === null || v === undefined ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** UTF-8 CSV (with BOM so spreadsheet apps read Japanese correctly), CRLF line ends, capped at 5,000 rows. */
export function csvReply(filename: string, header: string[], rows: unknown[][]): Reply {
  const lines = [header.map(csvCell).join(','), ...rows.slice(0, CSV_MAX_ROWS).map((r) => r.map(csvCell).join(','))];
  return new Reply(200, `\uFEFF${lines.join('\r\n')}\r\n`, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${filename}"`,
  });
}
