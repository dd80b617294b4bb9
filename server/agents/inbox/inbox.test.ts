import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer();
});
afterAll(() => t.close());

async function withConversation() {
  const r = await t.withAgent('Desk');
  await r.api.post('/api/sources', { type: 'qa', question: 'Do you deliver on Sundays?', answer: 'No, we deliver Monday to Saturday.' });
  const c = await r.api.post('/api/chat', { agentId: r.agentId, message: 'Do you deliver on Sundays?', channel: 'web' });
  const conv = await r.api.get(`/api/conversations/${str(c.body.conversationId)}`);
  const msgs = arr(conv.body.conversation.messages);
  return { ...r, cid: str(c.body.conversationId), userMid: str(msgs[0].id), botMid: str(msgs[1].id) };
}

describe('conversations list, inbox, channels', () => {
  it('lists with limit and channel filters, newest first', async () => {
    const { api, agentId } = await t.withAgent();
    const a = await api.post('/api/chat', { agentId, message: 'first', channel: 'web' });
    const b = await api.post('/api/chat', { agentId, message: 'second', channel: 'email' });
    expect(arr((await api.get('/api/conversations')).body.conversations).map((c) => c.id)).toEqual([b.body.conversationId, a.body.conversationId]);
    expect(arr((await api.get('/api/conversations?limit=1')).body.conversations)).toHaveLength(1);
    expect(arr((await api.get('/api/conversations?channel=web')).body.conversations).map((c) => c.id)).toEqual([a.body.conversationId]);
    expect((await api.get(`/api/conversations/channels?agent=${agentId}`)).body).toEqual({ channels: ['email', 'web'] });
    expect((await api.get('/api/conversations')).body.conversations[0]).toMatchObject({ agentId, channel: 'email', handoff: 'bot', message_count: 2, first_message: 'second' });
  });
});

describe('operator replies and handoff states', () => {
  it('a reply takes over; the bot stays silent and charges nothing until the conversation goes back to the bot', async () => {
    const { api, agentId, cid } = await withConversation();
    const r = await api.post(`/api/conversations/${cid}/reply`, { text: 'Hello, this is Ken from support.' });
    expect(r.body.message).toMatchObject({ role: 'operator', text: 'Hello, this is Ken from support.' });
    expect(r.body.conversation.handoff).toBe('operator');
    const credits = (await api.get('/api/auth/me')).body.billing.credits;
    const quiet = await api.post('/api/chat', { agentId, conversationId: cid, message: 'Thanks Ken!' });
    expect(quiet.body).toMatchObject({ reply: null, handoff: 'operator', creditCost: 0 });
    expect((await api.get('/api/auth/me')).body.billing.credits).toBe(credits);
    expect((await api.patch(`/api/conversations/${cid}/handoff`, { action: 'resolve' })).body.conversation.handoff).toBe('resolved');
    expect((await api.patch(`/api/conversations/${cid}/handoff`, { action: 'bot' })).body.conversation.handoff).toBe('bot');
    expect((await api.patch(`/api/conversations/${cid}/handoff`, { action: 'takeover' })).body.conversation.handoff).toBe('operator');
    expect((await api.patch(`/api/conversations/${cid}/handoff`, { action: 'later' })).body).toEqual({ error: 'action: action must be takeover, resolve or bot' });
    expect((await api.post(`/api/conversations/${cid}/reply`, {})).body).toEqual({ error: 'text is required' });
    const roles = arr((await api.get(`/api/conversations/${cid}`)).body.conversation.messages).map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'operator', 'user']);
  });
});

