import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstDate } from '../../../../shared/dates';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';
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
  week: { date: string; load: number; capacity: number; over: boolean; pct: number; dockPct: number | null }[];
  summary: Record<string, number | string | null>;
}

/**
 * These tests count with dates relative to today: a calendar with every day open keeps them independent
 * of the weekday, and the seeded job cards (期限 such as 12/10, read as dates) are taken off the board.
 */
async function everyDayOpen(api: ReturnType<TestServer['client']>): Promise<void> {
  await api.put('/api/settings/company', { workdays: [0, 1, 2, 3, 4, 5, 6], holidays: false });
  for (const j of (await api.get<{ jobs: { id: string }[] }>('/api/jobs')).body.jobs) await api.post(`/api/job/${j.id}/delete`);
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
    await everyDayOpen(api);
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

  it('adds the open job cards due each day and the dock bookings, so the figures agree with the board and the dock', async () => {
    const api = server.client();
    await everyDayOpen(api);
    await api.post('/api/capacity/config', { kittingDaily: 100 });
    const today = jstDate();
    const before = (await api.get<Capacity>('/api/capacity')).body;
    const job = async (t: string, s: number, due: string) => (await api.post<{ job: { id: string } }>('/api/job', { c: 'キャパ社', t, s, due })).body.job;
    await job('iPhone 16 ×40台 初期設定', 3, today);
    await job('iPad 15台 入荷', 1, addDays(today, 1));
    await job('Pixel 8a ×30台（期限切れ）', 2, addDays(today, -3));
    await job('完了済み ×500台', 7, today);
    await job('出荷中 ×500台', 6, addDays(today, 1));
    await job('台数の書かれていない案件', 0, addDays(today, 1));
    await job('期限が日付でない ×25台', 0, '来週中');
    await api.post('/api/capacity/load', { date: today, qty: 10 });
    await api.post('/api/dock/reservation', { date: today, start: '09:00', dur: 90, dir: '入荷', berth: '1' });
    await api.post('/api/dock/reservation', { date: today, start: '13:00', dur: 60, dir: '出荷', berth: '2' });
    await api.post('/api/dock/reservation', { date: addDays(today, 3), start: '10:00', dur: 270, dir: '入荷', berth: '1' });
    const res = (await api.get<Capacity>('/api/capacity')).body;
    // today: 40 (due today) + 30 (overdue, counted today) + 10 planned; finished and shipping cards do not load the floor
    expect(res.week[0]).toMatchObject({ date: today, planned: 10, jobUnits: 70, jobs: 2, load: 80, pct: 80, dockBookings: 2, dockInbound: 1, dockMinutes: 150 });
    expect(res.week[1]).toMatchObject({ jobUnits: 15, jobs: 2, load: 15 });
    // two berths × 540 minutes a day
    expect(res.week[0]!.dockPct).toBeCloseTo((150 / 1080) * 100, 0);
    expect(res.week[3]).toMatchObject({ dockBookings: 1, dockMinutes: 270, dockPct: 25 });
    expect(res.summary).toMatchObject({ weekLoad: 95, weekJobUnits: 85, weekPlanned: 10, overdueJobs: 1, dockBookings: 3, dockMinutes: 420, dockBerths: 2, from: today, to: addDays(today, 6) });
    expect(Number(res.summary.openJobs) - Number(before.summary.openJobs)).toBe(5);
    expect(Number(res.summary.openUnits) - Number(before.summary.openUnits)).toBe(40 + 15 + 30 + 25);
    expect(Number(res.summary.undatedJobs) - Number(before.summary.undatedJobs)).toBe(1);
    expect(Number(res.summary.undatedUnits) - Number(before.summary.undatedUnits)).toBe(25);
    expect(Number(res.summary.unknownQtyJobs) - Number(before.summary.unknownQtyJobs)).toBe(1);
    expect(res.summary.backlogDays).toBe(Math.round((Number(res.summary.openUnits) / 100) * 10) / 10);
  });

  it('counts the devices a job card carries instead of the number in its title', async () => {
    const api = server.client();
    await everyDayOpen(api);
    await api.post('/api/capacity/config', { kittingDaily: 100 });
    const today = jstDate();
    const { job } = (await api.post<{ job: { id: string } }>('/api/job', { c: 'キャパ社', t: 'iPhone ×50台', s: 2, due: addDays(today, 2) })).body;
    const imeis = ['356938035643809', '490154203237518'];
    for (const imei of imeis) await api.post('/api/device', { imei, model: 'iPhone 16' });
    const linked = await api.post(`/api/job/${job.id}/devices`, { add: imeis });
    expect(linked.status).toBe(200);
    expect((await api.get<Capacity>('/api/capacity')).body.week[2]).toMatchObject({ jobUnits: 2, jobs: 1 });
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
