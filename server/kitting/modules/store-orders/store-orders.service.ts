import { textValue } from '../../../../shared/fields';
import { badRequest, required } from '../../../core/errors';
import { readSeed } from '../../store/seed';
import { declareSeries, padNumber } from '../../store/series';
import type { Doc, Tx } from '../../store/types';

export const STORE_PRODUCTS = 'storeProducts';
export const STORE_ORDERS = 'storeOrders';
export const MAX_LINES = 200;
export const MAX_QTY = 100_000;
export const MAX_PRICE = 10_000_000;

export interface OrderLine {
  id: string;
  name: string;
  price: number;
  cost: number;
  qty: number;
}

/** Built-in accessory master (seeds/accessories.json), constant, custom false. */
export function builtInProducts(): Doc[] {
  return readSeed('accessories.json').map((p) => ({ ...p, custom: false }));
}

/** Accessory store orders restart every month: AO-YYYYMM-NNNN. */
export const ORDER_NUMBERS = declareSeries({
  name: 'store-order',
  period: 'yyyymm',
  coll: STORE_ORDERS,
  field: 'id',
  keyed: true,
  format: (n, yyyymm) => `AO-${yyyymm}-${padNumber(n, 4)}`,
  pattern: /^AO-(?<p>\d{6})-(?<n>\d{4,})$/,
  reserve: 200,
});
/** Order number series of a month. */
export const orderSeries = (yyyymm: string) => ORDER_NUMBERS.counter(yyyymm);

/** Whole yen ≥ 0; a missing value takes `fallback`; anything else is 400. */
function yen(v: unknown, field: string, fallback: number | null): number {
  if (v === undefined || v === null || v === '') {
    if (fallback === null) throw badRequest(`${field} required`, { message: `${field} は必須です` });
    return fallback;
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isFinite(n) || n < 0 || n > MAX_PRICE) throw badRequest(`invalid ${field}`, { message: `${field} は0以上の金額で指定してください` });
  return Math.round(n);
}

/** The registered products an order's lines name, read by id (never the whole catalogue). */
export async function customProductsOf(tx: Pick<Tx, 'get'>, raw: unknown): Promise<Doc[]> {
  // readLines refuses these before looking at any product
  if (!Array.isArray(raw) || raw.length > MAX_LINES) return [];
  const ids = new Set<string>();
  for (const r of raw) if (r && typeof r === 'object') ids.add(String((r as Doc).id ?? ''));
  const out: Doc[] = [];
  for (const id of ids) {
    const p = id ? await tx.get<Doc>(STORE_PRODUCTS, id) : null;
    if (p) out.push(p);
  }
  return out;
}

/** Order lines: a known product fills name, price and cost the caller leaves out; qty a whole number ≥ 1. */
export function readLines(raw: unknown, products: Doc[]): OrderLine[] {
  if (!Array.isArray(raw) || raw.length === 0) throw badRequest('lines required', { message: '注文明細(lines)を1行以上指定してください' });
  if (raw.length > MAX_LINES) throw badRequest('too many lines', { message: `注文明細は${MAX_LINES}行までです` });
  const byId = new Map(products.map((p) => [String(p.id), p]));
  return raw.map((r: unknown, i) => {
    if (!r || typeof r !== 'object') throw badRequest('invalid line', { message: `${i + 1}行目が不正です` });
    const l = r as Doc;
    const p = byId.get(String(l.id ?? ''));
    const qty = typeof l.qty === 'number' ? l.qty : Number(l.qty);
    if (!Number.isInteger(qty) || qty < 1 || qty > MAX_QTY) throw badRequest('invalid qty', { message: `${i + 1}行目の数量(qty)は1以上の整数で指定してください` });
    const name = textValue(l.name, 120) || (p ? String(p.name) : '');
    if (!name) throw badRequest('invalid line', { message: `${i + 1}行目: 未登録の商品には name が必要です` });
    return {
      id: textValue(l.id, 60),
      name,
      price: yen(l.price, 'price', p ? Number(p.price) : null),
      cost: yen(l.cost, 'cost', p ? Number(p.cost) : 0),
      qty,
    };
  });
}

/** The fields an operator edits on an order (the update route), as it stores them. */
export const orderEditRules = {
  status: (v: unknown): string => required(textValue(v, 20), 'status required', 'status を空にはできません'),
  cust: (v: unknown) => textValue(v, 120),
  job: (v: unknown) => textValue(v, 120),
  dest: (v: unknown) => textValue(v, 300),
};

/** Each field of a registered product as the product route stores it. */
export const productRules = {
  name: (v: unknown): string => required(textValue(v, 120), 'name required', '商品名(name)は必須です'),
  cat: (v: unknown) => textValue(v, 40) || 'その他',
  ic: (v: unknown) => textValue(v, 4) || '📦',
  price: (v: unknown) => yen(v, 'price', null),
  cost: (v: unknown) => yen(v, 'cost', 0),
  note: (v: unknown) => textValue(v, 300),
};

/** count, total and gp of an order — always computed here, never taken from the caller. */
export function orderTotals(lines: OrderLine[]) {
  let count = 0;
  let total = 0;
  let cost = 0;
  for (const l of lines) {
    count += l.qty;
    total += l.price * l.qty;
    cost += l.cost * l.qty;
  }
  return { count, total, gp: total - cost };
}
