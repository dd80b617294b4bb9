import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureLimit } from '../../security/limits';
import { P, PLATFORM_WS } from '../platform-collections';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';

type Body = Record<string, unknown> & { ok: boolean; error?: string; token?: string };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  configureLimit(server.ctx, 'signup', 1000);
});
afterAll(() => server.close());

const auth = (t: unknown) => ({ authorization: `Bearer ${String(t)}` });
let n = 0;
const email = () => `user${++n}@example.jp`;

async function setConfig(patch: Record<string, unknown>) {
  await server.store.transact(PLATFORM_WS, (tx) => tx.put(P.config, 'site', { id: 'site', config: patch, updatedAt: Date.now(), updatedBy: 'test' }));
}

describe('POST /api/account/signup', () => {
  it('adopts the browser anonymous workspace and sets kit_tid', async () => {
    const c = server.client();
    const me0 = await c.get<Body>('/api/account/me');
    expect(me0.body).toMatchObject({ ok: true, signedIn: false });
    const anon = me0.body.tenantId;
    const e = email();
    const res = await c.post<Body>('/api/account/signup', { email: e.toUpperCase(), password: 'secret-pass', company: '株式会社テスト', name: 'Taro' });
    expect(res.status).toBe(200);
    expect(res.body.adoptedTenant).toBe(anon);
    expect(res.body.account).toMatchObject({ email: e, company: '株式会社テスト', tenantId: anon });
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|pwHash|tokenVersion/);
    expect(res.headers.getSetCookie().some((h) => h.startsWith('kit_tid='))).toBe(true);
    const me = await server.client().get<Body>('/api/account/me', auth(res.body.token));
    expect(me.body).toMatchObject({ signedIn: true, account: { email: e, tenantId: anon } });
    const team = await c.get<{ members: { email: string; role: string }[] }>('/api/team/members');
    if (team.status === 200) expect(team.body.members.find((m) => m.email === e)?.role).toBe('owner');
  });

  it('refuses a duplicate email with 409 and a short password with 400', async () => {
    const e = email();
    await server.client().post('/api/account/signup', { email: e, password: 'secret-pass' });
    expect((await server.client().post<Body>('/api/account/signup', { email: e, password: 'secret-pass' })).status).toBe(409);
    const short = await server.client().post<Body>('/api/account/signup', { email: email(), password: 'x' });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('password too short');
    const bad = await server.client().post<Body>('/api/account/signup', { email: 'nope', password: 'secret-pass' });
    expect(bad.body.error).toBe('invalid email');
  });

  it('is refused when registrationOpen is off', async () => {
    await setConfig({ registrationOpen: false });
    const res = await server.client().post<Body>('/api/account/signup', { email: email(), password: 'secret-pass' });
    expect(res.status).toBe(403);
    await setConfig({});
  });
});

describe('POST /api/account/login', () => {
  it('returns a session token for the right password and 401 otherwise', async () => {
    const e = email();
    await server.client().post('/api/account/signup', { email: e, password: 'secret-pass' });
    const ok = await server.client().post<Body>('/api/account/login', { email: e, password: 'secret-pass' });
    expect(ok.status).toBe(200);
    expect(typeof ok.body.token).toBe('string');
    const bad = await server.client().post<Body>('/api/account/login', { email: e, password: 'wrong-pass' });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe('invalid credentials');
  });

  it('uses generic error text when secGenericErrors is on', async () => {
    await setConfig({ secGenericErrors: true });
    const res = await server.client().post<Body>('/api/account/login', { email: email(), password: 'whatever1' });
    expect(res.body.error).toBe('invalid credentials');
    await setConfig({});
  });

  it('locks an email after secMaxAttempts failures with 429 and Retry-After', async () => {
    await setConfig({ secMaxAttempts: 3 });
    const e = email();
    await server.client().post('/api/account/signup', { email: e, password: 'secret-pass' });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await server.client().post<Body>('/api/account/login', { email: e, password: 'wrong-pass' });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 429, 429]);
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
    const right = await server.client().post<Body>('/api/account/login', { email: e, password: 'secret-pass' });
    expect(right.status).toBe(429);
    await setConfig({});
  });

  it('with sec2FA asks for the emailed code, which works once only', async () => {
    const e = email();
    await server.client().post('/api/account/signup', { email: e, password: 'secret-pass' });
    await setConfig({ sec2FA: true });
    const res = await server.client().post<Body>('/api/account/login', { email: e, password: 'secret-pass' });
    expect(res.body).toMatchObject({ ok: true, mfaRequired: true });
    expect(res.body.token).toBeUndefined();
    const mail = (await server.store.list(PLATFORM_WS, P.outbox)).filter((m) => m.to === e).pop();
    const code = /(\d{6})/.exec(String(mail?.text))?.[1];
    const wrong = await server.client().post<Body>('/api/account/login/verify', { email: e, challenge: res.body.challenge, code: code === '000000' ? '111111' : '000000' });
    expect(wrong.status).toBe(401);
    const ok = await server.client().post<Body>('/api/account/login/verify', { email: e, challenge: res.body.challenge, code });
    expect(ok.status).toBe(200);
    expect(typeof ok.body.token).toBe('string');
    const replay = await server.client().post<Body>('/api/account/login/verify', { email: e, challenge: res.body.challenge, code });
    expect(replay.status).toBe(401);
    await setConfig({});
  });
});

