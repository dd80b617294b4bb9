import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstYymm } from '../../../../shared/dates';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';
import { billingSummary } from './invoices.service';

interface Invoice { id: string; cust: string; month: string; desc: string; amount: number; due: string; status: string; recurring: boolean }
type InvoiceBody = { ok: boolean; invoice: Invoice; error?: string; message?: string };
interface Summary { mrr: number; arr: number; billed: number; paid: number; unpaid: number; overdue: number; draft: number; recurring: number; oneshot: number; ratio: string; recurringPct: number; paidRatio: number; month: string; count: number }

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
});
afterAll(() => server.close());

describe('GET /api/invoices', () => {
  it('lists seeded invoices of several months, newest id first, with count', async () => {
    const res = await api.get<{ ok: boolean; invoices: Invoice[]; count: number }>('/api/invoices');
    expect(res.status).toBe(200);
    const ids = res.body.invoices.map((i) => i.id);
    expect(res.body.count).toBe(ids.length);
    expect(new Set(res.body.invoices.map((i) => i.month)).size).toBeGreaterThan(3);
    expect(res.body.invoices.some((i) => i.recurring) && res.body.invoices.some((i) => !i.recurring)).toBe(true);
    expect(ids).toEqual([...ids].sort().reverse());
  });
});

describe('POST /api/invoice', () => {
  it('numbers INV-YYMM-NNN per month from the series, after the seeded ids', async () => {
    const a = (await api.post<InvoiceBody>('/api/invoice', { cust: 'A社', amount: 1000, month: '2501' })).body.invoice;
    const b = (await api.post<InvoiceBody>('/api/invoice', { cust: 'A社', amount: 1000, month: '2501' })).body.invoice;
    expect([a.id, b.id]).toEqual(['INV-2501-001', 'INV-2501-002']);
    const seeded = (await api.get<{ invoices: Invoice[] }>('/api/invoices')).body.invoices.filter((i) => i.id.startsWith('INV-2610-')).length;
    const c = (await api.post<InvoiceBody>('/api/invoice', { cust: 'A社', amount: 1, month: '2610' })).body.invoice;
    expect(c.id).toBe(`INV-2610-${String(seeded + 1).padStart(3, '0')}`);
  });

  it('applies defaults: current month, draft, not recurring; rounds amount; clips fields', async () => {
    const res = await api.post<InvoiceBody>('/api/invoice', { cust: 'C'.repeat(200), amount: '1234.5', desc: 'D'.repeat(400), due: 'X'.repeat(30) });
    expect(res.status).toBe(200);
    expect(res.body.invoice).toMatchObject({ month: jstYymm(), status: 'draft', recurring: false, amount: 1235 });
    expect(res.body.invoice.cust).toHaveLength(120);
    expect(res.body.invoice.desc).toHaveLength(300);
    expect(res.body.invoice.due).toHaveLength(20);
    expect(res.body.invoice.id.startsWith(`INV-${jstYymm()}-`)).toBe(true);
  });

  it('uses a custom id only when it starts with INV- and is unused', async () => {
    const a = await api.post<InvoiceBody>('/api/invoice', { id: 'INV-CUSTOM-1', cust: 'x', amount: 1, month: '2502' });
    expect(a.body.invoice.id).toBe('INV-CUSTOM-1');
    const dup = await api.post<InvoiceBody>('/api/invoice', { id: 'INV-CUSTOM-1', cust: 'x', amount: 1, month: '2502' });
    expect(dup.body.invoice.id).toBe('INV-2502-001');
    const other = await api.post<InvoiceBody>('/api/invoice', { id: 'X-1', cust: 'x', amount: 1, month: '2502' });
    expect(other.body.invoice.id).toBe('INV-2502-002');
  });

  it('never overwrites an invoice whose custom id holds the next number of the series', async () => {
    const custom = await api.post<InvoiceBody>('/api/invoice', { id: 'INV-2504-001', cust: '手入力', amount: 500, month: '2504' });
    expect(custom.body.invoice.id).toBe('INV-2504-001');
    const next = await api.post<InvoiceBody>('/api/invoice', { cust: '自動採番', amount: 700, month: '2504' });
    expect(next.body.invoice.id).toBe('INV-2504-002');
    const list = (await api.get<{ invoices: Invoice[] }>('/api/invoices')).body.invoices;
    expect(list.find((i) => i.id === 'INV-2504-001')).toMatchObject({ cust: '手入力', amount: 500 });
  });

  it('refuses empty cust, invalid amount, malformed month and unknown status, storing nothing', async () => {
    const c = server.client();
    const before = (await c.get<{ count: number }>('/api/invoices')).body.count;
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: 1 }, 'cust required'],
      [{ cust: '  ', amount: 1 }, 'cust required'],
      [{ cust: 'x' }, 'invalid amount'],
      [{ cust: 'x', amount: -1 }, 'invalid amount'],
      [{ cust: 'x', amount: 'abc' }, 'invalid amount'],
      [{ cust: 'x', amount: 1, month: '2613' }, 'invalid month'],
      [{ cust: 'x', amount: 1, month: '26-11' }, 'invalid month'],
      [{ cust: 'x', amount: 1, status: 'void' }, 'invalid status'],
      [{ cust: 'x', amount: 1, desc: { text: 'a' } }, 'invalid desc'],
      [{ cust: 'x', amount: 1, due: ['2026/12/31'] }, 'invalid due'],
    ];
    for (const [body, error] of cases) {
      const r = await c.post<InvoiceBody>('/api/invoice', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toBe(error);
    }
    expect((await c.get<{ count: number }>('/api/invoices')).body.count).toBe(before);
  });
});

