import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';

let t: AgentsTestServer;
let ops: Awaited<ReturnType<AgentsTestServer['signup']>>;
beforeAll(async () => {
  t = await startAgentsServer({ adminEmails: ['ops@example.com'] });
  ops = await t.operator('ops@example.com');
});
afterAll(() => t.close());

const OPERATOR_ROUTES: [string, string][] = [
  ['GET', '/api/admin/revenue'], ['GET', '/api/admin/stats'], ['GET', '/api/admin/activity'], ['GET', '/api/admin/llm-diagnostics'],
  ['GET', '/api/admin/users'], ['GET', '/api/admin/users/usr_x'], ['PATCH', '/api/admin/users/usr_x'], ['DELETE', '/api/admin/users/usr_x'],
  ['POST', '/api/admin/users/usr_x/password'], ['POST', '/api/admin/users/usr_x/credits'], ['POST', '/api/admin/users/usr_x/role'],
  ['POST', '/api/admin/users/usr_x/subscription'], ['POST', '/api/admin/users/usr_x/edit-session'], ['POST', '/api/admin/users/usr_x/impersonate'],
  ['GET', '/api/admin/workspaces'], ['GET', '/api/admin/workspaces/ws_x'], ['PATCH', '/api/admin/workspaces/ws_x'],
  ['GET', '/api/admin/agents'], ['GET', '/api/admin/agents/agt_x'], ['PATCH', '/api/admin/agents/agt_x'], ['DELETE', '/api/admin/agents/agt_x'],
  ['GET', '/api/admin/content'], ['GET', '/api/admin/content/landing'], ['PUT', '/api/admin/content/landing'], ['POST', '/api/admin/content/landing/reset'],
  ['GET', '/api/admin/settings'], ['PUT', '/api/admin/settings'], ['POST', '/api/admin/settings/reset'], ['GET', '/api/admin/bundles'], ['PUT', '/api/admin/bundles'],
  ['GET', '/api/admin/tickets'], ['GET', '/api/admin/tickets/tkt_x'], ['PATCH', '/api/admin/tickets/tkt_x'],
  ['GET', '/api/admin/backup'], ['GET', '/api/backups'], ['POST', '/api/backups'], ['GET', '/api/backups/download/agents-20260101-000000-abcd.db'],
];

const meOf = async (api: { get: (p: string) => Promise<{ body: unknown }> }) => (await api.get('/api/auth/me')).body as { user: { id: string }; workspace: { id: string }; billing: { credits: number; tier: string; status: string }; impersonator: unknown };

describe('operator-only routes', () => {
  it('answer 403 admin only to a normal member and 401 without a session, with nothing changed', async () => {
    const user = await t.signup();
    for (const [method, path] of OPERATOR_ROUTES) {
      const r = await user.request(method, path, method === 'GET' || method === 'DELETE' ? undefined : { amount: 5, role: 'admin', password: 'x-new-pass' });
      expect([path, r.status, r.body]).toEqual([path, 403, { error: 'admin only' }]);
      expect((await t.api().request(method, path)).status, path).toBe(401);
    }
    const me = await meOf(user);
    expect(me.billing.credits).toBe(100);
    expect((await ops.get('/api/admin/users/' + me.user.id)).body.user.admin).toBe(false);
  });
});

