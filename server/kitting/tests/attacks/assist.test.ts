/**
 * Attack (issue 26): a sub-admin's assist token outlived the sub-admin, and in assist mode could mint an
 * enrolment code, invite an admin and promote it to a second owner, with only `impersonate` in the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness.testkit';
import { type Body } from './helpers.testkit';

let server: TestServer;
let admin: Record<string, string>;
let tid: string;
let n = 0;

beforeAll(async () => {
  server = await startTestServer({ config: { adminPassword: 'assist-master-pass' } });
  const api = server.client();
  admin = { authorization: `Bearer ${(await api.post<{ token: string }>('/api/admin/login', { password: 'assist-master-pass' })).body.token}` };
  tid = (await api.post<{ tenant: { id: string } }>('/api/admin/tenant', { name: '代理操作テスト' }, admin)).body.tenant.id;
});
afterAll(() => server.close());

/** A fresh sub-admin assigned to the tenant, and an assist session of theirs in it. */
async function assistSession() {
  const email = `assist-${n++}@example.jp`;
  const made = await server.client().post<{ subadmin: { id: string } }>('/api/admin/subadmin', { name: '代理', email, password: 'assist-pass-1', tenants: [tid] }, admin);
  expect(made.status, made.text).toBe(200);
  const token = (await server.client().post<{ token: string }>('/api/subadmin/login', { email, password: 'assist-pass-1' })).body.token;
  const res = await server.client().post<{ url: string }>(`/api/subadmin/workspace/${tid}/impersonate`, {}, { authorization: `Bearer ${token}` });
  expect(res.status, res.text).toBe(200);
  const assist = new URL(res.body.url, 'http://x').searchParams.get('assist');
  return { subId: made.body.subadmin.id, email, auth: { authorization: `Bearer ${assist}` } };
}

describe('assist sessions are bounded by the operator who started them', () => {
  it('ends the moment the sub-admin is deleted', async () => {
    const s = await assistSession();
    expect((await server.client().get('/api/team/members', s.auth)).status).toBe(200);
    expect((await server.client().post(`/api/admin/subadmin/${s.subId}/delete`, {}, admin)).status).toBe(200);
    expect((await server.client().get('/api/team/members', s.auth)).status).toBe(401);
  });

  it('ends when the sub-admin is deactivated or no longer assigned to the workspace', async () => {
    const a = await assistSession();
    await server.client().post(`/api/admin/subadmin/${a.subId}`, { active: false }, admin);
    expect((await server.client().get('/api/team/members', a.auth)).status).toBe(401);
    const b = await assistSession();
    await server.client().post(`/api/admin/subadmin/${b.subId}`, { tenants: [] }, admin);
    expect((await server.client().get('/api/team/members', b.auth)).status).toBe(401);
  });

  it('cannot mint an enrolment code or an invitation, nor make or change an owner or admin', async () => {
    const s = await assistSession();
    const code = await server.client().post<Body>('/api/sync/enrol-code', {}, s.auth);
    expect(code.status).toBe(403);
    expect(code.body.error).toBe('assist_forbidden');
    const invite = await server.client().post<Body>('/api/team/invite', { email: 'mallory@example.jp', role: 'admin' }, s.auth);
    expect(invite.status).toBe(403);
    const added = await server.client().post<Body>('/api/team/member', { name: '侵入者', role: 'admin' }, s.auth);
    expect(added.status).toBe(403);
    const members = (await server.client().get<{ members: { id: string; role: string; name: string }[] }>('/api/team/members', s.auth)).body.members;
    expect(members.some((m) => m.name === '侵入者')).toBe(false);
    const plain = members.find((m) => m.role !== 'owner' && m.role !== 'admin');
    if (plain) {
      const promoted = await server.client().post<Body>(`/api/team/member/${plain.id}`, { role: 'owner' }, s.auth);
      expect(promoted.status).toBe(403);
      expect((await server.store.get(tid, 'team', plain.id))?.role).toBe(plain.role);
    }
  });

  it("logs what it does as the operator in the workspace's audit log", async () => {
    const s = await assistSession();
    const made = await server.client().post<{ customer: { id: string } }>('/api/customer', { name: '代理で登録した顧客' }, s.auth);
    expect(made.status).toBe(200);
    const log = await server.store.list<{ user: string; action: string; cat: string }>(tid, 'auditLog');
    const entry = log.find((e) => e.cat === 'assist' && e.action.includes('POST /api/customer'));
    expect(entry?.user).toBe(`subadmin:${s.email}`);
  });
});
