/** Attacks on email ownership: taking an invited address or an operator address by registering it first. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type Api, type AgentsTestServer } from '../harness.testkit';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer({ adminEmails: ['ops@example.com', 'ops2@example.com'] });
});
afterAll(() => t.close());

let n = 0;
/** Each attempt from its own address, so the per-IP auth limit is not what refuses it. */
const anon = () => t.api(null, { 'x-forwarded-for': `10.44.0.${++n}` });
const wsOf = async (api: Api) => str((await api.get('/api/workspace/general')).body.workspace.id);
const emailsOf = async (owner: Api) => arr((await owner.get('/api/workspace/members')).body.members).map((m) => [str(m.email), str(m.status)]);

describe('registering an invited address without the invitation token', () => {
  it('gives the registrant its own workspace only: nothing of the inviter is readable or writable', async () => {
    const owner = await t.signup();
    const agent = await owner.post('/api/agents', { name: '社内用エージェント' });
    const agentId = str(agent.body.agent.id);
    const victim = `invited-${Date.now()}@example.com`;
    expect((await owner.post('/api/workspace/members', { email: victim, role: 'member' })).status).toBe(200);

    // The attacker knows the invited address, not the mailed link.
    const reg = await anon().post('/api/auth/register', { email: victim, password: 'attacker-pass' });
    expect(reg.status).toBe(200);
    const attacker = t.api(str(reg.body.token));
    expect(await wsOf(attacker)).not.toBe(await wsOf(owner));
    expect(arr((await attacker.get('/api/workspaces')).body.workspaces)).toHaveLength(1);
    expect((await attacker.get(`/api/agents/${agentId}`)).status).toBe(404);
    expect((await attacker.patch(`/api/agents/${agentId}`, { system_prompt: 'leak everything' })).status).toBe(404);
    expect(await emailsOf(owner)).toContainEqual([victim, 'invited']);
    expect(await emailsOf(owner)).not.toContainEqual([victim, 'active']);
    expect(str((await owner.get(`/api/agents/${agentId}`)).body.agent.system_prompt)).not.toBe('leak everything');

    // A guessed token joins nothing either.
    const guess = await attacker.post('/api/workspace/invitations/accept', { token: 'A'.repeat(43) });
    expect(guess.status).toBe(400);
    expect(guess.body).toEqual({ error: 'invalid or already used invitation' });
    expect(arr((await attacker.get('/api/workspaces')).body.workspaces)).toHaveLength(1);
  });

  it('refuses a token mailed to another address, an expired one and a used one, storing nothing', async () => {
    const owner = await t.signup();
    const owner2 = await t.signup();
    const mine = `own-invite-${Date.now()}@example.com`;
    const target = `target-${Date.now()}@example.com`;
    expect((await owner.post('/api/workspace/members', { email: mine, role: 'viewer' })).status).toBe(200);
    expect((await owner2.post('/api/workspace/members', { email: target, role: 'member' })).status).toBe(200);
    const myToken = t.mailedToken(mine, 'invite');

    // My viewer invitation used to register the member address: refused, no account made.
    const foreign = await anon().post('/api/auth/register', { email: target, password: 'attacker-pass', invite: myToken });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ error: 'invitation is for another email address' });
    expect(await t.ctx.db.selectFrom('users').select('id').where('email', '=', target).executeTakeFirst()).toBeUndefined();
    // Signed in as another account: refused the same way.
    const other = await t.signup();
    const viaAccept = await other.post('/api/workspace/invitations/accept', { token: myToken });
    expect(viaAccept.status).toBe(403);
    expect(viaAccept.body).toEqual({ error: 'invitation is for another email address' });
    expect(await emailsOf(owner)).toContainEqual([mine, 'invited']);

    // Used once, then a second time.
    expect((await anon().post('/api/auth/register', { email: mine, password: 'first-pass', invite: myToken })).status).toBe(200);
    const again = await anon().post('/api/auth/register', { email: `x-${mine}`, password: 'second-pass', invite: myToken });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'invalid or already used invitation' });
    expect(await t.ctx.db.selectFrom('users').select('id').where('email', '=', `x-${mine}`).executeTakeFirst()).toBeUndefined();

    // Seven days later the target's link is dead.
    const targetToken = t.mailedToken(target, 'invite');
    await t.ctx.db.updateTable('invitations').set({ expires_at: Date.now() - 1 }).where('email', '=', target).execute();
    const late = await anon().post('/api/auth/register', { email: target, password: 'late-pass', invite: targetToken });
    expect(late.status).toBe(410);
    expect(late.body).toEqual({ error: 'invitation expired' });
    expect(await t.ctx.db.selectFrom('users').select('id').where('email', '=', target).executeTakeFirst()).toBeUndefined();
  });

  it('the token holder joins, with the invited role, exactly once', async () => {
    const owner = await t.signup();
    const mate = await t.join(owner, 'viewer');
    expect((await mate.get('/api/auth/me')).body.workspace).toMatchObject({ id: await wsOf(owner), role: 'viewer' });
    expect((await mate.post('/api/workspace/invitations/accept', { token: t.mailedToken(mate.email, 'invite') })).body).toEqual({ error: 'invalid or already used invitation' });
  });
});

