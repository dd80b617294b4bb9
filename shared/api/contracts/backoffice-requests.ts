/**
 * Request schemas of the back-office routes (DaaS, store, trade-in, reports, compliance, integrations).
 * Most bodies are JSON objects whose fields the server reads with its own rules (the same rules check a
 * pushed record); the type parameter names the fields a client sends.
 */
import { z } from 'zod';
import type { DaasStatus } from './backoffice';
import { idParams, objectBody } from './common';

export interface DaasTermsInput {
  cust?: string;
  model?: string;
  qty?: number;
  term?: number;
  res?: number;
  lcm?: boolean;
  war?: boolean;
}
/** Request schemas of the DaaS routes. */
export const daasRequests = {
  /** POST /api/daas/quote: a new quote, or the quote `id` updated. */
  quote: objectBody<DaasTermsInput & { id?: string; price?: number; expires?: string }>(),
  status: objectBody<{ status: DaasStatus }>(),
  sim: objectBody<DaasTermsInput>(),
  send: objectBody<{ cust: string; doc?: string; channel?: string; to?: string; quoteId?: string; model?: string; qty?: number; mrr?: number }>(),
  params: idParams,
};
export type DaasQuoteInput = z.input<typeof daasRequests.quote>;
export type DaasSimInput = z.input<typeof daasRequests.sim>;
export type DaasSendInput = z.input<typeof daasRequests.send>;

/** Request schemas of the accessory store routes. */
export const storeRequests = {
  order: objectBody<{ cust?: string; job?: string; dest?: string; lines: { id: string; qty: number; name?: string; price?: number; cost?: number }[] }>(),
  editOrder: objectBody<{ status?: string; cust?: string; job?: string; dest?: string }>(),
  product: objectBody<{ name: string; cat?: string; price: number; cost?: number; note?: string }>(),
  params: idParams,
};
export type StoreOrderInput = z.input<typeof storeRequests.order>;
export type StoreOrderEdit = z.input<typeof storeRequests.editOrder>;
export type StoreProductInput = z.input<typeof storeRequests.product>;

/** Request schemas of the trade-in routes. */
export const tradeinRequests = {
  buyback: objectBody<{ model: string; cust?: string; grade?: string; bat?: number; offer: number; resell: number; imei?: string; note?: string }>(),
  stock: objectBody<{ model: string; grade?: string; cost?: number; ask?: number; note?: string }>(),
  receipt: objectBody<{ cust: string; person?: string; note?: string; items?: { model?: string; imei?: string; grade?: string; qty?: number; price?: number }[] }>(),
  params: idParams,
};
export type BuybackInput = z.input<typeof tradeinRequests.buyback>;
export type RefurbStockInput = z.input<typeof tradeinRequests.stock>;
export type BuybackReceiptInput = z.input<typeof tradeinRequests.receipt>;

/** A query value sent once or repeated (?a=1&a=2): the first is used. */
const firstOf = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v[0] : v)).optional();
/** Request schemas of the monthly report routes. */
export const reportRequests = {
  /** GET /api/report/generate (preview). */
  preview: z.object({ cust: firstOf, month: firstOf }),
  /** POST /api/report/generate (stored). */
  generate: objectBody<{ cust?: string; month?: string }>(),
  params: idParams,
};
export type ReportQuery = z.input<typeof reportRequests.generate>;
