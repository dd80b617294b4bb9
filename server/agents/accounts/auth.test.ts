import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer();
});
afterAll(() => t.close());

const code = (secret: string, offset = 0) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offset });
let ipSeq = 0;
const fresh = () => t.api(null, { 'x-forwarded-for': `10.1.0.${++ipSeq}` });

describe('POST /api/auth/register', () => {
  it('creates the account with its workspace and answers {user, token} plus the httpOnly cookie', async () => {
    const r = await fresh().post('/api/auth/register', { email: 'Ann@Example.com', password: 'abcdef', name: 'Ann' });
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ email: 'ann@example.com', name: 'Ann', twoFactorEnabled: false });
    expect(str(r.body.token).split('.')).toHaveLength(3);
    const cookie = r.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^service_token=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Max-Age=2592000/);
    const me = await t.api(str(r.body.token)).get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('ann@example.com');
    expect(me.body.workspace.role).toBe('owner');
    expect(me.body.billing).toMatchObject({ credits: 100, creditCost: 1, status: 'active' });
    expect(me.body.impersonator).toBeNull();
  });

  it('refuses a short password, a bad email and a second account on the same email', async () => {
    expect((await fresh().post('/api/auth/register', { email: 'b@example.com', password: '12345' })).body).toEqual({ error: 'password: password must be at least 6 characters' });
    expect((await fresh().post('/api/auth/register', { email: 'not-an-email', password: '123456' })).status).toBe(400);
    expect((await fresh().post('/api/auth/register', { password: '123456' })).body).toEqual({ error: 'email is required' });
    await fresh().post('/api/auth/register', { email: 'dup@example.com', password: '123456' });
    const again = await fresh().post('/api/auth/register', { email: 'DUP@example.com', password: '654321' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'email already registered' });
  });
});

describe('POST /api/auth/login, logout and the session token', () => {
  it('signs in with the password, takes the cookie, and lets the Bearer header win over it', async () => {
    await fresh().post('/api/auth/register', { email: 'carl@example.com', password: 'pw-carl' });
    const bad = await fresh().post('/api/auth/login', { email: 'carl@example.com', password: 'wrong!' });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ error: 'invalid email or password' });
    expect((await fresh().post('/api/auth/login', { email: 'nobody@example.com', password: 'wrong!' })).body).toEqual({ error: 'invalid email or password' });
    const ok = await fresh().post('/api/auth/login', { email: 'carl@example.com', password: 'pw-carl' });
    expect(ok.status).toBe(200);
    const token = str(ok.body.token);
    const byCookie = await t.api().get('/api/auth/me', { cookie: `service_token=${token}` });
    expect(byCookie.body.user.email).toBe('carl@example.com');
    // A bad Bearer header is not rescued by a good cookie.
    const wins = await t.api().get('/api/auth/me', { cookie: `service_token=${token}`, authorization: 'Bearer nope' });
    expect(wins.status).toBe(401);
    const other = await t.signup();
    const both = await t.api(other.token).get('/api/auth/me', { cookie: `service_token=${token}` });
    expect(both.body.user.email).toBe(other.email);
    const out = await t.api().post('/api/auth/logout', {}, { cookie: `service_token=${token}`, origin: t.base }); // a browser's same-origin logout
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/service_token=;/);
    // The session behind the cookie is over: the same token no longer signs in, by cookie or Bearer.
    expect((await t.api().get('/api/auth/me', { cookie: `service_token=${token}` })).status).toBe(401);
    expect((await t.api(token).get('/api/auth/me')).status).toBe(401);
    expect((await t.api().post('/api/auth/logout')).status).toBe(200);
  });

  it('answers 401 without a token or with a tampered one', async () => {
    expect((await t.api().get('/api/auth/me')).body).toEqual({ error: 'not authenticated' });
    const u = await t.signup();
    const tampered = `${u.token?.slice(0, -2)}xx`;
    expect((await t.api(tampered).get('/api/auth/me')).status).toBe(401);
  });
});

