import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer();
});
afterAll(() => t.close());

describe('POST /api/agents', () => {
  it('creates an agent with public_id, agent_email and a default persona, and reads it back', async () => {
    const u = await t.signup();
    const r = await u.post('/api/agents', { name: 'Sales Bot', companyName: 'Acme', website: 'https://acme.example', emoji: '🛒', color: '#ff0000' });
    expect(r.status).toBe(200);
    const a = r.body.agent;
    expect(str(a.public_id)).toMatch(/^[a-z0-9]{12}$/);
    expect(str(a.agent_email)).toMatch(/^sales-bot-[a-z0-9]{12}@/);
    expect(str(a.system_prompt)).toContain('Acme');
    expect(a).toMatchObject({ name: 'Sales Bot', model: 'auto', temperature: 0.3, visibility: 'public', status: 'active', emoji: '🛒', companyName: 'Acme', last_trained_at: null });
    const back = await u.get(`/api/agents/${str(a.id)}`);
    expect(back.body.agent).toEqual(a);
  });

  it('requires a name', async () => {
    const u = await t.signup();
    expect((await u.post('/api/agents', {})).body).toEqual({ error: 'name is required' });
    expect((await u.post('/api/agents', { name: '  ' })).body).toEqual({ error: 'name: name is required' });
    expect((await u.get('/api/agents')).body.agents).toEqual([]);
  });
});

describe('GET /api/agents', () => {
  it('lists agents with conversation, source and lead counts', async () => {
    const { api, agentId } = await t.withAgent('Counter');
    await api.post(`/api/agents/${agentId}/sources`, { type: 'text', name: 'About', content: 'We sell shoes.' });
    await api.post('/api/leads', { name: 'Lee', email: 'lee@example.com', agentId });
    await api.post('/api/chat', { agentId, message: 'hello' });
    const list = await api.get('/api/agents');
    expect(arr(list.body.agents)).toHaveLength(1);
    expect(list.body.agents[0]).toMatchObject({ id: agentId, sources: 1, conversations: 1 });
  });
});

describe('PATCH and DELETE /api/agents/{id}', () => {
  it('updates the named fields and rejects out-of-range values', async () => {
    const { api, agentId } = await t.withAgent();
    const r = await api.patch(`/api/agents/${agentId}`, { name: 'Renamed', temperature: 0.9, welcome_message: 'Yo', visibility: 'private', status: 'paused', avatar_url: 'https://x.example/a.png' });
    expect(r.body.agent).toMatchObject({ name: 'Renamed', temperature: 0.9, welcome_message: 'Yo', visibility: 'private', status: 'paused' });
    expect((await api.get(`/api/agents/${agentId}`)).body.agent.name).toBe('Renamed');
    expect((await api.patch(`/api/agents/${agentId}`, { temperature: 5 })).status).toBe(400);
    expect((await api.patch(`/api/agents/${agentId}`, { status: 'weird' })).status).toBe(400);
  });

  it('deletes the agent with its sources and conversations', async () => {
    const { api, agentId } = await t.withAgent();
    const s = await api.post(`/api/agents/${agentId}/sources`, { type: 'text', name: 'N', content: 'Some knowledge here.' });
    const c = await api.post('/api/chat', { agentId, message: 'hello there' });
    expect((await api.del(`/api/agents/${agentId}`)).body).toEqual({ ok: true });
    expect((await api.get(`/api/agents/${agentId}`)).status).toBe(404);
    expect((await api.get(`/api/sources/${str(s.body.source.id)}`)).status).toBe(404);
    expect((await api.get(`/api/conversations/${str(c.body.conversationId)}`)).status).toBe(404);
    const left = await t.ctx.db.selectFrom('passages').select('id').where('agent_id', '=', agentId).execute();
    expect(left).toHaveLength(0);
  });
});

