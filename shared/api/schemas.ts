/**
 * Wire contract of the Kitting Operations API (docs/spec/kitting-api.md) as zod schemas.
 *
 * Response schemas are deliberately tolerant: they name the fields the UI relies on and
 * let extra fields through (looseObject), so a server that adds a field never breaks the
 * UI, while a body of the wrong shape (an HTML page, a missing list) is caught.
 * Pure TypeScript: no node:, electron or DOM imports.
 */
import { z } from 'zod';
import { num, optStr, str, textish } from './primitives';

export const Alert = z.looseObject({
  id: str,
  label: optStr,
  late: z.boolean().optional(),
  ack: z.boolean().optional(),
  acked: num.optional(),
  chip: optStr,
  chipLabel: optStr,
  what: optStr,
  detail: optStr,
  action: z.looseObject({ label: optStr, danger: z.boolean().optional(), toast: optStr }).optional(),
});
export type Alert = z.infer<typeof Alert>;

export const OpsRow = z.looseObject({
  id: str,
  time: optStr,
  chip: optStr,
  chipLabel: optStr,
  title: optStr,
  detail: optStr,
  status: optStr,
  statusColor: optStr,
});
export type OpsRow = z.infer<typeof OpsRow>;

const Figure = z.looseObject({ display: z.union([str, num]).optional(), unit: optStr, computed: z.boolean().optional(), reason: optStr });
export const MetricsOverview = z.looseObject({
  month: optStr,
  revenueForecast: Figure.optional(),
  mrr: Figure.optional(),
  pipeline: Figure.optional(),
  kittingMonth: Figure.optional(),
  grossMargin: Figure.optional(),
  recurringCustomers: Figure.optional(),
});
export type MetricsOverview = z.infer<typeof MetricsOverview>;

export const Device = z.looseObject({
  imei: str,
  serial: optStr,
  asset: optStr,
  model: optStr,
  maker: optStr,
  os: optStr,
  cust: optStr,
  mdm: optStr,
  status: optStr,
  chip: optStr,
  bat: z.union([num, str]).optional(),
  loc: optStr,
  user: optStr,
  note: optStr,
});
export type Device = z.infer<typeof Device>;
/** Editable device fields (POST /api/device/{imei}); imei is immutable. */
export interface DevicePatch {
  status?: string;
  loc?: string;
  user?: string;
  bat?: number;
  note?: string;
  model?: string;
  cust?: string;
}
export interface DeviceCreate extends DevicePatch {
  imei?: string;
  mdm?: string;
}
export interface BulkRegister {
  qty: number;
  model?: string;
  cust?: string;
  mdm?: string;
  status?: string;
}

export const JOB_STAGE_COUNT = 8;
export const Job = z.looseObject({
  id: str,
  c: optStr,
  t: optStr,
  s: num,
  due: optStr,
  ch: optStr,
  tag: optStr,
  devices: z.array(z.string()).optional(),
});
export type Job = z.infer<typeof Job>;
export interface JobInput {
  c?: string;
  t?: string;
  s?: number;
  due?: string;
  ch?: string;
  tag?: string;
}

export const Shipment = z.looseObject({
  id: str,
  late: z.boolean().optional(),
  created: num.optional(),
  updated: num.optional(),
  date: optStr,
  kind: optStr,
  customer: optStr,
  detail: optStr,
  carrier: optStr,
  status: optStr,
});
export type Shipment = z.infer<typeof Shipment>;

export const Inquiry = z.looseObject({
  id: str,
  inquiryId: optStr,
  status: optStr,
  type: optStr,
  inquirerName: optStr,
  department: optStr,
  summary: optStr,
  faultyDeviceId: optStr,
  sentDeviceId: optStr,
  remarks: optStr,
  inquiryDate: optStr,
  returnDeadline: optStr,
  shipDate: optStr,
  arrivalDate: optStr,
  returnDate: optStr,
  returnReceivedDate: optStr,
});
export type Inquiry = z.infer<typeof Inquiry>;

export const Ticket = z.looseObject({
  id: str,
  cust: optStr,
  kind: optStr,
  subject: optStr,
  owner: optStr,
  sla: optStr,
  status: optStr,
  priority: optStr,
  created: num.optional(),
});
export type Ticket = z.infer<typeof Ticket>;

export const TicketMessage = z.looseObject({ id: str, from: optStr, text: str, ts: num.optional() });
export type TicketMessage = z.infer<typeof TicketMessage>;

export const Renew = z.looseObject({
  date: optStr,
  dateLabel: optStr,
  year: z.union([str, num]).optional(),
  kind: optStr,
  kindChip: optStr,
  what: optStr,
  detail: optStr,
  confidence: z.union([str, num]).optional(),
  confColor: optStr,
});
export const Customer = z.looseObject({
  id: str,
  key: optStr,
  name: str,
  industry: optStr,
  mdm: optStr,
  monthly: optStr,
  devices: optStr,
  since: optStr,
  status: optStr,
  statusChip: optStr,
  note: optStr,
  renew: Renew.nullable().optional(),
});
export type Customer = z.infer<typeof Customer>;
export const Renewal = Renew.extend({ id: str, customerId: optStr, customer: optStr });
export type Renewal = z.infer<typeof Renewal>;

export const CertDevice = z.looseObject({ model: optStr, id: str, storage: optStr });
export const ErasureCert = z.looseObject({
  no: str,
  date: optStr,
  cust: optStr,
  count: num.optional(),
  methodKey: optStr,
  method: optStr,
  nist: optStr,
  devices: z.array(CertDevice).optional(),
  issuedAt: num.optional(),
});
export type ErasureCert = z.infer<typeof ErasureCert>;
export type ErasureMethod = 'purge' | 'clear' | 'destroy';
export interface CertInput {
  cust: string;
  methodKey: ErasureMethod;
  date: string;
  count: number;
  devices: { model: string; id: string; storage: string }[];
}