describe('POST /api/invoice/{id}', () => {
  it('changes the given fields and validates status, amount and month', async () => {
    const inv = (await api.post<InvoiceBody>('/api/invoice', { cust: 'U', amount: 100, month: '2503' })).body.invoice;
    const r = await api.post<InvoiceBody>(`/api/invoice/${inv.id}`, { status: 'paid', amount: 99.6, recurring: true });
    expect(r.body.invoice).toMatchObject({ id: inv.id, status: 'paid', amount: 100, recurring: true, cust: 'U' });
    for (const [body, error] of [[{ status: 'x' }, 'invalid status'], [{ amount: -5 }, 'invalid amount'], [{ month: '9999' }, 'invalid month'], [{ desc: { a: 1 } }, 'invalid desc'], [{ due: true }, 'invalid due']] as const) {
      const bad = await api.post<InvoiceBody>(`/api/invoice/${inv.id}`, body);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe(error);
    }
    expect((await api.post<InvoiceBody>('/api/invoice/INV-0000-999', { status: 'paid' })).status).toBe(404);
  });
});

describe('an issued invoice is locked', () => {
  it('refuses content edits with 409 invoice issued and nothing stored, but lets the status move on', async () => {
    const inv = (await api.post<InvoiceBody>('/api/invoice', { cust: '株式会社ロック', amount: 5000, month: '2506', desc: '11月分', due: '2026-12-31' })).body.invoice;
    // a draft is edited freely
    expect((await api.post<InvoiceBody>(`/api/invoice/${inv.id}`, { amount: 6000 })).body.invoice.amount).toBe(6000);
    expect((await api.post<InvoiceBody>('/api/invoices/issue', { month: '2506' })).status).toBe(200);
    for (const body of [{ amount: 7000 }, { cust: '別会社' }, { desc: '変更' }, { month: '2507' }, { due: '2027-01-31' }, { recurring: true }, { status: 'paid', amount: 1 }]) {
      const r = await api.post<InvoiceBody & { fields?: string[] }>(`/api/invoice/${inv.id}`, body);
      expect(r.status).toBe(409);
      expect(r.body.error).toBe('invoice issued');
      expect(r.body.message).toContain('発行済み');
      expect(r.body.fields).toEqual(Object.keys(body).filter((k) => k !== 'status'));
    }
    const stored = (await api.get<{ invoices: Invoice[] }>('/api/invoices')).body.invoices.find((i) => i.id === inv.id);
    expect(stored).toMatchObject({ amount: 6000, cust: '株式会社ロック', desc: '11月分', month: '2506', status: 'issued', recurring: false });
    // a form that sends every field unchanged with a new status is a status change, not an edit
    const paid = await api.post<InvoiceBody>(`/api/invoice/${inv.id}`, { ...stored, status: 'paid' });
    expect(paid.status).toBe(200);
    expect(paid.body.invoice).toMatchObject({ status: 'paid', amount: 6000 });
    expect((await api.post<InvoiceBody>(`/api/invoice/${inv.id}`, { status: 'overdue' })).body.invoice.status).toBe('overdue');
    expect((await api.post<InvoiceBody>(`/api/invoice/${inv.id}`, { amount: 1 })).status).toBe(409);
    // back to draft (the spec lets any status be set), it can be corrected and issued again
    expect((await api.post<InvoiceBody>(`/api/invoice/${inv.id}`, { status: 'draft' })).body.invoice.status).toBe('draft');
    expect((await api.post<InvoiceBody>(`/api/invoice/${inv.id}`, { amount: 6500 })).body.invoice.amount).toBe(6500);
  });
});

