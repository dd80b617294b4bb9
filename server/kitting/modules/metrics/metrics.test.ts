import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstYymm } from '../../../../shared/dates';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';
import { overview, shiftMonth } from './metrics.service';

interface Figure { display: string; unit: string; computed?: boolean; reason?: string | null; amount?: number | null }
interface Overview {
  ok: boolean;
  month: string;
  revenueForecast: Figure & { total: number | null; oneTime: number | null; recurring: number | null; deltaPct: number | null };
  mrr: Figure & { invoiceRecurring: number; projected: number | null };
  pipeline: Figure & { deals: number };
  kittingMonth: Figure & { count: number; jobs: number; shipments: number };
  grossMargin: Figure & { bar: number; pct: number | null };
  recurringCustomers: Figure & { active: number; proposed: number; rows: { label: string; amount: number }[] };
  aggregates: { customers: number; jobs: number; shipments: number; invoices: number };
}
interface Mix { ok: boolean; months: string[]; recurring: number[]; onetime: number[]; error?: string }

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const empty = { invoices: [], customers: [], jobs: [], shipments: [], daas: [], quotes: [] };

describe('metrics service', () => {
  it('shifts YYMM across years', () => {
    expect(shiftMonth('2601', 1)).toBe('2512');
    expect(shiftMonth('2611', 12)).toBe('2511');
    expect(shiftMonth('2611', 0)).toBe('2611');
  });

  it('marks figures that cannot be computed with computed:false, reason, — and null', () => {
    const o = overview(empty);
    const figs: Figure[] = [o.revenueForecast, o.mrr, o.pipeline, o.grossMargin];
    for (const f of figs) {
      expect(f.computed).toBe(false);
      expect(f.display).toBe('—');
      expect(typeof f.reason).toBe('string');
      expect(f.amount).toBeNull();
    }
    expect(o.revenueForecast.deltaPct).toBeNull();
    expect(o.aggregates).toEqual({ customers: 0, jobs: 0, shipments: 0, invoices: 0 });
  });

  it('gives deltaPct only with a prior month', () => {
    const m = jstYymm();
    const only = overview({ ...empty, invoices: [{ month: m, amount: 200000, recurring: false }] });
    expect(only.revenueForecast).toMatchObject({ computed: true, total: 200000, oneTime: 200000, recurring: 0, deltaPct: null, display: '20.0' });
    const both = overview({ ...empty, invoices: [{ month: m, amount: 150000, recurring: true }, { month: shiftMonth(m, 1), amount: 100000, recurring: true }] });
    expect(both.revenueForecast.deltaPct).toBe(50);
    expect(both.mrr).toMatchObject({ computed: true, amount: 150000, invoiceRecurring: 150000 });
  });
});

