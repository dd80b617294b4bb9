/** Wire schemas of the back-office screens: capacity, DaaS, store, trade-in, reports, compliance, integrations. */
import { z } from 'zod';
import { clamp, createShape, json, num as numField, patchShape, text } from '../../fields';
import { num, ok, okItem, okList, optStr, str } from '../primitives';
import { objectBody } from './common';

// ---- Back office: capacity, DaaS, store, trade-in, reports, compliance, integrations ----
const money = num.optional();
export const CAPACITY_KEYS = ['kittingDaily', 'storageMax', 'storageUsed', 'palletMax', 'palletUsed', 'warehouseMax', 'warehouseUsed', 'staffCount', 'perStaff'] as const;
export type CapacityKey = (typeof CAPACITY_KEYS)[number];
export const CapacityConfig = z.looseObject(Object.fromEntries(CAPACITY_KEYS.map((k) => [k, num.optional()])) as Record<CapacityKey, z.ZodOptional<z.ZodNumber>>);
export type CapacityConfig = z.infer<typeof CapacityConfig>;
export const LoadEntry = z.looseObject({ id: str, date: optStr, cust: optStr, qty: num.optional(), kind: optStr, note: optStr });
export type LoadEntry = z.infer<typeof LoadEntry>;
export const CapacityDay = z.looseObject({
  date: str,
  dow: optStr,
  load: num,
  capacity: num,
  pct: num.nullable().optional(),
  over: z.boolean().optional(),
  /** Planned load entries, and units of open job cards due that day. */
  planned: num.optional(),
  jobUnits: num.optional(),
  jobs: num.optional(),
  dockBookings: num.optional(),
  dockInbound: num.optional(),
  dockMinutes: num.optional(),
  dockPct: num.nullable().optional(),
  /** A closed day (weekend, public holiday, company closed date) has capacity 0 and says why. */
  closed: z.boolean().optional(),
  closedReason: str.nullable().optional(),
  /** The open job cards behind jobUnits and the planned entries behind planned. */
  cards: z.array(z.looseObject({ id: str, t: str, c: str, units: num, due: str, date: str, overdue: z.boolean(), guessed: z.boolean() })).optional(),
  entries: z.array(z.looseObject({ id: str, cust: str, qty: num, kind: str })).optional(),
});
export type CapacityDay = z.infer<typeof CapacityDay>;
export const CapacitySummary = z.record(z.string(), z.union([num, str]).nullable());
export type CapacitySummary = z.infer<typeof CapacitySummary>;
/** A planned load entry as a client writes it (shared by the load routes and the push check). */
export const capacityLoadFields = {
  date: text(10),
  cust: text(120),
  // units: a number (clamped 0..1,000,000); a value that is not a number is refused (400)
  qty: json(numField().zod.transform((n) => clamp(Math.trunc(n), 0, 1_000_000))).default(0),
  kind: text(40).default('キッティング'),
  note: text(300),
};
/** Request schemas of the capacity routes. */
export const capacityRequests = {
  /** POST /api/capacity/config: any JSON object; each sent key of CAPACITY_KEYS must be a number ≥ 0. */
  config: objectBody<Partial<Record<CapacityKey, number>>>(),
  createLoad: createShape(capacityLoadFields),
  patchLoad: patchShape(capacityLoadFields),
  params: z.object({ id: z.string().min(1).max(40) }),
  /** GET /api/capacity: the seven days from `from` (YYYY-MM-DD, default today in Japan). */
  view: z.object({ from: z.string().max(10).optional() }),
};
export type LoadInput = z.input<typeof capacityRequests.createLoad>;
export type CapacityConfigInput = z.input<typeof capacityRequests.config>;

export const DAAS_STATUSES = ['draft', 'proposed', 'approved', 'contracted'] as const;
export type DaasStatus = (typeof DAAS_STATUSES)[number];
export const DaasQuote = z.looseObject({
  id: str,
  cust: optStr,
  model: optStr,
  qty: num.optional(),
  term: num.optional(),
  res: num.optional(),
  lcm: z.boolean().optional(),
  war: z.boolean().optional(),
  price: money,
  monthly: money,
  mrr: money,
  expires: optStr,
  status: optStr,
  statusLabel: optStr,
  contracted: optStr,
  ts: num.optional(),
});
export type DaasQuote = z.infer<typeof DaasQuote>;
export const DaasTotals = z.looseObject({ units: num, mrr: num, arr: num, contracts: num, pipelineUnits: num, pipelineMrr: num, byStatus: z.record(z.string(), num).optional() });
export type DaasTotals = z.infer<typeof DaasTotals>;

