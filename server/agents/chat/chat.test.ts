import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';
import { FALLBACK_EN, FALLBACK_JA } from './local-engine';
import { setBalance } from '../billing/ledger';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer();
});
afterAll(() => t.close());

const events = (ws: string) => t.ctx.db.selectFrom('events').select(['event', 'payload']).where('workspace_id', '=', ws).orderBy('id').execute();
const wsOf = async (api: { get: (p: string) => Promise<{ body: { workspace: { id: unknown } } }> }) => String((await api.get('/api/auth/me')).body.workspace.id);

async function trained() {
  const r = await t.withAgent('Shop');
  await r.api.post('/api/sources', { type: 'qa', question: 'What are your opening hours?', answer: 'We are open from 9:00 to 18:00 on weekdays.' });
  await r.api.post('/api/sources', { type: 'qa', question: '送料はいくらですか？', answer: '全国一律500円です。5,000円以上のご注文で送料無料になります。' });
  await r.api.post('/api/sources', { type: 'text', name: 'Returns', content: 'Returns are accepted within 30 days of delivery. Items must be unused and in their original packaging. Refunds go back to the original payment method.' });
  return r;
}

describe('POST /api/chat', () => {
  it('answers from the matching Q&A pair with engine, credits and creditCost, and keeps the conversation', async () => {
    const { api, agentId } = await trained();
    const r = await api.post('/api/chat', { agentId, message: 'What are your opening hours?' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ reply: 'We are open from 9:00 to 18:00 on weekdays.', engine: 'local', credits: 99, creditCost: 1, captured: null });
    const cid = str(r.body.conversationId);
    const again = await api.post('/api/chat', { agentId, message: 'Can I return an unused item?', conversationId: cid });
    expect(again.body.conversationId).toBe(cid);
    expect(str(again.body.reply)).toContain('Returns are accepted within 30 days');
    const conv = await api.get(`/api/conversations/${cid}`);
    expect(arr(conv.body.conversation.messages).map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(conv.body.conversation.channel).toBe('api');
  });

  it('answers Japanese questions through the trigram index', async () => {
    const { api, agentId } = await trained();
    const r = await api.post('/api/chat', { agentId, message: '送料はいくらかかりますか' });
    expect(r.body.reply).toBe('全国一律500円です。5,000円以上のご注文で送料無料になります。');
  });

  it('says honestly when nothing it was taught matches', async () => {
    const { api, agentId } = await trained();
    expect((await api.post('/api/chat', { agentId, message: 'Who won the football world cup in 1998?' })).body.reply).toBe(FALLBACK_EN);
    expect((await api.post('/api/chat', { agentId, message: '明日の天気を教えてください' })).body.reply).toBe(FALLBACK_JA);
  });

  it('streams server-sent events with stream=1: start, token pieces, done', async () => {
    const { api, agentId } = await trained();
    const res = await fetch(`${t.base}/api/chat?stream=1`, { method: 'POST', headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ agentId, message: 'What are your opening hours?' }) });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    const frames = text.split('\n\n').filter(Boolean).map((f) => {
      const [ev, data] = f.split('\n');
      return { event: ev.replace(/^event: /, ''), data: JSON.parse(data.replace(/^data: /, '')) as Record<string, unknown> };
    });
    expect(frames[0].event).toBe('start');
    expect(frames.at(-1)?.event).toBe('done');
    const tokens = frames.filter((f) => f.event === 'token');
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.map((f) => f.data.text).join('')).toBe('We are open from 9:00 to 18:00 on weekdays.');
    expect(frames.at(-1)?.data).toMatchObject({ reply: 'We are open from 9:00 to 18:00 on weekdays.', engine: 'local', creditCost: 1, conversationId: frames[0].data.conversationId });
    expect(text.endsWith('\n\n')).toBe(true);
  });

  it('answers 402 with nothing stored when the workspace is out of credits or paused', async () => {
    const { api, agentId } = await trained();
    const ws = await wsOf(api);
    await setBalance(t.ctx.db, ws, 0);
    const r = await api.post('/api/chat', { agentId, message: 'hours?' });
    expect(r.status).toBe(402);
    expect(r.body).toEqual({ error: 'out of credits' });
    const sse = await api.post('/api/chat?stream=1', { agentId, message: 'hours?' });
    expect(sse.status).toBe(402);
    await setBalance(t.ctx.db, ws, 5);
    await t.ctx.db.updateTable('workspaces').set({ paused: 1 }).where('id', '=', ws).execute();
    expect((await api.post('/api/chat', { agentId, message: 'hours?' })).body).toEqual({ error: 'subscription paused' });
    expect(arr((await api.get('/api/conversations')).body.conversations)).toHaveLength(0);
  });

  it('captures the lead and contact a visitor leaves and records lead.captured with its alias', async () => {
    const { api, agentId } = await trained();
    const r = await api.post('/api/chat', { agentId, message: 'My name is Alice Smith, email alice@example.com, phone +81 90-1234-5678' });
    expect(r.body.captured).toEqual({ email: 'alice@example.com', phone: '+81 90-1234-5678', name: 'Alice Smith' });
    const leads = await api.get('/api/leads');
    expect(leads.body.leads[0]).toMatchObject({ name: 'Alice Smith', email: 'alice@example.com', source: 'chat', status: 'new' });
    const contacts = await api.get('/api/contacts');
    expect(contacts.body.contacts[0]).toMatchObject({ email: 'alice@example.com', name: 'Alice Smith' });
    const names = (await events(await wsOf(api))).map((e) => e.event);
    expect(names.filter((n) => n === 'lead.captured')).toHaveLength(1);
    expect(names.filter((n) => n === 'leads.submit')).toHaveLength(1);
    expect(names.filter((n) => n === 'message.created')).toHaveLength(2);
  });

  it('detects a request for a person: handoff requested, event recorded, inbox puts it first', async () => {
    const { api, agentId } = await trained();
    const quiet = await api.post('/api/chat', { agentId, message: 'What are your opening hours?' });
    const r = await api.post('/api/chat', { agentId, message: 'I want to talk to a human please' });
    expect(r.body.handoff).toBe('requested');
    expect(str(r.body.reply)).toContain('member of our team');
    expect((await events(await wsOf(api))).map((e) => e.event)).toContain('handoff.requested');
    const inbox = await api.get('/api/conversations/inbox');
    expect(arr(inbox.body.conversations).map((c) => c.id)).toEqual([r.body.conversationId, quiet.body.conversationId]);
    const ja = await api.post('/api/chat', { agentId, message: '担当者と話したいです' });
    expect(ja.body.handoff).toBe('requested');
  });

  it('allows 60 turns per minute per workspace, then 429 with Retry-After', async () => {
    const { api, agentId } = await t.withAgent();
    for (let i = 0; i < 60; i++) expect((await api.post('/api/chat', { agentId, message: `hello ${i}` })).status).toBe(200);
    const r = await api.post('/api/chat', { agentId, message: 'one more' });
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await (await t.withAgent()).api.post('/api/chat', { message: 'other workspace' })).status).toBe(200);
  });

  it("refuses another workspace's conversation id and a missing message", async () => {
    const a = await trained();
    const c = await a.api.post('/api/chat', { agentId: a.agentId, message: 'hi' });
    const b = await trained();
    expect((await b.api.post('/api/chat', { agentId: b.agentId, message: 'hi', conversationId: c.body.conversationId })).status).toBe(404);
    expect((await b.api.post('/api/chat', { agentId: b.agentId })).body).toEqual({ error: 'message is required' });
  });
});
