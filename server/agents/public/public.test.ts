import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';
import { setBalance } from '../billing/ledger';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer();
});
afterAll(() => t.close());

let ipSeq = 0;
const visitor = () => t.api(null, { 'x-forwarded-for': `10.50.0.${++ipSeq}` });

async function trainedAgent() {
  const r = await t.withAgent('Front Desk');
  await r.api.post('/api/sources', { type: 'qa', question: 'Where is the store?', answer: 'We are at 1-2-3 Umeda, Osaka.' });
  return r;
}

describe('GET /api/public/{publicId}', () => {
  it('answers the non-secret widget config, CORS-open, and 404 for unknown or private agents', async () => {
    const { api, agentId, publicId } = await trainedAgent();
    const r = await visitor().get(`/api/public/${publicId}`, { origin: 'https://shop.example' });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(r.body).toMatchObject({ publicId, name: 'Front Desk', welcome: "Hi! I'm Front Desk. How can I help you today?" });
    expect(r.body).not.toHaveProperty('system_prompt');
    expect(r.text).not.toContain(agentId);
    expect((await visitor().get('/api/public/nope')).body).toEqual({ error: 'agent not found' });
    await api.patch(`/api/agents/${agentId}`, { visibility: 'private' });
    expect((await visitor().get(`/api/public/${publicId}`)).status).toBe(404);
  });

  it('answers the CORS preflight', async () => {
    const res = await fetch(`${t.base}/api/public/x/chat`, { method: 'OPTIONS', headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });
});

describe('POST /api/public/{publicId}/chat', () => {
  it('lets a visitor chat with an agent trained on a Q&A source, and charges the workspace', async () => {
    const { api, publicId } = await trainedAgent();
    const v = visitor();
    const r = await v.post(`/api/public/${publicId}/chat`, { message: 'Where is the store located?' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ reply: 'We are at 1-2-3 Umeda, Osaka.', engine: 'local', creditCost: 1, handoff: 'bot' });
    expect(r.body).not.toHaveProperty('credits');
    const next = await v.post(`/api/public/${publicId}/chat`, { message: 'thanks, bye', conversationId: r.body.conversationId });
    expect(next.body.conversationId).toBe(r.body.conversationId);
    expect((await api.get('/api/auth/me')).body.billing.credits).toBe(98);
    const conv = await api.get(`/api/conversations/${str(r.body.conversationId)}`);
    expect(conv.body.conversation.channel).toBe('widget');
  });

  it('refuses a message over 4000 characters and an empty one', async () => {
    const { publicId } = await trainedAgent();
    const r = await visitor().post(`/api/public/${publicId}/chat`, { message: 'x'.repeat(4001) });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'message: message must be at most 4000 characters' });
    expect((await visitor().post(`/api/public/${publicId}/chat`, { message: 'y'.repeat(4000) })).status).toBe(200);
    expect((await visitor().post(`/api/public/${publicId}/chat`, {})).body).toEqual({ error: 'message is required' });
  });

  it('answers 402 when the workspace is out of credits', async () => {
    const { api, publicId } = await trainedAgent();
    await setBalance(t.ctx.db, str((await api.get('/api/auth/me')).body.workspace.id), 0);
    expect((await visitor().post(`/api/public/${publicId}/chat`, { message: 'Where is the store?' })).status).toBe(402);
  });

  it('limits chat and lead posts to 30 per minute per IP, with Retry-After', async () => {
    const { publicId } = await trainedAgent();
    const v = t.api(null, { 'x-forwarded-for': '10.60.0.1' });
    for (let i = 0; i < 29; i++) expect((await v.post(`/api/public/${publicId}/chat`, { message: `hello ${i}` })).status).toBe(200);
    expect((await v.post(`/api/public/${publicId}/lead`, { email: 'z@example.com' })).status).toBe(200);
    const r = await v.post(`/api/public/${publicId}/chat`, { message: 'one more' });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect((await visitor().post(`/api/public/${publicId}/chat`, { message: 'other visitor' })).status).toBe(200);
  });

  it('limits the config GET to 30 per minute per IP', async () => {
    const { publicId } = await trainedAgent();
    const v = t.api(null, { 'x-forwarded-for': '10.61.0.1' });
    for (let i = 0; i < 30; i++) expect((await v.get(`/api/public/${publicId}`)).status).toBe(200);
    expect((await v.get(`/api/public/${publicId}`)).status).toBe(429);
  });
});

