import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, CRON, startStudio, type TestStudio } from './testing.testkit';

let s: TestStudio;
beforeAll(async () => {
  s = await startStudio({ legacyToken: 'legacy-static-token' });
});
afterAll(() => s.close());

interface Me {
  user: { id: number | null; email: string | null };
  workspace: { id: number; name: string; plan: string };
  role: string;
}

describe('POST /api/auth/register and /api/auth/login', () => {
  it('registers a user as owner of a new free workspace and returns a 30-day HS256 session {uid, ws, email}', async () => {
    const r = await s.call<{ token: string; workspace_id: number }>('POST', '/api/auth/register', {
      body: { email: 'Owner@Example.com', password: 'long enough', workspace: 'Tokyo Studio' },
    });
    expect(r.status).toBe(200);
    expect(typeof r.body.workspace_id).toBe('number');
    const claims = decodeJwt(r.body.token);
    expect(claims).toMatchObject({ ws: r.body.workspace_id, email: 'owner@example.com' });
    expect(typeof claims.uid).toBe('number');
    expect((claims.exp! - claims.iat!) / 86400).toBe(30);
    const header = JSON.parse(Buffer.from(r.body.token.split('.')[0], 'base64url').toString());
    expect(header.alg).toBe('HS256');
    const me = await s.call<Me>('GET', '/api/me', { auth: r.body.token });
    expect(me.body).toMatchObject({ user: { email: 'owner@example.com' }, workspace: { name: 'Tokyo Studio', plan: 'free' }, role: 'owner' });
  });

  it('refuses a second registration of the same email, a short password and a bad email, storing nothing', async () => {
    expect((await s.call('POST', '/api/auth/register', { body: { email: 'owner@example.com', password: 'long enough' } })).status).toBe(409);
    expect((await s.call('POST', '/api/auth/register', { body: { email: 'short@example.com', password: 'short' } })).status).toBe(400);
    expect((await s.call('POST', '/api/auth/register', { body: { email: 'not-an-email', password: 'long enough' } })).status).toBe(400);
    expect((await s.call('POST', '/api/auth/login', { body: { email: 'short@example.com', password: 'short' } })).status).toBe(401);
  });

  it('logs in with the right password only, into the asked workspace when a member', async () => {
    const ok = await s.call<{ token: string; workspace_id: number }>('POST', '/api/auth/login', { body: { email: 'owner@example.com', password: 'long enough' } });
    expect(ok.status).toBe(200);
    const bad = await s.call('POST', '/api/auth/login', { body: { email: 'owner@example.com', password: 'wrong pass' } });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe('invalid email or password');
    const other = await s.register('other@example.com');
    const notMine = await s.call('POST', '/api/auth/login', { body: { email: 'owner@example.com', password: 'long enough', workspace_id: other.ws } });
    expect(notMine.status).toBe(403);
  });
});

