/**
 * The discrepancy report of an inbound list (入荷差異報告書): totals, the missing and the unexpected IMEIs,
 * who closed the list and when. As CSV (UTF-8 with BOM for Excel; a cell a spreadsheet would run as a
 * formula is prefixed with ') and as an A4 PDF with the bundled Japanese font (the quote and invoice layout).
 */
import { jstStamp } from '../../../../shared/dates';
import type { Inbound, InboundLine } from '../../../../shared/api/contracts/inbound';
import { renderJpDocument } from '../documents/jp-pdf';
import { reportOf } from './inbound.service';

const BOM = '\uFEFF';

/** One CSV cell: quoted when needed; text starting like a formula (= + - @ tab CR) gets a leading '. */
export function csvCell(v: string | number): string {
  if (typeof v === 'number') return String(v);
  const s = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const row = (...cells: (string | number)[]) => cells.map(csvCell).join(',');
const when = (ms: number | null) => (ms ? jstStamp(ms) : '');

export function reportCsv(list: Inbound, lines: InboundLine[]): string {
  const r = reportOf(lines);
  const out = [
    row('入荷差異報告書'),
    row('入荷予定番号', list.no),
    row('名称', list.name),
    row('顧客', list.cust),
    row('状態', list.status === 'closed' ? '締め済み' : '受付中'),
    row('締め日時', when(list.closedAt ?? null)),
    row('締めた人', list.closedBy ?? ''),
    row('予定台数', list.counts.expected),
    row('入荷台数', list.counts.received),
    row('未着台数', r.missing.length),
    row('予定外台数', r.unexpected.length),
    '',
    row('区分', 'IMEI', 'シリアル', '機種', '備考', '行', 'スキャン日時', '台帳登録'),
  ];
  for (const l of r.missing) out.push(row('未着', l.imei, l.serial, l.model, l.note, l.row ?? '', '', ''));
  for (const l of r.unexpected) out.push(row('予定外', l.imei, l.serial, l.model, l.note, '', when(l.scannedAt), l.device ? '登録済み' : '未登録'));
  return BOM + out.join('\r\n') + '\r\n';
}

/**
 * IMEIs the PDF lists per table. Each drawn cell is shaped by fontkit on the main thread (about half a
 * millisecond a row), so a report of 10,000 missing devices would hold the server for seconds: beyond this
 * the PDF says how many more there are and the CSV (which always lists every one) carries them.
 */
export const PDF_MAX_LINES = 500;

const capped = (rows: string[][], total: number, width: number): string[][] =>
  total > rows.length ? [...rows, [`ほか ${total - rows.length}台はCSV参照`, ...Array<string>(width - 1).fill('')]] : rows;

/** The report as an A4 PDF. */
export function reportPdf(list: Inbound, lines: InboundLine[], company: { name?: string; addr?: string; tel?: string }, now: number): Promise<Uint8Array> {
  const r = reportOf(lines);
  const at = list.closedAt ?? now;
  return renderJpDocument(
    {
      title: '入荷差異報告書',
      subtitle: list.status === 'closed' ? undefined : '（締め前・途中経過）',
      no: list.no,
      date: jstStamp(at).slice(0, 10),
      addressee: list.cust,
      intro: '入荷予定と実際の入荷の差異を下記のとおりご報告いたします。',
      meta: [
        ['入荷予定', list.name],
        ['取込ファイル', list.filename || '—'],
        ['作成日時', when(list.createdAt)],
        ['締め日時', list.closedAt ? when(list.closedAt) : '未締め'],
        ['締めた人', list.closedBy || '—'],
      ],
      tables: [
        {
          title: `未着（予定にあり入荷なし） ${r.missing.length}台`,
          head: ['IMEI', 'シリアル', '機種', '行'],
          widths: [140, 130, 175, 50],
          numeric: [false, false, false, true],
          rows: capped(r.missing.slice(0, PDF_MAX_LINES).map((l) => [l.imei, l.serial, l.model, l.row ? String(l.row) : '']), r.missing.length, 4),
        },
        {
          title: `予定外（予定になし） ${r.unexpected.length}台`,
          head: ['IMEI', 'スキャン日時', '台帳登録'],
          widths: [160, 175, 160],
          numeric: [false, false, false],
          rows: capped(r.unexpected.slice(0, PDF_MAX_LINES).map((l) => [l.imei, when(l.scannedAt), l.device ? '登録済み' : '未登録']), r.unexpected.length, 3),
        },
      ],
      summary: [
        ['予定台数', `${list.counts.expected}台`],
        ['入荷台数', `${r.received}台`],
        ['未着台数', `${r.missing.length}台`],
        ['予定外台数', `${r.unexpected.length}台`],
      ],
      issuer: [company.name || '—', company.addr ?? '', company.tel ? `TEL ${company.tel}` : ''],
    },
    new Date(at),
  );
}