describe('feedback and corrections', () => {
  it('stores thumbs per message and per conversation, and reports the rate', async () => {
    const { api, cid, botMid } = await withConversation();
    expect((await api.patch(`/api/conversations/${cid}/messages/${botMid}`, { feedback: 'down' })).body.message.feedback).toBe('down');
    expect((await api.patch(`/api/conversations/${cid}/messages/${botMid}`, { feedback: 'sideways' })).status).toBe(400);
    expect((await api.patch(`/api/conversations/${cid}`, { feedback: 'up' })).body.conversation.feedback).toBe('up');
    expect((await api.get('/api/conversations/feedback-stats')).body).toEqual({ up: 0, down: 1, total: 1, rate: 0, conversations: { up: 1, down: 0 } });
    await api.patch(`/api/conversations/${cid}/messages/${botMid}`, { feedback: null });
    expect((await api.get(`/api/conversations/${cid}`)).body.conversation.messages[1].feedback).toBeNull();
  });

  it('saves a correction as a trained Q&A source the agent answers from', async () => {
    const { api, agentId, cid, botMid } = await withConversation();
    const r = await api.post(`/api/conversations/${cid}/messages/${botMid}/correct`, { answer: 'Yes! Since April we also deliver on Sundays.' });
    expect(r.body.source).toMatchObject({ type: 'qa', question: 'Do you deliver on Sundays?', answer: 'Yes! Since April we also deliver on Sundays.', status: 'trained' });
    expect((await api.get(`/api/conversations/${cid}`)).body.conversation.messages[1].corrected_source_id).toBe(r.body.source.id);
    await api.del(`/api/sources/${str((await api.get('/api/sources?type=qa')).body.sources[0].id)}`);
    expect((await api.post('/api/chat', { agentId, message: 'Do you deliver on Sundays?' })).body.reply).toBe('Yes! Since April we also deliver on Sundays.');
    expect((await api.post(`/api/conversations/${cid}/messages/${botMid}/correct`, {})).body).toEqual({ error: 'answer is required' });
  });
});

describe('GET /api/conversations/export.csv', () => {
  it('exports messages as formula-safe UTF-8 CSV, at most 5000 rows', async () => {
    const { api, agentId } = await t.withAgent();
    await api.post('/api/chat', { agentId, message: '=HYPERLINK("http://evil.example","click")' });
    const r = await api.get('/api/conversations/export.csv');
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const raw = new Uint8Array(await (await fetch(`${t.base}/api/conversations/export.csv`, { headers: { authorization: `Bearer ${api.token}` } })).arrayBuffer());
    expect([...raw.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(r.text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    const ws = str((await api.get('/api/auth/me')).body.workspace.id);
    const cid = str((await api.get('/api/conversations')).body.conversations[0].id);
    const bulk = Array.from({ length: 5100 }, (_, i) => ({ id: `msg_bulk${i}`, conversation_id: cid, workspace_id: ws, role: 'user', text: 'bulk', created_at: Date.now() }));
    for (let i = 0; i < bulk.length; i += 500) await t.ctx.db.insertInto('messages').values(bulk.slice(i, i + 500)).execute();
    const big = await api.get('/api/conversations/export.csv');
    expect(big.text.trim().split('\r\n')).toHaveLength(5001);
  });
});

describe('deleting conversations', () => {
  it('deletes one, and all of an agent', async () => {
    const { api, agentId, cid } = await withConversation();
    await api.post('/api/chat', { agentId, message: 'another' });
    expect((await api.del(`/api/conversations/${cid}`)).body).toEqual({ ok: true });
    expect((await api.get(`/api/conversations/${cid}`)).status).toBe(404);
    expect((await api.del(`/api/conversations?agent=${agentId}`)).body).toEqual({ ok: true, deleted: 1 });
    expect(arr((await api.get('/api/conversations')).body.conversations)).toHaveLength(0);
  });
});

describe('tenant isolation', () => {
  it("answers 404 for another workspace's conversation and message ids", async () => {
    const { cid, botMid, agentId, api } = await withConversation();
    const other = await t.withAgent();
    const o = other.api;
    expect((await o.get(`/api/conversations/${cid}`)).status).toBe(404);
    expect((await o.post(`/api/conversations/${cid}/reply`, { text: 'x' })).status).toBe(404);
    expect((await o.patch(`/api/conversations/${cid}/handoff`, { action: 'takeover' })).status).toBe(404);
    expect((await o.patch(`/api/conversations/${cid}/messages/${botMid}`, { feedback: 'up' })).status).toBe(404);
    expect((await o.post(`/api/conversations/${cid}/messages/${botMid}/correct`, { answer: 'x' })).status).toBe(404);
    expect((await o.patch(`/api/conversations/${cid}`, { feedback: 'up' })).status).toBe(404);
    expect((await o.del(`/api/conversations/${cid}`)).status).toBe(404);
    expect((await o.del(`/api/conversations?agent=${agentId}`)).status).toBe(404);
    expect((await o.get(`/api/conversations?agent=${agentId}`)).status).toBe(404);
    const own = await o.post('/api/chat', { agentId: other.agentId, message: 'hi' });
    expect((await o.patch(`/api/conversations/${str(own.body.conversationId)}/messages/${botMid}`, { feedback: 'up' })).status).toBe(404);
    expect((await api.get(`/api/conversations/${cid}`)).body.conversation.handoff).toBe('bot');
  });
});
