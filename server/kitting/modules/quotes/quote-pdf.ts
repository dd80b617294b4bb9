import { QUOTE_PATTERN_LABELS } from '../../../../shared/api/contracts/quotes';
import { dateJa, jstDate } from '../../../../shared/dates';
import type { Doc } from '../../store/types';
import { renderJpDocument, yenText, type JpDocument } from '../documents/jp-pdf';
import type { Company } from '../settings/settings.service';
import type { QuoteDocument } from './quote-export';
import type { Quote } from './quote-model';

/** The customer-facing name of a quote pattern. */
const patternLabel = (p: string): string => (QUOTE_PATTERN_LABELS as Record<string, string>)[p] ?? p;

/** 有効期限: stamped at issue; for a draft, what it would be if issued today. */
function validUntil(q: Quote, issueDate: string, days: number): string {
  if (typeof q.validUntil === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(q.validUntil)) return q.validUntil;
  return jstDate(Date.parse(`${issueDate}T00:00:00+09:00`) + days * 86_400_000);
}

/**
 * The quote as an A4 PDF (御見積書) with the Japanese font embedded: 件名, 有効期限, the amount in large
 * type (御見積金額（税込）, the initial cost with tax; the monthly cost beside it), the pattern by its name.
 */
export function renderQuotePdf(d: QuoteDocument, q: Quote, company: Company, revision: { rev: number; of: string | null } | null): Promise<Uint8Array> {
  const t = d.totals;
  const subject = typeof q.subject === 'string' && q.subject.trim() ? q.subject.trim() : `法人向け端末キッティング・運用サービス（${t.deviceQty.toLocaleString('ja-JP')}台）`;
  const doc: JpDocument = {
    title: '御見積書',
    subtitle: d.meta.issued ? undefined : '（未発行の下書き）',
    no: d.meta.quoteNo ?? '（番号未採番）',
    date: dateJa(d.meta.issueDate),
    addressee: d.meta.cust,
    intro: '下記のとおりお見積り申し上げます。',
    headline: { label: '御見積金額（税込）', amount: yenText(t.iniTotal), note: t.runTotal > 0 ? `月額費用 ${yenText(t.runTotal)}（税込）／月` : undefined },
    meta: [
      ['件名', subject],
      ['有効期限', dateJa(validUntil(q, d.meta.issueDate, company.quoteValidDays))],
      ['ご提案プラン', patternLabel(d.meta.pattern)],
      ['数量', `${t.deviceQty.toLocaleString('ja-JP')} 台`],
      ...(revision && revision.of ? ([['改訂', `第${revision.rev}版（${revision.of} の改訂）`]] as [string, string][]) : []),
    ],
    tables: d.sections.map((s) => ({
      title: s.title,
      head: ['項目', '数量', '単価', '金額'],
      widths: [255, 60, 80, 100],
      numeric: [false, true, true, true],
      rows: s.rows.map((r) => [r.n, r.q.toLocaleString('ja-JP'), yenText(r.p), yenText(r.amt)]),
      lines: s.lines.map((l) => [l.label, yenText(l.amount)] as [string, string]),
    })),
    summary: d.summary.map((s) => [s.label, yenText(s.amount)] as [string, string]),
    issuer: [company.name || '—', company.addr ?? '', company.tel ? `TEL ${company.tel}` : '', company.regno ? `登録番号 ${company.regno}` : ''],
    footer: d.meta.issued ? '発行済みの見積書です。内容の変更は改訂版として発行されます。' : 'この見積書は未発行の下書きです。',
  };
  return renderJpDocument(doc, new Date());
}

export function revisionOf(q: Doc): { rev: number; of: string | null } {
  return { rev: typeof q.rev === 'number' ? q.rev : 1, of: typeof q.revisionOf === 'string' ? q.revisionOf : null };
}
