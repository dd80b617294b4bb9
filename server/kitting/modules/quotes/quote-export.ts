import { jstDate } from '../../../../shared/dates';
import type { Quote } from './quote-model';
import type { QuoteLine, QuoteTotals } from './quote-pricing';

export interface QuoteDocument {
  meta: { quoteNo: string | null; cust: string; custId: string | null; issueDate: string; pattern: string; issued: boolean };
  sections: { key: 'ini' | 'run'; title: string; rows: { n: string; q: number; p: number; amt: number }[]; lines: { label: string; amount: number }[] }[];
  summary: { label: string; amount: number }[];
  totals: QuoteTotals;
}

const volumeLabel = (t: QuoteTotals) => (t.volumeApplied ? `適用 ${t.volumeRate}%（${t.deviceQty}台）` : 'なし');

function sectionLines(t: QuoteTotals, key: 'ini' | 'run') {
  const gross = key === 'ini' ? t.iniGross : t.runGross;
  const discount = key === 'ini' ? t.iniDiscount : t.runDiscount;
  const lines = [{ label: '小計', amount: gross }];
  if (t.volumeApplied) lines.push({ label: `ボリューム値引き（${t.volumeRate}%）`, amount: -discount });
  lines.push(
    { label: '税抜合計', amount: key === 'ini' ? t.ini : t.run },
    { label: '消費税（10%）', amount: key === 'ini' ? t.iniTax : t.runTax },
    { label: '税込合計', amount: key === 'ini' ? t.iniTotal : t.runTotal },
  );
  return lines;
}

const rows = (lines: QuoteLine[]) => lines.map((l) => ({ n: l.n, q: l.q, p: l.p, amt: l.q * l.p }));

/** The quote as a printable document (what the customer receives). */
export function quoteDocument(q: Quote, t: QuoteTotals, now = Date.now()): QuoteDocument {
  const summary = [
    { label: '初期費用（税抜）', amount: t.ini },
    { label: '月額費用（税抜）', amount: t.run },
    { label: '年額ランニング（月額×12）', amount: t.arr },
    { label: '初年度合計（税抜）', amount: t.y1 },
  ];
  if (t.perDevice !== null) summary.push({ label: '1台あたり初年度（税抜）', amount: t.perDevice });
  return {
    meta: {
      quoteNo: q.id,
      cust: q.cust,
      custId: q.custId,
      issueDate: jstDate(typeof q.issuedAt === 'number' ? q.issuedAt : now),
      pattern: q.pattern,
      issued: typeof q.issuedAt === 'number',
    },
    sections: [
      { key: 'ini', title: '初期費用', rows: rows(q.ini), lines: sectionLines(t, 'ini') },
      { key: 'run', title: '月額費用', rows: rows(q.run), lines: sectionLines(t, 'run') },
    ],
    summary,
    totals: t,
  };
}

/** One CSV cell: quoted when needed; text that a spreadsheet would run as a formula is prefixed with '. */
function cell(v: string | number): string {
  if (typeof v === 'number') return String(v);
  const s = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const row = (...cells: (string | number)[]) => cells.map(cell).join(',');

/** CSV text (without BOM) of a quote document. */
export function quoteCsv(doc: QuoteDocument): string {
  const t = doc.totals;
  const out = [
    row('見積番号', doc.meta.quoteNo ?? '（未保存）'),
    row('顧客名', doc.meta.cust),
    row('発行日', doc.meta.issueDate),
    row('パターン', doc.meta.pattern),
    row('数量(台)', t.deviceQty),
    row('ボリューム値引き', volumeLabel(t)),
    '',
    row('区分', '項目', '数量', '単価', '金額'),
  ];
  for (const s of doc.sections) for (const r of s.rows) out.push(row(s.title, r.n, r.q, r.p, r.amt));
  out.push('', row('区分', 'サマリー', '金額'));
  for (const s of doc.sections) for (const l of s.lines) out.push(row(s.title, l.label, l.amount));
  for (const l of doc.summary) out.push(row('合計', l.label, l.amount));
  return out.join('\r\n') + '\r\n';
}

export const BOM = '\uFEFF';
