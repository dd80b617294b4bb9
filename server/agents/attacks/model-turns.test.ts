/**
 * Attacks on paid model use (issue 25, item 5): the playground, the advisor and the widget's speech and
 * translation are model turns like /api/chat: 402 at zero balance with no model call, one credit each through
 * the ledger, and the same 60-per-minute limit per workspace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsServer, str, type Api, type AgentsTestServer } from '../harness.testkit';
import type { ChatEngine } from '../chat/engine';
import type { WidgetMedia } from '../public/media';
import { whoami } from './team.testkit';

let t: AgentsTestServer;
const calls = { model: 0, media: 0 };
const engine: ChatEngine = {
  name: 'anthropic',
  async *stream() {
    calls.model += 1;
    yield 'A model reply.';
  },
};
const media: WidgetMedia = {
  speak: async () => (calls.media++, { audio: Buffer.from('ID3-fake'), mime: 'audio/mpeg' }),
  transcribe: async () => (calls.media++, 'heard'),
  translate: async () => (calls.media++, '訳文'),
};
const SPEECH = Buffer.from('OggS-recorded-speech').toString('base64');
let ip = 0;
/** A widget visitor from its own address (the per-IP limit is not what these tests probe). */
const visitor = () => t.api(null, { 'x-forwarded-for': `10.77.${(++ip >> 8) & 255}.${ip & 255}` });

beforeAll(async () => {
  t = await startAgentsServer({}, { engines: { anthropic: engine, openai: null }, media });
});
afterAll(() => t.close());

/** The workspace's credit balance. */
async function balanceOf(ws: string): Promise<number> {
  return (await t.ctx.db.selectFrom('workspaces').select('credits').where('id', '=', ws).executeTakeFirstOrThrow()).credits;
}

/** The one ledger entry that brings the balance to `target` (as an operator's correction posts it). */
async function setBalance(ws: string, target: number): Promise<void> {
  const delta = target - (await balanceOf(ws));
  if (delta !== 0) await t.ctx.db.insertInto('credit_ledger').values({ workspace_id: ws, delta, balance: target, reason: 'admin', ref: null, note: '', created_at: Date.now() }).execute();
}

async function workspace(): Promise<{ api: Api; agentId: string; publicId: string; ws: string }> {
  const a = await t.withAgent('Paid');
  await a.api.patch(`/api/agents/${a.agentId}`, { model: 'claude-3-5-haiku' });
  return { ...a, ws: (await whoami(a.api)).ws };
}

const paidCalls = (api: Api, agentId: string, publicId: string) => [
  () => api.post(`/api/agents/${agentId}/test`, { message: 'hello' }),
  () => api.post('/api/assistant/chat', { message: 'how are we doing?', lang: 'en' }),
  () => api.get('/api/assistant/analysis?lang=en'),
  () => visitor().post(`/api/public/${publicId}/tts`, { text: 'Hello' }),
  () => visitor().post(`/api/public/${publicId}/transcribe`, { audio: SPEECH, mime: 'audio/ogg' }),
  () => visitor().post(`/api/public/${publicId}/translate`, { text: 'Hello', target: 'ja' }),
];

describe('model turns for free', () => {
  it('at balance 0 every model route answers 402 without calling the model, like /api/chat', async () => {
    const { api, agentId, publicId, ws } = await workspace();
    await setBalance(ws, 0);
    const before = { ...calls };
    expect((await api.post('/api/chat', { agentId, message: 'hello' })).status).toBe(402);
    for (const call of paidCalls(api, agentId, publicId)) {
      const r = await call();
      expect(r.status).toBe(402);
      expect(r.body).toEqual({ error: 'out of credits' });
    }
    expect(calls).toEqual(before);
    expect(await balanceOf(ws)).toBe(0);
  });

  it('each model turn costs one credit through the ledger', async () => {
    const { api, agentId, publicId, ws } = await workspace();
    const start = await balanceOf(ws);
    let n = 0;
    for (const call of paidCalls(api, agentId, publicId)) {
      const r = await call();
      expect(r.status).toBe(200);
      n += 1;
      expect(await balanceOf(ws)).toBe(start - n);
    }
    const test = await api.post(`/api/agents/${agentId}/test`, { message: 'hello' });
    expect(test.body).toEqual({ reply: 'A model reply.', engine: 'anthropic' });
    const notes = (await t.ctx.db.selectFrom('credit_ledger').select('note').where('workspace_id', '=', ws).where('reason', '=', 'chat').orderBy('id').execute()).map((r) => r.note);
    expect(notes).toEqual(['playground', 'advisor', 'advisor', 'tts', 'transcribe', 'translate', 'playground']);
  });

  it('70 playground turns in a burst: 60 answered and charged, the rest 429', async () => {
    const { api, agentId, ws } = await workspace();
    await setBalance(ws, 1000);
    const statuses: number[] = [];
    for (let i = 0; i < 70; i++) statuses.push((await api.post(`/api/agents/${agentId}/test`, { message: `burst ${i}` })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.slice(60)).toEqual(Array(10).fill(429));
    expect(await balanceOf(ws)).toBe(940);
  });

  it('the limit is the one /api/chat uses: chat turns and other model turns share 60 per minute per workspace', async () => {
    const { api, agentId, publicId, ws } = await workspace();
    await setBalance(ws, 1000);
    for (let i = 0; i < 57; i++) expect((await api.post('/api/chat', { agentId, message: `turn ${i}` })).status).toBe(200);
    expect((await api.post('/api/assistant/chat', { message: 'and now?' })).status).toBe(200);
    expect((await visitor().post(`/api/public/${publicId}/translate`, { text: 'Hi', target: 'ja' })).status).toBe(200);
    expect((await api.post(`/api/agents/${agentId}/test`, { message: 'last' })).status).toBe(200);
    const over = await visitor().post(`/api/public/${publicId}/tts`, { text: 'one too many' });
    expect(over.status).toBe(429);
    expect((await api.post('/api/chat', { agentId, message: 'also too many' })).status).toBe(429);
    expect(await balanceOf(ws)).toBe(940);
    expect(str((await api.get('/api/billing/wallet')).body.balance)).toBe(940);
  });
});
