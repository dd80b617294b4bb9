import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';

let t: AgentsTestServer;
beforeAll(async () => {
  t = await startAgentsServer();
});
afterAll(() => t.close());

async function busy() {
  const r = await t.withAgent('Analyst');
  await r.api.post('/api/sources', { type: 'qa', question: 'How much does the premium plan cost?', answer: 'The premium plan costs 2,000 yen per month.' });
  await r.api.post('/api/chat', { agentId: r.agentId, message: 'How much does the premium plan cost?' }, { 'cf-ipcountry': 'jp' });
  await r.api.post('/api/chat', { agentId: r.agentId, message: 'Thanks, that is great and very helpful!' }, { 'cf-ipcountry': 'JP' });
  await r.api.post('/api/chat', { agentId: r.agentId, message: 'My parcel delivery is terrible and the tracking is broken' }, { 'cf-ipcountry': 'US' });
  await r.api.post('/api/chat', { agentId: r.agentId, message: 'Do you sell gift cards for tennis rackets?' });
  return r;
}

describe('analytics', () => {
  it('computes volume, the 7-day series and countries from stored conversations', async () => {
    const { api, agentId } = await busy();
    const r = await api.get(`/api/analytics/chats?agent=${agentId}`);
    expect(r.body).toMatchObject({ total: 4, messages: 8, last7: 4 });
    const series = arr(r.body.series);
    expect(series).toHaveLength(7);
    expect(series[6]).toMatchObject({ date: new Date().toISOString().slice(0, 10), conversations: 4, messages: 8 });
    expect(r.body.topCountries).toEqual([{ country: 'JP', count: 2 }, { country: 'US', count: 1 }, { country: 'unknown', count: 1 }]);
  });

  it('buckets topics from first messages and scores sentiment', async () => {
    const { api } = await busy();
    const topics = await api.get('/api/analytics/topics');
    expect(topics.body.total).toBe(4);
    const names = Object.fromEntries(arr(topics.body.topics).map((x) => [str(x.topic), x.count]));
    expect(names).toMatchObject({ pricing: 1, shipping: 1 });
    expect((await api.get('/api/analytics/sentiment')).body).toMatchObject({ positive: 1, negative: 1, neutral: 2, total: 4 });
  });
});

describe('dashboard', () => {
  it('shows KPIs with recent conversations, and usage against the tier allowance per agent', async () => {
    const { api, agentId } = await busy();
    const o = await api.get('/api/dashboard/overview');
    expect(o.body.kpis).toMatchObject({ agents: 1, sources: 1, conversations: 4, messages: 8, credits: 96 });
    expect(arr(o.body.recent)).toHaveLength(4);
    const u = await api.get('/api/dashboard/usage');
    expect(u.body).toMatchObject({ used: 4, allowance: 100, remaining: 96, perAgent: [{ agentId, name: 'Analyst', messages: 4, conversations: 4 }] });
  });
});

describe('advisor', () => {
  it('analyses with rules: unanswered questions become a recommendation, narrative in English or Japanese', async () => {
    const { api } = await busy();
    const en = await api.get('/api/assistant/analysis?lang=en');
    expect(en.body).toMatchObject({ lang: 'en', engine: 'local' });
    expect(Number(en.body.score)).toBeLessThan(100);
    expect(arr(en.body.recommendations).map((r) => r.id)).toContain('unanswered');
    expect(str(en.body.narrative)).toContain('health score');
    const ja = await api.get('/api/assistant/analysis?lang=ja');
    expect(str(ja.body.narrative)).toContain('健全性スコア');
    expect(arr(ja.body.recommendations).some((r) => str(r.text).includes('回答できません'))).toBe(true);
  });

  it('recommends creating an agent for an empty workspace', async () => {
    const u = await t.signup();
    const r = await u.get('/api/assistant/analysis');
    expect(arr(r.body.recommendations)[0]).toMatchObject({ id: 'create-agent', severity: 'high' });
  });

  it('chats in the caller language with attachments up to 16 MB', async () => {
    const { api } = await busy();
    const r = await api.post('/api/assistant/chat', { message: 'Which questions were unanswered?', lang: 'en', history: [] });
    expect(str(r.body.reply)).toContain('gift cards');
    const ja = await api.post('/api/assistant/chat', { message: 'リードは何件？', lang: 'ja' });
    expect(str(ja.body.reply)).toContain('リードは0件');
    const csv = `data:text/csv;base64,${Buffer.from('a,b\n1,2\n').toString('base64')}`;
    const big = `data:image/png;base64,${Buffer.alloc(3 * 1024 * 1024, 7).toString('base64')}`;
    const att = await api.post('/api/assistant/chat', { message: 'see files', attachments: [{ name: 'x.csv', data: csv }, { name: 'shot.png', data: big }] });
    expect(att.status).toBe(200);
    expect(str(att.body.reply)).toContain('x.csv');
    expect((await api.post('/api/assistant/chat', { message: 'bad', attachments: ['nope'] })).status).toBe(400);
    expect((await api.post('/api/assistant/chat', {})).body).toEqual({ error: 'message is required' });
  });

  it("scopes analytics to the caller's workspace", async () => {
    const { agentId } = await busy();
    const o = await t.signup();
    expect((await o.get(`/api/analytics/chats?agent=${agentId}`)).status).toBe(404);
    expect((await o.get('/api/dashboard/overview')).body.kpis).toMatchObject({ conversations: 0, agents: 0 });
  });
});
