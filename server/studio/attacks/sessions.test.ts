/** Attacks on sessions: a token that should stop working keeps acting. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type TestStudio } from '../testing.testkit';

let s: TestStudio;
beforeAll(async () => {
  s = await startStudio();
});
afterAll(() => s.close());

const login = async (email: string, password = 'correct horse', workspace_id?: number) => {
  const r = await s.call<{ token: string }>('POST', '/api/auth/login', { body: { email, password, workspace_id } });
  expect(r.status).toBe(200);
  return r.body.token;
};

describe('sessions end at the next request', () => {
  it('logout: the same token answers 401', async () => {
    const u = await s.register('sa-user@example.com');
    expect((await s.call('GET', '/api/me', { auth: u.token })).status).toBe(200);
    expect((await s.call('POST', '/api/auth/logout', { auth: u.token })).status).toBe(200);
    const me = await s.call('GET', '/api/me', { auth: u.token });
    expect(me.status).toBe(401);
    expect(me.body.error).toBe('invalid session');
    expect((await s.call('POST', '/api/posts', { auth: u.token, body: { title: 'after logout', body: 'x' } })).status).toBe(401);
    // Another session of the same account is not touched.
    expect((await s.call('GET', '/api/me', { auth: await login('sa-user@example.com') })).status).toBe(200);
  });

  it('password change: every other session dies', async () => {
    const u = await s.register('sb-user@example.com');
    const stolen = await login('sb-user@example.com');
    const wrong = await s.call('POST', '/api/auth/password', { auth: u.token, body: { current_password: 'guess guess', password: 'rotated pass' } });
    expect(wrong.status).toBe(400);
    expect((await s.call('GET', '/api/me', { auth: stolen })).status).toBe(200);
    const changed = await s.call<{ token: string }>('POST', '/api/auth/password', { auth: u.token, body: { current_password: 'correct horse', password: 'rotated pass' } });
    expect(changed.status).toBe(200);
    expect((await s.call('GET', '/api/me', { auth: stolen })).status).toBe(401);
    expect((await s.call('GET', '/api/me', { auth: u.token })).status).toBe(401);
    expect((await s.call('GET', '/api/me', { auth: changed.body.token })).status).toBe(200);
    expect((await s.call('POST', '/api/auth/login', { body: { email: 'sb-user@example.com', password: 'correct horse' } })).status).toBe(401);
  });

  it('a removed member is refused at the next request', async () => {
    const owner = await s.register('sc-owner@example.com');
    await s.call('POST', '/api/billing/plan', { auth: owner.token, body: { plan: 'pro' } });
    const mate = await s.addMember(owner.token, 'sc-mate@example.com', 'editor');
    expect((await s.call('POST', '/api/posts', { auth: mate.token, body: { title: 'while member', body: 'x' } })).status).toBe(200);
    const uid = (await s.call<{ user: { id: number } }>('GET', '/api/me', { auth: mate.token })).body.user.id;
    expect((await s.call('DELETE', `/api/workspace/members/${uid}`, { auth: owner.token })).status).toBe(200);
    const r = await s.call('POST', '/api/posts', { auth: mate.token, body: { title: 'after removal', body: 'x' } });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('not a member of this workspace');
    expect((await s.call('GET', '/api/posts', { auth: mate.token })).status).toBe(403);
    expect((await s.call<{ posts: { title: string }[] }>('GET', '/api/posts', { auth: owner.token })).body.posts.map((p) => p.title)).toEqual(['while member']);
  });

  it('a role downgrade acts at the next request', async () => {
    const owner = await s.register('sd-owner@example.com');
    await s.call('POST', '/api/billing/plan', { auth: owner.token, body: { plan: 'pro' } });
    const mate = await s.addMember(owner.token, 'sd-mate@example.com', 'editor');
    expect((await s.call('POST', '/api/posts', { auth: mate.token, body: { title: 'as editor', body: 'x' } })).status).toBe(200);
    const uid = (await s.call<{ user: { id: number } }>('GET', '/api/me', { auth: mate.token })).body.user.id;
    expect((await s.call('PATCH', `/api/workspace/members/${uid}`, { auth: owner.token, body: { role: 'viewer' } })).status).toBe(200);
    const r = await s.call('POST', '/api/posts', { auth: mate.token, body: { title: 'as viewer', body: 'x' } });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('read-only role');
    expect((await s.call<{ posts: unknown[] }>('GET', '/api/posts', { auth: owner.token })).body.posts).toHaveLength(1);
  });
});
