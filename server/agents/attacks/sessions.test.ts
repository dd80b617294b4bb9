/** Attacks on sessions: a token or cookie that should stop working keeps acting. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type Api, type AgentsTestServer } from '../harness.testkit';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer();
});
afterAll(() => t.close());

let n = 0;
const anon = () => t.api(null, { 'x-forwarded-for': `10.45.0.${++n}` });
const login = async (email: string, password = 'secret-pass') => {
  const r = await anon().post('/api/auth/login', { email, password });
  expect(r.status).toBe(200);
  return str(r.body.token);
};
const wsOf = async (api: Api) => str((await api.get('/api/workspace/general')).body.workspace.id);

describe('sessions end at the next request', () => {
  it('logout: the same token answers 401, as Bearer and as cookie', async () => {
    const u = await t.signup();
    const token = u.token as string;
    expect((await u.get('/api/auth/me')).status).toBe(200);
    expect((await u.post('/api/auth/logout')).status).toBe(200);
    const me = await t.api(token).get('/api/auth/me');
    expect(me.status).toBe(401);
    expect(me.body).toEqual({ error: 'invalid or expired token' });
    expect((await t.api().get('/api/auth/me', { cookie: `service_token=${token}` })).status).toBe(401);
    expect((await t.api(token).post('/api/agents', { name: 'after logout' })).status).toBe(401);
    // Other sessions of the account are not touched by one logout.
    const other = await login(u.email);
    expect((await t.api(other).get('/api/auth/me')).status).toBe(200);
  });

  it('password change: every other session dies, by Bearer and cookie', async () => {
    const u = await t.signup();
    const stolen = await login(u.email);
    expect((await t.api().get('/api/auth/me', { cookie: `service_token=${stolen}` })).status).toBe(200);
    const changed = await u.post('/api/auth/password', { currentPassword: 'secret-pass', password: 'rotated-pass' });
    expect(changed.status).toBe(200);
    expect((await t.api(stolen).get('/api/auth/me')).status).toBe(401);
    expect((await t.api().get('/api/auth/me', { cookie: `service_token=${stolen}` })).status).toBe(401);
    expect((await u.get('/api/auth/me')).status).toBe(401);
    expect((await t.api(str(changed.body.token)).get('/api/auth/me')).status).toBe(200);
  });

  it('a removed member acts in nothing of that workspace from the next request on', async () => {
    const owner = await t.signup();
    const agentId = str((await owner.post('/api/agents', { name: 'Owner agent' })).body.agent.id);
    const mate = await t.join(owner, 'member');
    const ownerWs = await wsOf(owner);
    expect(await wsOf(mate)).toBe(ownerWs);
    expect((await mate.get(`/api/agents/${agentId}`)).status).toBe(200);
    const mateId = str((await mate.get('/api/auth/me')).body.user.id);
    expect((await owner.del(`/api/workspace/members/${mateId}`)).status).toBe(200);

    expect(await wsOf(mate)).not.toBe(ownerWs);
    expect((await mate.get(`/api/agents/${agentId}`)).status).toBe(404);
    expect((await mate.patch(`/api/agents/${agentId}`, { name: 'taken' })).status).toBe(404);
    expect((await mate.post('/api/workspaces/switch', { workspaceId: ownerWs })).status).toBe(404);
    const cookie = await t.api().get(`/api/agents/${agentId}`, { cookie: `service_token=${mate.token}` });
    expect(cookie.status).toBe(404);
    expect(str((await owner.get(`/api/agents/${agentId}`)).body.agent.name)).toBe('Owner agent');
    expect(arr((await owner.get('/api/workspace/members')).body.members)).toHaveLength(1);
  });

  it('a role downgrade acts at the next request', async () => {
    const owner = await t.signup();
    const mate = await t.join(owner, 'member');
    // Creating an agent is an editor's write (API keys are the owner's since the role layer).
    expect((await mate.post('/api/agents', { name: 'before' })).status).toBe(200);
    const mateId = str((await mate.get('/api/auth/me')).body.user.id);
    expect((await owner.patch(`/api/workspace/members/${mateId}`, { role: 'viewer' })).status).toBe(200);
    const r = await mate.post('/api/agents', { name: 'after' });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ error: 'editor role required', role: 'viewer' });
    expect(arr((await owner.get('/api/agents')).body.agents).map((a) => str(a.name))).toEqual(['before']);
  });
});
