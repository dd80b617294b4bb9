import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureLimit } from '../../security/limits';
import { startTestServer, type Client, type TestServer } from '../../testing/harness.testkit';

type Body = Record<string, unknown> & { ok: boolean; error?: string };
type Member = { id: string; role: string; email: string; status?: string; ini: string; dept: string };
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  configureLimit(server.ctx, 'signup', 1000);
});
afterAll(() => server.close());

let n = 0;
async function owner(): Promise<{ c: Client; auth: Record<string, string>; tid: string; email: string }> {
  const c = server.client();
  const email = `owner${++n}@example.jp`;
  const res = await c.post<{ token: string; adoptedTenant: string }>('/api/account/signup', { email, password: 'secret-pass', name: 'Owner' });
  return { c, auth: { authorization: `Bearer ${res.body.token}` }, tid: res.body.adoptedTenant, email };
}

describe('team members', () => {
  it('creates with defaults and requires a name', async () => {
    const api = server.client();
    expect((await api.post<Body>('/api/team/member', {})).body.error).toBe('name required');
    const res = await api.post<{ member: Member }>('/api/team/member', { name: 'Hanako Sato', role: 'boss' });
    // initials are not derived from the name: the contract's default is NA
    expect(res.body.member).toMatchObject({ role: 'member', dept: '—', ini: 'NA' });
    expect(res.body.member.id).toMatch(/^t/);
    const given = await api.post<{ member: Member }>('/api/team/member', { name: 'Taro Yamada', ini: 'ty' });
    expect(given.body.member.ini).toBe('TY');
    expect((await api.post<{ member: Member }>('/api/team/member', { name: 'Jiro', ini: '  ' })).body.member.ini).toBe('NA');
  });

  it('refuses to demote or remove the last owner (409) but allows it with a second owner', async () => {
    const o = await owner();
    const me = (await o.c.get<{ members: Member[] }>('/api/team/members')).body.members.find((m) => m.email === o.email) as Member;
    expect(me.role).toBe('owner');
    expect((await o.c.post<Body>(`/api/team/member/${me.id}`, { role: 'admin' }, o.auth)).status).toBe(409);
    expect((await o.c.post<Body>(`/api/team/member/${me.id}/delete`, {}, o.auth)).status).toBe(409);
    const second = await o.c.post<{ member: Member }>('/api/team/member', { name: 'Second', role: 'owner' }, o.auth);
    expect((await o.c.post<Body>(`/api/team/member/${me.id}`, { role: 'admin' }, o.auth)).status).toBe(200);
    // now an admin: only an owner may remove an owner (and the last owner stays in any case)
    expect((await o.c.post<Body>(`/api/team/member/${second.body.member.id}/delete`, {}, o.auth)).status).toBe(403);
  });
});

describe('POST /api/team/invite and /api/team/accept', () => {
  it('invites, accepts into the invite workspace, and refuses a replay', async () => {
    const o = await owner();
    expect((await server.client().post('/api/team/invite', { email: 'x@example.jp' })).status).toBe(401);
    const inv = await o.c.post<{ token: string; inviteUrl: string; member: Member }>('/api/team/invite', { email: 'new@example.jp', role: 'viewer' }, o.auth);
    expect(inv.status).toBe(200);
    expect(inv.body.member).toMatchObject({ status: 'invited', role: 'viewer' });
    const joiner = server.client();
    const bad = await joiner.post<Body>('/api/team/accept', { inviteToken: `${inv.body.token}x`, email: 'new@example.jp', password: 'secret-pass' });
    expect(bad.status).toBe(401);
    const ok = await joiner.post<{ joinedTenant: string; token: string; account: { tenantId: string } }>('/api/team/accept', { inviteToken: inv.body.token, email: 'new@example.jp', password: 'secret-pass' });
    expect(ok.status).toBe(200);
    expect(ok.body.joinedTenant).toBe(o.tid);
    expect(joiner.cookie('kit_tid')).toBeTruthy();
    const members = (await o.c.get<{ members: Member[] }>('/api/team/members')).body.members;
    expect(members.find((m) => m.email === 'new@example.jp')?.status).toBeUndefined();
    const replay = await server.client().post<Body>('/api/team/accept', { inviteToken: inv.body.token, email: 'new@example.jp', password: 'secret-pass' });
    expect(replay.status).toBeGreaterThanOrEqual(401);
    // a viewer cannot do owner actions
    const viewer = { authorization: `Bearer ${ok.body.token}` };
    expect((await joiner.post<Body>('/api/team/invite', { email: 'v2@example.jp' }, viewer)).status).toBe(403);
    const me = members.find((m) => m.email === o.email) as Member;
    expect((await joiner.post<Body>(`/api/team/member/${me.id}`, { role: 'viewer' }, viewer)).status).toBe(403);
    expect((await joiner.post<Body>('/api/team/plan', { planKey: 'ent' }, viewer)).status).toBe(403);
    // ...nor by dropping the Bearer header: the kit_tid cookie names the same viewer session
    const self = members.find((m) => m.email === 'new@example.jp') as Member;
    expect((await joiner.post<Body>(`/api/team/member/${self.id}`, { role: 'owner' })).status).toBe(403);
    expect((await joiner.post<Body>('/api/team/member', { name: 'Sneaky', role: 'owner' })).status).toBe(403);
    expect((await joiner.post<Body>(`/api/team/member/${self.id}/delete`)).status).toBe(403);
    const after = (await o.c.get<{ members: Member[] }>('/api/team/members')).body.members;
    expect(after.find((m) => m.email === 'new@example.jp')?.role).toBe('viewer');
    expect(after.some((m) => m.role === 'owner' && m.email !== o.email)).toBe(false);
  });

  it('counts pending invites against the team plan member limit', async () => {
    const o = await owner();
    expect((await o.c.post<Body>('/api/team/plan', { planKey: 'gold' }, o.auth)).status).toBe(400);
    expect((await o.c.post<Body>('/api/team/plan', { planKey: 'starter' }, o.auth)).body.planKey).toBe('starter');
    expect((await o.c.get<Body>('/api/team/plan', o.auth)).body.planKey).toBe('starter');
    expect((await o.c.post('/api/team/invite', { email: 'a@example.jp' }, o.auth)).status).toBe(200);
    expect((await o.c.post('/api/team/invite', { email: 'b@example.jp' }, o.auth)).status).toBe(200);
    const third = await o.c.post<Body>('/api/team/invite', { email: 'c@example.jp' }, o.auth);
    expect(third.status).toBe(403);
    expect(third.body).toMatchObject({ error: 'plan_limit', limit: 3 });
  });
});

describe('GET /api/config', () => {
  it('is no-store and flags the demo workspace', async () => {
    const res = await server.client().get<{ config: Record<string, unknown> }>('/api/config');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.config).toMatchObject({ registrationOpen: true, demoEnabled: true, demoTenant: true });
    expect(res.body.config.secMaxAttempts).toBeUndefined();
    const o = await owner();
    const own = await o.c.get<{ config: Record<string, unknown> }>('/api/config');
    expect(own.body.config.demoTenant).toBeUndefined();
  });
});
