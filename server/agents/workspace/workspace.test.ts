import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mail } from '../accounts/mailer';
import { arr, startAgentsServer, str, type Api, type AgentsTestServer } from '../harness.testkit';

let t: AgentsTestServer;
const mails: Mail[] = [];
beforeAll(async () => {
  t = await startAgentsServer({}, { mailer: { send: async (m) => void mails.push(m) } });
});
afterAll(() => t.close());

let n = 0;
const fresh = () => `person${++n}-${Date.now()}@example.com`;

/** An owner plus a teammate who registered through an invitation with the given role (it lands in the owner's workspace). */
async function team(role: 'member' | 'viewer') {
  const owner = await t.signup();
  const mate = await t.join(owner, role);
  return { owner, mate, email: mate.email, wsId: str((await owner.get('/api/workspace/general')).body.workspace.id) };
}

/** The workspace's subscription to this plan is active (as a confirmed checkout leaves it). */
async function subscribed(api: Api, plan: string) {
  const ws = str((await api.get('/api/workspace/general')).body.workspace.id);
  await api.get('/api/billing/subscription');
  await t.ctx.db.updateTable('subscriptions').set({ status: 'active', plan }).where('workspace_id', '=', ws).execute();
}

describe('workspace general', () => {
  it('reads the workspace record and lets the owner rename it and change its tier (to one its subscription pays for)', async () => {
    const api = await t.signup();
    const g = await api.get('/api/workspace/general');
    expect(g.status).toBe(200);
    expect(g.body.workspace).toMatchObject({ tier: 'free', role: 'owner', credits: 100, paused: false, seats: { used: 1, limit: 2 } });
    await subscribed(api, 'pro');
    const p = await api.patch('/api/workspace/general', { name: '  Tokyo Kitting  ', tier: 'pro' });
    expect(p.status).toBe(200);
    expect(p.body.workspace).toMatchObject({ name: 'Tokyo Kitting', tier: 'pro', seats: { limit: 15 } });
    expect((await api.get('/api/auth/me')).body.workspace).toMatchObject({ name: 'Tokyo Kitting', tier: 'pro' });
  });

  it('refuses a bad tier or empty name with nothing stored, and non-owners with 403 {role, required}', async () => {
    const { owner, mate } = await team('member');
    expect((await owner.patch('/api/workspace/general', { tier: 'platinum' })).status).toBe(400);
    expect((await owner.patch('/api/workspace/general', { name: '' })).body).toEqual({ error: 'name: name must not be empty' });
    expect((await owner.get('/api/workspace/general')).body.workspace.tier).toBe('free');
    const r = await mate.patch('/api/workspace/general', { name: 'Mine now' });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: 'workspace owner only', role: 'member', required: 'owner' });
    expect((await t.api().get('/api/workspace/general')).status).toBe(401);
  });
});

