import { jstDate } from '../../../../shared/dates';
import { renderJpDocument, yenText } from '../documents/jp-pdf';
import type { Invoice } from './invoices.service';

export const INVOICE_STATUS_LABEL: Record<string, string> = { draft: '下書き', issued: '発行済', paid: '入金済', overdue: '期限超過' };

/** 2611 → 2026年11月分 */
export const monthLabel = (yymm: string) => (/^\d{4}$/.test(yymm) ? `20${yymm.slice(0, 2)}年${Number(yymm.slice(2))}月分` : yymm);

/** The invoice as an A4 PDF (請求書) with the Japanese font embedded. */
export function renderInvoicePdf(inv: Invoice, company: Record<string, string>): Promise<Uint8Array> {
  const issued = typeof inv.updated === 'number' ? inv.updated : typeof inv.created === 'number' ? inv.created : Date.now();
  return renderJpDocument(
    {
      title: '請求書',
      subtitle: inv.status === 'draft' ? '（下書き・未発行）' : undefined,
      no: inv.id,
      date: jstDate(issued),
      addressee: inv.cust,
      intro: '下記のとおりご請求申し上げます。',
      meta: [
        ['対象期間', monthLabel(inv.month)],
        ['お支払期限', inv.due || '—'],
        ['状態', INVOICE_STATUS_LABEL[inv.status] ?? inv.status],
        ['区分', inv.recurring ? '月額（継続）' : 'スポット'],
        ...(company.bank ? ([['お振込先', company.bank]] as [string, string][]) : []),
      ],
      tables: [{ title: 'ご請求明細', head: ['内容', '金額'], widths: [375, 120], numeric: [false, true], rows: [[inv.desc || '—', yenText(inv.amount)]] }],
      summary: [['ご請求金額', yenText(inv.amount)]],
      issuer: [company.name || '—', company.addr ?? '', company.tel ? `TEL ${company.tel}` : '', company.regno ? `登録番号 ${company.regno}` : ''],
    },
    new Date(issued),
  );
}
