import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstDate } from '../../../../shared/dates';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type Rv = Record<string, string | number>;

describe('dock reservations', () => {
  it('creates RV-#### with created/updated stamps and defaults, then updates by id', async () => {
    const api = server.client();
    const a = await api.post<{ reservation: Rv }>('/api/dock/reservation', { date: '2026-12-03', start: '10:30', dur: 90, cust: 'A社', berth: '2', dir: '出荷' });
    expect(a.body.reservation).toMatchObject({ id: 'RV-0001', date: '2026-12-03', start: '10:30', dur: 90, cust: 'A社', berth: '2', dir: '出荷' });
    expect(a.body.reservation.created).toBe(a.body.reservation.updated);
    const b = await api.post<{ reservation: Rv }>('/api/dock/reservation', {});
    expect(b.body.reservation).toMatchObject({ id: 'RV-0002', date: jstDate(), start: '09:00', dur: 60 });
    const upd = await api.post<{ reservation: Rv }>('/api/dock/reservation', { id: 'RV-0001', roadStatus: '渋滞', permit: '許可済' });
    expect(upd.body.reservation).toMatchObject({ id: 'RV-0001', cust: 'A社', start: '10:30', roadStatus: '渋滞', permit: '許可済' });
    const unknown = await api.post<{ reservation: Rv }>('/api/dock/reservation', { id: 'RV-9999', cust: 'B社' });
    expect(unknown.body.reservation.id).toBe('RV-0003');
    const list = await api.get<{ reservations: Rv[] }>('/api/dock/reservations');
    expect(list.body.reservations).toHaveLength(3);
  });

  it('refuses a malformed date or start and stores nothing', async () => {
    const api = server.client();
    expect((await api.post('/api/dock/reservation', { date: '2026-02-30' })).body.error).toBe('invalid date');
    expect((await api.post('/api/dock/reservation', { start: '25:00' })).body.error).toBe('invalid start');
    expect((await api.get<{ reservations: Rv[] }>('/api/dock/reservations')).body.reservations).toEqual([]);
  });

  it('deletes and answers 404 for an unknown id', async () => {
    const api = server.client();
    const { id } = (await api.post<{ reservation: Rv }>('/api/dock/reservation', {})).body.reservation;
    expect((await api.post(`/api/dock/reservation/${id}/delete`)).body).toEqual({ ok: true });
    expect((await api.post(`/api/dock/reservation/${id}/delete`)).status).toBe(404);
  });
});
