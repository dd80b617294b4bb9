/** Attacks on roles: viewers writing data, admins taking the workspace over. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';
import { configureLimit } from '../../security/limits';
import { addMember, signUp, type Body } from './helpers.testkit';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  configureLimit(server.ctx, 'signup', 1000);
});
afterAll(() => server.close());

describe('roles on data routes', () => {
  it('a viewer can read but neither change the company profile nor create customers', async () => {
    const o = await signUp(server, 'v-owner@example.jp');
    await o.c.put('/api/settings/company', { name: '正しい社名' }, o.auth);
    const v = await addMember(server, o.auth, 'v-viewer@example.jp', 'viewer');
    expect((await v.c.get('/api/customers', v.auth)).status).toBe(200);
    const before = (await o.c.get<{ customers: unknown[] }>('/api/customers', o.auth)).body.customers.length;
    const put = await v.c.put<Body>('/api/settings/company', { name: '乗っ取り' }, v.auth);
    expect(put.status).toBe(403);
    expect(put.body).toMatchObject({ ok: false, error: 'forbidden', need: 'settings:edit' });
    expect((await v.c.post('/api/customer', { name: '不正な顧客' }, v.auth)).status).toBe(403);
    expect((await v.c.post('/api/customer', { name: '不正な顧客' })).status).toBe(403);
    expect((await o.c.get<{ company: { name: string } }>('/api/settings/company', o.auth)).body.company.name).toBe('正しい社名');
    expect((await o.c.get<{ customers: unknown[] }>('/api/customers', o.auth)).body.customers).toHaveLength(before);
  });

  it('a member works only in the scopes it holds', async () => {
    const o = await signUp(server, 's-owner@example.jp');
    const m = await addMember(server, o.auth, 's-member@example.jp', 'member');
    await server.client().post(`/api/team/member/${m.memberId}`, { scopes: { ops: 'edit', sales: 'none', support: 'view' } }, o.auth);
    expect((await m.c.post('/api/job', { t: '作業' }, m.auth)).status).toBe(200);
    expect((await m.c.get('/api/invoices', m.auth)).status).toBe(403);
    expect((await m.c.post('/api/ticket', { subject: '件名' }, m.auth)).status).toBe(403);
    expect((await m.c.get('/api/tickets', m.auth)).status).toBe(200);
  });
});

describe('owners are protected', () => {
  it('an admin can neither make itself owner nor demote or remove the owner', async () => {
    const o = await signUp(server, 'takeover-owner@example.jp');
    const a = await addMember(server, o.auth, 'takeover-admin@example.jp', 'admin');
    const members = (await o.c.get<{ members: { id: string; role: string; email: string }[] }>('/api/team/members', o.auth)).body.members;
    const owner = members.find((m) => m.email === 'takeover-owner@example.jp') as { id: string };
    expect((await a.c.post<Body>(`/api/team/member/${a.memberId}`, { role: 'owner' }, a.auth)).status).toBe(403);
    expect((await a.c.post<Body>(`/api/team/member/${owner.id}`, { role: 'viewer' }, a.auth)).status).toBe(403);
    expect((await a.c.post<Body>(`/api/team/member/${owner.id}/delete`, {}, a.auth)).status).toBe(403);
    expect((await a.c.post<Body>('/api/team/member', { name: 'Puppet', role: 'owner' }, a.auth)).status).toBe(403);
    const after = (await o.c.get<{ members: { id: string; role: string }[] }>('/api/team/members', o.auth)).body.members;
    expect(after.filter((m) => m.role === 'owner').map((m) => m.id)).toEqual([owner.id]);
    expect(after.find((m) => m.id === a.memberId)?.role).toBe('admin');
    // an owner may: and the last owner stays protected even from itself
    expect((await o.c.post(`/api/team/member/${owner.id}`, { role: 'admin' }, o.auth)).status).toBe(409);
    expect((await o.c.post(`/api/team/member/${a.memberId}`, { role: 'owner' }, o.auth)).status).toBe(200);
  });
});
