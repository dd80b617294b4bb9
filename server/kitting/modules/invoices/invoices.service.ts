import { clip, textValue } from '../../../../shared/fields';
import { INVOICE_STATUSES, type InvoiceStatus } from '../../../../shared/api/contracts/quotes';
import { badRequest, required } from '../../../core/errors';
import type { SeedSpec } from '../../../core/store/seed';
import { declareSeries, padNumber } from '../../../core/store/series';
import type { Doc } from '../../../core/store/types';

export const INVOICES = 'invoices';

export interface Invoice {
  [k: string]: unknown;
  id: string;
  cust: string;
  month: string;
  desc: string;
  amount: number;
  due: string;
  status: InvoiceStatus;
  recurring: boolean;
}

export const invoiceId = (yymm: string, n: number) => `INV-${yymm}-${padNumber(n, 3)}`;
/** Invoice numbers restart every month: INV-YYMM-NNN. */
export const INVOICE_NUMBERS = declareSeries({
  name: 'invoice',
  period: 'yymm',
  coll: INVOICES,
  field: 'id',
  keyed: true,
  format: (n, yymm) => invoiceId(yymm, n),
  pattern: /^INV-(?<p>\d{4})-(?<n>\d{3,})$/,
  reserve: 100,
});
/** Number series of a month's invoices. */
export const invoiceSeries = (yymm: string) => INVOICE_NUMBERS.counter(yymm);

const MONTH = /^\d{2}(0[1-9]|1[0-2])$/;

/** YYMM with a real month, else 400. */
export function readMonth(v: unknown): string {
  const s = typeof v === 'number' ? String(v).padStart(4, '0') : typeof v === 'string' ? v.trim() : '';
  if (!MONTH.test(s)) throw badRequest('invalid month', { message: '月(month)は YYMM 形式で指定してください（例: 2611）' });
  return s;
}

/** A finite amount ≥ 0, rounded to whole yen, else 400. */
export function readAmount(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v.replace(/[,¥￥\s]/g, '')) : NaN;
  if (!Number.isFinite(n) || n < 0) throw badRequest('invalid amount', { message: '金額(amount)は0以上の数値で指定してください' });
  return Math.round(n);
}

export function readStatus(v: unknown): InvoiceStatus {
  if (typeof v === 'string' && (INVOICE_STATUSES as readonly string[]).includes(v)) return v as InvoiceStatus;
  throw badRequest('invalid status', { message: `status は ${INVOICE_STATUSES.join(', ')} のいずれかです`, allowed: INVOICE_STATUSES });
}

export const readCust = (v: unknown): string => required(textValue(v, 120), 'cust required', '請求先(cust)は必須です');

export function readBool(v: unknown): boolean {
  if (v === true || v === 'true' || v === 1) return true;
  if (v === false || v === 'false' || v === 0) return false;
  throw badRequest('invalid recurring', { message: 'recurring は true か false で指定してください' });
}

/** Optional text clipped to n characters; a value that is not text (object, array, boolean) is a 400. */
export function readText(v: unknown, n: number, field: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) return clip(String(v), n);
  throw badRequest(`invalid ${field}`, { message: `${field} は文字列で指定してください` });
}

/**
 * How the invoice routes read each field a caller sends (a value they refuse throws 400): the one rule
 * per field, used by the routes and by the check of pushed invoices.
 */
export const invoiceRules = {
  cust: readCust,
  desc: (v: unknown) => readText(v, 300, 'desc'),
  month: readMonth,
  due: (v: unknown) => readText(v, 20, 'due'),
  amount: readAmount,
  status: readStatus,
  recurring: readBool,
};

/** Figures of one month of invoices. */
export interface MonthFigures {
  total: number;
  recurring: number;
  oneshot: number;
  count: number;
}

export function monthFigures(invoices: Doc[], yymm: string): MonthFigures {
  const rows = invoices.filter((i) => i.month === yymm);
  let recurring = 0;
  let oneshot = 0;
  for (const i of rows) {
    const a = typeof i.amount === 'number' ? i.amount : 0;
    if (i.recurring === true) recurring += a;
    else oneshot += a;
  }
  return { total: recurring + oneshot, recurring, oneshot, count: rows.length };
}

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

/**
 * Billing summary of a month (the current JST month by default). Every figure is the
 * sum of that month's invoice amounts: mrr = recurring invoices (any status), arr =
 * 12 × mrr, billed = issued + paid + overdue, unpaid = issued + overdue, draft = not yet
 * issued; recurringPct and paidRatio are whole percents (0 when there is nothing to divide).
 */
export function billingSummary(invoices: Doc[], yymm: string) {
  const rows = invoices.filter((i) => i.month === yymm);
  const by = (s: InvoiceStatus) => rows.filter((i) => i.status === s).reduce((sum, i) => sum + (Number(i.amount) || 0), 0);
  const f = monthFigures(invoices, yymm);
  const paid = by('paid');
  const issued = by('issued');
  const overdue = by('overdue');
  const billed = issued + paid + overdue;
  const recurringPct = pct(f.recurring, f.total);
  return {
    mrr: f.recurring,
    arr: f.recurring * 12,
    billed,
    paid,
    unpaid: issued + overdue,
    overdue,
    draft: by('draft'),
    recurring: f.recurring,
    oneshot: f.oneshot,
    ratio: f.total > 0 ? `${recurringPct}:${100 - recurringPct}` : '0:0',
    recurringPct,
    paidRatio: pct(paid, billed),
    month: yymm,
    count: f.count,
  };
}

/** Seeded invoices; each month's number series continues after the seeded ids (INVOICE_NUMBERS). */
export const invoiceSeed: SeedSpec = { file: 'invoices.json', coll: INVOICES };

/** What an issued invoice says to its customer: fixed once it leaves draft (only its status moves on). */
export const CONTENT_FIELDS = ['cust', 'desc', 'month', 'due', 'amount', 'recurring'] as const;