export const StoreProduct = z.looseObject({ id: str, name: str, cat: optStr, ic: optStr, price: num, cost: money, note: optStr, custom: z.boolean().optional() });
export type StoreProduct = z.infer<typeof StoreProduct>;
export const StoreOrderLine = z.looseObject({ id: optStr, name: optStr, price: num, cost: money, qty: num });
export const StoreOrder = z.looseObject({ id: str, date: optStr, dateStr: optStr, cust: optStr, job: optStr, dest: optStr, count: num, total: num, gp: num, lines: z.array(StoreOrderLine).optional(), status: optStr });
export type StoreOrder = z.infer<typeof StoreOrder>;

export const Buyback = z.looseObject({ id: str, date: optStr, model: optStr, cust: optStr, grade: optStr, bat: num.optional(), offer: money, resell: money, margin: money, residual: money, refurb: money });
export type Buyback = z.infer<typeof Buyback>;
export const RefurbStock = z.looseObject({ id: str, model: optStr, grade: optStr, cost: money, ask: money, margin: money, note: optStr });
export type RefurbStock = z.infer<typeof RefurbStock>;
export const BuybackReceipt = z.looseObject({ no: str, id: optStr, date: optStr, dateJa: optStr, cust: optStr, person: optStr, items: z.array(z.looseObject({ model: optStr, qty: num.optional(), price: money })).optional(), total: money, note: optStr });
export type BuybackReceipt = z.infer<typeof BuybackReceipt>;

export const Report = z.looseObject({
  id: str,
  cust: str.nullable().optional(),
  custLabel: optStr,
  month: optStr,
  monthLabel: optStr,
  hasData: z.boolean().optional(),
  figures: z.record(z.string(), z.union([num, str]).nullable()).optional(),
  scope: z.record(z.string(), z.string()).optional(),
  asOf: z.union([str, num]).optional(),
  undated: z.record(z.string(), num).optional(),
  generatedAt: num.optional(),
});
export type Report = z.infer<typeof Report>;

export const COMPLIANCE_KEYS = ['isms', 'pmark', 'soc2', 'appi'] as const;
export type ComplianceKey = (typeof COMPLIANCE_KEYS)[number];
export const Capa = z.looseObject({ id: str, src: optStr, finding: optStr, due: optStr, owner: optStr, state: optStr });
export type Capa = z.infer<typeof Capa>;
/** Audit row [ts 'YYYY-MM-DD HH:mm', user, action, target, result, cat]. */
export const AuditRow = z.array(z.string());
export type AuditRow = z.infer<typeof AuditRow>;
export const ComplianceDoc = z.looseObject({ month: str, count: num, byCat: z.record(z.string(), num).optional(), capa: z.array(Capa.extend({ overdue: z.boolean().optional() })).optional(), overdue: num.optional(), org: z.record(z.string(), z.unknown()).optional(), issuedAt: num.optional() });
export type ComplianceDoc = z.infer<typeof ComplianceDoc>;

export const ExtraRule = z.looseObject({ id: str, trig: z.string().optional(), act: z.string().optional(), ic: z.string().optional(), on: z.boolean().optional() });
export type ExtraRule = z.infer<typeof ExtraRule>;
export const SyncLogEntry = z.looseObject({ id: str, service: optStr, kind: optStr, result: optStr, time: optStr });
export type SyncLogEntry = z.infer<typeof SyncLogEntry>;

/** DaaS simulator prefs (GET /api/daas `sim`, POST /api/daas/sim). */
export const DaasSim = z.looseObject({ cust: optStr, model: optStr, qty: num.optional(), term: num.optional(), res: num.optional(), lcm: z.boolean().optional(), war: z.boolean().optional(), updated: num.optional() });
export type DaasSim = z.infer<typeof DaasSim>;
/** One DaaS send (history keeps the 50 newest). */
export const DaasSend = z.looseObject({ id: optStr, ts: num.optional(), cust: optStr, channel: optStr, to: optStr, doc: optStr, quoteId: optStr, model: optStr, qty: num.nullable().optional(), mrr: num.nullable().optional() });
export type DaasSend = z.infer<typeof DaasSend>;