describe('POST /api/invoices/issue', () => {
  it('issues the drafts of the given month only', async () => {
    const c = server.client();
    await c.post('/api/invoice', { cust: 'a', amount: 1, month: '2504' });
    await c.post('/api/invoice', { cust: 'b', amount: 1, month: '2504' });
    await c.post('/api/invoice', { cust: 'c', amount: 1, month: '2504', status: 'paid' });
    await c.post('/api/invoice', { cust: 'd', amount: 1, month: '2505' });
    const r = await c.post<{ ok: boolean; count: number }>('/api/invoices/issue', { month: '2504' });
    expect(r.body).toMatchObject({ ok: true, count: 2 });
    const list = (await c.get<{ invoices: Invoice[] }>('/api/invoices')).body.invoices;
    expect(list.filter((i) => i.month === '2504').map((i) => i.status).sort()).toEqual(['issued', 'issued', 'paid']);
    expect(list.find((i) => i.month === '2505')?.status).toBe('draft');
    expect((await c.post<{ count: number }>('/api/invoices/issue', { month: '2504' })).body.count).toBe(0);
    expect((await c.post('/api/invoices/issue', { month: 'abcd' })).status).toBe(400);
  });
});

describe('GET /api/billing/summary', () => {
  it('adds the current month\'s invoices into each figure', async () => {
    const c = server.client();
    const s0 = (await c.get<{ summary: Summary }>('/api/billing/summary')).body.summary;
    expect(s0.month).toBe(jstYymm());
    await c.post('/api/invoice', { cust: 'r', amount: 1000, recurring: true, status: 'issued' });
    await c.post('/api/invoice', { cust: 'o', amount: 500, status: 'paid' });
    await c.post('/api/invoice', { cust: 'o', amount: 300, status: 'overdue' });
    await c.post('/api/invoice', { cust: 'o', amount: 200 });
    await c.post('/api/invoice', { cust: 'old', amount: 99999, month: '2401', status: 'paid' });
    const s1 = (await c.get<{ summary: Summary }>('/api/billing/summary')).body.summary;
    expect(s1.mrr - s0.mrr).toBe(1000);
    expect(s1.arr).toBe(s1.mrr * 12);
    expect(s1.billed - s0.billed).toBe(1800);
    expect(s1.paid - s0.paid).toBe(500);
    expect(s1.unpaid - s0.unpaid).toBe(1300);
    expect(s1.overdue - s0.overdue).toBe(300);
    expect(s1.draft - s0.draft).toBe(200);
    expect(s1.oneshot - s0.oneshot).toBe(1000);
    expect(s1.count - s0.count).toBe(4);
  });

  it('computes ratio, recurringPct and paidRatio', () => {
    const s = billingSummary(
      [
        { month: '2611', amount: 750, recurring: true, status: 'paid' },
        { month: '2611', amount: 250, recurring: false, status: 'issued' },
        { month: '2610', amount: 5000, recurring: true, status: 'paid' },
      ],
      '2611',
    );
    expect(s).toEqual({ mrr: 750, arr: 9000, billed: 1000, paid: 750, unpaid: 250, overdue: 0, draft: 0, recurring: 750, oneshot: 250, ratio: '75:25', recurringPct: 75, paidRatio: 75, month: '2611', count: 2 });
    expect(billingSummary([], '2611')).toMatchObject({ ratio: '0:0', recurringPct: 0, paidRatio: 0, count: 0 });
  });
});
