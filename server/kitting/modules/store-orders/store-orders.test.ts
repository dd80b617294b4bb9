import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstDate } from '../../../../shared/dates';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';

interface Product { id: string; name: string; cat: string; price: number; cost: number; custom: boolean }
interface Order { id: string; date: string; dateStr: string; cust: string; job: string; dest: string; count: number; total: number; gp: number; status: string; lines: { id: string; name: string; price: number; cost: number; qty: number }[] }

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
});
afterAll(() => server.close());

describe('GET /api/store/catalog and POST /api/store/product', () => {
  it('lists the built-in master, then custom products, with categories', async () => {
    const c = server.client();
    const before = (await c.get<{ catalog: Product[]; cats: string[] }>('/api/store/catalog')).body;
    expect(before.catalog.length).toBeGreaterThan(0);
    expect(before.catalog.every((p) => p.custom === false)).toBe(true);
    expect(before.cats).toEqual([...new Set(before.catalog.map((p) => p.cat))]);
    const r = await c.post<{ product: Product }>('/api/store/product', { name: '社名入りケース', cat: '特注', price: '2500', cost: 1200.4 });
    expect(r.body.product).toMatchObject({ name: '社名入りケース', cat: '特注', price: 2500, cost: 1200, custom: true });
    const after = (await c.get<{ catalog: Product[]; cats: string[] }>('/api/store/catalog')).body;
    expect(after.catalog.slice(0, before.catalog.length)).toEqual(before.catalog);
    expect(after.catalog.at(-1)?.id).toBe(r.body.product.id);
    expect(after.cats).toContain('特注');
    expect((await server.client().get<{ catalog: Product[] }>('/api/store/catalog')).body.catalog).toHaveLength(before.catalog.length);
  });

  it('refuses a product without name or with a bad price', async () => {
    expect((await api.post('/api/store/product', { price: 1 })).body.error).toBe('name required');
    expect((await api.post('/api/store/product', { name: 'x', price: -1 })).body.error).toBe('invalid price');
    expect((await api.post('/api/store/product', { name: 'x' })).status).toBe(400);
  });
});

describe('POST /api/store/order', () => {
  it('numbers AO-YYYYMM-NNNN and computes count, total and gp on the server', async () => {
    const c = server.client();
    const cat = (await c.get<{ catalog: Product[] }>('/api/store/catalog')).body.catalog;
    const p = cat[0]!;
    const r = await c.post<{ order: Order }>('/api/store/order', {
      cust: 'ABC物流株式会社', job: 'job-1', dest: '札幌営業所',
      lines: [{ id: p.id, qty: 10 }, { id: 'free', name: '手配品', price: 1000, cost: 600, qty: 3 }],
      count: 999, total: 1, gp: 1,
    });
    expect(r.status).toBe(200);
    const o = r.body.order;
    const ym = jstDate().slice(0, 7).replace('-', '');
    expect(o.id).toMatch(new RegExp(`^AO-${ym}-\\d{4}$`));
    expect(o.lines[0]).toEqual({ id: p.id, name: p.name, price: p.price, cost: p.cost, qty: 10 });
    expect(o.count).toBe(13);
    expect(o.total).toBe(p.price * 10 + 3000);
    expect(o.gp).toBe((p.price - p.cost) * 10 + 1200);
    expect(o.status).toBe('確定');
    expect(o.date).toBe(jstDate());
    const o2 = (await c.post<{ order: Order }>('/api/store/order', { lines: [{ id: p.id, qty: 1 }] })).body.order;
    expect(Number(o2.id.slice(-4))).toBe(Number(o.id.slice(-4)) + 1);
    const list = (await c.get<{ orders: Order[]; count: number }>('/api/store/orders')).body;
    expect(list.count).toBe(2);
    expect(list.orders[0]?.id).toBe(o2.id);
  });

  it('refuses missing lines, bad qty and unknown products without name or price, storing nothing', async () => {
    const c = server.client();
    const cases: [unknown, string][] = [
      [{}, 'lines required'],
      [{ lines: [] }, 'lines required'],
      [{ lines: [{ id: 'acc-strap', qty: 0 }] }, 'invalid qty'],
      [{ lines: [{ id: 'acc-strap', qty: 1.5 }] }, 'invalid qty'],
      [{ lines: [{ id: 'nope', qty: 1, price: 100 }] }, 'invalid line'],
      [{ lines: [{ id: 'nope', name: 'x', qty: 1 }] }, 'price required'],
      [{ lines: [{ id: 'acc-strap', qty: 1, price: 'abc' }] }, 'invalid price'],
    ];
    for (const [body, error] of cases) {
      const r = await c.post('/api/store/order', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toBe(error);
    }
    expect((await c.get<{ count: number }>('/api/store/orders')).body.count).toBe(0);
  });
});

describe('POST /api/store/order/{id} and delete', () => {
  it('updates status and delivery fields, leaving lines and totals unchanged', async () => {
    const c = server.client();
    const o = (await c.post<{ order: Order }>('/api/store/order', { cust: 'A', lines: [{ id: 'acc-strap', qty: 5 }] })).body.order;
    const u = (await c.post<{ order: Order }>(`/api/store/order/${o.id}`, { status: '出荷済', dest: '本社', lines: [], total: 0, count: 0 })).body.order;
    expect(u).toMatchObject({ status: '出荷済', dest: '本社', cust: 'A', count: o.count, total: o.total, gp: o.gp });
    expect(u.lines).toEqual(o.lines);
    expect((await c.post(`/api/store/order/AO-000000-0000`, { status: 'x' })).status).toBe(404);
    expect((await c.post(`/api/store/order/${o.id}/delete`)).body).toEqual({ ok: true, id: o.id });
    expect((await c.post(`/api/store/order/${o.id}/delete`)).status).toBe(404);
  });
});
