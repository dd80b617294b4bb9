import { textValue } from '../../../../shared/fields';
import { badRequest, required } from '../../../core/errors';
import { declareSeries, mirrorField, padNumber } from '../../store/series';
import type { Doc } from '../../store/types';

export const BUYBACKS = 'buybacks';
export const REFURB_STOCK = 'refurbStock';
export const RECEIPTS = 'buybackReceipts';
const GRADES = ['S', 'A', 'B', 'C', 'D'] as const;

/**
 * Buyback figures — THIS PROJECT'S CHOICE (the contract only says the server computes them).
 *   refurbishing cost by grade: S 1,000 / A 2,000 / B 3,500 / C 6,000 / D 9,000 yen
 *   (cleaning, inspection, certified erasure, parts), plus a battery replacement of
 *   6,000 yen when battery health is below 80 %.
 *   residual = expected resale price − refurbishing cost (what the device is worth to us
 *              once it is ready to sell)
 *   margin   = residual − offer (gross profit of the buyback; negative means a loss).
 * Refurbished stock: margin = ask − cost.
 */
export const REFURB_COST: Record<(typeof GRADES)[number], number> = { S: 1000, A: 2000, B: 3500, C: 6000, D: 9000 };
export const BATTERY_SWAP_COST = 6000;
const BATTERY_SWAP_BELOW = 80;

function refurbCost(grade: string, bat: number): number {
  const g = (GRADES as readonly string[]).includes(grade) ? (grade as (typeof GRADES)[number]) : 'D';
  return REFURB_COST[g] + (bat < BATTERY_SWAP_BELOW ? BATTERY_SWAP_COST : 0);
}

export function buybackFigures(b: { grade: string; bat: number; offer: number; resell: number }) {
  const residual = b.resell - refurbCost(b.grade, b.bat);
  return { refurb: refurbCost(b.grade, b.bat), residual, margin: residual - b.offer };
}


/** Whole yen ≥ 0 (missing reads as 0 unless required), else 400. */
function yen(v: unknown, field: string, required = false): number {
  if (v === undefined || v === null || v === '') {
    if (required) throw badRequest(`${field} required`, { message: `${field} は必須です` });
    return 0;
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.replace(/[,¥￥\s]/g, '')) : NaN;
  if (!Number.isFinite(n) || n < 0 || n > MAX_YEN) throw badRequest(`invalid ${field}`, { message: `${field} は0以上の金額で指定してください` });
  return Math.round(n);
}

function readGrade(v: unknown): string {
  const g = textValue(v, 2).toUpperCase() || 'B';
  if (!(GRADES as readonly string[]).includes(g)) throw badRequest('invalid grade', { message: `grade は ${GRADES.join(' / ')} のいずれかです`, allowed: GRADES });
  return g;
}

function readBat(v: unknown): number {
  if (v === undefined || v === null || v === '') return 100;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n) || n < 0 || n > 100) throw badRequest('invalid bat', { message: 'バッテリー(bat)は0〜100で指定してください' });
  return Math.round(n);
}

const readModel = (v: unknown): string => required(textValue(v, 60), 'model required', '機種(model)は必須です');

export const MAX_YEN = 100_000_000;
export const MAX_ITEMS = 500;
export const MAX_ITEM_QTY = 100_000;

/** Each field of a buyback as the buyback route stores it from a request. */
export const buybackRules = {
  model: readModel,
  cust: (v: unknown) => textValue(v, 120),
  grade: readGrade,
  bat: readBat,
  offer: (v: unknown) => yen(v, 'offer', true),
  resell: (v: unknown) => yen(v, 'resell', true),
  imei: (v: unknown) => textValue(v, 40),
  note: (v: unknown) => textValue(v, 300),
};

/** Each field of a refurbished stock entry as the inventory route stores it. */
export const stockRules = {
  model: readModel,
  grade: readGrade,
  cost: (v: unknown) => yen(v, 'cost'),
  ask: (v: unknown) => yen(v, 'ask'),
  note: (v: unknown) => textValue(v, 300),
};

/** Receipt items {model, imei, grade, qty, price}; total = Σ price × qty. */
export function readItems(raw: unknown): { items: Doc[]; total: number } {
  if (raw === undefined || raw === null) return { items: [], total: 0 };
  if (!Array.isArray(raw) || raw.length > MAX_ITEMS) throw badRequest('invalid items', { message: '明細(items)は配列で指定してください' });
  let total = 0;
  const items = raw.map((r: unknown, i) => {
    if (!r || typeof r !== 'object') throw badRequest('invalid items', { message: `${i + 1}行目が不正です` });
    const it = r as Doc;
    const qtyRaw = it.qty === undefined || it.qty === null || it.qty === '' ? 1 : Number(it.qty);
    if (!Number.isInteger(qtyRaw) || qtyRaw < 1 || qtyRaw > MAX_ITEM_QTY) throw badRequest('invalid qty', { message: `${i + 1}行目の数量(qty)は1以上の整数です` });
    const price = yen(it.price, 'price');
    total += price * qtyRaw;
    return { model: textValue(it.model, 60), imei: textValue(it.imei, 40), grade: textValue(it.grade, 2), qty: qtyRaw, price };
  });
  return { items, total };
}

/** Each field of a receipt as the receipt route stores it from a request. */
export const receiptRules = {
  cust: (v: unknown): string => required(textValue(v, 120), 'cust required', '顧客名(cust)は必須です'),
  person: (v: unknown) => textValue(v, 60),
  items: (v: unknown) => readItems(v).items,
  note: (v: unknown) => textValue(v, 300),
};

/** Buyback receipts restart every year: KIT-BUY-YYYY-NNNN (id repeats no). */
export const RECEIPT_NUMBERS = declareSeries({
  name: 'buyback-receipt',
  period: 'year',
  coll: RECEIPTS,
  field: 'no',
  keyed: true,
  format: (n, year) => `KIT-BUY-${year}-${padNumber(n, 4)}`,
  pattern: /^KIT-BUY-(?<p>\d{4})-(?<n>\d{4,})$/,
  reserve: 300,
  follow: mirrorField('id'),
});
export const receiptSeries = (year: number) => RECEIPT_NUMBERS.counter(String(year));
