import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstDate } from '../../../../shared/dates';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addDays } from './capacity.service';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface Entry {
  id: string;
  date: string;
  cust: string;
  qty: number;
  kind: string;
  note: string;
  created: number;
}
interface Capacity {
  config: Record<string, number | null>;
  load: Entry[];
  week: { date: string; load: number; capacity: number; over: boolean; pct: number }[];
  summary: Record<string, number | string | null>;
}

describe('capacity config', () => {
  it('answers defaults with perStaff 80 and no updated stamp', async () => {
    const res = await server.client().get<Capacity>('/api/capacity');
    expect(res.body.config.perStaff).toBe(80);
    expect(res.body.config.updated).toBeNull();
    expect(res.body.load).toEqual([]);
    expect(res.body.week).toHaveLength(7);
  });

  it('merges numbers, keeps the current value for omitted ones and stamps updated', async () => {
    const api = server.client();
    const a = await api.post<{ config: Record<string, number> }>('/api/capacity/config', { kittingDaily: 300, staffCount: 4 });
    expect(a.body.config).toMatchObject({ kittingDaily: 300, staffCount: 4, perStaff: 80 });
    expect(a.body.config.updated).toBeGreaterThan(0);
    const b = await api.post<{ config: Record<string, number> }>('/api/capacity/config', { storageUsed: 1600 });
    expect(b.body.config).toMatchObject({ kittingDaily: 300, staffCount: 4, storageUsed: 1600 });
  });
});

describe('capacity load', () => {
  it('numbers entries CAP-####, lists them sorted by date and computes week and summary', async () => {
    const api = server.client();
    await api.post('/api/capacity/config', { kittingDaily: 100, storageUsed: 800, storageMax: 3200 });
    const today = jstDate();
    const late = await api.post<{ entry: Entry }>('/api/capacity/load', { date: addDays(today, 2), cust: 'A社', qty: 150, kind: '入替' });
    const early = await api.post<{ entry: Entry }>('/api/capacity/load', { date: today, cust: 'B社', qty: 40 });
    await api.post('/api/capacity/load', { date: today, cust: 'C社', qty: 20 });
    expect(late.body.entry.id).toBe('CAP-0001');
    expect(early.body.entry).toMatchObject({ id: 'CAP-0002', kind: 'キッティング', qty: 40 });
    const res = await api.get<Capacity>('/api/capacity');
    expect(res.body.load.map((l) => l.id)).toEqual(['CAP-0002', 'CAP-0003', 'CAP-0001']);
    expect(res.body.week[0]).toMatchObject({ date: today, load: 60, capacity: 100, over: false, pct: 60 });
    expect(res.body.week[2]).toMatchObject({ load: 150, over: true });
    expect(res.body.summary).toMatchObject({ weekLoad: 210, weekCapacity: 700, overDays: 1, peakDate: addDays(today, 2), storagePct: 25 });
  });

  it('updates and deletes entries; unknown ids answer 404 load entry not found', async () => {
    const api = server.client();
    const { id } = (await api.post<{ entry: Entry }>('/api/capacity/load', { qty: 5 })).body.entry;
    expect((await api.post<{ entry: Entry }>(`/api/capacity/load/${id}`, { qty: 9, note: '追加' })).body.entry).toMatchObject({ id, qty: 9, note: '追加' });
    expect((await api.post(`/api/capacity/load/${id}/delete`)).body).toEqual({ ok: true, id });
    const missing = await api.post(`/api/capacity/load/${id}`, { qty: 1 });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ ok: false, error: 'load entry not found' });
    expect((await api.post(`/api/capacity/load/${id}/delete`)).status).toBe(404);
  });

  it('refuses a qty that is not a number and config numbers that are not numbers ≥ 0 (400, nothing stored)', async () => {
    const api = server.client();
    for (const qty of ['abc', { n: 1 }, true]) {
      const res = await api.post('/api/capacity/load', { date: '2026-12-01', qty });
      expect(res.status).toBe(400);
    }
    expect((await api.get<Capacity>('/api/capacity')).body.load).toEqual([]);
    const { id } = (await api.post<{ entry: Entry }>('/api/capacity/load', { date: '2026-12-01' })).body.entry;
    expect((await api.post(`/api/capacity/load/${id}`, { qty: 'many' })).status).toBe(400);
    expect((await api.get<Capacity>('/api/capacity')).body.load[0]).toMatchObject({ id, qty: 0 });

    const before = (await api.get<Capacity>('/api/capacity')).body.config;
    for (const body of [{ perStaff: 'abc' }, { staffCount: -3 }, { kittingDaily: 500, storageMax: [1] }]) {
      const res = await api.post('/api/capacity/config', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid config');
    }
    expect((await api.get<Capacity>('/api/capacity')).body.config).toEqual(before);
  });

  it('refuses a malformed date with 400 and stores nothing', async () => {
    const api = server.client();
    const res = await api.post('/api/capacity/load', { date: '2026/12/01', qty: 1 });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid date');
    expect((await api.get<Capacity>('/api/capacity')).body.load).toEqual([]);
  });
});