/** Chain-of-custody record (POST /api/compliance/custody). */
export const CustodyStep = z.looseObject({ label: z.string(), role: z.string(), who: z.string(), dt: z.string(), state: z.string(), sign: z.string() });
export type CustodyStep = z.infer<typeof CustodyStep>;
export const CustodyRecord = z.looseObject({ id: str, imei: optStr, model: optStr, cust: optStr, steps: z.array(CustodyStep), created: num.optional() });
export type CustodyRecord = z.infer<typeof CustodyRecord>;
/** One entry of a custody 422's invalid[] / incomplete[]. */
export const CustodyIssue = z.looseObject({ code: optStr, message: z.string(), step: num.nullable().optional(), field: optStr, label: optStr, missing: z.array(z.string()).optional() });
export type CustodyIssue = z.infer<typeof CustodyIssue>;
export const CustodyRejection = z.looseObject({ issues: z.array(z.string()).optional(), invalid: z.array(CustodyIssue), incomplete: z.array(CustodyIssue), draftable: z.boolean() });
export type CustodyRejection = z.infer<typeof CustodyRejection>;

const removed = ok({ id: str });
/** Success bodies of the capacity routes. */
export const capacityResponses = {
  view: ok({
    config: CapacityConfig,
    load: z.array(LoadEntry),
    week: z.array(CapacityDay),
    summary: CapacitySummary,
    /** The company calendar the week was counted with. */
    calendar: z.looseObject({ workdays: z.array(num), holidays: z.boolean(), closedDates: z.array(str) }).optional(),
    /** Open cards whose 期限 cannot be read as a date, or whose year was guessed: to be fixed on the board. */
    flagged: z.array(z.looseObject({ id: str, t: str, c: str, units: num, due: str, date: str.nullable(), reason: str })).optional(),
  }),
  config: okItem('config', CapacityConfig),
  load: okItem('entry', LoadEntry),
  remove: removed,
};
/** Success bodies of the DaaS routes. */
export const daasResponses = {
  view: ok({ quotes: z.array(DaasQuote), sim: DaasSim.nullable(), sends: z.array(DaasSend), totals: DaasTotals }),
  quote: okItem('quote', DaasQuote),
  status: ok({ quote: DaasQuote, from: str, totals: DaasTotals }),
  remove: removed,
  sim: okItem('sim', DaasSim),
  send: okItem('send', DaasSend),
};
/** Success bodies of the accessory store routes. */
export const storeResponses = {
  catalog: ok({ catalog: z.array(StoreProduct), cats: z.array(str) }),
  orders: ok({ orders: z.array(StoreOrder), count: num }),
  order: okItem('order', StoreOrder),
  remove: removed,
  product: okItem('product', StoreProduct),
};
/** Success bodies of the trade-in routes. */
export const tradeinResponses = {
  view: ok({ buybacks: z.array(Buyback), inventory: z.array(RefurbStock), receipts: z.array(BuybackReceipt) }),
  buyback: okItem('buyback', Buyback),
  stock: okItem('stock', RefurbStock),
  receipt: okItem('receipt', BuybackReceipt),
  remove: removed,
};
/** Success bodies of the monthly report routes. */
export const reportResponses = {
  list: ok({ reports: z.array(Report), count: num }),
  generate: ok({ report: Report, hasData: z.boolean() }),
  one: okItem('report', Report),
};
/** Success bodies of the compliance and audit log routes. */
export const complianceResponses = {
  view: ok({ controls: z.record(str, z.array(z.boolean())), capa: z.array(Capa) }),
  capa: okItem('capa', Capa),
  controls: ok({ key: str, controls: z.array(z.boolean()) }),
  auditLog: ok({ logs: z.array(AuditRow) }),
  audit: okItem('entry', AuditRow),
  report: okItem('doc', ComplianceDoc),
  custody: okItem('record', CustodyRecord),
};
const Rules = ok({ rules: z.record(str, z.boolean()), extraRules: z.array(ExtraRule) });
/** Success bodies of the integration rule and sync log routes. */
export const integrationResponses = {
  rules: Rules,
  saveRules: Rules,
  log: okList('log', SyncLogEntry),
  addLog: ok({ entry: SyncLogEntry, log: z.array(SyncLogEntry) }),
};