export const LABEL_FIELDS = ['mgmt', 'imei', 'cust', 'model', 'qr', 'barcode'] as const;
export type LabelField = (typeof LABEL_FIELDS)[number];
export type LabelSize = 's' | 'm' | 'l';
export const LabelTemplate = z.looseObject({
  id: str,
  name: optStr,
  size: optStr,
  fields: z.record(z.string(), z.boolean()).optional(),
  ts: num.optional(),
});
export type LabelTemplate = z.infer<typeof LabelTemplate>;
export const LabelLogEntry = z.looseObject({ id: str, ts: num.optional(), date: optStr, count: num.optional(), size: optStr, result: optStr, reason: optStr });
export type LabelLogEntry = z.infer<typeof LabelLogEntry>;

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
  createdAt: z.union([num, str]).nullable().optional(),
  updatedAt: z.union([num, str]).nullable().optional(),
  issuedAt: z.union([num, str]).nullable().optional(),
  totals: QuoteTotals.optional(),
});
export type Quote = z.infer<typeof Quote>;
export interface QuoteInput {
  id?: string | null;
  cust?: string;
  custId?: string | null;
  pattern?: 'A' | 'B';
  costRate?: number;
  /** Device quantity (drives per-device price and the volume discount). */
  qty?: number;
  ini: { n: string; q: number; p: number; d?: string }[];
  run: { n: string; q: number; p: number; d?: string }[];
  signId?: string | null;
}

export const Invoice = z.looseObject({
  id: str,
  cust: optStr,
  month: optStr,
  desc: optStr,
  amount: num.optional(),
  due: optStr,
  status: optStr,
  recurring: z.boolean().optional(),
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

export const Staff = z.looseObject({ id: str, name: optStr, type: optStr });
export type Staff = z.infer<typeof Staff>;
export const SHIFT_VALUES = ['day', 'late', 'night', 'disp', 'off'] as const;
export type ShiftValue = (typeof SHIFT_VALUES)[number];
export const Grid = z.record(z.string(), z.array(z.string()));
export type Grid = z.infer<typeof Grid>;
export const ClockRow = z.looseObject({ in: str.nullable().optional(), out: str.nullable().optional(), status: optStr, units: num.optional() });
export type ClockRow = z.infer<typeof ClockRow>;
export const ShiftDraft = z.looseObject({
  grid: Grid,
  diff: z.array(z.looseObject({ staffId: str, day: num, from: optStr, to: optStr })).optional(),
  ts: num.optional(),
  status: optStr,
});
export type ShiftDraft = z.infer<typeof ShiftDraft>;
export const RosterSnapshot = z.looseObject({ id: str, ts: num.optional(), reason: optStr, grid: Grid.optional() });
export type RosterSnapshot = z.infer<typeof RosterSnapshot>;

export const DockReservation = z.looseObject({
  id: str,
  date: optStr,
  start: optStr,
  dur: num.optional(),
  size: optStr,
  dir: optStr,
  cust: optStr,
  note: optStr,
  berth: optStr,
});
export type DockReservation = z.infer<typeof DockReservation>;

export const PortalDevice = z.looseObject({ imei: str, model: optStr, status: optStr, chip: optStr, loc: optStr });
export const PortalView = z.looseObject({
  client: z.looseObject({ name: optStr, slug: optStr }),
  published: z.boolean(),
  last: optStr,
  devices: z
    .looseObject({ total: num.nullable().optional(), active: num.nullable().optional(), list: z.array(PortalDevice).optional(), shown: num.optional() })
    .optional(),
  tickets: z.array(Ticket).optional(),
});
export type PortalView = z.infer<typeof PortalView>;
/** One customer's portal state (GET /api/portals `state[key]`, POST /api/portal/*). */
export const PortalEntry = z.looseObject({ id: str, name: optStr, slug: optStr, suffix: optStr, published: z.boolean().optional(), last: optStr });
export type PortalEntry = z.infer<typeof PortalEntry>;

export const Tenant = z.looseObject({
  id: str,
  name: optStr,
  plan: optStr,
  seats: num.optional(),
  used: num.optional(),
  status: optStr,
  email: optStr,
  devices: num.optional(),
  mrr: num.optional(),
  clients: z.array(str).optional(),
});
export type Tenant = z.infer<typeof Tenant>;
export const TenantStats = z.looseObject({
  total: num.optional(),
  active: num.optional(),
  trial: num.optional(),
  suspended: num.optional(),
  mrr: num.optional(),
  devices: num.optional(),
  seats: num.optional(),
  sites: num.optional(),
  clients: num.optional(),
});
export const SubAdmin = z.looseObject({
  id: str,
  name: optStr,
  email: optStr,
  tenants: z.array(str).optional(),
  perms: z.looseObject({ canDelete: z.boolean().optional() }).optional(),
  active: z.boolean().optional(),
});
export type SubAdmin = z.infer<typeof SubAdmin>;
export const Backup = z.looseObject({ id: str, ts: num.optional(), by: optStr, reason: optStr, sites: num.optional(), tenantId: optStr });
export type Backup = z.infer<typeof Backup>;

/** A row of any list the UI shows generically (back-office screens). */
export const AnyRecord = z.record(z.string(), z.unknown());
export type AnyRecord = z.infer<typeof AnyRecord>;

/** Failure envelope. */
export const ErrorBody = z.looseObject({
  ok: z.literal(false),
  error: z.string(),
  code: optStr,
  message: optStr,
  issues: z.unknown().optional(),
  errors: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export * from './schemas-backoffice';
