import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type Api, type AgentsTestServer } from '../harness.testkit';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer({}, { mailer: { send: async () => {} } });
});
afterAll(() => t.close());

const wsOf = async (api: Api) => str((await api.get('/api/workspace/general')).body.workspace.id);
const agentNames = async (api: Api) => arr((await api.get('/api/agents')).body.agents).map((a) => str(a.name));

/** Two accounts with a workspace and an agent each; the first invites the second (an existing account) with `role`. */
async function twoWorkspaces(role: 'member' | 'viewer' = 'member') {
  const a = await t.signup();
  const b = await t.signup();
  await a.post('/api/agents', { name: 'Agent of A' });
  await b.post('/api/agents', { name: 'Agent of B' });
  const wsA = await wsOf(a);
  const wsB = await wsOf(b);
  const inv = await a.post('/api/workspace/members', { email: b.email, role });
  expect(inv.body.member).toMatchObject({ email: b.email, role, status: 'invited' });
  expect((await b.post('/api/workspace/invitations/accept', { token: t.mailedToken(b.email, 'invite') })).status).toBe(200);
  // Accepting acts in the joined workspace; these tests start from the account's own one.
  await b.post('/api/workspaces/switch', { workspaceId: wsB });
  return { a, b, wsA, wsB };
}

describe('an existing account invited into another workspace', () => {
  it('lists its workspaces with its role in each and the active one', async () => {
    const { a, b, wsA, wsB } = await twoWorkspaces();
    const r = await b.get('/api/workspaces');
    expect(r.status).toBe(200);
    expect(r.body.active).toBe(wsB);
    expect(arr(r.body.workspaces).map((w) => [w.id, w.role, w.active])).toEqual([
      [wsB, 'owner', true],
      [wsA, 'member', false],
    ]);
    expect(arr(r.body.workspaces)[1].owner).toEqual({ id: str((await a.get('/api/auth/me')).body.user.id), email: a.email });
    expect(arr((await a.get('/api/workspaces')).body.workspaces).map((w) => w.id)).toEqual([wsA]);
    expect((await t.api().get('/api/workspaces')).status).toBe(401);
  });

  it('switches: the same session token then acts in the chosen workspace only, with its role there', async () => {
    const { b, wsA, wsB } = await twoWorkspaces();
    expect(await agentNames(b)).toEqual(['Agent of B']);
    const s = await b.post('/api/workspaces/switch', { workspaceId: wsA });
    expect(s.status).toBe(200);
    expect(s.body.workspace).toMatchObject({ id: wsA, role: 'member' });
    expect(arr(s.body.workspaces).find((w) => w.active)?.id).toBe(wsA);

    expect((await b.get('/api/auth/me')).body.workspace).toMatchObject({ id: wsA, role: 'member' });
    expect(await agentNames(b)).toEqual(['Agent of A']);
    const created = await b.post('/api/agents', { name: 'Made in A' });
    expect(created.status).toBe(200);
    expect(await agentNames(b)).toEqual(expect.arrayContaining(['Agent of A', 'Made in A']));
    const owned = await b.patch('/api/workspace/general', { name: 'Renamed' });
    expect(owned.status).toBe(403);
    expect(owned.body).toEqual({ error: 'workspace owner only', role: 'member', required: 'owner' });

    expect((await b.post('/api/workspaces/switch', { workspaceId: wsB })).body.workspace).toMatchObject({ id: wsB, role: 'owner' });
    expect(await agentNames(b)).toEqual(['Agent of B']);
    expect((await b.patch('/api/workspace/general', { name: 'Mine' })).status).toBe(200);
  });

  it('a viewer who switched in can read but not edit', async () => {
    const { b, wsA } = await twoWorkspaces('viewer');
    await b.post('/api/workspaces/switch', { workspaceId: wsA });
    expect(await agentNames(b)).toEqual(['Agent of A']);
    const key = await b.post('/api/workspace/api-keys', { name: 'k' });
    expect(key.status).toBe(403);
    expect(key.body).toEqual({ error: 'workspace owner only', role: 'viewer', required: 'owner' });
  });

  it('cannot switch into a workspace it does not belong to; nothing changes', async () => {
    const { b, wsA } = await twoWorkspaces();
    const stranger = await t.signup();
    const wsC = await wsOf(stranger);
    await b.post('/api/workspaces/switch', { workspaceId: wsA });
    const r = await b.post('/api/workspaces/switch', { workspaceId: wsC });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'workspace not found' });
    expect((await b.post('/api/workspaces/switch', { workspaceId: 'ws_missing' })).body).toEqual({ error: 'workspace not found' });
    expect(await wsOf(b)).toBe(wsA);
    expect((await b.post('/api/workspaces/switch', {})).body).toEqual({ error: 'workspaceId is required' });
  });

  it('removed from the workspace it switched to, it falls back to its own', async () => {
    const { a, b, wsA, wsB } = await twoWorkspaces();
    await b.post('/api/workspaces/switch', { workspaceId: wsA });
    const bId = str((await b.get('/api/auth/me')).body.user.id);
    expect((await a.del(`/api/workspace/members/${bId}`)).status).toBe(200);
    expect(await wsOf(b)).toBe(wsB);
    expect(await agentNames(b)).toEqual(['Agent of B']);
    expect((await b.post('/api/workspaces/switch', { workspaceId: wsA })).status).toBe(404);
  });

  it('a new login lands in the workspace chosen last', async () => {
    const { b, wsA } = await twoWorkspaces();
    await b.post('/api/workspaces/switch', { workspaceId: wsA });
    const login = await t.api(null, { 'x-forwarded-for': '10.77.0.1' }).post('/api/auth/login', { email: b.email, password: 'secret-pass' });
    expect(login.status).toBe(200);
    expect(await wsOf(t.api(str(login.body.token)))).toBe(wsA);
  });
});
