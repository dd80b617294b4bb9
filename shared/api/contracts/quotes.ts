/** Wire contract of quotes, invoices and billing. */
import { z } from 'zod';
import { crudResponses, num, ok, okItem, okList, optStr, str, textish } from '../primitives';

export const QuoteLine = z.looseObject({ n: textish, q: num, p: num, d: textish.optional() });
export type QuoteLine = z.infer<typeof QuoteLine>;
export const QuoteTotals = z.looseObject({
  ini: num,
  iniTax: num,
  iniTotal: num,
  run: num,
  runTax: num,
  runTotal: num,
  arr: num,
  y1: num,
  costRate: num.optional(),
  gp: num.optional(),
  gpRate: num.optional(),
  deviceQty: num.optional(),
  perDevice: num.nullable().optional(),
  volumeApplied: z.boolean().optional(),
  volumeQty: num.optional(),
  volumeMinQty: num.optional(),
  taxRate: num.optional(),
});
export type QuoteTotals = z.infer<typeof QuoteTotals>;
export const Quote = z.looseObject({
  id: str.nullable().optional(),
  custId: str.nullable().optional(),
  cust: optStr,
  pattern: optStr,
  costRate: num.optional(),
  qty: num.optional(),
  ini: z.array(QuoteLine),
  run: z.array(QuoteLine),
  signId: str.nullable().optional(),
  createdAt: z.union([num, str]).nullable().optional(),
  updatedAt: z.union([num, str]).nullable().optional(),
  issuedAt: z.union([num, str]).nullable().optional(),
  totals: QuoteTotals.optional(),
});
export type Quote = z.infer<typeof Quote>;
export interface QuoteInput {
  id?: string | null;
  cust?: string;
  custId?: string | null;
  pattern?: 'A' | 'B';
  costRate?: number;
  /** Device quantity (drives per-device price and the volume discount). */
  qty?: number;
  ini: { n: string; q: number; p: number; d?: string }[];
  run: { n: string; q: number; p: number; d?: string }[];
  signId?: string | null;
}

export const Invoice = z.looseObject({
  id: str,
  cust: optStr,
  month: optStr,
  desc: optStr,
  amount: num.optional(),
  due: optStr,
  status: optStr,
  recurring: z.boolean().optional(),
});
export type Invoice = z.infer<typeof Invoice>;
export const BillingSummary = z.looseObject({
  mrr: num.optional(),
  arr: num.optional(),
  billed: num.optional(),
  paid: num.optional(),
  unpaid: num.optional(),
  overdue: num.optional(),
  draft: num.optional(),
  ratio: optStr,
  recurringPct: num.optional(),
  paidRatio: num.optional(),
  month: optStr,
  count: num.optional(),
});
export type BillingSummary = z.infer<typeof BillingSummary>;

const Amount = z.looseObject({ label: str, amount: num });
/** The export of a quote (document view, CSV and PDF are written from it). */
export const QuoteDocument = z.looseObject({
  meta: z.looseObject({ quoteNo: str.nullable(), cust: str, custId: str.nullable().optional(), issueDate: str, pattern: str, issued: z.boolean() }),
  sections: z.array(z.looseObject({ key: z.enum(['ini', 'run']), title: str, rows: z.array(z.looseObject({ n: textish, q: num, p: num, amt: num })), lines: z.array(Amount) })),
  summary: z.array(Amount),
  totals: QuoteTotals.optional(),
});
export type QuoteDocument = z.infer<typeof QuoteDocument>;

/** Success bodies of the quote routes. */
export const quoteResponses = {
  catalog: ok({ catalog: z.looseObject({ initial: z.array(QuoteLine), running: z.array(QuoteLine) }) }),
  fresh: okItem('quote', Quote),
  list: okList('quotes', Quote),
  draft: ok({ draft: Quote.nullable() }),
  saveDraft: okItem('draft', Quote),
  clearDraft: ok({}),
  preview: ok({ quote: Quote, csv: str, document: QuoteDocument }),
  one: okItem('quote', Quote),
  document: okItem('document', QuoteDocument),
  issue: ok({ quote: Quote, document: QuoteDocument, csv: str }),
};
/** Success bodies of the invoice and billing routes. */
export const invoiceResponses = {
  list: ok({ invoices: z.array(Invoice), count: num }),
  one: okItem('invoice', Invoice),
  issue: ok({ count: num, month: str }),
  summary: okItem('summary', BillingSummary),
};