describe('POST /api/public/{publicId}/lead', () => {
  it('captures a lead and a contact, and records lead.captured', async () => {
    const { api, publicId } = await trainedAgent();
    const r = await visitor().post(`/api/public/${publicId}/lead`, { name: 'Hana', email: 'hana@example.com', phone: '080-1234-5678', note: 'Wants a quote' });
    expect(r.body).toMatchObject({ ok: true });
    const leads = await api.get('/api/leads');
    expect(leads.body.leads[0]).toMatchObject({ name: 'Hana', email: 'hana@example.com', notes: 'Wants a quote', source: 'widget' });
    expect((await api.get('/api/contacts')).body.contacts[0]).toMatchObject({ email: 'hana@example.com' });
    const ws = str((await api.get('/api/auth/me')).body.workspace.id);
    const evs = await t.ctx.db.selectFrom('events').select('event').where('workspace_id', '=', ws).orderBy('id').execute();
    expect(evs.map((e) => e.event)).toEqual(['lead.captured', 'leads.submit']);
    expect((await visitor().post(`/api/public/${publicId}/lead`, { name: 'No contact' })).body).toEqual({ error: 'email or phone is required' });
  });

  it('the same details sent from the form several times at once make one contact, one lead and one lead.captured', async () => {
    const { api, publicId } = await trainedAgent();
    const ws = str((await api.get('/api/auth/me')).body.workspace.id);
    const N = 8;
    const sent = await Promise.all(Array.from({ length: N }, () => visitor().post(`/api/public/${publicId}/lead`, { name: 'Sora', email: 'sora@example.com', note: '見積もり希望' })));
    expect(sent.map((r) => r.status)).toEqual(Array(N).fill(200));
    const contacts = await t.ctx.db.selectFrom('contacts').select(['id', 'email', 'name']).where('workspace_id', '=', ws).execute();
    expect(contacts).toEqual([{ id: contacts[0].id, email: 'sora@example.com', name: 'Sora' }]);
    const leads = await t.ctx.db.selectFrom('leads').select(['id', 'email', 'notes', 'source']).where('workspace_id', '=', ws).execute();
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ email: 'sora@example.com', source: 'widget', notes: Array(N).fill('見積もり希望').join('\n') });
    // every answer names that one lead
    expect(new Set(sent.map((r) => r.body.leadId))).toEqual(new Set([leads[0].id]));
    const evs = await t.ctx.db.selectFrom('events').select('event').where('workspace_id', '=', ws).where('event', '=', 'lead.captured').execute();
    expect(evs).toHaveLength(1);
  });

  it('the form with a conversation links that conversation to the contact and adds the note to its lead', async () => {
    const { api, publicId } = await trainedAgent();
    const ws = str((await api.get('/api/auth/me')).body.workspace.id);
    const v = visitor();
    const cid = str((await v.post(`/api/public/${publicId}/chat`, { message: 'こんにちは' })).body.conversationId);
    const r = await v.post(`/api/public/${publicId}/lead`, { conversationId: cid, phone: '06-1234-5678', note: '折り返し電話希望' });
    expect(r.status).toBe(200);
    const conv = await t.ctx.db.selectFrom('conversations').select('contact_id').where('id', '=', cid).executeTakeFirstOrThrow();
    const contacts = await t.ctx.db.selectFrom('contacts').select(['id', 'phone']).where('workspace_id', '=', ws).execute();
    expect(contacts).toEqual([{ id: conv.contact_id, phone: '06-1234-5678' }]);
    const leads = await t.ctx.db.selectFrom('leads').select(['id', 'notes', 'source']).where('workspace_id', '=', ws).execute();
    expect(leads).toEqual([{ id: r.body.leadId, notes: '折り返し電話希望', source: 'widget' }]);
    expect((await v.post(`/api/public/${publicId}/lead`, { conversationId: 'cnv_nope', email: 'x@example.com' })).body).toEqual({ error: 'conversation not found' });
  });
});

describe('GET /api/public/{publicId}/poll', () => {
  it('returns operator messages after a cursor', async () => {
    const { api, publicId } = await trainedAgent();
    const v = visitor();
    const c = await v.post(`/api/public/${publicId}/chat`, { message: 'Can I speak to a real person?' });
    const cid = str(c.body.conversationId);
    expect(c.body.handoff).toBe('requested');
    const empty = await v.get(`/api/public/${publicId}/poll?conversationId=${cid}`);
    expect(empty.body).toMatchObject({ conversationId: cid, handoff: 'requested', messages: [] });
    await api.post(`/api/conversations/${cid}/reply`, { text: 'Hi, Yuki here. How can I help?' });
    const got = await v.get(`/api/public/${publicId}/poll?conversationId=${cid}&after=${str(empty.body.cursor)}`);
    expect(arr(got.body.messages).map((m) => m.text)).toEqual(['Hi, Yuki here. How can I help?']);
    expect(got.body.handoff).toBe('operator');
    const none = await v.get(`/api/public/${publicId}/poll?conversationId=${cid}&after=${str(got.body.cursor)}`);
    expect(none.body.messages).toEqual([]);
    expect((await v.get(`/api/public/${publicId}/poll`)).body).toEqual({ error: 'conversationId is required' });
    const other = await trainedAgent();
    expect((await v.get(`/api/public/${other.publicId}/poll?conversationId=${cid}`)).status).toBe(404);
  });

  it('limits polling to 120 per minute per IP', async () => {
    const { publicId } = await trainedAgent();
    const v = t.api(null, { 'x-forwarded-for': '10.62.0.1' });
    const c = await v.post(`/api/public/${publicId}/chat`, { message: 'hi' });
    for (let i = 0; i < 120; i++) expect((await v.get(`/api/public/${publicId}/poll?conversationId=${str(c.body.conversationId)}`)).status).toBe(200);
    expect((await v.get(`/api/public/${publicId}/poll?conversationId=${str(c.body.conversationId)}`)).status).toBe(429);
  });
});

describe('platform config, content and health', () => {
  it('answers /api/config, /api/content/{page} and /api/health without a token', async () => {
    const cfg = await visitor().get('/api/config');
    expect(cfg.body).toMatchObject({ engines: ['local'], signupCredits: 100, creditCost: 1, limits: { messageMaxChars: 4000, csvMaxRows: 5000 } });
    const page = await visitor().get('/api/content/landing');
    expect(page.body).toMatchObject({ page: 'landing' });
    expect(arr(page.body.sections).length).toBeGreaterThan(0);
    expect((await visitor().get('/api/content/nope')).body).toEqual({ error: 'page not found' });
    expect((await visitor().get('/api/content/constructor')).status).toBe(404);
    expect((await visitor().get('/api/health')).body).toMatchObject({ ok: true, db: 'ok' });
  });
});
