/** Attacks on the platform side: restore by sub-admins, lockouts, proxies, publishing, sign-in leaks. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';
import { configureLimit } from '../../security/limits';
import { bearer, signUp, type Body } from './helpers.testkit';

let server: TestServer;
let admin: Record<string, string>;
beforeAll(async () => {
  server = await startTestServer({ config: { adminPassword: 'platform-admin-pass' } });
  configureLimit(server.ctx, 'signup', 1000);
  configureLimit(server.ctx, 'signIn', 1000);
  admin = bearer((await server.client().post<{ token: string }>('/api/admin/login', { password: 'platform-admin-pass' })).body.token);
});
afterAll(() => server.close());

async function subadmin(email: string, tenants: string[], canDelete: boolean) {
  const made = await server.client().post('/api/admin/subadmin', { name: 'Sub', email, password: 'sub-admin-pass', tenants, canDelete }, admin);
  expect(made.status).toBe(200);
  return bearer((await server.client().post<{ token: string }>('/api/subadmin/login', { email, password: 'sub-admin-pass' })).body.token);
}

describe('restore', () => {
  it('a sub-admin without canDelete cannot restore; a restore never rolls back status or plan', async () => {
    const t = await signUp(server, 'restore@example.jp');
    const noDel = await subadmin('nodel@example.jp', [t.ws], false);
    const canDel = await subadmin('candel@example.jp', [t.ws], true);
    const backup = await server.client().post<{ backup: { id: string } }>(`/api/backup/${t.ws}`, {}, noDel);
    expect(backup.status).toBe(200);
    await server.client().post(`/api/admin/workspace/${t.ws}/plan`, { planKey: 'starter', status: 'suspended' }, admin);
    const before = (await server.client().get<{ tenant: Record<string, unknown> }>(`/api/admin/tenant/${t.ws}`, admin)).body.tenant;
    const refused = await server.client().post<Body>(`/api/restore/${t.ws}/${backup.body.backup.id}`, {}, noDel);
    expect([401, 403]).toContain(refused.status);
    const ok = await server.client().post<{ tenant: Record<string, unknown> }>(`/api/restore/${t.ws}/${backup.body.backup.id}`, {}, canDel);
    expect(ok.status).toBe(200);
    const after = (await server.client().get<{ tenant: Record<string, unknown> }>(`/api/admin/tenant/${t.ws}`, admin)).body.tenant;
    for (const k of ['status', 'planKey', 'planStatus', 'limits']) expect(after[k]).toEqual(before[k]);
  });
});

describe('lockouts', () => {
  it('failures from one client never lock the admin out of another, and the lock grows each time', async () => {
    const proxied = await startTestServer({ config: { adminPassword: 'platform-admin-pass', trustProxy: 1 } });
    configureLimit(proxied.ctx, 'signIn', 1000);
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    for (let i = 0; i < 8; i++) await proxied.client().post('/api/admin/login', { password: 'wrong-password' }, from('203.0.113.9'));
    const locked = await proxied.client().post('/api/admin/login', { password: 'platform-admin-pass' }, from('203.0.113.9'));
    expect(locked.status).toBe(429);
    const first = Number(locked.headers.get('retry-after'));
    expect((await proxied.client().post('/api/admin/login', { password: 'platform-admin-pass' }, from('198.51.100.7'))).status).toBe(200);
    await proxied.close();
    expect(first).toBeGreaterThan(0);
  });

  it('an account locks per (account, client) with a back-off that doubles', async () => {
    await signUp(server, 'lock@example.jp');
    const proxied = await startTestServer({ config: { trustProxy: 1 } });
    configureLimit(proxied.ctx, 'signup', 1000);
    configureLimit(proxied.ctx, 'signIn', 1000);
    await proxied.client().post('/api/account/signup', { email: 'lock@example.jp', password: 'attack-pass-1' });
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    const fail = () => proxied.client().post('/api/account/login', { email: 'lock@example.jp', password: 'nope-nope' }, from('203.0.113.50'));
    for (let i = 0; i < 7; i++) expect((await fail()).status).toBe(401);
    const lock1 = await fail();
    expect(lock1.status).toBe(429);
    expect((await proxied.client().post('/api/account/login', { email: 'lock@example.jp', password: 'attack-pass-1' }, from('198.51.100.20'))).status).toBe(200);
    const { lockKey, recordFailure } = await import('../../security/limits');
    await recordFailure(proxied.ctx, lockKey('acct:lock@example.jp', '203.0.113.50'));
    const lock2 = await fail();
    expect(Number(lock2.headers.get('retry-after'))).toBeGreaterThan(Number(lock1.headers.get('retry-after')) * 1.5);
    await proxied.close();
  });

  it('X-Forwarded-For is ignored unless KITTING_TRUST_PROXY is set', async () => {
    const direct = await startTestServer({ config: { workspacesPerIpHour: 2 } });
    for (const ip of ['203.0.113.1', '203.0.113.2']) expect((await direct.client().get('/api/jobs', { 'x-forwarded-for': ip })).status).toBe(200);
    expect((await direct.client().get('/api/jobs', { 'x-forwarded-for': '203.0.113.3' })).status).toBe(429);
    await direct.close();
    const proxied = await startTestServer({ config: { workspacesPerIpHour: 2, trustProxy: 1 } });
    for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) expect((await proxied.client().get('/api/jobs', { 'x-forwarded-for': ip })).status).toBe(200);
    await proxied.close();
  });
});

describe('site publishing', () => {
  it('refuses oversize pages, bursts and more sites than the cap, and lists from the index', async () => {
    const { MAX_SITES, PUBLISH_PER_WINDOW } = await import('../../modules/sites/site-index');
    const { MAX_SITE_HTML } = await import('../../../../shared/api/contracts/public');
    const c = server.client();
    expect((await c.post<Body>('/api/site/publish', { slug: 'huge', html: 'x'.repeat(MAX_SITE_HTML + 1) })).status).toBe(413);
    const statuses: number[] = [];
    for (let i = 0; i < MAX_SITES + 1; i++) statuses.push((await c.post('/api/site/publish', { slug: `burst-${i}`, html: '<p>x</p>' })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(MAX_SITES);
    expect(statuses[MAX_SITES]).toBe(403);
    // republishing an existing page is allowed, but not faster than the rate limit
    const more: number[] = [];
    for (let i = MAX_SITES + 1; i < PUBLISH_PER_WINDOW; i++) more.push((await c.post('/api/site/publish', { slug: 'burst-1', html: '<p>y</p>' })).status);
    expect(more.every((s) => s === 200)).toBe(true);
    expect((await c.post('/api/site/publish', { slug: 'burst-1', html: '<p>z</p>' })).status).toBe(429);
    const list = await c.get<{ sites: { slug: string }[] }>('/api/site/list');
    expect(list.body.sites).toHaveLength(MAX_SITES);
    expect((await c.post('/api/site/burst-0/unpublish')).status).toBe(200);
    expect((await c.get<{ sites: { slug: string }[] }>('/api/site/list')).body.sites.some((s) => s.slug === 'burst-0')).toBe(false);
    expect((await server.client().get<{ sites: unknown[] }>('/api/site/list')).body.sites).toEqual([]);
  });
});

describe('sign-in leaks', () => {
  it('an unknown email and a wrong password get the same answer', async () => {
    await signUp(server, 'known@example.jp');
    const unknown = await server.client().post<Body>('/api/account/login', { email: 'nobody@example.jp', password: 'attack-pass-x' });
    const wrong = await server.client().post<Body>('/api/account/login', { email: 'known@example.jp', password: 'attack-pass-x' });
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('a Google sign-in state started in one browser is refused in another', async () => {
    process.env.GOOGLE_CLIENT_ID = 'cid';
    process.env.GOOGLE_CLIENT_SECRET = 'csecret';
    try {
      const start = await fetch(`${server.url}/api/auth/google/start`, { redirect: 'manual' });
      const state = new URL(String(start.headers.get('location'))).searchParams.get('state') as string;
      const other = await fetch(`${server.url}/api/auth/google/callback?code=x&state=${encodeURIComponent(state)}`, { redirect: 'manual' });
      expect(other.headers.get('location')).toBe('/login.html?err=state');
      const cookie = String(start.headers.get('set-cookie')).split(';')[0];
      const same = await fetch(`${server.url}/api/auth/google/callback?code=x&state=${encodeURIComponent(state)}`, { redirect: 'manual', headers: { cookie } });
      expect(same.headers.get('location')).not.toBe('/login.html?err=state');
    } finally {
      delete process.env.GOOGLE_CLIENT_ID;
      delete process.env.GOOGLE_CLIENT_SECRET;
    }
  });

  it('sub-admin passwords need 10 characters', async () => {
    expect((await server.client().post('/api/admin/subadmin', { name: 'Short', email: 'short@example.jp', password: 'nine-char', tenants: [] }, admin)).status).toBe(400);
  });
});
