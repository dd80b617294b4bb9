/** Attacks on email ownership: joining a workspace by registering (or already owning) an address it added. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type TestStudio } from '../testing.testkit';

let s: TestStudio;
beforeAll(async () => {
  s = await startStudio();
});
afterAll(() => s.close());

type Members = { members: { user_id: number; email: string; role: string }[]; invitations: { email: string }[] };
const upgrade = (token: string) => s.call('POST', '/api/billing/plan', { auth: token, body: { plan: 'pro' } });

describe('adding a member by email', () => {
  it('does not hand the workspace to whoever registered that address: the registrant is only invited', async () => {
    const owner = await s.register('ea-owner@example.com');
    await upgrade(owner.token);
    // The attacker registered the address first (or registers it now, without the mailed link).
    const squatter = await s.register('ea-victim@example.com');
    const add = await s.call('POST', '/api/workspace/members', { auth: owner.token, body: { email: 'ea-victim@example.com', role: 'editor' } });
    expect(add.status).toBe(200);
    const members = await s.call<Members>('GET', '/api/workspace/members', { auth: owner.token });
    expect(members.body.members.map((m) => m.email)).toEqual(['ea-owner@example.com']);
    expect(members.body.invitations.map((i) => i.email)).toEqual(['ea-victim@example.com']);
    const into = await s.call('POST', '/api/auth/login', { body: { email: 'ea-victim@example.com', password: 'correct horse', workspace_id: owner.ws } });
    expect(into.status).toBe(403);
    expect(into.body.error).toBe('not a member of this workspace');
    expect((await s.call('GET', '/api/posts', { auth: squatter.token })).status).toBe(200);
    expect((await s.call<{ workspace: { id: number } }>('GET', '/api/me', { auth: squatter.token })).body.workspace.id).toBe(squatter.ws);
  });

  it('registering an invited address without the token joins nothing but its own workspace', async () => {
    const owner = await s.register('eb-owner@example.com');
    await upgrade(owner.token);
    await s.call('POST', '/api/workspace/members', { auth: owner.token, body: { email: 'eb-new@example.com', role: 'editor' } });
    const reg = await s.call<{ token: string; workspace_id: number }>('POST', '/api/auth/register', { body: { email: 'eb-new@example.com', password: 'attacker pass' } });
    expect(reg.status).toBe(200);
    expect(reg.body.workspace_id).not.toBe(owner.ws);
    const into = await s.call('POST', '/api/auth/login', { body: { email: 'eb-new@example.com', password: 'attacker pass', workspace_id: owner.ws } });
    expect(into.status).toBe(403);
    expect((await s.call<Members>('GET', '/api/workspace/members', { auth: owner.token })).body.members).toHaveLength(1);
  });

  it('refuses a token for another address, a used one and an expired one, storing nothing', async () => {
    const owner = await s.register('ec-owner@example.com');
    await upgrade(owner.token);
    await s.call('POST', '/api/workspace/members', { auth: owner.token, body: { email: 'ec-mine@example.com', role: 'viewer' } });
    await s.call('POST', '/api/workspace/members', { auth: owner.token, body: { email: 'ec-target@example.com', role: 'editor' } });
    const mine = s.inviteToken('ec-mine@example.com');

    const foreign = await s.call('POST', '/api/auth/register', { body: { email: 'ec-target@example.com', password: 'attacker pass', invite: mine } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe('invitation is for another email address');
    expect(await s.get('SELECT 1 FROM users WHERE email = ?', 'ec-target@example.com')).toBeUndefined();
    const other = await s.register('ec-other@example.com');
    const viaAccept = await s.call('POST', '/api/workspace/invitations/accept', { auth: other.token, body: { token: mine } });
    expect(viaAccept.status).toBe(403);
    expect(viaAccept.body.error).toBe('invitation is for another email address');

    const joined = await s.call<{ token: string; workspace_id: number }>('POST', '/api/auth/register', { body: { email: 'ec-mine@example.com', password: 'correct horse', invite: mine } });
    expect(joined.status).toBe(200);
    expect(joined.body.workspace_id).toBe(owner.ws);
    expect((await s.call<{ role: string }>('GET', '/api/me', { auth: joined.body.token })).body.role).toBe('viewer');
    const reused = await s.call('POST', '/api/auth/register', { body: { email: 'ec-again@example.com', password: 'correct horse', invite: mine } });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid or already used invitation');

    const target = s.inviteToken('ec-target@example.com');
    await s.run('UPDATE invitations SET expires_at = ? WHERE email = ?', Date.now() - 1, 'ec-target@example.com');
    const late = await s.call('POST', '/api/auth/register', { body: { email: 'ec-target@example.com', password: 'late pass 1', invite: target } });
    expect(late.status).toBe(410);
    expect(late.body.error).toBe('invitation expired');
    expect(await s.get('SELECT 1 FROM users WHERE email = ?', 'ec-target@example.com')).toBeUndefined();
  });

  it('an API key cannot accept an invitation for anyone', async () => {
    const owner = await s.register('ed-owner@example.com');
    await upgrade(owner.token);
    const other = await s.register('ed-other@example.com');
    const key = await s.apiKey(other.token);
    await s.call('POST', '/api/workspace/members', { auth: owner.token, body: { email: 'ed-other@example.com', role: 'editor' } });
    const r = await s.call('POST', '/api/workspace/invitations/accept', { auth: key, body: { token: s.inviteToken('ed-other@example.com') } });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('session required');
  });
});
