import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureLimit } from '../../security/limits';
import { P, PLATFORM_WS } from '../platform-collections';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';

type Body = Record<string, unknown> & { ok: boolean; error?: string };
let server: TestServer;
let admin: Record<string, string>;
const PW = 'master-pass-for-tests';

beforeAll(async () => {
  server = await startTestServer({ config: { adminPassword: PW } });
  configureLimit(server.ctx, 'signup', 1000);
  const res = await server.client().post<{ token: string }>('/api/admin/login', { password: PW });
  admin = { authorization: `Bearer ${res.body.token}` };
});
afterAll(() => server.close());

describe('POST /api/admin/login', () => {
  it('refuses a wrong password with the spec text', async () => {
    const res = await server.client().post<Body>('/api/admin/login', { password: 'nope' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ ok: false, error: 'パスワードが違います' });
  });
  it('has no built-in default password', async () => {
    const s = await startTestServer({ config: { adminPassword: null } });
    try {
      expect((await s.client().post('/api/admin/login', { password: '' })).status).toBe(401);
      expect((await s.client().post('/api/admin/login', {})).status).toBe(401);
    } finally {
      await s.close();
    }
  });
  it('is not_found on the bench', async () => {
    const s = await startTestServer({ mode: 'bench', config: { adminPassword: PW } });
    try {
      const res = await s.client().post<Body>('/api/admin/login', { password: PW });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('not_found');
      expect((await s.client().get('/api/admin/tenants')).status).toBe(404);
    } finally {
      await s.close();
    }
  });
});

describe('admin tokens', () => {
  it('401 unauthorized without, with a tampered, or with a session token', async () => {
    expect((await server.client().get<Body>('/api/admin/tenants')).body).toMatchObject({ ok: false, error: 'unauthorized', need: 'admin' });
    const t = admin.authorization.slice(7);
    const tampered = `${t.slice(0, -3)}${t.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    expect((await server.client().get('/api/admin/tenants', { authorization: `Bearer ${tampered}` })).status).toBe(401);
    const s = await server.client().post<{ token: string }>('/api/account/signup', { email: 'kind@example.jp', password: 'secret-pass' });
    expect((await server.client().get('/api/admin/tenants', { authorization: `Bearer ${s.body.token}` })).status).toBe(401);
    expect((await server.client().get(`/api/admin/tenants?token=${encodeURIComponent(t)}`)).status).toBe(200);
  });
});

describe('tenants', () => {
  it('creates a trial tenant with id t-<slug>-<hex> and lists it with stats', async () => {
    const res = await server.client().post<{ tenant: Record<string, unknown> }>('/api/admin/tenant', { name: 'Acme Kitting', seats: 5, email: 'ops@acme.jp' }, admin);
    expect(res.status).toBe(200);
    expect(res.body.tenant.id).toMatch(/^t-acme-kitting-[0-9a-f]{6}$/);
    expect(res.body.tenant).toMatchObject({ status: 'trial', plan: 'Starter', seats: 5 });
    const list = await server.client().get<{ tenants: { id: string }[]; stats: Record<string, number> }>('/api/admin/tenants', admin);
    expect(list.body.tenants.some((t) => t.id === res.body.tenant.id)).toBe(true);
    expect(list.body.stats.trial).toBeGreaterThanOrEqual(1);
    const upd = await server.client().post<{ tenant: Record<string, unknown> }>(`/api/admin/tenant/${String(res.body.tenant.id)}`, { status: 'active', features: { api: true } }, admin);
    expect(upd.body.tenant).toMatchObject({ status: 'active', features: { api: true } });
    // a typo is 400 with nothing stored, never a silent fallback (a suspended tenant turned active)
    const id = String(res.body.tenant.id);
    await server.client().post(`/api/admin/tenant/${id}`, { status: 'suspended' }, admin);
    const typo = await server.client().post<Body>(`/api/admin/tenant/${id}`, { status: 'activ', plan: 'Business' }, admin);
    expect(typo.status).toBe(400);
    expect(typo.body.error).toBe('invalid status');
    expect((await server.client().post<Body>(`/api/admin/tenant/${id}`, { plan: 'Gold' }, admin)).body.error).toBe('invalid plan');
    expect((await server.client().post<Body>('/api/admin/tenant', { name: 'Typo', plan: 'Busines' }, admin)).status).toBe(400);
    const after = await server.client().get<{ tenant: Record<string, unknown> }>(`/api/admin/tenant/${id}`, admin);
    expect(after.body.tenant).toMatchObject({ status: 'suspended', plan: 'Starter' });
    expect((await server.client().post(`/api/admin/tenant/nope/delete`, {}, admin)).status).toBe(404);
  });

  it('issues a client portal link that works, and revocation kills it', async () => {
    const t = (await server.client().post<{ tenant: { id: string } }>('/api/admin/tenant', { name: 'Portal Co' }, admin)).body.tenant;
    expect((await server.client().post<Body>(`/api/admin/tenant/${t.id}/client`, {}, admin)).body.error).toBe('client required');
    const link = await server.client().post<{ url: string }>(`/api/admin/tenant/${t.id}/client`, { client: '顧客A' }, admin);
    const tok = new URL(link.body.url, server.url).searchParams.get('t') as string;
    const view = await server.client().get<Body>(`/api/portal/view?t=${encodeURIComponent(tok)}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ client: { name: '顧客A' }, published: true });
    const rev = await server.client().post<Body>(`/api/admin/tenant/${t.id}/client/revoke`, { client: '顧客A' }, admin);
    expect(rev.body).toMatchObject({ ok: true, client: '顧客A', revocations: 1 });
    const dead = await server.client().get<Body>(`/api/portal/view?t=${encodeURIComponent(tok)}`);
    expect(dead.status).toBe(401);
    expect(dead.body.error).toBe('portal_link_invalid');
    expect((await server.client().post<Body>(`/api/admin/tenant/${t.id}/client/revoke`, {}, admin)).body.error).toBe('client name required');
  });
});