describe('GET /api/metrics/overview', () => {
  it('returns every figure computed from the demo workspace', async () => {
    const api = server.client();
    const res = await api.get<Overview>('/api/metrics/overview');
    expect(res.status).toBe(200);
    const o = res.body;
    expect(o.month).toBe(jstYymm());
    const invoices = (await api.get<{ invoices: { month: string; amount: number; recurring: boolean }[] }>('/api/invoices')).body.invoices;
    const cur = invoices.filter((i) => i.month === o.month);
    expect(o.revenueForecast.total).toBe(cur.reduce((s, i) => s + i.amount, 0));
    expect(o.revenueForecast.recurring).toBe(cur.filter((i) => i.recurring).reduce((s, i) => s + i.amount, 0));
    expect(o.aggregates.invoices).toBe(invoices.length);
    expect(o.aggregates.customers).toBe((await api.get<{ customers: unknown[] }>('/api/customers')).body.customers.length);
    expect(o.aggregates.jobs).toBe((await api.get<{ jobs: unknown[] }>('/api/jobs')).body.jobs.length);
    expect(o.pipeline.computed).toBe(true);
    expect(o.pipeline.deals).toBeGreaterThan(0);
    expect(o.grossMargin.computed).toBe(true);
    expect(o.grossMargin.bar).toBe(Math.round(o.grossMargin.pct ?? -1));
    expect(o.recurringCustomers.active).toBe(o.recurringCustomers.rows.length);
    expect(o.kittingMonth.unit).toBe('台');
  });

  it('follows the workspace data: invoices, shipments and DaaS contracts move the figures', async () => {
    const api = server.client();
    const before = (await api.get<Overview>('/api/metrics/overview')).body;
    await api.post('/api/invoice', { cust: '新規継続顧客', amount: 100000, recurring: true });
    await api.post('/api/invoice', { cust: '単発', amount: 50000 });
    await api.post('/api/shipment', { kind: 'out', customer: 'X', detail: 'iPhone 16 ×7台・iPad ×3台' });
    const q = (await api.post<{ quote: { id: string; mrr: number } }>('/api/daas/quote', { cust: 'DaaS新規', model: 'iPhone 16', qty: 10, expires: '2099-12-31' })).body.quote;
    const mid = (await api.get<Overview>('/api/metrics/overview')).body;
    expect(mid.pipeline.deals).toBe(before.pipeline.deals); // a draft is not pipeline
    for (const s of ['proposed', 'approved', 'contracted']) await api.post(`/api/daas/quote/${q.id}/status`, { status: s });
    const after = (await api.get<Overview>('/api/metrics/overview')).body;
    expect((after.revenueForecast.total ?? 0) - (before.revenueForecast.total ?? 0)).toBe(150000);
    expect(after.mrr.invoiceRecurring - before.mrr.invoiceRecurring).toBe(100000);
    expect((after.mrr.amount ?? 0) - (before.mrr.amount ?? 0)).toBe(100000 + q.mrr);
    expect(after.kittingMonth.count - before.kittingMonth.count).toBe(10);
    expect(after.kittingMonth.shipments - before.kittingMonth.shipments).toBe(1);
    expect(after.recurringCustomers.active - before.recurringCustomers.active).toBe(2);
    expect(after.recurringCustomers.rows.find((r) => r.label === 'DaaS新規')?.amount).toBe(q.mrr);
    expect(after.aggregates.invoices - before.aggregates.invoices).toBe(2);
  });
});

describe('GET /api/revenue/mix', () => {
  it('defaults to 12 monthly points ending with the current month', async () => {
    const res = await server.client().get<Mix>('/api/revenue/mix');
    expect(res.status).toBe(200);
    expect(res.body.months).toHaveLength(12);
    expect(res.body.months.at(-1)).toBe(jstYymm());
    expect(res.body.months[0]).toBe(shiftMonth(jstYymm(), 11));
    expect(res.body.recurring).toHaveLength(12);
    expect(res.body.onetime).toHaveLength(12);
  });

  it('reports invoice amounts in 万円', async () => {
    const api = server.client();
    const m = shiftMonth(jstYymm(), 2);
    const before = (await api.get<Mix>('/api/revenue/mix?months=3')).body;
    expect(before.months).toEqual([m, shiftMonth(jstYymm(), 1), jstYymm()]);
    await api.post('/api/invoice', { cust: 'x', amount: 250000, month: m });
    await api.post('/api/invoice', { cust: 'x', amount: 1230000, month: m, recurring: true });
    const after = (await api.get<Mix>('/api/revenue/mix?months=3')).body;
    expect(Math.round((after.onetime[0]! - before.onetime[0]!) * 10) / 10).toBe(25);
    expect(Math.round((after.recurring[0]! - before.recurring[0]!) * 10) / 10).toBe(123);
  });

  it('accepts 1..120 and refuses anything else with 400', async () => {
    const api = server.client();
    expect((await api.get<Mix>('/api/revenue/mix?months=1')).body.months).toHaveLength(1);
    expect((await api.get<Mix>('/api/revenue/mix?months=120')).body.months).toHaveLength(120);
    for (const bad of ['0', '121', 'abc', '1.5', '-3']) {
      const r = await api.get<Mix>(`/api/revenue/mix?months=${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.error).toBe('invalid months');
    }
  });
});
