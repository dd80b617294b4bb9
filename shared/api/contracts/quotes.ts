/** Wire contract of quotes, invoices and billing. */
import { z } from 'zod';
import { crudResponses, num, ok, okItem, okList, optStr, str, textish } from '../primitives';
import { idParams, objectBody } from './common';

/**
 * What a quote's pattern is called on the customer's copy and in the UI (the catalog offers storage and
 * MDM operation only in A).
 */
export const QUOTE_PATTERN_LABELS = { A: 'フルサポートプラン（保管・MDM運用代行付き）', B: 'スタンダードプラン（ヘルプデスク・月次レポート）' } as const;
/** A quote's 件名 is at most this long. */
export const QUOTE_SUBJECT_MAX = 120;

/** A quote holds at most this many lines per section. */
export const MAX_QUOTE_LINES = 200;

/** Text input: a string or a number (written as text); null or missing means none. Objects, arrays and booleans are a 400. */
export const quoteTextInput = z.union([z.string(), z.number()], { error: 'must be a string' }).nullish();
/** Number input: a number or numeric text ('' reads as 0 when the line is normalised). Anything else is a 400. */
const numIn = z
  .union([z.number(), z.string().refine((v) => v.trim() === '' || Number.isFinite(Number(v)), 'must be a number')], { error: 'must be a number' })
  .nullish();
/** A quote line as a client sends it: name, quantity, unit price and description. */
export const quoteLineInput = z.object({ n: quoteTextInput, q: numIn, p: numIn, d: quoteTextInput }, { error: 'line must be an object' });
export const quoteLinesInput = z.array(quoteLineInput, { error: 'must be an array of lines' }).max(MAX_QUOTE_LINES);
/** One query value (the first when repeated). */
const one = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v[0] : v)).optional();

/** Request schemas of the quote routes. */
export const quoteRequests = {
  /**
   * Body of draft, preview, create and update: every field optional, lines checked per line. pattern
   * (A/B), costRate and qty are read by the server's quote rules; totals are recomputed, never taken.
   */
  body: z.object(
    {
      id: quoteTextInput,
      cust: quoteTextInput,
      custId: quoteTextInput,
      pattern: z.unknown().optional(),
      costRate: z.unknown().optional(),
      qty: z.unknown().optional(),
      ini: quoteLinesInput.optional().nullable(),
      run: quoteLinesInput.optional().nullable(),
      signId: quoteTextInput,
      subject: quoteTextInput,
      totals: z.record(z.string(), z.unknown()).optional().nullable(),
    },
    { error: 'body must be a JSON object' },
  ),
  /** GET /api/quote/new: a customer (custId or cust), optionally a device count and pattern. */
  fresh: z.object({ custId: one, cust: one, devices: one, pattern: one }),
  params: idParams,
};
export type QuoteInput = z.input<typeof quoteRequests.body>;
export type NewQuoteQuery = z.input<typeof quoteRequests.fresh>;

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
  /** 件名 (blank: the PDF names the service and the device count). */
  subject: optStr,
  /** 有効期限 YYYY-MM-DD, stamped when the quote is issued (issue date + the company's quoteValidDays). */
  validUntil: optStr,
  createdAt: z.union([num, str]).nullable().optional(),
  updatedAt: z.union([num, str]).nullable().optional(),
  issuedAt: z.union([num, str]).nullable().optional(),
  totals: QuoteTotals.optional(),
});
export type Quote = z.infer<typeof Quote>;
export const InvoiceLine = z.looseObject({ description: str, quantity: num, unitPrice: num, taxRate: z.union([z.literal(10), z.literal(8)]) });
/** Per tax rate: the taxable total (税抜), the consumption tax (rounded down once per invoice per rate) and their sum. */
export const InvoiceRateTotal = z.looseObject({ rate: z.union([z.literal(10), z.literal(8)]), taxable: num, tax: num, total: num });
export const Invoice = z.looseObject({
  id: str,
  cust: optStr,
  month: optStr,
  desc: optStr,
  /** The invoice total the customer pays (税込). */
  amount: num.optional(),
  due: optStr,
  status: optStr,
  recurring: z.boolean().optional(),
  lines: z.array(InvoiceLine).optional(),
  taxBasis: z.enum(['税抜', '税込']).optional(),
  taxes: z.array(InvoiceRateTotal).optional(),
  subtotal: num.optional(),
  tax: num.optional(),
  date: optStr,
  quoteId: optStr,
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

export const INVOICE_STATUSES = ['draft', 'issued', 'paid', 'overdue'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** An invoice as a client writes it (month YYMM; amount in whole yen, commas and ¥ allowed). */
interface InvoiceFields {
  cust?: string;
  desc?: string;
  month?: string;
  due?: string;
  amount?: number | string;
  status?: InvoiceStatus;
  recurring?: boolean;
  /** Lines (description, quantity, unitPrice, taxRate 10 or 8); with lines the amount is computed from them. */
  lines?: { description?: string; quantity?: number | string; unitPrice?: number | string; taxRate?: 10 | 8 | string }[];
  /** How line amounts are stated; the company setting when omitted. */
  taxBasis?: '税抜' | '税込';
}

/**
 * Request schemas of the invoice routes. Each field is read by the server's invoice rules (the same
 * rules check pushed invoices), which answer the contract's error strings; the schemas name what a
 * client sends.
 */
export const invoiceRequests = {
  /** POST /api/invoice: cust and amount required; an INV-… id of the caller's is kept when free. */
  create: objectBody<InvoiceFields & { id?: string }>(),
  /** POST /api/invoice/{id}: only the fields sent; an issued invoice changes only its status. */
  patch: objectBody<InvoiceFields>(),
  /** POST /api/invoices/issue: the month's drafts (this month in Japan when omitted) become issued. */
  issue: objectBody<{ month?: string }>(),
  /** POST /api/quote/{id}/invoice: a draft invoice with the issued quote's lines (both sections unless named). */
  fromQuote: objectBody<{ sections?: ('ini' | 'run')[]; month?: string; due?: string }>(),
  params: idParams,
};
export type InvoiceCreate = z.input<typeof invoiceRequests.create>;
export type InvoicePatch = z.input<typeof invoiceRequests.patch>;
export type InvoiceFromQuote = z.input<typeof invoiceRequests.fromQuote>;
