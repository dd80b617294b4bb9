import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.testkit';
import { defineRoute } from '../http/define-route';
import { assertUniqueRoutes } from '../http/registry';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('envelope and error path', () => {
  it('answers malformed JSON with 400 {ok:false, error}', async () => {
    const res = await server.client().post('/api/job', '{"c": "abc"', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, error: 'malformed JSON' });
  });

  it('answers an oversize body with 413 and stores nothing', async () => {
    const api = server.client();
    const before = (await api.get<{ count: number }>('/api/devices')).body.count;
    const res = await api.post('/api/device', { note: 'x'.repeat(10 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ ok: false, error: 'payload too large' });
    expect((await api.get<{ count: number }>('/api/devices')).body.count).toBe(before);
  });

  it('refuses a body that is not JSON with 415 and stores nothing', async () => {
    const api = server.client();
    const before = (await api.get<{ jobs: unknown[] }>('/api/jobs')).body.jobs.length;
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await api.request('POST', '/api/job', 't=spam', { 'content-type': type });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ ok: false, error: 'unsupported media type' });
    }
    expect((await api.get<{ jobs: unknown[] }>('/api/jobs')).body.jobs).toHaveLength(before);
    expect((await api.request('POST', '/api/alert/al-nope/ack')).status).toBe(404);
  });

  it('answers an unknown /api path with JSON 404, never an HTML page', async () => {
    for (const [method, path] of [['GET', '/api/nothing-here'], ['POST', '/api/device/x/y/z'], ['PUT', '/api/devices']]) {
      const res = await server.client().request(method, path, method === 'GET' ? undefined : {});
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.body).toMatchObject({ ok: false, error: 'not_found' });
    }
  });

  it('refuses a duplicate method and path at start', () => {
    const route = defineRoute({ method: 'get', path: '/api/x', auth: 'public', handler: () => ({}) });
    expect(() => assertUniqueRoutes([route, { ...route }])).toThrow('duplicate route: GET /api/x');
    expect(() => assertUniqueRoutes([route, { ...route, method: 'post' }])).not.toThrow();
  });

  it('answers validation failures with 400, a message and the issues', async () => {
    const res = await server.client().post<{ ok: boolean; error: string; issues: { path: string }[] }>('/api/device', { model: { a: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.issues[0].path).toBe('model');
  });
});

describe('workspaces (central mode)', () => {
  it('gives each browser its own seeded workspace and a signed kit_tid', async () => {
    const a = server.client();
    const b = server.client();
    const created = await a.post<{ device: { imei: string } }>('/api/device', { note: 'only in A' });
    expect(a.cookie('kit_tid')).toBeTruthy();
    const listA = await a.get<{ count: number; devices: { imei: string }[] }>('/api/devices');
    const listB = await b.get<{ count: number; devices: { imei: string }[] }>('/api/devices');
    expect(listA.body.count).toBe(179);
    expect(listB.body.count).toBe(178);
    expect(listB.body.devices.some((d) => d.imei === created.body.device.imei)).toBe(false);
    expect(a.workspaceId()).not.toBe(b.workspaceId());
  });

  it('ignores a tampered kit_tid: the other workspace stays unreachable', async () => {
    const victim = server.client();
    await victim.post('/api/job', { t: '機密の案件' });
    const victimWs = victim.workspaceId() as string;
    const attacker = server.client();
    for (const forged of [`${victimWs}`, `${victimWs}.AAAAAAAA`, encodeURIComponent(`${victimWs}.${'x'.repeat(43)}`)]) {
      attacker.setCookie('kit_tid', forged);
      const jobs = await attacker.get<{ jobs: { t: string }[] }>('/api/jobs');
      expect(jobs.body.jobs.some((j) => j.t === '機密の案件')).toBe(false);
      expect(attacker.workspaceId()).not.toBe(victimWs);
    }
  });

  it('keeps using the same workspace for the same cookie', async () => {
    const a = server.client();
    await a.post('/api/job', { t: '継続確認' });
    const ws = a.workspaceId();
    const jobs = await a.get<{ jobs: { t: string }[] }>('/api/jobs');
    expect(jobs.body.jobs.some((j) => j.t === '継続確認')).toBe(true);
    expect(a.workspaceId()).toBe(ws);
  });
});

describe('anonymous workspace cap', () => {
  it('answers 429 with Retry-After once one address created too many workspaces', async () => {
    const capped = await startTestServer({ config: { workspacesPerIpHour: 2 } });
    expect((await capped.client().get('/api/jobs')).status).toBe(200);
    expect((await capped.client().get('/api/jobs')).status).toBe(200);
    const third = await capped.client().get('/api/jobs');
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(third.body).toMatchObject({ ok: false });
    await capped.close();
  });
});

describe('restart', () => {
  it('keeps every record and the workspace cookie across a restart on the same data folder', async () => {
    const first = await startTestServer();
    const api = first.client();
    const { device } = (await api.post<{ device: { imei: string } }>('/api/device', { note: '再起動テスト' })).body;
    const cookie = api.cookie('kit_tid') as string;
    await first.close({ keepData: true });

    const second = await startTestServer({ dataDir: first.dataDir });
    const again = second.client();
    again.setCookie('kit_tid', cookie);
    const list = await again.get<{ count: number; devices: { imei: string; note: string }[] }>('/api/devices');
    expect(list.body.count).toBe(179);
    expect(list.body.devices.find((d) => d.imei === device.imei)?.note).toBe('再起動テスト');
    await second.close();
  });
});

describe('bench mode', () => {
  it('serves the bench workspace to every request without a cookie, seeded once', async () => {
    const bench = await startTestServer({ mode: 'bench' });
    const a = bench.client();
    const b = bench.client();
    await a.post('/api/device', { note: 'bench' });
    expect((await b.get<{ count: number }>('/api/devices')).body.count).toBe(179);
    expect(a.cookie('kit_tid')).toBeUndefined();
    await bench.close({ keepData: true });
    const again = await startTestServer({ mode: 'bench', dataDir: bench.dataDir });
    expect((await again.client().get<{ count: number }>('/api/devices')).body.count).toBe(179);
    await again.close();
  });
});
