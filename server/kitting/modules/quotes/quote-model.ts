import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { clip, looseNumber } from '../../../../shared/fields';
import { badRequest } from '../../../core/errors';
import { SEEDS_DIR } from '../../store/seed';
import { declareSeries, padNumber } from '../../store/series';
import type { Doc, Tx } from '../../store/types';
import { declareLookup } from '../../store/lookups';
import { computeTotals, type QuoteLine, type QuoteTotals } from './quote-pricing';
import { QUOTE_SUBJECT_MAX, quoteLineInput, quoteLinesInput, quoteRequests, quoteTextInput } from '../../../../shared/api/contracts/quotes';

export const QUOTES = 'quotes';
/** Quotes restart every month: Q-YYMM-NNN. */
export const QUOTE_NUMBERS = declareSeries({
  name: 'quote',
  period: 'yymm',
  coll: QUOTES,
  field: 'id',
  keyed: true,
  format: (n, yymm) => `Q-${yymm}-${padNumber(n, 3)}`,
  pattern: /^Q-(?<p>\d{4})-(?<n>\d{3,})$/,
  reserve: 100,
});
export const QUOTE_DRAFTS = 'quoteDrafts';
export const DRAFT_ID = 'current';
const DEFAULT_COST_RATE = 45;
export const DEFAULT_CUST = '御中';
/** Largest line quantity a stored quote keeps (also the largest devices override of quote/new). */
export const MAX_Q = 100_000;
const MAX_P = 100_000_000;

export type Pattern = 'A' | 'B';

export interface CatalogLine extends QuoteLine {
  /** device: quantity follows the device count; fixed: one set. */
  per: 'device' | 'fixed';
  patterns: Pattern[];
}

export interface Catalog {
  initial: CatalogLine[];
  running: CatalogLine[];
}

let catalogCache: Catalog | null = null;

/** The constant catalog master (seeds/quote-catalog.json). */
export function catalog(): Catalog {
  catalogCache ??= JSON.parse(readFileSync(join(SEEDS_DIR, 'quote-catalog.json'), 'utf8')) as Catalog;
  return structuredClone(catalogCache);
}

export interface Quote {
  [k: string]: unknown;
  id: string | null;
  custId: string | null;
  cust: string;
  pattern: Pattern;
  costRate: number;
  /** Device quantity of the quote (drives perDevice and the volume discount). */
  qty: number;
  ini: QuoteLine[];
  run: QuoteLine[];
  signId: string | null;
  createdAt?: number;
  updatedAt?: number;
  issuedAt?: number | null;
}

export type QuoteBody = z.infer<typeof quoteRequests.body>;

const toText = (v: unknown, n: number): string => (typeof v === 'string' || typeof v === 'number' ? clip(String(v), n) : '');

/** A line as stored: name and description clipped, quantity a whole number 0..100000, unit price whole yen. */
function normLine(raw: z.infer<typeof quoteLineInput>): QuoteLine {
  const q = looseNumber(raw.q);
  const p = looseNumber(raw.p);
  return {
    n: toText(raw.n, 200),
    q: Number.isFinite(q) ? Math.min(MAX_Q, Math.max(0, Math.floor(q))) : 0,
    p: Number.isFinite(p) ? Math.min(MAX_P, Math.max(0, Math.round(p))) : 0,
    d: toText(raw.d, 300),
  };
}

export const readPattern = (v: unknown): Pattern => (v === 'B' ? 'B' : 'A');

/** costRate percent when valid (finite, above 0, at most 100), else null. */
function readCostRate(v: unknown): number | null {
  const n = looseNumber(v);
  return Number.isFinite(n) && n > 0 && n <= 100 ? Math.round(n * 100) / 100 : null;
}

/** Devices counted for a quote: an explicit qty, else the largest initial-line quantity. */
function readQty(v: unknown, ini: QuoteLine[]): number {
  const n = looseNumber(v);
  if (Number.isFinite(n)) return Math.min(MAX_Q * 10, Math.max(0, Math.floor(n)));
  return ini.reduce((m, l) => Math.max(m, l.q), 0);
}

const readId = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : toText(v, 120) || null);

/** The id a draft will be saved under (the caller's, up to 120 characters), or null. */
export const draftId = (v: unknown): string | null => (typeof v === 'string' && v ? v.slice(0, 120) : null);
const readLines = (v: unknown): QuoteLine[] => quoteLinesInput.parse(v).map(normLine);
const custText = (v: unknown): string => (v === undefined || v === null ? '' : toText(v, 200).trim());
const readCust = (v: unknown): string => custText(quoteTextInput.parse(v)) || DEFAULT_CUST;

/**
 * Each stored quote field as buildQuote reads it from a request (throwing where the value is not one it
 * would store): the rules pushed quotes and drafts are checked with.
 */
