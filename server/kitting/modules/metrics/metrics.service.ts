/**
 * Overview figures, each derived from the workspace's own records. Definitions (this
 * project's reading of the contract):
 * - revenueForecast: every invoice of the current month (any status), split recurring /
 *   one-time; deltaPct against the previous month's invoices (null without any).
 * - mrr: this month's recurring invoices + contracted DaaS mrr; projected adds the DaaS
 *   pipeline (proposed and approved).
 * - pipeline: contract value (mrr × term) of proposed and approved DaaS quotes.
 * - kittingMonth: devices in this month's outbound shipments ("×N台" in the detail),
 *   the number of those shipments, and job cards at the last board stage.
 * - grossMargin: Σgp ÷ Σy1 of issued quotes.
 * - recurringCustomers: customers billed recurring this month or with a DaaS contract.
 * Yen figures stay integer yen; display strings are in 万円.
 */
import { jstYymm } from '../../../../shared/dates';
import type { Doc } from '../../store/types';
import { monthFigures } from '../invoices/invoices.service';
import { daasTotals } from '../daas/daas.service';
import { totalsOf, type Quote } from '../quotes/quote-model';

export interface MetricsInput {
  invoices: Doc[];
  customers: Doc[];
  jobs: Doc[];
  shipments: Doc[];
  daas: Doc[];
  quotes: Doc[];
}

const MAN = 10_000;
const manFmt = new Intl.NumberFormat('ja-JP', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** Yen shown in 万円 with one decimal, e.g. 1,234.5. */
const man = (yen: number) => manFmt.format(yen / MAN);
/** Yen in 万円 as a number with one decimal (charts). */
const manValue = (yen: number) => Math.round(yen / 1000) / 10;

/** YYMM of the month `offset` months before `yymm`. */
export function shiftMonth(yymm: string, offset: number): string {
  const idx = Number(yymm.slice(0, 2)) * 12 + Number(yymm.slice(2)) - 1 - offset;
  const y = Math.floor(idx / 12);
  const m = (idx % 12) + 1;
  return `${String(y).padStart(2, '0')}${String(m).padStart(2, '0')}`;
}

const LAST_STAGE = 7;
const unitsIn = (detail: unknown) => {
  let n = 0;
  for (const m of String(detail ?? '').matchAll(/[×x]\s*(\d+)\s*台/g)) n += Number(m[1]);
  return n;
};
const notComputed = (reason: string) => ({ display: '—', computed: false, reason, amount: null });

export function overview(d: MetricsInput, now = Date.now()) {
  const month = jstYymm(now);
  const cur = monthFigures(d.invoices, month);
  const prev = monthFigures(d.invoices, shiftMonth(month, 1));
  const daas = daasTotals(d.daas);
  const open = d.daas.filter((q) => q.status === 'proposed' || q.status === 'approved');

  const revenueForecast = cur.count
    ? {
        display: man(cur.total),
        unit: '万円',
        total: cur.total,
        oneTime: cur.oneshot,
        recurring: cur.recurring,
        deltaPct: prev.count && prev.total > 0 ? Math.round(((cur.total - prev.total) / prev.total) * 1000) / 10 : null,
        computed: true,
      }
    : { ...notComputed('今月の請求データがありません'), unit: '万円', total: null, oneTime: null, recurring: null, deltaPct: null };

  const mrrAmount = cur.recurring + daas.mrr;
  const mrr =
    cur.recurring > 0 || daas.contracts > 0
      ? { display: man(mrrAmount), unit: '万円', amount: mrrAmount, invoiceRecurring: cur.recurring, daas: daas.mrr, projected: mrrAmount + daas.pipelineMrr, computed: true }
      : { ...notComputed('今月の継続請求・DaaS契約がありません'), unit: '万円', invoiceRecurring: 0, projected: null };

  const pipelineAmount = open.reduce((s, q) => s + (Number(q.mrr) || 0) * (Number(q.term) || 0), 0);
  const pipeline = d.daas.length
    ? { display: man(pipelineAmount), unit: '万円', amount: pipelineAmount, deals: open.length, computed: true, reason: null }
    : { ...notComputed('DaaS見積がありません'), unit: '万円', deals: 0 };

  const outThisMonth = d.shipments.filter((s) => s.kind === 'out' && typeof s.created === 'number' && jstYymm(s.created) === month);
  const kitCount = outThisMonth.reduce((s, x) => s + unitsIn(x.detail), 0);
  const kittingMonth = {
    display: String(kitCount),
    unit: '台',
    count: kitCount,
    jobs: d.jobs.filter((j) => j.s === LAST_STAGE).length,
    shipments: outThisMonth.length,
  };

  const issued = d.quotes.filter((q) => typeof q.issuedAt === 'number').map((q) => totalsOf(q as unknown as Quote));
  const y1 = issued.reduce((s, t) => s + t.y1, 0);
  const gp = issued.reduce((s, t) => s + t.gp, 0);
  const pct = y1 > 0 ? Math.round((gp / y1) * 1000) / 10 : null;
  const grossMargin =
    pct === null
      ? { ...notComputed('発行済みの見積がありません'), unit: '%', bar: 0, pct: null }
      : { display: pct.toFixed(1), unit: '%', bar: Math.round(Math.min(100, Math.max(0, pct))), pct, computed: true, quotes: issued.length };

  const perCustomer = new Map<string, number>();
  for (const i of d.invoices) {
    if (i.month === month && i.recurring === true) perCustomer.set(String(i.cust), (perCustomer.get(String(i.cust)) ?? 0) + (Number(i.amount) || 0));
  }
  for (const q of d.daas) {
    if (q.status === 'contracted') perCustomer.set(String(q.cust), (perCustomer.get(String(q.cust)) ?? 0) + (Number(q.mrr) || 0));
  }
  const proposed = new Set(open.map((q) => String(q.cust)).filter((c) => c && !perCustomer.has(c)));
  const rows = [...perCustomer].map(([label, amount]) => ({ label, amount })).sort((a, b) => b.amount - a.amount);
  const recurringCustomers = { display: String(rows.length), unit: '社', active: rows.length, proposed: proposed.size, rows };

  return {
    month,
    revenueForecast,
    mrr,
    pipeline,
    kittingMonth,
    grossMargin,
    recurringCustomers,
    aggregates: { customers: d.customers.length, jobs: d.jobs.length, shipments: d.shipments.length, invoices: d.invoices.length },
  };
}

/** Recurring and one-time invoice amounts per month (万円), oldest first, ending with the current month. */
export function revenueMix(invoices: Doc[], points: number, now = Date.now()) {
  const last = jstYymm(now);
  const months = Array.from({ length: points }, (_, i) => shiftMonth(last, points - 1 - i));
  const figs = months.map((m) => monthFigures(invoices, m));
  return { months, recurring: figs.map((f) => manValue(f.recurring)), onetime: figs.map((f) => manValue(f.oneshot)) };
}