describe('operator routes on users', () => {
  it('lists and searches users with their workspaces, and reads one', async () => {
    const u = await t.signup(`findme-${Date.now()}@example.com`);
    const me = await meOf(u);
    const list = await ops.get(`/api/admin/users?search=findme`);
    expect(list.status).toBe(200);
    expect(arr(list.body.users).map((x) => x.email)).toEqual([u.email]);
    expect(list.body.total).toBe(1);
    const one = await ops.get(`/api/admin/users/${me.user.id}`);
    expect(one.body.user).toMatchObject({ email: u.email, admin: false, suspended: false, workspaces: [{ id: me.workspace.id, role: 'owner', credits: 100, tier: 'free' }] });
    expect(one.text).not.toContain('password');
    expect((await ops.get('/api/admin/users/usr_nope')).body).toEqual({ error: 'user not found' });
  });

  it('edits name and email (409 on a taken email) and suspends: the user is refused at once', async () => {
    const u = await t.signup();
    const other = await t.signup();
    const id = (await meOf(u)).user.id;
    expect((await ops.patch(`/api/admin/users/${id}`, { email: other.email })).body).toEqual({ error: 'email already registered' });
    const r = await ops.patch(`/api/admin/users/${id}`, { name: 'Renamed', suspended: true });
    expect(r.body.user).toMatchObject({ name: 'Renamed', suspended: true });
    expect((await u.get('/api/auth/me')).body).toEqual({ error: 'account suspended' });
    await ops.patch(`/api/admin/users/${id}`, { suspended: false });
    expect((await u.get('/api/auth/me')).status).toBe(200);
  });

  it('password reset bumps the token version: earlier tokens stop working, the new password signs in', async () => {
    const u = await t.signup();
    const id = (await meOf(u)).user.id;
    expect((await ops.post(`/api/admin/users/${id}/password`, { password: 'short' })).body).toEqual({ error: 'password: password must be at least 6 characters' });
    const r = await ops.post(`/api/admin/users/${id}/password`, { password: 'brand-new-pass' });
    expect(r.body).toEqual({ ok: true, sessionsEnded: true });
    expect((await u.get('/api/auth/me')).status).toBe(401);
    const login = await t.api(null, { 'x-forwarded-for': '10.77.0.1' }).post('/api/auth/login', { email: u.email, password: 'brand-new-pass' });
    expect(login.status).toBe(200);
  });

  it('credits add to and debit the wallet, never below 0', async () => {
    const u = await t.signup();
    const id = (await meOf(u)).user.id;
    expect((await ops.post(`/api/admin/users/${id}/credits`, { amount: 250, note: 'goodwill' })).body).toMatchObject({ balance: 350 });
    expect((await ops.post(`/api/admin/users/${id}/credits`, { amount: -50 })).body).toMatchObject({ balance: 300 });
    const over = await ops.post(`/api/admin/users/${id}/credits`, { amount: -301 });
    expect(over.status).toBe(400);
    expect((await ops.post(`/api/admin/users/${id}/credits`, { amount: 1.5 })).status).toBe(400);
    expect((await ops.post(`/api/admin/users/${id}/credits`, {})).body).toEqual({ error: 'amount is required' });
    expect((await meOf(u)).billing.credits).toBe(300);
  });

  it('concurrent grants each land once: no credit lost to a grant that read the same earlier balance', async () => {
    const u = await t.signup();
    const id = (await meOf(u)).user.id;
    const grants = await Promise.all(Array.from({ length: 8 }, () => ops.post(`/api/admin/users/${id}/credits`, { amount: 10 })));
    expect(grants.map((g) => g.status)).toEqual(Array(8).fill(200));
    expect(grants.map((g) => Number(g.body.balance)).sort((a, b) => a - b)).toEqual([110, 120, 130, 140, 150, 160, 170, 180]);
    expect((await meOf(u)).billing.credits).toBe(180);
  });

  it('a grant is one admin entry of the credit ledger like any other posting; grants, debits and chat turns at once stay exact', async () => {
    const { api, agentId } = await t.withAgent('Ledger');
    const { user, workspace } = await meOf(api);
    const ops8 = [5, 5, 5, 5, 5, 5, -3, -3, -3, -3];
    const [grants, turns] = await Promise.all([
      Promise.all(ops8.map((amount, i) => ops.post(`/api/admin/users/${user.id}/credits`, { amount, note: `adjust ${i}` }))),
      Promise.all(Array.from({ length: 30 }, (_, i) => api.post('/api/chat', { agentId, message: `hello ${i}` }))),
    ]);
    expect(grants.map((g) => g.status)).toEqual(Array(ops8.length).fill(200));
    expect(turns.map((r) => r.status)).toEqual(Array(30).fill(200));
    const final = 100 + 30 - 12 - 30;
    expect((await meOf(api)).billing.credits).toBe(final);
    const entries = await t.ctx.db.selectFrom('credit_ledger').select(['id', 'delta', 'balance', 'reason', 'ref', 'note']).where('workspace_id', '=', workspace.id).orderBy('id').execute();
    // one chain: every entry moves the balance the one before it left
    let prev = 0;
    for (const e of entries) {
      expect(e.balance).toBe(prev + e.delta);
      prev = e.balance;
    }
    expect(entries.at(-1)?.balance).toBe(final);
    const admin = entries.filter((e) => e.reason === 'admin');
    expect(admin.map((e) => e.delta).sort((a, b) => a - b)).toEqual([...ops8].sort((a, b) => a - b));
    expect(admin.every((e) => e.ref === null && /^adjust \d$/.test(e.note))).toBe(true);
    // each answer is the balance its own entry left
    expect(grants.map((g) => Number(g.body.balance)).sort((a, b) => a - b)).toEqual(admin.map((e) => e.balance).sort((a, b) => a - b));
    // the wallet lists it like any other entry
    const wallet = await api.get('/api/billing/wallet');
    const listed = arr(wallet.body.entries).find((e) => str(e.reason) === 'admin' && str(e.note) === 'adjust 0');
    expect(listed).toMatchObject({ delta: 5, reason: 'admin', note: 'adjust 0' });
    // and a debit below 0 is refused with nothing posted
    const over = await ops.post(`/api/admin/users/${user.id}/credits`, { amount: -(final + 1) });
    expect(over.body).toEqual({ error: `amount would take the balance below 0 (balance ${final})` });
    expect(await t.ctx.db.selectFrom('credit_ledger').select('id').where('workspace_id', '=', workspace.id).execute()).toHaveLength(entries.length);
  });

  it('role promotes a user to operator and back; an operator cannot demote itself', async () => {
    const u = await t.signup();
    const id = (await meOf(u)).user.id;
    expect((await ops.post(`/api/admin/users/${id}/role`, { role: 'root' })).status).toBe(400);
    expect((await ops.post(`/api/admin/users/${id}/role`, { role: 'admin' })).body.user.admin).toBe(true);
    expect((await u.get('/api/admin/stats')).status).toBe(200);
    const opsId = (await meOf(ops)).user.id;
    expect((await u.post(`/api/admin/users/${id}/role`, { role: 'user' })).body).toEqual({ error: 'you cannot demote your own account' });
    expect((await ops.post(`/api/admin/users/${id}/role`, { role: 'user' })).body.user.admin).toBe(false);
    expect((await u.get('/api/admin/stats')).status).toBe(403);
    expect((await ops.get(`/api/admin/users/${opsId}`)).body.user.admin).toBe(true);
  });

  it('subscription sets tier and pauses the bot (chat then answers 402)', async () => {
    const { api, agentId } = await t.withAgent();
    const id = (await meOf(api)).user.id;
    expect((await ops.post(`/api/admin/users/${id}/subscription`, {})).status).toBe(400);
    const r = await ops.post(`/api/admin/users/${id}/subscription`, { tier: 'pro', status: 'paused' });
    expect(r.body.billing).toMatchObject({ tier: 'pro', status: 'paused' });
    expect((await api.post('/api/chat', { agentId, message: 'hello' })).status).toBe(402);
    await ops.post(`/api/admin/users/${id}/subscription`, { status: 'active' });
    expect((await api.post('/api/chat', { agentId, message: 'hello' })).status).toBe(200);
    expect((await meOf(api)).billing.tier).toBe('pro');
  });

  it('edit-session signs a user out everywhere, suspends and restores', async () => {
    const u = await t.signup();
    const id = (await meOf(u)).user.id;
    expect((await ops.post(`/api/admin/users/${id}/edit-session`, { action: 'nap' })).status).toBe(400);
    await ops.post(`/api/admin/users/${id}/edit-session`, { action: 'revoke' });
    expect((await u.get('/api/auth/me')).status).toBe(401);
    const again = await t.api(null, { 'x-forwarded-for': '10.77.0.2' }).post('/api/auth/login', { email: u.email, password: 'secret-pass' });
    const fresh = t.api(str(again.body.token));
    expect((await ops.post(`/api/admin/users/${id}/edit-session`, { action: 'suspend' })).body.user.suspended).toBe(true);
    expect((await fresh.get('/api/auth/me')).status).toBe(401);
    expect((await ops.post(`/api/admin/users/${id}/edit-session`, { action: 'restore' })).body.user.suspended).toBe(false);
  });

  it('impersonation: the token acts as the user, /api/auth/me names the operator, no operator rights, audited', async () => {
    const u = await t.signup();
    const me = await meOf(u);
    const opsMe = await meOf(ops);
    expect((await ops.post(`/api/admin/users/${opsMe.user.id}/impersonate`)).body).toEqual({ error: 'you cannot impersonate your own account' });
    const r = await ops.post(`/api/admin/users/${me.user.id}/impersonate`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ user: { id: me.user.id }, impersonator: { id: opsMe.user.id, email: 'ops@example.com' }, expiresIn: 3600 });
    const as = t.api(str(r.body.token));
    const seen = await meOf(as);
    expect(seen.user.id).toBe(me.user.id);
    expect(seen.workspace.id).toBe(me.workspace.id);
    expect(seen.impersonator).toEqual({ id: opsMe.user.id, email: 'ops@example.com', name: 'Tester' });
    expect((await meOf(u)).impersonator).toBeNull();
    expect((await as.get('/api/admin/stats')).body).toEqual({ error: 'admin only' });

    const activity = await ops.get('/api/admin/activity?limit=200');
    const entry = arr(activity.body.activity).find((a) => str(a.action) === 'user.impersonate' && str(a.target.id) === me.user.id);
    expect(entry).toMatchObject({ type: 'admin', admin: { id: opsMe.user.id, email: 'ops@example.com' }, target: { type: 'user', id: me.user.id }, detail: { email: u.email } });

    // The operator signing out everywhere ends the impersonation session too.
    const other = await t.signup('ops2@example.com');
    await ops.post(`/api/admin/users/${(await meOf(other)).user.id}/role`, { role: 'admin' });
    const r2 = await other.post(`/api/admin/users/${me.user.id}/impersonate`);
    const as2 = t.api(str(r2.body.token));
    expect((await as2.get('/api/auth/me')).status).toBe(200);
    await ops.post(`/api/admin/users/${(await meOf(other)).user.id}/edit-session`, { action: 'revoke' });
    expect((await as2.get('/api/auth/me')).status).toBe(401);
  });

  it('deletes a user with the workspaces they own; never the caller', async () => {
    const { api, agentId } = await t.withAgent();
    const me = await meOf(api);
    expect((await ops.del(`/api/admin/users/${(await meOf(ops)).user.id}`)).body).toEqual({ error: 'you cannot delete your own account' });
    const r = await ops.del(`/api/admin/users/${me.user.id}`);
    expect(r.body).toEqual({ ok: true, workspacesDeleted: 1 });
    expect((await api.get('/api/auth/me')).status).toBe(401);
    expect((await ops.get(`/api/admin/users/${me.user.id}`)).status).toBe(404);
    expect((await ops.get(`/api/admin/agents/${agentId}`)).status).toBe(404);
    expect((await ops.get(`/api/admin/workspaces/${me.workspace.id}`)).status).toBe(404);
  });
});
