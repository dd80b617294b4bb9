import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureLimit } from '../../security/limits';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';
import { isInternalAddress } from './providers.routes';

type Body = Record<string, unknown> & { ok: boolean; error?: string };
let server: TestServer;
let auth: Record<string, string>;
let hook: Server;
let hookUrl: string;
let hits = 0;

beforeAll(async () => {
  server = await startTestServer();
  configureLimit(server.ctx, 'signup', 1000);
  const s = await server.client().post<{ token: string }>('/api/account/signup', { email: 'p@example.jp', password: 'secret-pass' });
  auth = { authorization: `Bearer ${s.body.token}` };
  hook = createServer((req, res) => {
    hits += 1;
    res.statusCode = req.url === '/fail' ? 500 : 200;
    res.end('ok');
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()));
  const a = hook.address();
  hookUrl = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});
afterAll(async () => {
  hook.close();
  await server.close();
});

describe('connect', () => {
  it('lists 13 providers and needs a session', async () => {
    expect((await server.client().get('/api/connect/status')).status).toBe(401);
    const res = await server.client().get<{ providers: { key: string; configured: boolean; connected: boolean }[] }>('/api/connect/status', auth);
    expect(res.body.providers).toHaveLength(13);
    expect(res.body.providers.find((p) => p.key === 'google')?.configured).toBe(false);
  });

  it('unknown provider is 404 text; a callback with a bad state reports failure', async () => {
    const res = await server.client().get('/api/connect/nope', auth);
    expect(res.status).toBe(404);
    expect(res.text).toBe('unknown provider');
    const cb = await server.client().get('/api/connect/google/callback?code=x&state=forged');
    expect(cb.status).toBe(400);
    expect(cb.text).toContain('state');
  });

  it('webhook credentials get a real test POST; all fields required', async () => {
    expect((await server.client().post<Body>('/api/connect/slack/credentials', { fields: {} }, auth)).body.error).toBe('webhookUrl required');
    const before = hits;
    const ok = await server.client().post<Body>('/api/connect/slack/credentials', { fields: { webhookUrl: `${hookUrl}/ok` } }, auth);
    expect(ok.body).toEqual({ ok: true, tested: true });
    expect(hits).toBe(before + 1);
    const bad = await server.client().post<Body>('/api/connect/teams/credentials', { fields: { webhookUrl: `${hookUrl}/fail` } }, auth);
    expect(bad.body.ok).toBe(false);
    const st = await server.client().get<{ providers: { key: string; connected: boolean }[] }>('/api/connect/status', auth);
    expect(st.body.providers.find((p) => p.key === 'slack')?.connected).toBe(true);
    expect(st.body.providers.find((p) => p.key === 'teams')?.connected).toBe(false);
    expect(JSON.stringify(st.body)).not.toContain(hookUrl);
    await server.client().post('/api/connect/slack/disconnect', {}, auth);
    const after = await server.client().get<{ providers: { key: string; connected: boolean }[] }>('/api/connect/status', auth);
    expect(after.body.providers.find((p) => p.key === 'slack')?.connected).toBe(false);
  });
});

describe('webhook test POST in production (SSRF)', () => {
  it('never connects to a loopback or private address', async () => {
    let connections = 0;
    const tcp = createTcpServer((sock) => {
      connections += 1;
      sock.destroy();
    });
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', () => r()));
    const a = tcp.address();
    const port = typeof a === 'object' && a ? a.port : 0;
    const prod = await startTestServer({ config: { production: true } });
    try {
      configureLimit(prod.ctx, 'signup', 1000);
      const s = await prod.client().post<{ token: string }>('/api/account/signup', { email: 'prod@example.jp', password: 'secret-pass' });
      const pauth = { authorization: `Bearer ${s.body.token}` };
      for (const url of [`https://127.0.0.1:${port}/hook`, `https://localhost:${port}/hook`, `https://[::ffff:127.0.0.1]:${port}/hook`]) {
        const res = await prod.client().post<Body>('/api/connect/slack/credentials', { fields: { webhookUrl: url } }, pauth);
        expect(res.body.ok).toBe(false);
      }
      expect(connections).toBe(0);
    } finally {
      await prod.close();
      tcp.close();
    }
  });

  it('classes internal addresses', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::ffff:10.0.0.1', '::ffff:7f00:1', 'fd00::1', 'fe80::1']) {
      expect(isInternalAddress(ip)).toBe(true);
    }
    for (const ip of ['8.8.8.8', '172.32.0.1', '2001:4860:4860::8888']) expect(isInternalAddress(ip)).toBe(false);
  });
});

describe('advisor and marketprice', () => {
  it('advisor falls back honestly without a key', async () => {
    const res = await server.client().post<Body>('/api/advisor', { message: '../../etc/passwd どうする？' });
    expect(res.body).toEqual({ ok: false, fallback: true, reason: 'no_key' });
  });
  it('marketprice validates model and says live:false without a search provider', async () => {
    expect((await server.client().get<Body>('/api/marketprice')).body.error).toBe('model required');
    expect((await server.client().get(`/api/marketprice?model=${'x'.repeat(81)}`)).status).toBe(400);
    const res = await server.client().get<Body>('/api/marketprice?model=iPhone%2015&cond=A');
    expect(res.body).toMatchObject({ ok: true, live: false, model: 'iPhone 15' });
  });
});
