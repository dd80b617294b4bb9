import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';

let t: AgentsTestServer;
/** Accounts made by withAgent carry their email like signup's. */
const emailOf = (api: object) => (api as { email: string }).email;
let ops: Awaited<ReturnType<AgentsTestServer['signup']>>;
beforeAll(async () => {
  t = await startAgentsServer({ adminEmails: ['ops@example.com'] });
  ops = await t.operator('ops@example.com');
});
afterAll(() => t.close());

describe('operator overview', () => {
  it('stats count stored rows; revenue, activity and llm-diagnostics answer from the data', async () => {
    const before = (await ops.get('/api/admin/stats')).body;
    const { api, agentId } = await t.withAgent();
    await api.post('/api/chat', { agentId, message: 'hello there, my email is lead@example.com' });
    const after = (await ops.get('/api/admin/stats')).body;
    expect(after.users).toBe(Number(before.users) + 1);
    expect(after.agents).toBe(Number(before.agents) + 1);
    expect(after.conversations).toBe(Number(before.conversations) + 1);
    expect(after.messages).toBe(Number(before.messages) + 2);
    expect(after.leads).toBe(Number(before.leads) + 1);
    expect(after.last7Days.signups).toBe(Number(before.last7Days.signups) + 1);
    expect(Number(after.tiers.free)).toBeGreaterThanOrEqual(2);

    const revenue = await ops.get('/api/admin/revenue');
    expect(revenue.status).toBe(200);
    expect(revenue.body).toMatchObject({ currency: 'USD' });
    expect(typeof revenue.body.totalCents).toBe('number');

    const activity = arr((await ops.get('/api/admin/activity')).body.activity);
    expect(activity.some((a) => str(a.type) === 'conversation')).toBe(true);
    expect(activity.some((a) => str(a.type) === 'signup' && str(a.email) === emailOf(api))).toBe(true);

    const diag = await ops.get('/api/admin/llm-diagnostics');
    expect(diag.body.engines).toEqual(['local']);
    expect(Number(diag.body.repliesByEngine.last24h.local)).toBeGreaterThanOrEqual(1);
    expect(diag.text).not.toMatch(/sk-|api_?key/i);
  });

  it('workspaces: list, read with members and agents, change tier and pause', async () => {
    const { api, agentId } = await t.withAgent('Desk');
    const ws = str((await api.get('/api/auth/me')).body.workspace.id);
    const list = await ops.get(`/api/admin/workspaces?search=${encodeURIComponent(emailOf(api))}`);
    expect(arr(list.body.workspaces).map((w) => w.id)).toEqual([ws]);
    const one = await ops.get(`/api/admin/workspaces/${ws}`);
    expect(one.body.workspace).toMatchObject({ id: ws, members: 1, agents: 1, owner: { email: emailOf(api) } });
    expect(arr(one.body.workspace.agentList).map((a) => a.id)).toEqual([agentId]);
    const r = await ops.patch(`/api/admin/workspaces/${ws}`, { tier: 'business', paused: true });
    expect(r.body.workspace.billing).toMatchObject({ tier: 'business', status: 'paused' });
    expect((await api.post('/api/chat', { agentId, message: 'hi' })).status).toBe(402);
    expect((await ops.patch(`/api/admin/workspaces/${ws}`, { tier: 'gold' })).status).toBe(400);
    expect((await ops.get('/api/admin/workspaces/ws_nope')).status).toBe(404);
  });

  it('agents: list across workspaces, read with counts, pause, hide and delete', async () => {
    const { api, agentId, publicId } = await t.withAgent('Catalogue');
    await api.post('/api/sources', { type: 'qa', question: 'Q?', answer: 'A.' });
    const list = await ops.get(`/api/admin/agents?search=${publicId}`);
    expect(arr(list.body.agents).map((a) => a.id)).toEqual([agentId]);
    const one = await ops.get(`/api/admin/agents/${agentId}`);
    expect(one.body.counts).toMatchObject({ sources: 1, passages: 1, conversations: 0 });
    expect((await ops.patch(`/api/admin/agents/${agentId}`, { visibility: 'private' })).body.agent.visibility).toBe('private');
    expect((await t.api(null, { 'x-forwarded-for': '10.88.0.1' }).get(`/api/public/${publicId}`)).status).toBe(404);
    expect((await ops.del(`/api/admin/agents/${agentId}`)).body).toEqual({ ok: true });
    expect((await api.get(`/api/agents/${agentId}`)).status).toBe(404);
  });
});