describe('POST /api/account/password', () => {
  it('invalidates every earlier session token', async () => {
    const e = email();
    const s = await server.client().post<Body>('/api/account/signup', { email: e, password: 'secret-pass' });
    const old = s.body.token;
    const wrong = await server.client().post<Body>('/api/account/password', { current: 'nope-nope', next: 'another-pass' }, auth(old));
    expect(wrong.status).toBe(401);
    const res = await server.client().post<Body>('/api/account/password', { current: 'secret-pass', next: 'another-pass' }, auth(old));
    expect(res.status).toBe(200);
    expect((await server.client().post<Body>('/api/account/password', { current: 'another-pass', next: 'third-pass1' }, auth(old))).status).toBe(401);
    expect((await server.client().get<Body>('/api/account/me', auth(old))).body.signedIn).toBe(false);
    expect((await server.client().get<Body>('/api/account/me', auth(res.body.token))).body.signedIn).toBe(true);
    expect((await server.client().post<Body>('/api/account/login', { email: e, password: 'another-pass' })).status).toBe(200);
  });

  it('needs a session (401 without, 401 for a tampered or wrong-kind token)', async () => {
    const s = await server.client().post<Body>('/api/account/signup', { email: email(), password: 'secret-pass' });
    const t = String(s.body.token);
    expect((await server.client().post<Body>('/api/account/password', { current: 'a', next: 'bbbbbbbb' })).status).toBe(401);
    const tampered = `${t.slice(0, 5)}${t[5] === 'A' ? 'B' : 'A'}${t.slice(6)}`;
    expect((await server.client().post<Body>('/api/account/password', { current: 'secret-pass', next: 'bbbbbbbb' }, auth(tampered))).status).toBe(401);
    const c = server.client();
    await c.get('/api/account/me');
    expect((await c.post<Body>('/api/account/password', { current: 'secret-pass', next: 'bbbbbbbb' }, auth(c.cookie('kit_tid')))).status).toBe(401);
  });
});

describe('per-IP limits', () => {
  it('caps signups per IP with 429 and Retry-After', async () => {
    configureLimit(server.ctx, 'signup', 2);
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await server.client().post('/api/account/signup', { email: email(), password: 'secret-pass' })).status);
    expect(codes).toEqual([200, 200, 429]);
    configureLimit(server.ctx, 'signup', 1000);
  });
});

describe('logout, methods, external providers', () => {
  it('logout clears kit_tid', async () => {
    const res = await server.client().post<Body>('/api/account/logout');
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()[0]).toMatch(/^kit_tid=;.*Max-Age=0/);
  });
  it('reports password only and answers 503 for unconfigured google and phone', async () => {
    const m = await server.client().get<Body>('/api/auth/methods');
    expect(m.body).toEqual({ ok: true, password: true, google: false, phone: false });
    expect((await server.client().get('/api/auth/google/start')).status).toBe(503);
    expect((await server.client().post('/api/auth/phone/start', { phone: '+819012345678' })).status).toBe(503);
  });
  it('google callback with a bad state goes to login with err=state', async () => {
    process.env.GOOGLE_CLIENT_ID = 'cid';
    process.env.GOOGLE_CLIENT_SECRET = 'csecret';
    try {
      const start = await fetch(`${server.url}/api/auth/google/start`, { redirect: 'manual' });
      expect(start.status).toBe(302);
      const loc = new URL(String(start.headers.get('location')));
      expect(loc.host).toBe('accounts.google.com');
      const bad = await fetch(`${server.url}/api/auth/google/callback?code=x&state=${loc.searchParams.get('state')}x`, { redirect: 'manual' });
      expect(bad.headers.get('location')).toBe('/login.html?err=state');
    } finally {
      delete process.env.GOOGLE_CLIENT_ID;
      delete process.env.GOOGLE_CLIENT_SECRET;
    }
  });
});

describe('bench mode', () => {
  it('the first account adopts the bench workspace; a second signup is refused', async () => {
    const bench = await startTestServer({ mode: 'bench' });
    try {
      const c = bench.client();
      const res = await c.post<Body>('/api/account/signup', { email: 'bench@example.jp', password: 'secret-pass' });
      expect(res.status).toBe(200);
      expect(res.body.adoptedTenant).toBe(bench.ctx.benchWorkspace);
      expect((await c.post<Body>('/api/account/signup', { email: 'second@example.jp', password: 'secret-pass' })).status).toBe(409);
      expect((await c.post<Body>('/api/admin/login', { password: 'x' })).status).toBe(404);
    } finally {
      await bench.close();
    }
  });

  it('refuses login while signinEnabled is off', async () => {
    const e = email();
    await server.client().post('/api/account/signup', { email: e, password: 'secret-pass' });
    await setConfig({ signinEnabled: false });
    expect((await server.client().post<Body>('/api/account/login', { email: e, password: 'secret-pass' })).status).toBe(403);
    await setConfig({});
  });
});
