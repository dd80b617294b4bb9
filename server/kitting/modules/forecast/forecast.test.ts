import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstDate } from '../../../../shared/dates';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';
import { addDays } from '../capacity/capacity.service';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('forecast', () => {
  it('answers 16 weekly numbers from booked load, the constants and prefs', async () => {
    const api = server.client();
    const today = jstDate();
    await api.post('/api/capacity/load', { date: today, qty: 70 });
    await api.post('/api/capacity/load', { date: addDays(today, 14), qty: 30 });
    await api.post('/api/capacity/load', { date: addDays(today, 7 * 20), qty: 999 });
    const res = await api.get<{ weekly: number[]; constants: Record<string, number>; prefs: { horizon: number; sim: number } }>('/api/forecast');
    expect(res.body.weekly).toHaveLength(16);
    expect(res.body.weekly[0]).toBe(70);
    expect(res.body.weekly[2]).toBe(30);
    expect(res.body.weekly.reduce((a, b) => a + b, 0)).toBe(100);
    expect(res.body.constants).toEqual({ PER_PERSON: 80, BASE_STAFF: 2, WORKDAYS: 5, CEIL_DAY: 192, COST_PER_STAFF: 310000, COST_MONTHS: 2, DEAL_REV: 3850000, DEAL_GROSS: 1900000 });
    expect(res.body.prefs).toEqual({ horizon: 12, sim: 0 });
  });

  it('stores prefs horizon 8|12|16 and sim 0|1|2 and refuses other values', async () => {
    const api = server.client();
    expect((await api.post<{ prefs: unknown }>('/api/forecast/prefs', { horizon: 16, sim: 2 })).body.prefs).toEqual({ horizon: 16, sim: 2 });
    expect((await api.post<{ prefs: unknown }>('/api/forecast/prefs', { horizon: '8' })).body.prefs).toEqual({ horizon: 8, sim: 2 });
    const bad = await api.post('/api/forecast/prefs', { horizon: 10 });
    expect(bad.status).toBe(400);
    expect((await api.post('/api/forecast/prefs', { sim: 3 })).status).toBe(400);
    expect((await api.get<{ prefs: unknown }>('/api/forecast')).body.prefs).toEqual({ horizon: 8, sim: 2 });
  });
});
