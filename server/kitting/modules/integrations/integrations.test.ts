import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredCap } from '../../store/caps';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';
import { SYNC_LOG, SYNC_LOG_MAX } from './integrations.service';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('automation rules', () => {
  it('answers the default toggles and replaces rules and extraRules', async () => {
    const api = server.client();
    const first = await api.get<{ rules: Record<string, boolean>; extraRules: unknown[] }>('/api/integrations/rules');
    expect(Object.keys(first.body.rules).sort()).toEqual(['r-ade', 'r-inv', 'r-lost', 'r-pay', 'r-ship', 'r-sla']);
    expect(first.body.extraRules).toEqual([]);
    const put = await api.put<{ rules: Record<string, boolean>; extraRules: unknown[] }>('/api/integrations/rules', {
      rules: { 'r-ship': false, 'r-pay': 1 },
      extraRules: [{ id: 'x1', trig: '出荷', act: 'Slack通知', ic: 'bell', on: true }],
    });
    expect(put.body.rules).toEqual({ 'r-ship': false, 'r-pay': true });
    expect(put.body.extraRules).toEqual([{ id: 'x1', trig: '出荷', act: 'Slack通知', ic: 'bell', on: true }]);
    expect((await api.get('/api/integrations/rules')).body).toEqual({ ok: true, ...put.body });
  });

  it('refuses non-boolean toggles with 400 and stores nothing', async () => {
    const api = server.client();
    const res = await api.put('/api/integrations/rules', { rules: { 'r-ship': 'yes' } });
    expect(res.status).toBe(400);
    expect((await api.get<{ rules: Record<string, boolean> }>('/api/integrations/rules')).body.rules['r-ship']).toBe(true);
  });
});

describe('sync log', () => {
  it('declares its cap of 60, so every replica trims entries that arrive from elsewhere', () => {
    expect(declaredCap(SYNC_LOG)).toBe(SYNC_LOG_MAX);
    expect(SYNC_LOG_MAX).toBe(60);
  });

  it('numbers entries LOG-####, newest first, bounded to 60', async () => {
    const api = server.client();
    let last: { entry: { id: string; time: string }; log: { id: string }[] } | null = null;
    for (let i = 0; i < 65; i++) last = (await api.post<{ entry: { id: string; time: string }; log: { id: string }[] }>('/api/integrations/log', { service: 'Intune', kind: 'sync', result: '成功' })).body;
    expect(last?.entry.id).toBe('LOG-0065');
    expect(last?.log).toHaveLength(60);
    const res = await api.get<{ log: { id: string; service: string; time: string }[] }>('/api/integrations/log');
    expect(res.body.log).toHaveLength(60);
    expect(res.body.log[0].id).toBe('LOG-0065');
    expect(res.body.log[59].id).toBe('LOG-0006');
    expect(new Date(res.body.log[0].time).toISOString()).toBe(res.body.log[0].time);
  });

  it('refuses an unreadable time', async () => {
    const res = await server.client().post('/api/integrations/log', { service: 'x', time: 'いつか' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid time');
  });
});