describe('agent sources, training and the playground', () => {
  it('adds, lists and removes sources under the agent; train re-indexes and stamps last_trained_at', async () => {
    const { api, agentId } = await t.withAgent();
    const s = await api.post(`/api/agents/${agentId}/sources`, { type: 'qa', name: 'Hours', question: 'When are you open?', answer: 'Weekdays from 9 to 18.' });
    expect(s.status).toBe(200);
    expect((await api.post(`/api/agents/${agentId}/sources`, { type: 'text', content: 'x' })).body).toEqual({ error: 'name is required' });
    const list = await api.get(`/api/agents/${agentId}/sources`);
    expect(arr(list.body.sources).map((x) => x.id)).toEqual([s.body.source.id]);
    const train = await api.post(`/api/agents/${agentId}/train`);
    expect(train.body).toMatchObject({ ok: true, sources: 1, passages: 1 });
    expect((await api.get(`/api/agents/${agentId}`)).body.agent.last_trained_at).toBe(train.body.last_trained_at);
    expect((await api.del(`/api/agents/${agentId}/sources/${str(s.body.source.id)}`)).body).toEqual({ ok: true });
    expect(arr((await api.get(`/api/agents/${agentId}/sources`)).body.sources)).toHaveLength(0);
  });

  it('answers a playground turn with overrides, stores no conversation and charges one credit like a chat turn', async () => {
    const { api, agentId } = await t.withAgent();
    await api.post(`/api/agents/${agentId}/sources`, { type: 'qa', name: 'Refunds', question: 'Can I get a refund?', answer: 'Yes, within 30 days of purchase.' });
    const r = await api.post(`/api/agents/${agentId}/test`, { message: 'Can I get a refund?', instructions: 'Be brief.', temperature: 0.1 });
    expect(r.body).toEqual({ reply: 'Yes, within 30 days of purchase.', engine: 'local' });
    expect((await api.get('/api/auth/me')).body.billing.credits).toBe(99);
    expect(arr((await api.get('/api/conversations')).body.conversations)).toHaveLength(0);
    expect((await api.post(`/api/agents/${agentId}/test`, {})).body).toEqual({ error: 'message is required' });
    expect((await api.get('/api/auth/me')).body.billing.credits).toBe(99);
  });

  it('offers a default prompt and the persona library', async () => {
    const u = await t.signup();
    const p = await u.get('/api/agents/default-prompt?company=Acme&website=https://acme.example');
    expect(str(p.body.prompt)).toContain('Acme (https://acme.example)');
    const lib = await u.get('/api/agents/prompt-library');
    expect(arr(lib.body.genres).length).toBeGreaterThan(3);
    expect(lib.body.genres[0]).toHaveProperty('prompt');
  });

  it('refuses company-info for private addresses', async () => {
    const u = await t.signup();
    const r = await u.get('/api/agents/company-info?url=http://127.0.0.1:1/');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'url must be a public address' });
  });
});

describe('tenant isolation', () => {
  it("answers 404 for another workspace's agent on every id route", async () => {
    const { agentId } = await t.withAgent();
    const other = await t.signup();
    expect((await other.get(`/api/agents/${agentId}`)).status).toBe(404);
    expect((await other.patch(`/api/agents/${agentId}`, { name: 'x' })).status).toBe(404);
    expect((await other.del(`/api/agents/${agentId}`)).status).toBe(404);
    expect((await other.post(`/api/agents/${agentId}/test`, { message: 'hi' })).status).toBe(404);
    expect((await other.post(`/api/agents/${agentId}/train`)).status).toBe(404);
    expect((await other.get(`/api/agents/${agentId}/sources`)).status).toBe(404);
    expect((await other.post(`/api/agents/${agentId}/sources`, { type: 'text', name: 'n', content: 'c' })).status).toBe(404);
    expect((await other.del(`/api/agents/${agentId}/sources/src_x`)).status).toBe(404);
    expect((await other.post('/api/chat', { agentId, message: 'hi' })).status).toBe(404);
    expect((await other.get(`/api/sources?agent=${agentId}`)).status).toBe(404);
  });
});