describe('content, settings and bundles', () => {
  it('content put shows on the public page; reset brings the built-in text back', async () => {
    const original = (await t.api().get('/api/content/landing')).body;
    const put = await ops.put('/api/admin/content/landing', { title: 'キッティングの問い合わせ窓口', sections: [{ heading: '24時間対応', body: '夜間もAIがお答えします。' }] });
    expect(put.body).toMatchObject({ page: 'landing', overridden: true, title: 'キッティングの問い合わせ窓口' });
    expect((await t.api().get('/api/content/landing')).body).toMatchObject({ title: 'キッティングの問い合わせ窓口', sections: [{ heading: '24時間対応', body: '夜間もAIがお答えします。' }] });
    const pages = arr((await ops.get('/api/admin/content')).body.pages);
    expect(pages.find((p) => str(p.page) === 'landing')?.overridden).toBe(true);
    expect((await ops.put('/api/admin/content/landing', { sections: [] })).body).toEqual({ error: 'title is required' });
    const reset = await ops.post('/api/admin/content/landing/reset');
    expect(reset.body).toMatchObject({ overridden: false, title: original.title });
    expect((await t.api().get('/api/content/landing')).body.title).toBe(original.title);
    expect((await ops.get('/api/admin/content/nope')).status).toBe(404);
    expect((await ops.put('/api/admin/content/..%2Fx', { title: 'x', sections: [] })).status).toBe(400);
  });

  it('settings: announcement in /api/config, closed sign-ups, sign-up credits; reset restores defaults', async () => {
    // a fresh platform: no operator has set sign-up credits (the published contract says it may be null)
    const initial = await ops.get('/api/admin/settings');
    expect(initial.body.settings.signupCredits).toBeNull();
    const r = await ops.put('/api/admin/settings', { announcement: '12月30日はメンテナンスのため停止します', signupCredits: 25 });
    expect(r.body.settings).toMatchObject({ announcement: '12月30日はメンテナンスのため停止します', signupCredits: 25, allowSignups: true });
    expect((await t.api().get('/api/config')).body).toMatchObject({ announcement: '12月30日はメンテナンスのため停止します', signupCredits: 25 });
    const fresh = await t.signup();
    expect((await fresh.get('/api/auth/me')).body.billing.credits).toBe(25);
    expect((await ops.put('/api/admin/settings', { signupCredits: -1 })).status).toBe(400);
    await ops.put('/api/admin/settings', { allowSignups: false });
    const refused = await t.api(null, { 'x-forwarded-for': '10.88.0.2' }).post('/api/auth/register', { email: 'late@example.com', password: 'secret-pass' });
    expect([refused.status, refused.body]).toEqual([403, { error: 'sign-ups are closed' }]);
    const reset = await ops.post('/api/admin/settings/reset');
    expect(reset.body.settings).toEqual({ announcement: '', supportEmail: '', allowSignups: true, signupCredits: null, maintenanceMode: false });
    expect((await t.api().get('/api/config')).body.signupCredits).toBe(100);
  });

  it('bundles: built-in until set, validated, unique ids, reset', async () => {
    const initial = await ops.get('/api/admin/bundles');
    expect(initial.body.overridden).toBe(false);
    expect(arr(initial.body.bundles).length).toBeGreaterThan(0);
    const bundles = [{ id: 'starter-500', name: '500 credits', credits: 500, priceCents: 600 }];
    expect((await ops.put('/api/admin/bundles', { bundles })).body).toEqual({ bundles, overridden: true });
    expect((await ops.get('/api/admin/bundles')).body.bundles).toEqual(bundles);
    expect((await ops.put('/api/admin/bundles', { bundles: [...bundles, ...bundles] })).body).toEqual({ error: 'bundles: ids must be unique' });
    expect((await ops.put('/api/admin/bundles', { bundles: [{ ...bundles[0], credits: 0 }] })).status).toBe(400);
    expect((await ops.post('/api/admin/bundles/reset')).body.overridden).toBe(false);
  });
});

describe('operator tickets', () => {
  it('lists every ticket open-first with the opener, reads the thread, changes status and priority', async () => {
    const user = await t.signup();
    const id = str((await user.post('/api/support/tickets', { subject: 'Login trouble', message: 'The code is refused.', priority: 'urgent', category: 'account' })).body.ticket.id);
    const list = await ops.get('/api/admin/tickets?status=open');
    const found = arr(list.body.tickets).find((x) => str(x.id) === id);
    expect(found).toMatchObject({ subject: 'Login trouble', email: user.email, priority: 'urgent', status: 'open', messageCount: 1 });
    expect(arr((await ops.get(`/api/admin/tickets/${id}`)).body.messages)).toHaveLength(1);
    const r = await ops.patch(`/api/admin/tickets/${id}`, { status: 'closed', priority: 'low' });
    expect(r.body.ticket).toMatchObject({ status: 'closed', priority: 'low' });
    expect((await user.get(`/api/support/tickets/${id}`)).body.ticket.status).toBe('closed');
    expect((await ops.patch(`/api/admin/tickets/${id}`, { status: 'gone' })).status).toBe(400);
    expect((await ops.get('/api/admin/tickets/tkt_nope')).status).toBe(404);
  });
});
