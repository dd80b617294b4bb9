import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.testkit';
import { configureLimit } from '../security/limits';
import { hashPassword, verifyPassword } from '../../core/security/passwords';
import { mintToken, readToken, type TokenKind } from '../security/tokens';

let server: TestServer;
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

beforeAll(async () => {
  server = await startTestServer({ config: { adminPassword: 'master-pass' } });
  configureLimit(server.ctx, 'signup', 1000);
});
afterAll(() => server.close());

describe('passwords', () => {
  it('uses scrypt with a per-password salt', async () => {
    const a = await hashPassword('same-password');
    const b = await hashPassword('same-password');
    expect(a).toMatch(/^scrypt\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('same-password', a)).toBe(true);
    expect(await verifyPassword('other-password', a)).toBe(false);
    expect(await verifyPassword('x', 'garbage')).toBe(false);
  });
});

describe('token kinds', () => {
  const kinds: TokenKind[] = ['session', 'admin', 'subadmin', 'portal', 'invite', 'assist'];
  it('a token of one kind is never accepted as another, and expiry is enforced', () => {
    const secret = server.ctx.secret;
    for (const k of kinds) {
      const t = mintToken(secret, k, { sub: 'x', v: 1 });
      expect(readToken(secret, k, t)).not.toBeNull();
      for (const other of kinds) if (other !== k) expect(readToken(secret, other, t)).toBeNull();
      expect(readToken(secret, k, mintToken(secret, k, { sub: 'x' }, -1))).toBeNull();
      expect(readToken(Buffer.alloc(32, 7), k, t)).toBeNull();
    }
  });

  it('tampered tokens of each kind are refused by the routes (401)', async () => {
    const admin = (await server.client().post<{ token: string }>('/api/admin/login', { password: 'master-pass' })).body.token;
    const session = (await server.client().post<{ token: string }>('/api/account/signup', { email: 'sec@example.jp', password: 'secret-pass' })).body.token;
    const flip = (t: string) => {
      const [p, mac] = [t.slice(0, t.lastIndexOf('.')), t.slice(t.lastIndexOf('.') + 1)];
      const body = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
      body.exp = Number(body.exp) + 1_000_000;
      return `${Buffer.from(JSON.stringify(body)).toString('base64url')}.${mac}`;
    };
    expect((await server.client().get('/api/admin/tenants', bearer(admin))).status).toBe(200);
    expect((await server.client().get('/api/admin/tenants', bearer(flip(admin)))).status).toBe(401);
    expect((await server.client().get('/api/team/plan', bearer(session))).status).toBe(200);
    expect((await server.client().get('/api/team/plan', bearer(flip(session)))).status).toBe(401);
    // swapped kinds: an admin token is no session, a session is no admin token
    expect((await server.client().get('/api/team/plan', bearer(admin))).status).toBe(401);
    expect((await server.client().get('/api/admin/tenants', bearer(session))).status).toBe(401);
    expect((await server.client().get('/api/subadmin/me', bearer(session))).status).toBe(401);
    const forgedPortal = mintToken(Buffer.alloc(32, 1), 'portal', { tid: 'w-x', client: 'abc', iat: Date.now() });
    expect((await server.client().get(`/api/portal/view?t=${encodeURIComponent(forgedPortal)}`)).status).toBe(401);
    expect((await server.client().get(`/api/portal/view?t=${encodeURIComponent(session)}`)).status).toBe(401);
    expect((await server.client().post('/api/team/accept', { inviteToken: session, email: 'sec@example.jp', password: 'secret-pass' })).status).toBe(401);
  });
});

describe('assist mode', () => {
  it('gives the customer workspace with their permissions, and ends when the customer changes the password', async () => {
    const c = server.client();
    const s = await c.post<{ token: string; adoptedTenant: string }>('/api/account/signup', { email: 'cust@example.jp', password: 'secret-pass' });
    const admin = (await server.client().post<{ token: string }>('/api/admin/login', { password: 'master-pass' })).body.token;
    const imp = await server.client().post<{ url: string; expiresAt: number }>(`/api/admin/workspace/${s.body.adoptedTenant}/impersonate`, {}, bearer(admin));
    expect(imp.body.url).toMatch(/^\/app\?admin_as=/);
    const assist = new URL(imp.body.url, server.url).searchParams.get('assist') as string;
    const me = await server.client().get<{ signedIn: boolean; assist: boolean; account: { tenantId: string } }>('/api/account/me', bearer(assist));
    expect(me.body).toMatchObject({ signedIn: true, assist: true, account: { tenantId: s.body.adoptedTenant } });
    expect((await server.client().get('/api/team/plan', bearer(assist))).status).toBe(200);
    expect((await server.client().post('/api/account/password', { current: 'secret-pass', next: 'x-new-pass' }, bearer(assist))).status).toBe(403);
    expect((await server.client().get('/api/admin/tenants', bearer(assist))).status).toBe(401);
    const act = await server.client().get<{ activity: { action: string; tenantId: string }[] }>('/api/admin/activity', bearer(admin));
    expect(act.body.activity.some((a) => a.action === 'impersonate' && a.tenantId === s.body.adoptedTenant)).toBe(true);
    await c.post('/api/account/password', { current: 'secret-pass', next: 'x-new-pass' }, bearer(s.body.token));
    expect((await server.client().get('/api/team/plan', bearer(assist))).status).toBe(401);
  });
});

describe('platform workspace', () => {
  it('is never reachable through kit_tid', async () => {
    const { tidCookie } = await import('../http/workspace');
    const c = server.client();
    const cookie = tidCookie(server.ctx, '_platform').split(';')[0];
    c.setCookie('kit_tid', cookie.slice('kit_tid='.length));
    const me = await c.get<{ tenantId: string }>('/api/account/me');
    expect(me.body.tenantId).not.toBe('_platform');
    const leads = await c.get<{ leads: unknown[] }>('/api/leads');
    expect(leads.body.leads).toEqual([]);
  });
});
