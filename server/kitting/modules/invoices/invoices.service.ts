import { clip, looseNumber, textValue } from '../../../../shared/fields';
import {
  DEFAULT_TAX_RATE,
  INVOICE_LINES_MAX,
  INVOICE_TAX_RATES,
  invoiceFigures,
  LINE_DESCRIPTION_MAX,
  LINE_QUANTITY_MAX,
  LINE_UNIT_PRICE_MAX,
  TAX_BASES,
  type InvoiceFigures,
  type InvoiceLine,
  type InvoiceTaxRate,
  type TaxBasis,
} from '../../../../shared/invoice-tax';
import { INVOICE_STATUSES, type InvoiceStatus } from '../../../../shared/api/contracts/quotes';
import { badRequest, required } from '../../../core/errors';
import type { SeedSpec } from '../../store/seed';
import { declareSeries, padNumber } from '../../store/series';
import type { Doc } from '../../store/types';

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
  /** Lines with their tax rate (invoices stored before lines existed have none: see linesOf). */
  lines?: InvoiceLine[];
  /** How the line amounts are stated, fixed when the invoice is made (company setting taxBasis). */
  taxBasis?: TaxBasis;
  /** Per rate: taxable total, tax and total; subtotal and tax are their sums; amount is the total. */
  taxes?: InvoiceFigures['taxes'];
  subtotal?: number;
  tax?: number;
  /** The quote the invoice was made from. */
  quoteId?: string;
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
function readAmount(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v.replace(/[,¥￥\s]/g, '')) : NaN;
  if (!Number.isFinite(n) || n < 0) throw badRequest('invalid amount', { message: '金額(amount)は0以上の数値で指定してください' });
  return Math.round(n);
}

function readStatus(v: unknown): InvoiceStatus {
  if (typeof v === 'string' && (INVOICE_STATUSES as readonly string[]).includes(v)) return v as InvoiceStatus;
  throw badRequest('invalid status', { message: `status は ${INVOICE_STATUSES.join(', ')} のいずれかです`, allowed: INVOICE_STATUSES });
}

const readCust = (v: unknown): string => required(textValue(v, 120), 'cust required', '請求先(cust)は必須です');

function readBool(v: unknown): boolean {
  if (v === true || v === 'true' || v === 1) return true;
  if (v === false || v === 'false' || v === 0) return false;
  throw badRequest('invalid recurring', { message: 'recurring は true か false で指定してください' });
}

/** Optional text clipped to n characters; a value that is not text (object, array, boolean) is a 400. */
function readText(v: unknown, n: number, field: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) return clip(String(v), n);
  throw badRequest(`invalid ${field}`, { message: `${field} は文字列で指定してください` });
}

const badLines = (message: string) => badRequest('invalid lines', { message });

/** One invoice line as the routes store it: description clipped, quantity 0..1,000,000, unit price in yen, rate 10 or 8. */
function readLine(v: unknown, i: number): InvoiceLine {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw badLines(`明細${i + 1}行目はオブジェクトで指定してください`);
  const o = v as Record<string, unknown>;
  const quantity = looseNumber(o.quantity ?? 1);
  const unitPrice = looseNumber(o.unitPrice);
  const rate = o.taxRate === undefined || o.taxRate === null || o.taxRate === '' ? DEFAULT_TAX_RATE : looseNumber(o.taxRate);
  if (!Number.isFinite(quantity) || quantity < 0 || quantity > LINE_QUANTITY_MAX) throw badLines(`明細${i + 1}行目: 数量は0〜${LINE_QUANTITY_MAX.toLocaleString('ja-JP')}で指定してください`);
  if (!Number.isFinite(unitPrice) || Math.abs(unitPrice) > LINE_UNIT_PRICE_MAX) throw badLines(`明細${i + 1}行目: 単価は数値で指定してください`);
  if (!(INVOICE_TAX_RATES as readonly number[]).includes(rate)) throw badLines(`明細${i + 1}行目: 税率は10（標準）か8（軽減）です`);
  return {
    description: readText(o.description, LINE_DESCRIPTION_MAX, 'description'),
    quantity: Math.round(quantity * 100) / 100,
    unitPrice: Math.round(unitPrice),
    taxRate: rate as InvoiceTaxRate,
  };
}

/** Invoice lines: an array of at most 200 lines, else 400 invalid lines. */
function readLines(v: unknown): InvoiceLine[] {
  if (!Array.isArray(v)) throw badLines('明細(lines)は配列で指定してください');
  if (v.length > INVOICE_LINES_MAX) throw badLines(`明細は${INVOICE_LINES_MAX}行までです`);
  return v.map(readLine);
}

function readTaxBasis(v: unknown): TaxBasis {
  if (typeof v === 'string' && (TAX_BASES as readonly string[]).includes(v)) return v as TaxBasis;
  throw badRequest('invalid taxBasis', { message: `taxBasis は ${TAX_BASES.join('・')} のいずれかです` });
}

/**
 * The lines of an invoice. One stored before lines existed (or made from an amount alone) is one line
 * of its description at the standard rate, its amount being the total the customer pays (税込).
 */
export function linesOf(inv: Pick<Invoice, 'lines' | 'desc' | 'amount'>): { lines: InvoiceLine[]; basis: TaxBasis | null } {
  if (Array.isArray(inv.lines) && inv.lines.length > 0) return { lines: inv.lines, basis: null };
  return { lines: [{ description: inv.desc || 'ご請求分', quantity: 1, unitPrice: Number(inv.amount) || 0, taxRate: DEFAULT_TAX_RATE }], basis: '税込' };
}

/** Lines, basis and the figures derived from them (amount is the total); a negative total is a 400. */
export function priced(lines: InvoiceLine[], taxBasis: TaxBasis) {
  const f = invoiceFigures(lines, taxBasis);
  if (f.taxes.some((t) => t.total < 0)) throw badLines('税率ごとの合計が0円未満になります（値引きが明細の合計を超えています）');
  return { lines, taxBasis, taxes: f.taxes, subtotal: f.subtotal, tax: f.tax, amount: f.total };
}

/** The figures an invoice states: its stored lines and basis, or those of its amount alone (linesOf). */
export function figuresOf(inv: Invoice) {
  const { lines, basis } = linesOf(inv);
  return priced(lines, basis ?? inv.taxBasis ?? '税込');
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
  lines: readLines,
  taxBasis: readTaxBasis,
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
export const CONTENT_FIELDS = ['cust', 'desc', 'month', 'due', 'amount', 'recurring', 'lines', 'taxBasis'] as const;
