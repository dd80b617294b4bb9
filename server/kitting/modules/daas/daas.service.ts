import { clip, looseNumber, textValue } from '../../../../shared/fields';
import { jstDate } from '../../../../shared/dates';
import { badRequest } from '../../../core/errors';
import { declareCap } from '../../store/caps';
import { declareLookup } from '../../store/lookups';
import { isDate } from '../compliance/compliance.service';
import type { Doc, Tx } from '../../store/types';

export const DAAS_QUOTES = 'daasQuotes';
export const DAAS_STATE = 'daasState';
export const DAAS_SENDS = 'daasSends';
export const SIM_ID = 'sim';
/** Portfolio cap: beyond it the oldest quotes are dropped first. */
export const PORTFOLIO_CAP = 100;
/** Send history keeps the 50 newest entries. */
export const SEND_CAP = 50;
// every replica (central included) trims sends that arrive from elsewhere to the same cap
declareCap(DAAS_SENDS, SEND_CAP);

export const DAAS_STATUSES = ['draft', 'proposed', 'approved', 'contracted'] as const;
export type DaasStatus = (typeof DAAS_STATUSES)[number];
export const STATUS_LABELS: Record<DaasStatus, string> = { draft: '下書き', proposed: '提案中', approved: '承認', contracted: '契約中' };

/**
 * DaaS pricing — THIS PROJECT'S CHOICE (the contract does not give the formula).
 *
 * Per device and month, in integer yen:
 *   device part = device price × (1 − residual%) × (1 + 3 % a year × term/12) ÷ term,
 *                 rounded UP to the next 10 yen (a lease-style fee: the customer pays the
 *                 value used up over the term plus a 3 % a year finance charge; the
 *                 residual value stays with us and is recovered by resale at term end)
 *   + 600 yen when lcm (life-cycle management: kitting, helpdesk, collection and
 *     certified erasure at term end)
 *   + 450 yen when war (extended warranty with swap unit)
 *   monthly = device part + options;   mrr = monthly × qty.
 * Device prices are list prices by model; a quote may carry its own `price`.
 */
const FINANCE_RATE_PER_YEAR_PCT = 3;
const LCM_FEE = 600;
const WAR_FEE = 450;
const MODEL_PRICES: Record<string, number> = {
  'iPhone 16': 124800,
  'iPhone 16 Pro': 159800,
  'iPhone 16e': 99800,
  'iPhone 15': 112800,
  'iPhone SE (第3世代)': 62800,
  'iPad (第10世代)': 58800,
  'iPad Air': 98800,
  'Pixel 8a': 72600,
  'AQUOS sense8': 59800,
  'Galaxy A54': 65000,
};

export interface DaasTerms {
  price: number;
  term: number;
  res: number;
  lcm: boolean;
  war: boolean;
  qty: number;
}

/** Monthly fee per device (integer yen) and mrr of a quote. */
export function daasPricing(t: DaasTerms): { monthly: number; mrr: number } {
  // price × (100 − res)/100 × (1200 + 3·term)/1200 ÷ term, in integers, rounded up to 10 yen.
  const num = t.price * (100 - t.res) * (1200 + FINANCE_RATE_PER_YEAR_PCT * t.term);
  const den = 100 * 1200 * t.term * 10;
  const device = Math.ceil(num / den) * 10;
  const monthly = device + (t.lcm ? LCM_FEE : 0) + (t.war ? WAR_FEE : 0);
  return { monthly, mrr: monthly * t.qty };
}

const intIn = (v: unknown, min: number, max: number, fallback: number) => {
  const n = looseNumber(v);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, Math.round(n))) : fallback;
};
const boolOr = (v: unknown, fallback: boolean) => (v === true || v === 'true' || v === 1 ? true : v === false || v === 'false' || v === 0 ? false : fallback);
const textOr = (v: unknown, n: number, fallback: string) => textValue(v, n) || fallback;

/** Each simulator input and quote term as the daas routes store it (defaults filled, numbers clamped). */
export const daasTermRules = {
  cust: (v: unknown) => textOr(v, 120, ''),
  model: (v: unknown) => textOr(v, 60, 'iPhone 16'),
  qty: (v: unknown) => intIn(v, 1, 100000, 1),
  term: (v: unknown) => intIn(v, 12, 60, 36),
  res: (v: unknown) => intIn(v, 0, 50, 20),
  lcm: (v: unknown) => boolOr(v, true),
  war: (v: unknown) => boolOr(v, true),
};

/** The simulator inputs (sim prefs and quote terms), defaults filled, numbers clamped. */
export function readTerms(b: Doc, base: Doc = {}) {
  const pick = (k: string) => (b[k] === undefined || b[k] === null ? base[k] : b[k]);
  const r = daasTermRules;
  return {
    cust: r.cust(pick('cust')),
    model: r.model(pick('model')),
    qty: r.qty(pick('qty')),
    term: r.term(pick('term')),
    res: r.res(pick('res')),
    lcm: r.lcm(pick('lcm')),
    war: r.war(pick('war')),
  };
}

/** An explicit device unit price: whole yen from 1 to 10,000,000, else 400. */
export function readUnitPrice(v: unknown): number {
  const n = Math.round(looseNumber(v));
  if (!Number.isFinite(n) || n < 1 || n > 10_000_000) throw badRequest('invalid price', { message: '端末単価(price)は正の金額で指定してください' });
  return n;
}

