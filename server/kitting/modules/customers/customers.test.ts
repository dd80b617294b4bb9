import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';

type Customer = Record<string, unknown> & { id: string; name: string; renew: Record<string, string> | null };
interface Renewal {
  id: string;
  customerId: string;
  customer: string;
  date: string;
  dateLabel: string;
  year: string;
}

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer();
  api = server.client();
});
afterAll(() => server.close());

describe('customers', () => {
  it('POST /api/customer requires a name (400, nothing stored)', async () => {
    const before = (await api.get<{ customers: Customer[] }>('/api/customers')).body.customers.length;
    for (const body of [{}, { name: '' }, { name: '  ' }]) {
      const res = await api.post('/api/customer', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('name required');
    }
    expect((await api.get<{ customers: Customer[] }>('/api/customers')).body.customers).toHaveLength(before);
  });

  it('POST /api/customer answers {id, customer} with defaults', async () => {
    const res = await api.post<{ ok: boolean; id: string; customer: Customer }>('/api/customer', { name: '株式会社テスト商会' });
    expect(res.body.id).toMatch(/^cust-/);
    expect(res.body.customer).toMatchObject({ id: res.body.id, name: '株式会社テスト商会', monthly: '—', devices: '—', since: '—', statusChip: 'c-gray', renew: null });
  });

  it('POST /api/customer/{id} overwrites renew with an object or null', async () => {
    const { id } = (await api.post<{ id: string }>('/api/customer', { name: '更新テスト' })).body;
    const withRenew = await api.post<{ customer: Customer }>(`/api/customer/${id}`, { renew: { date: '2027-02-01', kind: '契約更新' } });
    expect(withRenew.body.customer.renew).toMatchObject({ date: '2027-02-01', dateLabel: '02/01', year: '2027', kind: '契約更新' });
    const cleared = await api.post<{ customer: Customer }>(`/api/customer/${id}`, { renew: null });
    expect(cleared.body.customer.renew).toBeNull();
    expect(cleared.body.customer.name).toBe('更新テスト');
  });

  it('refuses a malformed renew date and an emptied name', async () => {
    const { id } = (await api.post<{ id: string }>('/api/customer', { name: 'X' })).body;
    expect((await api.post(`/api/customer/${id}`, { renew: { date: '来年' } })).status).toBe(400);
    for (const date of ['2027-02-30', '2027-13-01', '2027-00-10']) {
      expect((await api.post(`/api/customer/${id}`, { renew: { date } })).status, date).toBe(400);
    }
    const renewals = (await api.get<{ renewals: { customerId: string }[] }>('/api/renewals')).body.renewals;
    expect(renewals.some((r) => r.customerId === id)).toBe(false);
    expect((await api.post(`/api/customer/${id}`, { name: '' })).status).toBe(400);
  });

  it('answers 404 for unknown ids on update and delete', async () => {
    expect((await api.post('/api/customer/cust-nope', { name: 'a' })).body).toEqual({ ok: false, error: 'customer not found' });
    expect((await api.post('/api/customer/cust-nope/delete')).status).toBe(404);
  });

  it('POST /api/customer/{id}/delete answers the id', async () => {
    const { id } = (await api.post<{ id: string }>('/api/customer', { name: '削除テスト' })).body;
    expect((await api.post(`/api/customer/${id}/delete`)).body).toEqual({ ok: true, id });
  });
});

describe('GET /api/renewals', () => {
  it('derives renewals from customers with renew.date, ascending by date', async () => {
    const { id } = (await api.post<{ id: string }>('/api/customer', { name: '早期更新', renew: { date: '2026-01-05', kind: '端末入替' } })).body;
    const res = await api.get<{ renewals: Renewal[] }>('/api/renewals');
    const dates = res.body.renewals.map((r) => r.date);
    expect(dates).toEqual([...dates].sort());
    expect(res.body.renewals[0]).toMatchObject({ id: `ren-${id}`, customerId: id, customer: '早期更新', date: '2026-01-05', dateLabel: '01/05', year: '2026' });
    const customers = (await api.get<{ customers: Customer[] }>('/api/customers')).body.customers;
    expect(res.body.renewals).toHaveLength(customers.filter((c) => c.renew && c.renew.date).length);
  });
});
