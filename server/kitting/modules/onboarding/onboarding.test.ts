import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface Req {
  id: string;
  name: string;
  dept: string;
  model: string;
  mdm: string;
  status: string;
  lead: number | null;
  ts: number;
}

describe('onboarding projects', () => {
  it('stores sel, tab and projects; tab other than emp becomes cust', async () => {
    const api = server.client();
    expect((await api.get<{ state: unknown }>('/api/onboarding/projects')).body.state).toEqual({ sel: '', tab: 'cust', projects: {} });
    const projects = { A社: { mdm: 'Intune', steps: { kickoff: 'done', abm: 'wip', bogus: 'x' }, start: '2026-12-01' } };
    const res = await api.put<{ state: { sel: string; tab: string; projects: Record<string, unknown> } }>('/api/onboarding/projects', { sel: 'A社', tab: 'other', projects });
    expect(res.body.state).toEqual({ sel: 'A社', tab: 'cust', projects: { A社: { mdm: 'Intune', steps: { kickoff: 'done', abm: 'wip' }, start: '2026-12-01' } } });
    expect((await api.put<{ state: { tab: string } }>('/api/onboarding/projects', { tab: 'emp', projects: {} })).body.state.tab).toBe('emp');
  });

  it('answers 400 without a projects object and keeps the old state', async () => {
    const api = server.client();
    await api.put('/api/onboarding/projects', { sel: 'x', projects: { B社: {} } });
    for (const body of [{}, { projects: 'x' }, { projects: [] }]) {
      const res = await api.put('/api/onboarding/projects', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('projects required');
    }
    expect((await api.get<{ state: { sel: string } }>('/api/onboarding/projects')).body.state.sel).toBe('x');
  });
});

describe('device requests', () => {
  it('creates pending requests (name and dept required), listed ascending by ts', async () => {
    const api = server.client();
    const b = await api.post<{ request: Req }>('/api/onboarding/request', { name: '鈴木', dept: '営業部', ts: 2000 });
    const a = await api.post<{ request: Req }>('/api/onboarding/request', { id: 'REQ-CLIENT-1', name: '山本', dept: '総務部', ts: 1000 });
    expect(b.body.request).toMatchObject({ status: 'pending', model: 'iPhone 16', mdm: 'Microsoft Intune' });
    expect(b.body.request.id).toMatch(/^REQ-/);
    expect(a.body.request.id).toBe('REQ-CLIENT-1');
    expect((await api.get<{ requests: Req[] }>('/api/onboarding/requests')).body.requests.map((r) => r.id)).toEqual(['REQ-CLIENT-1', b.body.request.id]);
    expect((await api.post('/api/onboarding/request', { name: '山本' })).body.error).toBe('dept required');
    expect((await api.post('/api/onboarding/request', { dept: '総務部' })).body.error).toBe('name required');
    expect((await api.post('/api/onboarding/request', { id: 'REQ-CLIENT-1', name: 'x', dept: 'y' })).status).toBe(409);
  });

  it('approves with the given lead or a random 0.8..2.4 with one decimal', async () => {
    const api = server.client();
    const r1 = (await api.post<{ request: Req }>('/api/onboarding/request', { name: 'a', dept: 'b' })).body.request;
    expect((await api.post<{ request: Req }>(`/api/onboarding/request/${r1.id}`, { status: 'approved', lead: 3 })).body.request).toMatchObject({ status: 'approved', lead: 3 });
    for (let i = 0; i < 20; i++) {
      const r = (await api.post<{ request: Req }>('/api/onboarding/request', { name: 'a', dept: 'b' })).body.request;
      const lead = (await api.post<{ request: Req }>(`/api/onboarding/request/${r.id}`, { status: 'approved' })).body.request.lead as number;
      expect(lead).toBeGreaterThanOrEqual(0.8);
      expect(lead).toBeLessThanOrEqual(2.4);
      expect(Math.round(lead * 10)).toBeCloseTo(lead * 10, 6);
    }
  });

  it('moves to rejected or pending; other statuses give 400, unknown ids 404', async () => {
    const api = server.client();
    const r = (await api.post<{ request: Req }>('/api/onboarding/request', { name: 'a', dept: 'b' })).body.request;
    expect((await api.post<{ request: Req }>(`/api/onboarding/request/${r.id}`, { status: 'rejected' })).body.request.status).toBe('rejected');
    expect((await api.post<{ request: Req }>(`/api/onboarding/request/${r.id}`, { status: 'pending' })).body.request.status).toBe('pending');
    const bad = await api.post(`/api/onboarding/request/${r.id}`, { status: 'shipped' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid status');
    const missing = await api.post('/api/onboarding/request/REQ-none', { status: 'approved' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('request not found');
  });
});