describe('workspace members', () => {
  it('invites an address without an account: seat taken, a one-use link mailed, joins the workspace on registration with its token', async () => {
    const owner = await t.signup();
    const email = fresh();
    const inv = await owner.post('/api/workspace/members', { email: email.toUpperCase(), role: 'viewer' });
    expect(inv.status).toBe(200);
    expect(inv.body.member).toMatchObject({ email, role: 'viewer', status: 'invited', user_id: null });
    const mail = mails.find((m) => m.to === email);
    expect(mail?.subject).toMatch(/invited/);
    expect(mail?.text).toMatch(/\/invite\/[A-Za-z0-9_-]{43}\n/);
    const token = t.mailedToken(email, 'invite');
    const stored = JSON.stringify(await t.ctx.db.selectFrom('invitations').selectAll().where('email', '=', email).execute());
    expect(stored).not.toContain(token);
    const list = await owner.get('/api/workspace/members');
    expect(list.body.seats).toEqual({ used: 2, limit: 2 });
    expect(arr(list.body.members).map((m) => [m.role, m.status])).toEqual([['owner', 'active'], ['viewer', 'invited']]);
    const reg = await t.api().post('/api/auth/register', { email, password: 'secret-pass', invite: token });
    expect(reg.status).toBe(200);
    expect(reg.body.user.emailVerified).toBe(true);
    const mate = t.api(str(reg.body.token));
    const me = await mate.get('/api/auth/me');
    expect(me.body.workspace).toMatchObject({ id: (await owner.get('/api/workspace/general')).body.workspace.id, role: 'viewer' });
    expect(arr((await owner.get('/api/workspace/members')).body.members).map((m) => [m.email, m.status])).toContainEqual([email, 'active']);
  });

  it('invites an existing account too: it joins only when it accepts the mailed token while signed in', async () => {
    const owner = await t.signup();
    const other = await t.signup();
    const r = await owner.post('/api/workspace/members', { email: other.email });
    expect(r.body.member).toMatchObject({ email: other.email, role: 'member', status: 'invited', user_id: null });
    expect(mails.find((m) => m.to === other.email && /invited you/.test(m.text))?.text).toMatch(/Sign in with this address/);
    expect((await owner.post('/api/workspace/members', { email: other.email })).body).toEqual({ error: 'already invited' });
    const wsId = str((await owner.get('/api/workspace/general')).body.workspace.id);
    const acc = await other.post('/api/workspace/invitations/accept', { token: t.mailedToken(other.email, 'invite') });
    expect(acc.status).toBe(200);
    expect(acc.body.workspace).toMatchObject({ id: wsId, role: 'member' });
    expect((await other.get('/api/auth/me')).body.workspace).toMatchObject({ id: wsId, role: 'member' });
    expect((await owner.post('/api/workspace/members', { email: other.email })).body).toEqual({ error: 'already a member' });
    expect((await other.post('/api/workspace/invitations/accept', {})).body).toEqual({ error: 'token is required' });
  });

  it('is seat-limited by tier: 402 when full, nothing stored, room again after an upgrade', async () => {
    const owner = await t.signup();
    expect((await owner.post('/api/workspace/members', { email: fresh() })).status).toBe(200);
    const full = await owner.post('/api/workspace/members', { email: fresh() });
    expect(full.status).toBe(402);
    expect(full.body).toEqual({ error: 'seat limit reached', seats: 2, used: 2 });
    expect(arr((await owner.get('/api/workspace/members')).body.members)).toHaveLength(2);
    await subscribed(owner, 'starter');
    expect((await owner.patch('/api/workspace/general', { tier: 'starter' })).status).toBe(200);
    expect((await owner.post('/api/workspace/members', { email: fresh() })).status).toBe(200);
  });

  it('validates the invitation and refuses a second one for the same address', async () => {
    const owner = await t.signup();
    expect((await owner.post('/api/workspace/members', {})).body).toEqual({ error: 'email is required' });
    expect((await owner.post('/api/workspace/members', { email: 'not-an-email' })).status).toBe(400);
    expect((await owner.post('/api/workspace/members', { email: fresh(), role: 'owner' })).body).toEqual({ error: 'role: role must be member or viewer' });
    const email = fresh();
    await owner.post('/api/workspace/members', { email });
    expect((await owner.post('/api/workspace/members', { email })).body).toEqual({ error: 'already invited' });
  });

  it('lets the owner change roles and remove members; the owner stays; members may only leave', async () => {
    const { owner, mate } = await team('member');
    const members = arr((await owner.get('/api/workspace/members')).body.members);
    const ownerId = str(members[0].id);
    const mateId = str(members[1].id);
    expect((await mate.post('/api/workspace/members', { email: fresh() })).status).toBe(403);
    expect((await mate.patch(`/api/workspace/members/${ownerId}`, { role: 'viewer' })).status).toBe(403);
    expect((await mate.del(`/api/workspace/members/${ownerId}`)).status).toBe(403);
    expect((await owner.patch(`/api/workspace/members/${ownerId}`, { role: 'viewer' })).body).toEqual({ error: 'the owner role cannot be changed' });
    expect((await owner.del(`/api/workspace/members/${ownerId}`)).body).toEqual({ error: 'the owner cannot be removed' });
    const changed = await owner.patch(`/api/workspace/members/${mateId}`, { role: 'viewer' });
    expect(changed.body.member).toMatchObject({ id: mateId, role: 'viewer' });
    expect((await mate.get('/api/auth/me')).body.workspace.role).toBe('viewer');
    expect((await owner.patch('/api/workspace/members/usr_nobody', { role: 'viewer' })).status).toBe(404);
    expect((await owner.del(`/api/workspace/members/${mateId}`)).status).toBe(200);
    expect(arr((await owner.get('/api/workspace/members')).body.members)).toHaveLength(1);
  });

  it('withdraws an open invitation by its id', async () => {
    const owner = await t.signup();
    const inv = await owner.post('/api/workspace/members', { email: fresh() });
    const id = str(inv.body.member.id);
    expect(id).toMatch(/^inv_/);
    expect((await owner.patch(`/api/workspace/members/${id}`, { role: 'viewer' })).body.member.role).toBe('viewer');
    expect((await owner.del(`/api/workspace/members/${id}`)).status).toBe(200);
    expect((await owner.get('/api/workspace/members')).body.seats).toEqual({ used: 1, limit: 2 });
  });
});

describe('workspace API keys', () => {
  it('returns the sk_live_ secret once, lists without it, stores only a hash, deletes', async () => {
    const api = await t.signup();
    const c = await api.post('/api/workspace/api-keys', { name: 'Zapier' });
    expect(c.status).toBe(200);
    const secret = str(c.body.secret);
    expect(secret).toMatch(/^sk_live_[A-Za-z0-9_-]{32}$/);
    expect(c.body.key).toMatchObject({ name: 'Zapier', prefix: secret.slice(0, 12), last_used_at: null });
    const list = await api.get('/api/workspace/api-keys');
    expect(arr(list.body.keys)).toHaveLength(1);
    expect(list.text).not.toContain(secret);
    expect(Object.keys(arr(list.body.keys)[0]).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name', 'prefix']);
    const stored = await t.ctx.db.selectFrom('api_keys').selectAll().where('id', '=', str(c.body.key.id)).executeTakeFirst();
    expect(stored?.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect((await api.post('/api/workspace/api-keys', {})).body.key.name).toBe('API key');
    expect((await api.del(`/api/workspace/api-keys/${str(c.body.key.id)}`)).status).toBe(200);
    expect((await api.del(`/api/workspace/api-keys/${str(c.body.key.id)}`)).body).toEqual({ error: 'API key not found' });
    expect(arr((await api.get('/api/workspace/api-keys')).body.keys)).toHaveLength(1);
  });

  it("keeps keys per workspace and refuses viewers' writes", async () => {
    const { owner, mate } = await team('viewer');
    const k = await owner.post('/api/workspace/api-keys', { name: 'CI' });
    const stranger: Api = await t.signup();
    expect((await stranger.del(`/api/workspace/api-keys/${str(k.body.key.id)}`)).status).toBe(404);
    expect(arr((await mate.get('/api/workspace/api-keys')).body.keys)).toHaveLength(1);
    const r = await mate.post('/api/workspace/api-keys', { name: 'mine' });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: 'workspace owner only', role: 'viewer', required: 'owner' });
    expect((await mate.del(`/api/workspace/api-keys/${str(k.body.key.id)}`)).status).toBe(403);
  });
});