/** Device unit price: an explicit positive price, else the model's list price, else 400. */
export function readPrice(b: Doc, model: string, base: Doc = {}): number {
  const given = b.price ?? base.price;
  if (given !== undefined && given !== null && given !== '') return readUnitPrice(given);
  const list = MODEL_PRICES[model];
  if (!list) throw badRequest('price required', { message: `機種「${model}」の定価が未登録です。端末単価(price)を指定してください`, models: Object.keys(MODEL_PRICES) });
  return list;
}

const sendText = (v: unknown, n: number) => clip(String(v ?? ''), n);
const sendFigure = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0);

/** Each field of a send entry as the send route stores it from a request. */
export const daasSendRules = {
  cust: (v: unknown): string => {
    const cust = clip(String(v ?? '').trim(), 120);
    if (!cust) throw badRequest('cust required', { message: '送付先の顧客名(cust)は必須です' });
    return cust;
  },
  channel: (v: unknown): string => clip(String(v ?? 'メール'), 40) || 'メール',
  to: (v: unknown): string => sendText(v, 200),
  doc: (v: unknown): string => sendText(v, 200),
  model: (v: unknown): string => sendText(v, 60),
  qty: sendFigure,
  mrr: sendFigure,
  /** The quote the send is about (the route checks that it exists). */
  quoteId: (v: unknown): string => {
    if (typeof v !== 'string' || v === '' || v.length > 200) throw badRequest('invalid quoteId', { message: 'quoteId は見積IDの文字列です' });
    return v;
  },
};

/** YYYY-MM-DD that is a real calendar date, or empty; else 400. */
export function readExpires(v: unknown, fallback: string): string {
  if (v === undefined || v === null) return fallback;
  const s = String(v).trim();
  if (s === '') return '';
  if (!isDate(s)) {
    throw badRequest('invalid expires', { message: '有効期限(expires)は YYYY-MM-DD 形式で指定してください' });
  }
  return s;
}

/** One of the four stages, else 400 unknown status with the list. */
export function readDaasStatus(v: unknown): DaasStatus {
  if (typeof v !== 'string' || !(DAAS_STATUSES as readonly string[]).includes(v)) {
    throw badRequest('unknown status', { message: `status は ${DAAS_STATUSES.join(' / ')} のいずれかです`, allowed: DAAS_STATUSES });
  }
  return v as DaasStatus;
}

/**
 * Section 3 state machine: one stage forward at a time; any earlier stage always (the
 * contract date is cleared); approved and contracted need a customer and an unexpired date.
 */
export function checkTransition(q: Doc, to: unknown, today = jstDate()): { from: DaasStatus; to: DaasStatus } {
  const target = readDaasStatus(to);
  const from = (DAAS_STATUSES as readonly string[]).includes(String(q.status)) ? (q.status as DaasStatus) : 'draft';
  const fi = DAAS_STATUSES.indexOf(from);
  const ti = DAAS_STATUSES.indexOf(target);
  if (ti > fi + 1) {
    const next = DAAS_STATUSES[fi + 1]!;
    throw badRequest('stage skipped', { message: `段階を飛ばせません。次に進めるのは「${STATUS_LABELS[next]}」(${next}) のみです`, allowed: next, from, to: target });
  }
  if (ti > fi && (target === 'approved' || target === 'contracted')) {
    const needs = ['cust', 'expires'];
    const missing = needs.filter((k) => typeof q[k] !== 'string' || (q[k] as string).trim() === '');
    if (missing.length) {
      throw badRequest('customer and expiry required', { message: '承認・契約には顧客名と有効期限が必要です', missing, needs });
    }
    if (String(q.expires) < today) throw badRequest('quote expired', { message: `見積の有効期限（${String(q.expires)}）が過ぎています`, expires: q.expires });
  }
  return { from, to: target };
}

/** Portfolio totals: only contracted quotes count in units and mrr; proposed and approved are pipeline. */
/** Quotes are found by status through its lookup index: the totals after a write never read the portfolio. */
const DAAS_BY_STATUS = declareLookup(DAAS_QUOTES, 'status');

/**
 * The portfolio totals as a transaction sees them: proposed, approved and contracted quotes by their
 * status index, drafts (and any quote without a known status) as the rest of the live count.
 */
export async function daasTotalsOf(tx: Pick<Tx, 'find' | 'count'>) {
  const counted: Doc[] = [];
  for (const s of DAAS_STATUSES) if (s !== 'draft') counted.push(...(await tx.find(DAAS_BY_STATUS.coll, DAAS_BY_STATUS.field, s)));
  const totals = daasTotals(counted);
  const drafts = (await tx.count(DAAS_QUOTES)) - counted.length;
  return { ...totals, byStatus: { ...totals.byStatus, draft: totals.byStatus.draft + drafts } };
}

export function daasTotals(quotes: Doc[]) {
  const byStatus: Record<DaasStatus, number> = { draft: 0, proposed: 0, approved: 0, contracted: 0 };
  let units = 0;
  let mrr = 0;
  let pipelineUnits = 0;
  let pipelineMrr = 0;
  for (const q of quotes) {
    const s = (DAAS_STATUSES as readonly string[]).includes(String(q.status)) ? (q.status as DaasStatus) : 'draft';
    byStatus[s] += 1;
    const qty = Number(q.qty) || 0;
    const m = Number(q.mrr) || 0;
    if (s === 'contracted') {
      units += qty;
      mrr += m;
    } else if (s === 'proposed' || s === 'approved') {
      pipelineUnits += qty;
      pipelineMrr += m;
    }
  }
  return { units, mrr, arr: mrr * 12, contracts: byStatus.contracted, pipelineUnits, pipelineMrr, byStatus };
}