describe('workspaces and plans', () => {
  it('lists anonymous workspaces and enforces the starter limits', async () => {
    const c = server.client();
    const me = await c.get<{ tenantId: string }>('/api/account/me');
    const ws = me.body.tenantId;
    const list = await server.client().get<{ workspaces: { id: string }[]; plans: unknown[] }>('/api/admin/workspaces', admin);
    expect(list.body.workspaces.some((w) => w.id === ws)).toBe(true);
    expect(list.body.plans).toHaveLength(3);
    // a new browser workspace starts on the kitting defaults: an active Starter with three seats
    const tenant = await server.store.get(PLATFORM_WS, P.tenants, ws);
    expect(tenant).toMatchObject({ id: ws, kind: 'anonymous', name: '匿名ワークスペース', plan: 'Starter', seats: 3, status: 'active', clients: [] });
    expect(typeof tenant?.created).toBe('number');
    expect((await server.client().post<Body>('/api/admin/workspace/BAD!/plan', { planKey: 'starter' }, admin)).status).toBe(400);
    expect((await server.client().post<Body>('/api/admin/workspace/w-0000/plan', { planKey: 'starter' }, admin)).body.error).toBe('no such workspace');
    const plan = await server.client().post<Body>(`/api/admin/workspace/${ws}/plan`, { planKey: 'starter', reason: 'test' }, admin);
    expect(plan.body).toMatchObject({ ok: true, planKey: 'starter', limits: { devices: 100, members: 3, customers: 10 } });
    // the demo workspace already holds 178 devices: one more is refused with the limit named
    const dev = await c.post<Body>('/api/device', {});
    expect(dev.status).toBe(403);
    expect(dev.body).toMatchObject({ error: 'plan_limit', resource: 'devices', limit: 100 });
    // 8 seeded customers: the 9th and 10th fit, the 11th does not
    expect((await c.post<Body>('/api/customer', { name: 'X9' })).status).toBe(200);
    expect((await c.post<Body>('/api/customer', { name: 'X10' })).status).toBe(200);
    const cust = await c.post<Body>('/api/customer', { name: 'X11' });
    expect(cust.status).toBe(403);
    expect(cust.body).toMatchObject({ resource: 'customers', limit: 10 });
    const act = await server.client().get<{ activity: { action: string }[] }>('/api/admin/activity', admin);
    expect(act.body.activity.some((a) => a.action === 'plan_change')).toBe(true);
  });
});

describe('accounts, config, sub-admins', () => {
  it('lists accounts without password material and deletes them', async () => {
    await server.client().post('/api/account/signup', { email: 'gone@example.jp', password: 'secret-pass' });
    const list = await server.client().get<Body>('/api/admin/accounts', admin);
    expect(JSON.stringify(list.body)).not.toMatch(/scrypt|pwHash/);
    const del = await server.client().post<Body>('/api/admin/account/gone@example.jp/delete', {}, admin);
    expect(del.body).toMatchObject({ ok: true, removed: { email: 'gone@example.jp' } });
    expect((await server.client().post<Body>('/api/admin/account/gone@example.jp/delete', {}, admin)).body.error).toBe('account not found');
  });

  it('applies only known config keys and reports sec defaults', async () => {
    const g = await server.client().get<{ config: Record<string, unknown> }>('/api/admin/config', admin);
    expect(g.body.config.secMaxAttempts).toBe(8);
    expect(g.body.config.secValidityCap).toBe(30);
    const p = await server.client().put<{ config: Record<string, unknown>; meta: Record<string, unknown> }>('/api/admin/config', { config: { announcementText: 'お知らせ', bogus: 1, secMaxAttempts: 'x' } }, admin);
    expect(p.body.config.announcementText).toBe('お知らせ');
    expect(p.body.config.bogus).toBeUndefined();
    expect(p.body.config.secMaxAttempts).toBe(8);
    expect(p.body.meta.updatedBy).toBe('admin');
  });

  it('creates sub-admins with unique emails and no hash in responses', async () => {
    const res = await server.client().post<{ subadmin: Record<string, unknown>; password: string }>('/api/admin/subadmin', { name: 'Sub', email: 'Sub@Example.jp' }, admin);
    expect(res.body.subadmin.email).toBe('sub@example.jp');
    expect(res.body.password.length).toBeGreaterThanOrEqual(12);
    expect(JSON.stringify(res.body.subadmin)).not.toMatch(/scrypt|pwHash/);
    expect((await server.client().post('/api/admin/subadmin', { email: 'sub@example.jp' }, admin)).status).toBe(409);
    expect((await server.client().post<Body>('/api/admin/subadmin', { name: 'x' }, admin)).body.error).toBe('email required');
  });
});
