import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('replacement proposals', () => {
  it('records the proposal time per customer', async () => {
    const api = server.client();
    expect((await api.get('/api/replace/proposals')).body).toEqual({ ok: true, proposals: {} });
    const res = await api.post<{ cust: string; at: string; proposals: Record<string, string> }>('/api/replace/proposal', { cust: '株式会社サンプル' });
    expect(res.body.cust).toBe('株式会社サンプル');
    expect(new Date(res.body.at).toISOString()).toBe(res.body.at);
    expect(res.body.proposals).toEqual({ 株式会社サンプル: res.body.at });
    await api.post('/api/replace/proposal', { cust: 'B社' });
    expect(Object.keys((await api.get<{ proposals: Record<string, string> }>('/api/replace/proposals')).body.proposals)).toEqual(['株式会社サンプル', 'B社']);
  });

  it('requires cust', async () => {
    const res = await server.client().post('/api/replace/proposal', { cust: ' ' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('cust required');
  });
});