export const quoteRules: Record<string, (v: unknown) => unknown> = {
  custId: readId,
  cust: readCust,
  pattern: readPattern,
  costRate: (v) => {
    const rate = readCostRate(v);
    if (rate === null) throw badRequest('invalid costRate', { message: 'costRate は 0 より大きく 100 以下の数値です' });
    return rate;
  },
  qty: (v) => {
    if (!Number.isFinite(looseNumber(v))) throw badRequest('invalid qty', { message: 'qty は数値です' });
    return readQty(v, []);
  },
  ini: readLines,
  run: readLines,
  signId: readId,
  subject: (v: unknown) => toText(quoteTextInput.parse(v), QUOTE_SUBJECT_MAX).trim(),
};

/** Merge a request body over a base quote (a new one when base is null). */
export function buildQuote(body: QuoteBody, base: Quote | null): Quote {
  const ini = body.ini ? readLines(body.ini) : (base?.ini ?? []);
  const run = body.run ? readLines(body.run) : (base?.run ?? []);
  const fallbackRate = base?.costRate ?? DEFAULT_COST_RATE;
  return {
    ...(base ?? {}),
    id: base?.id ?? null,
    custId: body.custId === undefined ? (base?.custId ?? null) : readId(body.custId),
    cust: custText(body.cust) || base?.cust || DEFAULT_CUST,
    pattern: body.pattern === undefined ? (base?.pattern ?? 'A') : readPattern(body.pattern),
    costRate: body.costRate === undefined ? fallbackRate : (readCostRate(body.costRate) ?? fallbackRate),
    qty: body.qty === undefined && base ? base.qty : readQty(body.qty, ini),
    ini,
    run,
    signId: body.signId === undefined ? (base?.signId ?? null) : readId(body.signId),
    subject: body.subject === undefined ? (typeof base?.subject === 'string' ? base.subject : '') : toText(body.subject, QUOTE_SUBJECT_MAX).trim(),
  };
}

export function totalsOf(q: Quote): QuoteTotals {
  return computeTotals({ ini: q.ini, run: q.run, costRate: q.costRate, qty: q.qty });
}

export const withTotals = (q: Quote) => ({ ...q, totals: totalsOf(q) });

export interface Inconsistency {
  code: 'figure_mismatch' | 'customer_unknown' | 'customer_required';
  field: string;
  message: string;
}

/** Figures the caller asserted that differ from the server's arithmetic. */
function figureMismatches(asserted: Record<string, unknown> | null | undefined, totals: QuoteTotals): Inconsistency[] {
  if (!asserted) return [];
  const out: Inconsistency[] = [];
  for (const [k, expected] of Object.entries(totals)) {
    if (!(k in asserted) || asserted[k] === undefined) continue;
    const got = asserted[k];
    const same = expected === null || typeof expected === 'boolean' ? got === expected : typeof got === 'number' || typeof got === 'string' ? looseNumber(got) === expected : false;
    if (!same) {
      out.push({ code: 'figure_mismatch', field: k, message: `${k} が一致しません（送信値 ${JSON.stringify(got)}、計算値 ${JSON.stringify(expected)}）` });
    }
  }
  return out;
}

export function inconsistent(errors: Inconsistency[]) {
  return badRequest('quote_inconsistent', { message: '見積の内容に不整合があります: ' + errors.map((e) => e.message).join(' / '), errors });
}

/** Customers are found by exact name (a quote made out to a name, not an id). */
const CUSTOMER_BY_NAME = declareLookup('customers', 'name');

/** The customer a quote refers to: by custId, else (when wanted) by exact name (the oldest of that name). */
export async function findCustomer(tx: Pick<Tx, 'get' | 'find'>, custId: string | null, name?: string): Promise<Doc | null> {
  if (custId) return tx.get('customers', custId);
  if (!name) return null;
  return (await tx.find(CUSTOMER_BY_NAME.coll, CUSTOMER_BY_NAME.field, name))[0] ?? null;
}

/** Refuse a quote whose asserted figures disagree or whose custId is unknown (nothing is stored). */
export async function validateQuote(tx: Pick<Tx, 'get'>, q: Quote, asserted?: Record<string, unknown> | null): Promise<QuoteTotals> {
  const totals = totalsOf(q);
  const errors = figureMismatches(asserted, totals);
  if (q.custId && !(await tx.get('customers', q.custId))) {
    errors.push({ code: 'customer_unknown', field: 'custId', message: `顧客 ${q.custId} が見つかりません` });
  }
  if (errors.length) throw inconsistent(errors);
  return totals;
}

/** Number of ledger devices whose cust equals the customer's name. */
export async function deviceCountOf(list: () => Promise<Doc[]>, name: string): Promise<number> {
  return (await list()).filter((d) => d.cust === name).length;
}
