import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstDate, jstYymm } from '../../../../shared/dates';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';

interface Report {
  id: string; cust: string | null; custLabel: string; month: string; monthLabel: string; hasData: boolean;
  figures: Record<string, number | string | null>; scope: Record<string, string>; asOf: string;
  undated: { jobs: number; tickets: number; shipments: number }; generatedAt: number;
}
type GenBody = { ok: boolean; report: Report; hasData: boolean; error?: string };

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const wsOf = (c: Client) => decodeURIComponent(c.cookie('kit_tid') ?? '').replace(/\.[^.]*$/, '');
const month = jstYymm();

async function fresh(): Promise<Client> {
  const c = server.client();
  await c.get('/api/reports');
  return c;
}

describe('GET /api/report/generate', () => {
  it('builds an all-customer report of the current month from the workspace data, without storing it', async () => {
    const c = await fresh();
    const r = await c.get<GenBody>('/api/report/generate');
    expect(r.status).toBe(200);
    const rep = r.body.report;
    expect(rep).toMatchObject({ id: `RPT-${month}-all`, cust: null, custLabel: '全顧客', month, asOf: jstDate() });
    expect(rep.monthLabel).toBe(`20${month.slice(0, 2)}年${Number(month.slice(2))}月`);
    expect(r.body.hasData).toBe(rep.hasData);
    expect(rep.figures.dev).toBe(178);
    const devices = (await c.get<{ devices: { status: string }[] }>('/api/devices')).body.devices;
    expect(rep.figures.store).toBe(devices.filter((d) => d.status === '保管中').length);
    const invoices = (await c.get<{ invoices: { month: string; amount: number }[] }>('/api/invoices')).body.invoices;
    expect(rep.figures.revenue).toBe(invoices.filter((i) => i.month === month).reduce((s, i) => s + i.amount, 0));
    const jobs = (await c.get<{ jobs: unknown[] }>('/api/jobs')).body.jobs;
    expect(rep.undated.jobs).toBe(jobs.length);
    expect(rep.scope).toMatchObject({ dev: 'current', store: 'current', tk: 'month', revenue: 'month', wipe: 'month' });
    expect(Object.keys(rep.scope).sort()).toEqual(Object.keys(rep.figures).sort());
    expect((await c.get<{ count: number }>('/api/reports')).body.count).toBe(0);
  });

  it('counts the month\'s tickets, shipments and erasure certificates for one customer', async () => {
    const c = await fresh();
    const base = (await c.get<GenBody>('/api/report/generate?cust=cust-abc')).body.report;
    expect(base.id).toBe(`RPT-${month}-abc`);
    expect(base.custLabel).toBe('ABC物流株式会社');
    expect(base.figures.dev).toBe(32);
    await c.post('/api/ticket', { cust: 'ABC物流株式会社', kind: '紛失', sla: '超過 0h 10m' });
    await c.post('/api/ticket', { cust: 'ABC物流株式会社', kind: '故障' });
    await c.post('/api/ticket', { cust: '他社', kind: '故障' });
    await c.post('/api/shipment', { kind: 'out', customer: 'ABC物流株式会社', detail: 'iPhone 16 ×12台' });
    await c.post('/api/shipment', { kind: 'in', customer: 'ABC物流株式会社', detail: '返却' });
    await c.post('/api/invoice', { cust: 'ABC物流株式会社', amount: 5000 });
    const ws = wsOf(c);
    await server.store.transact(ws, async (tx) => {
      await tx.put('erasureCerts', 'KIT-ERZ-T-1', { no: 'KIT-ERZ-T-1', date: jstDate(), cust: 'ABC物流株式会社', count: 5, devices: [] });
      await tx.put('erasureCerts', 'KIT-ERZ-T-2', { no: 'KIT-ERZ-T-2', date: '2001-01-15', cust: 'ABC物流株式会社', count: 9, devices: [] });
      await tx.put('erasureCerts', 'KIT-ERZ-T-3', { no: 'KIT-ERZ-T-3', date: jstDate(), cust: '他社', count: 4, devices: [] });
      await tx.put('tickets', 'TK-X', { id: 'TK-X', cust: 'ABC物流株式会社', kind: '問合せ' });
    });
    const rep = (await c.get<GenBody>('/api/report/generate?cust=abc')).body.report;
    const d = (k: string) => Number(rep.figures[k]) - Number(base.figures[k]);
    expect(d('tk')).toBe(2);
    expect(d('lost')).toBe(1);
    expect(d('swap')).toBe(1);
    expect(d('kit')).toBe(12);
    expect(d('out')).toBe(1);
    expect(d('inb')).toBe(1);
    expect(d('revenue')).toBe(5000);
    expect(d('wipe')).toBe(5);
    expect(d('wipeCerts')).toBe(1);
    expect(rep.undated.tickets - base.undated.tickets).toBe(1);
    const [met, total] = String(rep.figures.sla).split('/').map(Number);
    expect(total).toBe(rep.figures.tk);
    expect(rep.figures.slaPct).toBe(Math.round((met! / total!) * 100));
    expect(rep.hasData).toBe(true);
  });

  it('reports hasData false for an empty month, with slaPct null', async () => {
    const r = await (await fresh()).get<GenBody>('/api/report/generate?month=2001');
    expect(r.body.hasData).toBe(false);
    expect(r.body.report.figures).toMatchObject({ tk: 0, out: 0, inb: 0, revenue: 0, wipe: 0, slaPct: null, sla: '0/0' });
    expect(r.body.report.figures.dev).toBe(178);
  });

  it('refuses a malformed month and an unknown customer', async () => {
    const c = await fresh();
    const a = await c.get<GenBody>('/api/report/generate?month=26-11');
    expect(a.status).toBe(400);
    expect(a.body.error).toBe('invalid month');
    const b = await c.get<GenBody>('/api/report/generate?cust=nobody');
    expect(b.status).toBe(404);
  });
});

describe('POST /api/report/generate, GET /api/reports and /api/report/{id}', () => {
  it('persists, overwrites the same period and lists newest first', async () => {
    const c = await fresh();
    const a = (await c.post<GenBody>('/api/report/generate', { month })).body.report;
    await new Promise((r) => setTimeout(r, 5));
    const b = (await c.post<GenBody>('/api/report/generate', { cust: 'cust-nsk', month: '2610' })).body.report;
    expect(b.id).toBe('RPT-2610-nsk');
    await new Promise((r) => setTimeout(r, 5));
    const a2 = (await c.post<GenBody>('/api/report/generate', { month })).body.report;
    expect(a2.id).toBe(a.id);
    const list = (await c.get<{ reports: Report[]; count: number }>('/api/reports')).body;
    expect(list.count).toBe(2);
    expect(list.reports.map((r) => r.id)).toEqual([a.id, b.id]);
    expect(list.reports[0]?.generatedAt).toBe(a2.generatedAt);
    const got = await c.get<{ ok: boolean; report: Report }>(`/api/report/${b.id}`);
    expect(got.body.report).toEqual(b);
    const missing = await c.get('/api/report/RPT-0000-none');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('report not found');
    expect((await c.post('/api/report/generate', { month: '2613' })).status).toBe(400);
    expect((await c.get<{ count: number }>('/api/reports')).body.count).toBe(2);
  });
});
