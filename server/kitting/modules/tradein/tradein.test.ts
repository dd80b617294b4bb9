import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstYear } from '../../../../shared/dates';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';
import { buybackFigures } from './tradein.service';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('buyback figures (this project\'s formula)', () => {
  it('residual = resell − refurbishing cost; margin = residual − offer', () => {
    expect(buybackFigures({ grade: 'A', bat: 90, offer: 30000, resell: 45000 })).toEqual({ refurb: 2000, residual: 43000, margin: 13000 });
    // battery below 80 % adds a battery replacement
    expect(buybackFigures({ grade: 'B', bat: 79, offer: 20000, resell: 28000 })).toEqual({ refurb: 9500, residual: 18500, margin: -1500 });
    expect(buybackFigures({ grade: 'B', bat: 80, offer: 20000, resell: 28000 }).refurb).toBe(3500);
  });
});

describe('GET /api/tradein', () => {
  it('starts with empty buybacks, inventory and receipts', async () => {
    const r = await server.client().get('/api/tradein');
    expect(r.body).toEqual({ ok: true, buybacks: [], inventory: [], receipts: [] });
  });
});

describe('POST /api/tradein/buyback', () => {
  it('stores the buyback with margin and residual computed by the server', async () => {
    const c = server.client();
    const r = await c.post<{ buyback: Record<string, unknown> }>('/api/tradein/buyback', { model: 'iPhone 14', cust: 'ABC物流株式会社', grade: 'a', bat: 85, offer: '30000', resell: 45000, margin: 999999, residual: 1 });
    expect(r.status).toBe(200);
    expect(r.body.buyback).toMatchObject({ model: 'iPhone 14', grade: 'A', bat: 85, offer: 30000, resell: 45000, residual: 43000, margin: 13000 });
    expect(String(r.body.buyback.id)).toMatch(/^BB-/);
    const list = (await c.get<{ buybacks: { id: string }[] }>('/api/tradein')).body.buybacks;
    expect(list.map((b) => b.id)).toEqual([r.body.buyback.id]);
    expect((await c.post(`/api/tradein/buyback/${String(r.body.buyback.id)}/delete`)).body).toEqual({ ok: true, id: r.body.buyback.id });
    expect((await c.post(`/api/tradein/buyback/${String(r.body.buyback.id)}/delete`)).status).toBe(404);
  });

  it('refuses missing model, bad grade, battery or amounts', async () => {
    const c = server.client();
    const base = { model: 'iPhone 14', grade: 'A', bat: 90, offer: 1, resell: 2 };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, model: '' }, 'model required'],
      [{ ...base, grade: 'Z' }, 'invalid grade'],
      [{ ...base, bat: 120 }, 'invalid bat'],
      [{ ...base, offer: -1 }, 'invalid offer'],
      [{ ...base, resell: undefined }, 'resell required'],
    ];
    for (const [body, error] of cases) {
      const r = await c.post('/api/tradein/buyback', body);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe(error);
    }
    expect((await c.get<{ buybacks: unknown[] }>('/api/tradein')).body.buybacks).toHaveLength(0);
  });
});

describe('POST /api/tradein/inventory', () => {
  it('stores refurbished stock with margin = ask − cost', async () => {
    const c = server.client();
    const r = await c.post<{ stock: Record<string, unknown> }>('/api/tradein/inventory', { model: 'iPhone 13', grade: 'B', cost: 32000, ask: 41800 });
    expect(r.body.stock).toMatchObject({ model: 'iPhone 13', grade: 'B', cost: 32000, ask: 41800, margin: 9800 });
    expect(String(r.body.stock.id)).toMatch(/^RF-/);
    expect((await c.post(`/api/tradein/inventory/${String(r.body.stock.id)}/delete`)).body.ok).toBe(true);
    expect((await c.post('/api/tradein/inventory', { grade: 'B' })).status).toBe(400);
  });
});

describe('POST /api/tradein/receipt', () => {
  it('numbers receipts KIT-BUY-<year>-<NNNN> and totals the items', async () => {
    const c = server.client();
    const a = (await c.post<{ receipt: Record<string, unknown> }>('/api/tradein/receipt', { cust: 'ABC物流株式会社', person: '山田 太郎', items: [{ model: 'iPhone 14', price: 30000 }, { model: 'iPhone 13', price: 20000, qty: 2 }], total: 1 })).body.receipt;
    expect(a.no).toBe(`KIT-BUY-${jstYear()}-0001`);
    expect(a.total).toBe(70000);
    expect(a.dateJa).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日$/);
    const b = (await c.post<{ receipt: Record<string, unknown> }>('/api/tradein/receipt', { cust: 'B' })).body.receipt;
    expect(b.no).toBe(`KIT-BUY-${jstYear()}-0002`);
    expect(b.total).toBe(0);
    const list = (await c.get<{ receipts: { no: string }[] }>('/api/tradein')).body.receipts;
    expect(list.map((r) => r.no)).toEqual([b.no, a.no]);
    expect((await c.post(`/api/tradein/receipt/${String(a.no)}/delete`)).body).toEqual({ ok: true, id: a.no });
    expect((await c.post('/api/tradein/receipt', {})).body.error).toBe('cust required');
    expect((await c.post('/api/tradein/receipt', { cust: 'x', items: 'abc' })).body.error).toBe('invalid items');
    expect((await c.post('/api/tradein/receipt', { cust: 'x', items: [{ price: -1 }] })).body.error).toBe('invalid price');
  });
});
