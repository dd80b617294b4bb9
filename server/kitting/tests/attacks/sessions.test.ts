/** Attacks on sessions: access that should end, and cookies planted before sign-up. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';
import { configureLimit } from '../../security/limits';
import { addMember, bearer, signUp, type Body } from './helpers.testkit';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  configureLimit(server.ctx, 'signup', 1000);
});
afterAll(() => server.close());

describe('access is revoked at the next request', () => {
  it('a removed member can neither read nor write with its Bearer token or its cookie', async () => {
    const o = await signUp(server, 'rm-owner@example.jp');
    const m = await addMember(server, o.auth, 'rm-member@example.jp', 'member');
    expect((await m.c.get('/api/customers', m.auth)).status).toBe(200);
    expect((await server.client().post(`/api/team/member/${m.memberId}/delete`, {}, o.auth)).status).toBe(200);
    const before = (await o.c.get<{ customers: unknown[] }>('/api/customers', o.auth)).body.customers.length;
    expect((await server.client().get('/api/customers', m.auth)).status).toBe(401);
    expect((await server.client().post('/api/customer', { name: '侵入' }, m.auth)).status).toBe(401);
    const viaCookie = await m.c.get<Body>('/api/customers');
    expect(viaCookie.status).toBe(401);
    expect(viaCookie.body.error).toBe('session_ended');
    expect((await o.c.get<{ customers: unknown[] }>('/api/customers', o.auth)).body.customers).toHaveLength(before);
  });

  it('logout ends the Bearer token and the cookie', async () => {
    const o = await signUp(server, 'logout@example.jp');
    expect((await o.c.post('/api/account/logout')).status).toBe(200);
    const me = await server.client().get<{ signedIn: boolean }>('/api/account/me', o.auth);
    expect(me.body.signedIn).toBe(false);
    expect((await server.client().get('/api/team/plan', o.auth)).status).toBe(401);
    expect((await server.client().get('/api/customers', o.auth)).status).toBe(401);
  });

  it('a password change ends the old kit_tid cookie as well as the old token', async () => {
    const o = await signUp(server, 'pw-change@example.jp');
    const thief = server.client();
    thief.setCookie('kit_tid', o.c.cookie('kit_tid') as string);
    expect((await thief.get('/api/customers')).status).toBe(200);
    const changed = await server.client().post<{ token: string }>('/api/account/password', { current: 'attack-pass-1', next: 'attack-pass-2' }, o.auth);
    expect(changed.status).toBe(200);
    expect((await thief.get('/api/customers')).status).toBe(401);
    expect((await server.client().get('/api/customers', o.auth)).status).toBe(401);
    expect((await server.client().get('/api/customers', bearer(changed.body.token))).status).toBe(200);
  });

  it('a role change acts at the next request', async () => {
    const o = await signUp(server, 'role-owner@example.jp');
    const a = await addMember(server, o.auth, 'role-admin@example.jp', 'admin');
    expect((await a.c.put('/api/settings/company', { name: '管理者の変更' }, a.auth)).status).toBe(200);
    await server.client().post(`/api/team/member/${a.memberId}`, { role: 'viewer', scopes: { settings: 'view' } }, o.auth);
    expect((await a.c.put('/api/settings/company', { name: '降格後の変更' }, a.auth)).status).toBe(403);
    expect((await o.c.get<{ company: { name: string } }>('/api/settings/company', o.auth)).body.company.name).toBe('管理者の変更');
  });
});

describe('session fixation', () => {
  it('a kit_tid planted before sign-up never reaches the account workspace, and sign-up sets a new cookie', async () => {
    const attacker = server.client();
    await attacker.get('/api/jobs');
    const planted = attacker.cookie('kit_tid') as string;
    const victim = server.client();
    victim.setCookie('kit_tid', planted);
    const s = await victim.post<{ token: string; adoptedTenant: string }>('/api/account/signup', { email: 'fixation@example.jp', password: 'attack-pass-1' });
    expect(s.status).toBe(200);
    expect(victim.cookie('kit_tid')).not.toBe(planted);
    await victim.post('/api/job', { t: '被害者の案件' });
    const seen = await attacker.get<{ jobs: { t: string }[] }>('/api/jobs');
    expect(seen.status).toBe(401);
    const fresh = await attacker.get<{ jobs: { t: string }[] }>('/api/jobs');
    expect(fresh.body.jobs.some((j) => j.t === '被害者の案件')).toBe(false);
  });
});
