import type { Doc } from '../../../core/store/types';
import { renderJpDocument, yenText, type JpDocument } from '../documents/jp-pdf';
import type { QuoteDocument } from './quote-export';

const PATTERN_LABEL: Record<string, string> = { buy: '購入', rent: 'レンタル', lease: 'リース', daas: 'DaaS' };

/** The quote as an A4 PDF (見積書) with the Japanese font embedded. */
export function renderQuotePdf(d: QuoteDocument, company: Record<string, string>, revision: { rev: number; of: string | null } | null): Promise<Uint8Array> {
  const doc: JpDocument = {
    title: '御見積書',
    subtitle: d.meta.issued ? undefined : '（未発行の下書き）',
    no: d.meta.quoteNo ?? '（番号未採番）',
    date: d.meta.issueDate,
    addressee: d.meta.cust,
    intro: '下記のとおりお見積り申し上げます。',
    meta: [
      ['契約形態', PATTERN_LABEL[d.meta.pattern] ?? d.meta.pattern],
      ['数量', `${d.totals.deviceQty} 台`],
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
