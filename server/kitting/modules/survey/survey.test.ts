import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jstDate } from '../../../../shared/dates';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface Resp {
  id: string;
  date: string;
  cust: string;
  src: string;
  k: string;
  nps?: number;
  csat?: number;
  comment: string;
}

describe('survey', () => {
  it('starts empty', async () => {
    expect((await server.client().get('/api/survey')).body).toEqual({ ok: true, responses: [], followups: {}, sent: 0 });
  });

  it('refuses an nps or csat that is not a number (400) and stores nothing', async () => {
    const api = server.client();
    for (const body of [{ cust: 'A社', k: 'NPS', nps: 'abc' }, { cust: 'A社', k: 'NPS', nps: { x: 1 } }, { cust: 'A社', k: 'CSAT', csat: 'good' }, { cust: 'A社', k: 'CSAT', csat: true }]) {
      const res = await api.post('/api/survey/response', body);
      expect(res.status).toBe(400);
      expect(res.body.ok).toBe(false);
    }
    expect((await api.get<{ responses: Resp[] }>('/api/survey')).body.responses).toEqual([]);
    expect((await api.post<{ response: Resp }>('/api/survey/response', { cust: 'A社', k: 'CSAT', csat: '4' })).body.response.csat).toBe(4);
  });

  it('counts sends, batch 1 when missing or invalid', async () => {
    const api = server.client();
    expect((await api.post('/api/survey/send', { batch: 25 })).body).toEqual({ ok: true, sent: 25 });
    expect((await api.post('/api/survey/send', {})).body).toEqual({ ok: true, sent: 26 });
    expect((await api.post('/api/survey/send', { batch: -4 })).body).toEqual({ ok: true, sent: 27 });
    expect((await api.get<{ sent: number }>('/api/survey')).body.sent).toBe(27);
  });

  it('upserts responses by id with nps clamped 0..10', async () => {
    const api = server.client();
    const a = await api.post<{ response: Resp }>('/api/survey/response', { cust: 'A社', k: 'NPS', nps: 14, comment: '対応が早い' });
    expect(a.body.response).toMatchObject({ cust: 'A社', k: 'NPS', nps: 10, date: jstDate() });
    const b = await api.post<{ response: Resp }>('/api/survey/response', { id: a.body.response.id, cust: 'A社', k: 'NPS', nps: 6 });
    expect(b.body.response).toMatchObject({ id: a.body.response.id, nps: 6 });
    const list = await api.get<{ responses: Resp[] }>('/api/survey');
    expect(list.body.responses).toHaveLength(1);
    expect(list.body.responses[0].nps).toBe(6);
  });

  it('refuses a response without its score or with a bad date', async () => {
    const api = server.client();
    expect((await api.post('/api/survey/response', { k: 'NPS' })).body.error).toBe('nps required');
    expect((await api.post('/api/survey/response', { k: 'CSAT' })).body.error).toBe('csat required');
    expect((await api.post('/api/survey/response', { nps: 5, date: '2026-02-30' })).body.error).toBe('invalid date');
  });

  it('replaces the follow-up of a response and 404s for an unknown response', async () => {
    const api = server.client();
    const { id } = (await api.post<{ response: Resp }>('/api/survey/response', { cust: 'B社', nps: 3 })).body.response;
    await api.post(`/api/survey/followup/${id}`, { action: '電話', note: '初回' });
    const res = await api.post<{ followup: unknown }>(`/api/survey/followup/${id}`, { action: '訪問', date: '2026-12-01' });
    expect(res.body.followup).toEqual({ action: '訪問', note: '', date: '2026-12-01' });
    expect((await api.get<{ followups: Record<string, unknown> }>('/api/survey')).body.followups).toEqual({ [id]: { action: '訪問', note: '', date: '2026-12-01' } });
    expect((await api.post('/api/survey/followup/sv-none', { action: 'x' })).status).toBe(404);
  });
});