describe('auth order (section 5)', () => {
  it('refuses requests without credentials, with a forged token, and with a token signed by another secret', async () => {
    expect((await s.call('GET', '/api/me')).status).toBe(401);
    expect((await s.call('GET', '/api/me', { auth: 'eyJhbGciOiJIUzI1NiJ9.e30.AAAA' })).status).toBe(401);
    const other = await startStudio({ jwtSecret: 'another secret' });
    const foreign = await other.register('foreign@example.com');
    await other.close();
    expect((await s.call('GET', '/api/me', { auth: foreign.token })).status).toBe(401);
  });

  it('treats the legacy static token as owner of workspace 1', async () => {
    const me = await s.call<Me>('GET', '/api/me', { auth: 'legacy-static-token' });
    expect(me.status).toBe(200);
    expect(me.body.workspace.id).toBe(1);
    expect(me.body.role).toBe('owner');
  });

  it('answers 401 invalid api key for unknown, malformed and revoked keys', async () => {
    const owner = await s.register('keys@example.com');
    const made = await s.call<{ key: string; id: string; prefix: string }>('POST', '/api/settings/api-keys', { auth: owner.token, body: { name: 'CI' } });
    expect(made.status).toBe(200);
    expect(made.body.key).toMatch(/^sk_studio_[0-9a-f]{8}[A-Za-z0-9_-]{43}$/);
    expect(made.body.key.startsWith(made.body.prefix)).toBe(true);
    const me = await s.call<Me & { actor: string }>('GET', '/api/me', { auth: made.body.key });
    expect(me.body.role).toBe('editor');
    expect(me.body.workspace.id).toBe(owner.ws);
    expect(me.body.actor).toBe(`api-key:${made.body.key.slice(10, 18)}`);

    const tampered = made.body.key.slice(0, -1) + (made.body.key.endsWith('A') ? 'B' : 'A');
    for (const bad of ['sk_studio_nope', `sk_studio_00000000${'x'.repeat(43)}`, tampered]) {
      const r = await s.call('GET', '/api/me', { auth: bad });
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid api key');
    }
    expect((await s.call('POST', `/api/settings/api-keys/${made.body.id}/revoke`, { auth: owner.token })).body).toMatchObject({ ok: true });
    const revoked = await s.call('GET', '/api/me', { auth: made.body.key });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toBe('invalid api key');
  });

  it('lists keys without their secret, with last use and revocation', async () => {
    const owner = await s.register('list@example.com');
    const key = await s.apiKey(owner.token, 'Zapier');
    await s.call('GET', '/api/billing', { auth: key });
    const list = await s.call<{ keys: Record<string, unknown>[] }>('GET', '/api/settings/api-keys', { auth: owner.token });
    expect(list.body.keys).toHaveLength(1);
    const k = list.body.keys[0];
    expect(Object.keys(k).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name', 'prefix', 'revoked']);
    expect(JSON.stringify(list.body)).not.toContain(key.slice(18));
    expect(k).toMatchObject({ name: 'Zapier', revoked: false, prefix: key.slice(0, 18) });
    expect(k.last_used_at).not.toBeNull();
    const row = (await s.get<{ hash: string }>('SELECT hash FROM api_keys WHERE id = ?', k.id))!;
    expect(row.hash).not.toContain(key.slice(18));
  });

  it('answers 403 account suspended for a key whose workspace owner or minter is suspended', async () => {
    const owner = await s.register('susp@example.com');
    const key = await s.apiKey(owner.token);
    const suspend = (suspended: boolean) => s.call('POST', '/api/admin/suspend', { headers: { 'x-admin-secret': ADMIN }, body: { user_id: owner.uid, suspended } });
    expect((await suspend(true)).status).toBe(200);
    const r = await s.call('GET', '/api/me', { auth: key });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('account suspended');
    expect((await s.call('GET', '/api/me', { auth: owner.token })).body.error).toBe('account suspended');
    expect((await s.call('POST', '/api/auth/login', { body: { email: 'susp@example.com', password: 'correct horse' } })).body.error).toBe('account suspended');
    await suspend(false);
    expect((await s.call('GET', '/api/me', { auth: key })).status).toBe(200);
  });

  it('checks membership on every request: a removed member’s still-valid token stops working', async () => {
    const owner = await s.register('team-owner@example.com');
    const member = await s.register('member@example.com');
    await s.call('POST', '/api/billing/plan', { auth: owner.token, body: { plan: 'starter' } });
    await s.addMember(owner.token, 'member@example.com', 'editor', member);
    const login = await s.call<{ token: string }>('POST', '/api/auth/login', { body: { email: 'member@example.com', password: 'correct horse', workspace_id: owner.ws } });
    expect((await s.call<Me>('GET', '/api/me', { auth: login.body.token })).body.role).toBe('editor');
    expect((await s.call('DELETE', `/api/workspace/members/${member.uid}`, { auth: owner.token })).status).toBe(200);
    expect((await s.call('GET', '/api/me', { auth: login.body.token })).status).toBe(403);
  });

  it('ends a session at its expiry: the still-signed token answers 401 once its session row has expired', async () => {
    const o = await s.register('expiring@example.com');
    expect((await s.call('GET', '/api/me', { auth: o.token })).status).toBe(200);
    const sid = decodeJwt(o.token).sid as string;
    await s.run('UPDATE sessions SET expires_at = ? WHERE id = ?', Date.now() - 1, sid);
    expect((await s.call('GET', '/api/me', { auth: o.token })).status).toBe(401);
  });
});

describe('demo mode', () => {
  it('acts as owner of a demo workspace for requests without credentials, only when enabled', async () => {
    const demo = await startStudio({ demo: true });
    try {
      const me = await demo.call<Me>('GET', '/api/me');
      expect(me.status).toBe(200);
      expect(me.body.role).toBe('owner');
      expect(me.body.workspace.name).toBe('Demo workspace');
      expect((await demo.call('GET', '/api/me', { auth: 'garbage' })).status).toBe(401);
    } finally {
      await demo.close();
    }
  });
});

describe('ADMIN and CRON routes', () => {
  it('answer 401 without or with a wrong secret header, and while the secret is unset', async () => {
    expect((await s.call('POST', '/api/admin/credits', { body: { workspace_id: 1, amount: 5 } })).status).toBe(401);
    expect((await s.call('POST', '/api/admin/credits', { headers: { 'x-admin-secret': 'nope' }, body: { workspace_id: 1, amount: 5 } })).status).toBe(401);
    expect((await s.call('POST', '/api/cron/poll', { headers: { 'x-cron-secret': ADMIN } })).status).toBe(401);
    expect((await s.call('POST', '/api/cron/poll', { headers: { 'x-cron-secret': CRON } })).status).toBe(200);
    const unset = await startStudio({ adminSecret: null, cronSecret: null });
    try {
      expect((await unset.call('POST', '/api/admin/suspend', { headers: { 'x-admin-secret': '' }, body: { user_id: 1, suspended: true } })).status).toBe(401);
      expect((await unset.call('POST', '/api/cron/monthly-reset', { headers: { 'x-cron-secret': 'x' } })).status).toBe(401);
    } finally {
      await unset.close();
    }
  });
});
