import { dateJa, jstDate } from '../../../../shared/dates';
import { lineAmount } from '../../../../shared/invoice-tax';
import { renderJpDocument, yenText } from '../documents/jp-pdf';
import type { Company } from '../settings/settings.service';
import { figuresOf, type Invoice } from './invoices.service';


/** 2611 → 2026年11月分 */
const monthLabel = (yymm: string) => (/^\d{4}$/.test(yymm) ? `20${yymm.slice(0, 2)}年${Number(yymm.slice(2))}月分` : yymm);

/** A date in any of the forms people type (2026-12-31, 2026/12/31, 2026.12.31) as 2026年12月31日; other text as written. */
function dateText(v: string): string {
  const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(v.trim());
  return m ? dateJa(`${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}`) : v;
}

/** The date the invoice states: the day it was issued, else its own date (a draft), else when it was made. */
function invoiceDate(inv: Invoice): string {
  if (typeof inv.issuedAt === 'number') return jstDate(inv.issuedAt);
  if (typeof inv.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(inv.date)) return inv.date;
  const at = [inv.created, inv.updated].find((x): x is number => typeof x === 'number');
  return jstDate(at ?? Date.now());
}

/**
 * The invoice as an A4 PDF laid out as a qualified invoice (適格請求書): issuer with its registration
 * number, recipient, date, lines with their tax rate, per rate the taxable total and the consumption tax,
 * the total, the due date and the bank account. Only words meant for the customer; dates as 2026年11月26日.
 */
export function renderInvoicePdf(inv: Invoice, company: Company): Promise<Uint8Array> {
  const f = figuresOf(inv);
  const date = invoiceDate(inv);
  const incl = f.taxBasis === '税込';
  const reduced = f.lines.some((l) => l.taxRate === 8);
  const rateLines: [string, string][] = f.taxes.flatMap((t) =>
    incl
      ? ([
          [`${t.rate}%対象（税込）`, yenText(t.total)],
          [`うち消費税（${t.rate}%）`, yenText(t.tax)],
        ] as [string, string][])
      : ([
          [`${t.rate}%対象（税抜）`, yenText(t.taxable)],
          [`消費税（${t.rate}%）`, yenText(t.tax)],
        ] as [string, string][]),
  );
  const notes = [`単価・金額は${incl ? '税込' : '税抜'}表示です。`, reduced ? '※印は軽減税率（8%）対象です。' : ''].filter(Boolean).join(' ');
  return renderJpDocument(
    {
      title: '請求書',
      subtitle: inv.status === 'draft' ? '（下書き・未発行）' : undefined,
      no: inv.id,
      date: dateJa(date),
      addressee: inv.cust,
      intro: '下記のとおりご請求申し上げます。',
      meta: [
        ['ご請求金額', `${yenText(f.amount)}（税込）`],
        ['対象期間', monthLabel(inv.month)],
        ['お支払期限', inv.due ? dateText(inv.due) : '—'],
        ['ご請求区分', inv.recurring ? '月額' : '単発'],
        ...(inv.quoteId ? ([['御見積番号', inv.quoteId]] as [string, string][]) : []),
        ...(company.bank ? ([['お振込先', company.bank]] as [string, string][]) : []),
      ],
      tables: [
        {
          title: 'ご請求明細',
          head: ['内容', '数量', '単価', '税率', '金額'],
          widths: [215, 55, 90, 45, 90],
          numeric: [false, true, true, true, true],
          rows: f.lines.map((l) => [
            `${l.description || '—'}${l.taxRate === 8 ? ' ※' : ''}`,
            l.quantity.toLocaleString('ja-JP'),
            yenText(l.unitPrice),
            `${l.taxRate}%`,
            yenText(lineAmount(l)),
          ]),
          lines: rateLines,
        },
      ],
      summary: [
        ['合計（税込）', yenText(f.amount)],
        ['うち消費税', yenText(f.tax)],
      ],
      issuer: [company.name || '—', company.addr ?? '', company.tel ? `TEL ${company.tel}` : '', company.regno ? `登録番号 ${company.regno}` : ''],
      footer: notes,
    },
    new Date(`${date}T00:00:00+09:00`),
  );
}
