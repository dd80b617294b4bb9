/**
 * Request schemas of the back-office routes (DaaS, store, trade-in, reports, compliance, integrations).
 * Most bodies are JSON objects whose fields the server reads with its own rules (the same rules check a
 * pushed record); the type parameter names the fields a client sends.
 */
import { z } from 'zod';
import { clip } from '../../fields';
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

/** Text or number, trimmed and clipped to n characters; missing or null reads as ''. */
export const trimmedText = (n: number) =>
  z
    .union([z.string(), z.number()], { error: 'must be a string' })
    .nullish()
    .transform((v) => (v === null || v === undefined ? '' : clip(String(v).trim(), n)));

/** The fields of an audit row as the audit route reads them (and a pushed audit row is checked with). */
export const auditFields = { action: trimmedText(200), ts: trimmedText(40), user: trimmedText(60), target: trimmedText(200), result: trimmedText(20), cat: trimmedText(20) };
/** A custody step as the custody route reads it. */
export const custodyStepSchema = z.object(
  { label: trimmedText(120), role: trimmedText(60), who: trimmedText(60), dt: trimmedText(40), state: trimmedText(20), sign: trimmedText(200) },
  { error: 'steps must be objects' },
);
/** A custody record as the custody route reads it. */
export const custodyFields = {
  imei: trimmedText(40),
  model: trimmedText(60),
  cust: trimmedText(120),
  steps: z.array(custodyStepSchema, { error: 'steps must be an array' }),
};
/** Request schemas of the compliance and audit log routes. */
export const complianceRequests = {
  capa: z.object({ state: z.unknown().optional() }, { error: 'body must be a JSON object' }),
  capaParams: z.object({ id: z.string().min(1).max(60) }),
  controls: z.object({ controls: z.unknown().optional() }, { error: 'body must be a JSON object' }),
  controlsParams: z.object({ key: z.string().max(20) }),
  audit: z.object(auditFields, { error: 'body must be a JSON object' }),
  /** POST /api/compliance/report: the month (YYYY-MM, else this month) and the count the caller claims. */
  report: z.object(
    {
      month: z.unknown().optional(),
      claim: z.object({ count: z.unknown().optional() }, { error: 'claim must be an object' }).passthrough().nullish(),
    },
    { error: 'body must be a JSON object' },
  ),
  custody: z.object({ ...custodyFields, steps: custodyFields.steps.nullish() }, { error: 'body must be a JSON object' }),
};
export type AuditInput = z.input<typeof complianceRequests.audit>;
export type CustodyInput = z.input<typeof complianceRequests.custody>;
export type ComplianceReportInput = z.input<typeof complianceRequests.report>;

/** Text or number clipped to n characters; missing or null reads as ''. */
const clippedText = (n: number) =>
  z
    .union([z.string(), z.number()], { error: 'must be a string' })
    .nullish()
    .transform((v) => (v === null || v === undefined ? '' : clip(String(v), n)));
const flag = z.union([z.boolean(), z.literal(0), z.literal(1), z.literal('true'), z.literal('false')], { error: 'must be true or false' }).transform((v) => v === true || v === 1 || v === 'true');
/** Extra automation rules a workspace may keep. */
export const EXTRA_RULES_MAX = 100;
/** The rule switches as the rules route reads them: id → true/false. */
export const integrationRuleMap = z.record(z.string(), flag, { error: 'rules must be an object of true/false' });
/** The extra rules as the rules route reads them (at most EXTRA_RULES_MAX). */
export const extraRuleList = z
  .array(z.object({ id: clippedText(40), trig: clippedText(200), act: clippedText(200), ic: clippedText(20), on: flag.nullish() }, { error: 'extraRules must be objects' }), { error: 'extraRules must be an array' })
  .max(EXTRA_RULES_MAX, `extraRules: at most ${EXTRA_RULES_MAX}`);
/** The fields of a sync log entry as the log route reads them. */
export const syncLogFields = { service: clippedText(60), kind: clippedText(60), result: clippedText(60), time: clippedText(40) };
/** Request schemas of the integration rule and sync log routes. */
export const integrationRequests = {
  rules: z.object({ rules: integrationRuleMap.nullish(), extraRules: extraRuleList.nullish() }, { error: 'body must be a JSON object' }),
  log: z.object(syncLogFields, { error: 'body must be a JSON object' }),
};
export type IntegrationRulesInput = z.input<typeof integrationRequests.rules>;
export type SyncLogInput = z.input<typeof integrationRequests.log>;