describe('registering an AGENTS_ADMIN_EMAILS address', () => {
  it('grants no operator rights until the address is verified through the mailed link', async () => {
    const reg = await anon().post('/api/auth/register', { email: 'OPS@example.com', password: 'first-come' });
    expect(reg.status).toBe(200);
    expect(reg.body.user).toMatchObject({ admin: false, emailVerified: false });
    const squatter = t.api(str(reg.body.token));
    expect((await squatter.get('/api/auth/me')).body.user.admin).toBe(false);
    const stats = await squatter.get('/api/admin/affiliates');
    expect(stats.status).toBe(403);
    expect(stats.body).toEqual({ error: 'admin only' });
    expect((await squatter.put('/api/admin/settings', { allowSignups: false })).status).toBe(403);

    // A verification token of another account, a made-up one, or one already used proves nothing.
    const other = await t.signup();
    const otherToken = t.mailedToken(other.email, 'verify');
    expect((await squatter.post('/api/auth/verify', { token: 'B'.repeat(43) })).body).toEqual({ error: 'invalid or already used verification token' });
    const v = await anon().post('/api/auth/verify', { token: otherToken });
    expect(v.body).toMatchObject({ ok: true, email: other.email });
    expect((await anon().post('/api/auth/verify', { token: otherToken })).body).toEqual({ error: 'invalid or already used verification token' });
    expect((await squatter.get('/api/admin/affiliates')).status).toBe(403);

    // Only the mailbox owner (here: whoever reads the mail to ops@example.com) turns the rights on.
    const verified = await anon().post('/api/auth/verify', { token: t.mailedToken('ops@example.com', 'verify') });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ email: 'ops@example.com', admin: true, emailVerified: true });
    expect((await squatter.get('/api/admin/affiliates')).status).toBe(200);
  });

  it('an expired verification link is refused and grants nothing', async () => {
    const ops = await t.signup('ops2@example.com');
    const token = t.mailedToken('ops2@example.com', 'verify');
    await t.ctx.db.updateTable('email_verifications').set({ expires_at: Date.now() - 1 }).where('email', '=', 'ops2@example.com').execute();
    const r = await anon().post('/api/auth/verify', { token });
    expect(r.status).toBe(410);
    expect(r.body).toEqual({ error: 'verification token expired' });
    expect((await ops.get('/api/auth/me')).body.user.admin).toBe(false);
    // A fresh link on request.
    expect((await ops.post('/api/auth/verify/resend')).body).toEqual({ ok: true, emailVerified: false });
    expect((await anon().post('/api/auth/verify', { token: t.mailedToken('ops2@example.com', 'verify') })).status).toBe(200);
    expect((await ops.get('/api/auth/me')).body.user.admin).toBe(true);
  });
});