describe('POST /api/auth/forgot and /api/auth/reset', () => {
  it('always answers ok, mails a link only to a real account, and the reset ends every session', async () => {
    const u = await t.signup('dora@example.com');
    const outbox = join(t.dir, 'outbox');
    expect((await fresh().post('/api/auth/forgot', { email: 'ghost@example.com' })).body).toEqual({ ok: true });
    expect((await fresh().post('/api/auth/forgot', { email: 'dora@example.com' })).body).toEqual({ ok: true });
    const files = readdirSync(outbox).filter((f) => f.endsWith('.eml')).map((f) => readFileSync(join(outbox, f), 'utf8'));
    const resets = files.filter((f) => f.includes('Subject: Reset your password'));
    expect(resets).toHaveLength(1);
    const eml = resets[0];
    expect(eml).toContain('To: dora@example.com');
    const token = decodeURIComponent(/token=([^\s]+)/.exec(eml)?.[1] ?? '');
    expect((await fresh().post('/api/auth/reset', { token: 'bogus', password: 'new-pass' })).body).toEqual({ error: 'invalid or expired reset token' });
    const r = await fresh().post('/api/auth/reset', { token, password: 'new-pass' });
    expect(r.body).toEqual({ ok: true });
    expect((await t.api(u.token).get('/api/auth/me')).status).toBe(401);
    expect((await fresh().post('/api/auth/reset', { token, password: 'other-pass' })).status).toBe(400);
    expect((await fresh().post('/api/auth/login', { email: 'dora@example.com', password: 'new-pass' })).status).toBe(200);
  });

  it('a reset link sets one password even when two requests race with it', async () => {
    await t.signup('race@example.com');
    expect((await fresh().post('/api/auth/forgot', { email: 'race@example.com' })).body).toEqual({ ok: true });
    const outbox = join(t.dir, 'outbox');
    const eml = readdirSync(outbox).map((f) => readFileSync(join(outbox, f), 'utf8')).find((f) => f.includes('To: race@example.com') && f.includes('Subject: Reset your password')) ?? '';
    const token = decodeURIComponent(/token=([^\s]+)/.exec(eml)?.[1] ?? '');
    const [a, b] = await Promise.all([fresh().post('/api/auth/reset', { token, password: 'pass-one' }), fresh().post('/api/auth/reset', { token, password: 'pass-two' })]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const winner = a.status === 200 ? 'pass-one' : 'pass-two';
    const loser = a.status === 200 ? 'pass-two' : 'pass-one';
    expect((await fresh().post('/api/auth/login', { email: 'race@example.com', password: winner })).status).toBe(200);
    expect((await fresh().post('/api/auth/login', { email: 'race@example.com', password: loser })).status).toBe(401);
  });

  it('a password change bumps the token version: the old token stops, the new one works', async () => {
    const u = await t.signup();
    const r = await u.post('/api/auth/password', { currentPassword: 'secret-pass', password: 'changed-pass' });
    expect(r.status).toBe(200);
    expect((await u.get('/api/auth/me')).status).toBe(401);
    expect((await t.api(str(r.body.token)).get('/api/auth/me')).status).toBe(200);
  });
});

describe('two-factor (TOTP)', () => {
  it('sets up, enables with a real code, requires the code at login, and disables', async () => {
    const u = await t.signup('eve@example.com');
    expect((await u.get('/api/auth/2fa/status')).body).toEqual({ enabled: false });
    const setup = await u.post('/api/auth/2fa/setup');
    const secret = str(setup.body.secret);
    expect(str(setup.body.otpauth)).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect((await u.post('/api/auth/2fa/enable', { code: '000000' })).body).toEqual({ error: 'invalid two-factor code' });
    expect((await u.post('/api/auth/2fa/enable', { code: code(secret) })).status).toBe(200);
    expect((await u.get('/api/auth/2fa/status')).body).toEqual({ enabled: true });

    const noCode = await fresh().post('/api/auth/login', { email: 'eve@example.com', password: 'secret-pass' });
    expect(noCode.status).toBe(401);
    expect(noCode.body).toMatchObject({ error: 'two-factor code required' });
    expect((await fresh().post('/api/auth/login', { email: 'eve@example.com', password: 'secret-pass', code: '123456' })).status).toBe(401);
    const withCode = await fresh().post('/api/auth/login', { email: 'eve@example.com', password: 'secret-pass', code: code(secret) });
    expect(withCode.status).toBe(200);

    expect((await u.post('/api/auth/2fa/disable', { code: '999999' })).status).toBe(400);
    expect((await u.post('/api/auth/2fa/disable', { code: code(secret) })).status).toBe(200);
    expect((await fresh().post('/api/auth/login', { email: 'eve@example.com', password: 'secret-pass' })).status).toBe(200);
  });
});

describe('PATCH /api/auth/theme', () => {
  it('stores light or dark and refuses anything else', async () => {
    const u = await t.signup();
    expect((await u.patch('/api/auth/theme', { theme: 'dark' })).status).toBe(200);
    expect((await u.get('/api/auth/me')).body.user.theme).toBe('dark');
    expect((await u.patch('/api/auth/theme', { theme: 'blue' })).status).toBe(400);
  });
});

describe('limits and errors', () => {
  it('allows 20 auth requests per 5 minutes per IP, then 429 with Retry-After', async () => {
    const ip = t.api(null, { 'x-forwarded-for': '10.77.0.1' });
    for (let i = 0; i < 20; i++) expect((await ip.post('/api/auth/forgot', { email: 'x@example.com' })).status).toBe(200);
    const r = await ip.post('/api/auth/login', { email: 'x@example.com', password: 'whatever' });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await t.api(null, { 'x-forwarded-for': '10.77.0.2' }).post('/api/auth/forgot', {})).status).toBe(200);
  });

  it('answers unknown /api paths with 404 Unknown API route', async () => {
    const r = await t.api().get('/api/does-not-exist');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'Unknown API route' });
    expect((await t.api().post('/api/agents/x/y/z')).body).toEqual({ error: 'Unknown API route' });
  });

  it('refuses a body over 1 MB with 413 and stores nothing', async () => {
    const r = await fresh().post('/api/auth/register', { email: 'big@example.com', password: 'secret1', name: 'x'.repeat(1024 * 1024) });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ error: 'payload too large' });
    expect((await fresh().post('/api/auth/login', { email: 'big@example.com', password: 'secret1' })).status).toBe(401);
  });
});
