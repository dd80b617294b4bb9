/**
 * Monthly report figures. Month-scoped figures count records dated in that JST month;
 * the ledger has no history, so ledger figures describe the current state (scope
 * 'current'). Records without a usable date are counted under `undated`.
 *   dev    devices in the ledger (current)
 *   store  devices 保管中 in the ledger (current)
 *   kit    devices in outbound shipments of the month ("×N台" in the detail)
 *   out    outbound shipments of the month;  inb  inbound shipments of the month
 *   tk     tickets opened in the month;  swap  of them kind 故障 or 交換;  lost  kind 紛失
 *   sla / slaPct  tickets of the month not past their SLA (the SLA clock does not start
 *          with '-' or 超過) as "met/total" and a whole percent (null without tickets)
 *   wipe   devices on erasure certificates dated in the month;  wipeCerts  those certificates
 *   revenue  amounts of the month's invoices (YYMM), any status
 */
import { z } from 'zod';
import { jstDate, jstYymm } from '../../../../shared/dates';
import { json } from '../../../../shared/fields';
import { collectionSchema, derivedText, ruleField, stamp } from '../../http/collection-schema';
import type { Doc } from '../../store/types';
import { isDate } from '../compliance/compliance.service';
import { readMonth } from '../invoices/invoices.service';

export const REPORTS = 'reports';

export interface ReportInput {
  devices: Doc[];
  jobs: Doc[];
  tickets: Doc[];
  shipments: Doc[];
  invoices: Doc[];
  certs: Doc[];
}

export type Scope = 'month' | 'current';

/** Each figure of a report and what it describes (the month, or the ledger's current state). */
const FIGURE_SCOPES = {
  dev: 'current', kit: 'month', swap: 'month', tk: 'month', slaPct: 'month', sla: 'month', lost: 'month',
  wipe: 'month', inb: 'month', out: 'month', store: 'current', revenue: 'month', wipeCerts: 'month',
} as const satisfies Record<string, Scope>;
type Figure = keyof typeof FIGURE_SCOPES;

const unitsIn = (detail: unknown) => {
  let n = 0;
  for (const m of String(detail ?? '').matchAll(/[×x]\s*(\d+)\s*台/g)) n += Number(m[1]);
  return n;
};

const stampMonth = (v: unknown): string | null => (typeof v === 'number' && Number.isFinite(v) ? jstYymm(v) : null);
const dateMonth = (v: unknown): string | null => {
  const m = typeof v === 'string' ? /^(\d{2})(\d{2})-(\d{2})-\d{2}$/.exec(v) : null;
  return m ? `${m[2]}${m[3]}` : null;
};

const monthLabel = (yymm: string) => `20${yymm.slice(0, 2)}年${Number(yymm.slice(2))}月`;

function reportFigures(d: ReportInput, month: string, cust: string | null) {
  const mine = (v: unknown) => cust === null || v === cust;
  const devices = d.devices.filter((x) => mine(x.cust));
  const tickets = d.tickets.filter((x) => mine(x.cust));
  const shipments = d.shipments.filter((x) => mine(x.customer));
  const jobs = d.jobs.filter((x) => mine(x.c));
  const monthTickets = tickets.filter((t) => stampMonth(t.created) === month);
  const monthShip = shipments.filter((s) => stampMonth(s.created) === month);
  const out = monthShip.filter((s) => s.kind === 'out');
  const certs = d.certs.filter((c) => mine(c.cust) && dateMonth(c.date) === month);
  const met = monthTickets.filter((t) => !/^(-|超過)/.test(String(t.sla ?? ''))).length;

  const figures = {
    dev: devices.length,
    kit: out.reduce((s, x) => s + unitsIn(x.detail), 0),
    swap: monthTickets.filter((t) => t.kind === '故障' || t.kind === '交換').length,
    tk: monthTickets.length,
    slaPct: monthTickets.length ? Math.round((met / monthTickets.length) * 100) : null,
    sla: `${met}/${monthTickets.length}`,
    lost: monthTickets.filter((t) => t.kind === '紛失').length,
    wipe: certs.reduce((s, c) => s + (Number(c.count) || (Array.isArray(c.devices) ? c.devices.length : 0)), 0),
    inb: monthShip.filter((s) => s.kind === 'in').length,
    out: out.length,
    store: devices.filter((x) => x.status === '保管中').length,
    revenue: d.invoices.filter((i) => mine(i.cust) && i.month === month).reduce((s, i) => s + (Number(i.amount) || 0), 0),
    wipeCerts: certs.length,
  };
  const scope: Record<keyof typeof figures, Scope> = FIGURE_SCOPES;
  const hasData =
    figures.tk + figures.inb + figures.out + figures.wipeCerts > 0 || d.invoices.some((i) => mine(i.cust) && i.month === month);
  const undated = {
    jobs: jobs.length, // job cards carry no date
    tickets: tickets.filter((t) => stampMonth(t.created) === null).length,
    shipments: shipments.filter((s) => stampMonth(s.created) === null).length,
  };
  return { figures, scope, hasData, undated };
}

export function buildReport(d: ReportInput, month: string, customer: { key: string; name: string } | null, now = Date.now()) {
  const { figures, scope, hasData, undated } = reportFigures(d, month, customer ? customer.name : null);
  return {
    id: `RPT-${month}-${customer ? customer.key : 'all'}`,
    cust: customer ? customer.name : null,
    custLabel: customer ? customer.name : '全顧客',
    month,
    monthLabel: monthLabel(month),
    hasData,
    figures,
    scope,
    asOf: jstDate(now),
    undated,
    generatedAt: now,
  };
}

const count = z.number().int().nonnegative();
const figureRules: Record<Figure, z.ZodType> = {
  dev: count, kit: count, swap: count, tk: count, lost: count, wipe: count, inb: count, out: count, store: count, wipeCerts: count,
  slaPct: z.number().int().min(0).max(100).nullable(),
  sla: z.string().regex(/^\d+\/\d+$/, 'sla must be met/total'),
  revenue: z.number().int().nonnegative(),
};
const scopeRules = Object.fromEntries(Object.entries(FIGURE_SCOPES).map(([k, v]) => [k, z.literal(v)]));
/** A customer name (the customer routes clip names to 120), or 全顧客 for a report of all customers. */
const custLabel = derivedText(120);

/**
 * Reports are written by the server only (POST /api/report/generate): a pushed one has the generated shape,
 * its figures whole counts, its month a YYMM, its scopes those of each figure, its dates real ones.
 */
export const reportSchema = collectionSchema(REPORTS, {}, {
  cust: custLabel,
  custLabel,
  month: ruleField(readMonth),
  monthLabel: derivedText(20),
  hasData: json(z.boolean()),
  figures: json(z.strictObject(figureRules)),
  scope: json(z.strictObject(scopeRules)),
  asOf: json(z.string().refine(isDate, 'asOf must be a real YYYY-MM-DD')),
  undated: json(z.strictObject({ jobs: count, tickets: count, shipments: count })),
  generatedAt: stamp(),
});
