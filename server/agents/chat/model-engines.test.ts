import { allowOnlyHostsOf } from '../../core/testing/outbound.testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { arr, startAgentsServer, str, type AgentsTestServer } from '../harness.testkit';
import { AnthropicEngine, OpenAiEngine } from './model-engines';
import { startFakeProvider, type FakeProvider } from './fake-providers.testkit';
import type { EngineInput } from './engine';

let anthropic: FakeProvider;
let openai: FakeProvider;
let t: AgentsTestServer;

beforeAll(async () => {
  anthropic = await startFakeProvider('anthropic');
  openai = await startFakeProvider('openai');
  t = await startAgentsServer(
    {},
    {
      engines: {
        anthropic: new AnthropicEngine('sk-ant-test-key', { baseURL: anthropic.baseURL, allowInternal: allowOnlyHostsOf(anthropic.baseURL), maxRetries: 1 }),
        openai: new OpenAiEngine('sk-test-key', { baseURL: openai.baseURL, allowInternal: allowOnlyHostsOf(openai.baseURL), maxRetries: 1 }),
      },
    },
  );
});
afterAll(async () => {
  await t?.close();
  await anthropic?.close();
  await openai?.close();
});
beforeEach(() => {
  for (const f of [anthropic, openai]) {
    f.mode = 'ok';
    f.seen.length = 0;
    f.pieces = ['Hello', ' from', ' the model.'];
  }
});

async function agentWith(model: string) {
  const r = await t.withAgent('Shop');
  await r.api.patch(`/api/agents/${r.agentId}`, { model, system_prompt: 'You are the friendly desk of Umeda Kitting.', temperature: 0.2 });
  await r.api.post('/api/sources', { type: 'qa', question: 'What are your opening hours?', answer: 'We are open from 9:00 to 18:00 on weekdays.' });
  return r;
}

function sseEvents(text: string) {
  return text
    .trim()
    .split('\n\n')
    .map((block) => {
      const [ev, data] = block.split('\n');
      return { event: ev.replace(/^event: /, ''), data: JSON.parse(data.replace(/^data: /, '')) as Record<string, unknown> };
    });
}

describe('Anthropic engine (official SDK against a local fake of the Messages API)', () => {
  it('sends the persona, retrieved knowledge, temperature and history, and streams the reply back', async () => {
    const { api, agentId } = await agentWith('claude-3-5-sonnet-latest');
    const first = await api.post('/api/chat', { agentId, message: 'What are your opening hours?' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ reply: 'Hello from the model.', engine: 'anthropic', creditCost: 1 });
    const second = await api.post('/api/chat', { agentId, message: 'And on Saturday?', conversationId: str(first.body.conversationId) });
    expect(second.body.engine).toBe('anthropic');

    expect(anthropic.seen).toHaveLength(2);
    const req = anthropic.seen[1];
    expect(req.path).toBe('/v1/messages');
    // The key travels as x-api-key or as a Bearer token, depending on the SDK release.
    expect([req.headers['x-api-key'], req.headers.authorization]).toContainEqual(expect.stringMatching(/^(Bearer )?sk-ant-test-key$/));
    expect(req.headers['anthropic-version']).toBeTruthy();
    expect(req.body).toMatchObject({ model: 'claude-3-5-sonnet-latest', stream: true, temperature: 0.2 });
    expect(str(req.body.system as never)).toContain('You are the friendly desk of Umeda Kitting.');
    expect(str(anthropic.seen[0].body.system as never)).toContain('We are open from 9:00 to 18:00 on weekdays.');
    expect(req.body.messages).toEqual([
      { role: 'user', content: 'What are your opening hours?' },
      { role: 'assistant', content: 'Hello from the model.' },
      { role: 'user', content: 'And on Saturday?' },
    ]);
    expect(openai.seen).toHaveLength(0);
  });

  it('relays each streamed piece as an SSE token event', async () => {
    const { api, agentId } = await agentWith('claude-3-5-haiku-latest');
    anthropic.pieces = ['営業時間は', '9時から', '18時です。'];
    const r = await api.request('POST', '/api/chat?stream=1', { agentId, message: '営業時間は？' });
    const evs = sseEvents(r.text);
    expect(evs.filter((e) => e.event === 'token').map((e) => e.data.text)).toEqual(['営業時間は', '9時から', '18時です。']);
    expect(evs.at(-1)).toMatchObject({ event: 'done', data: { reply: '営業時間は9時から18時です。', engine: 'anthropic' } });
  });

  it('falls back to the local engine when the provider keeps failing, after one retry', async () => {
    const { api, agentId } = await agentWith('claude-3-5-sonnet-latest');
    anthropic.mode = 'server-error';
    const r = await api.post('/api/chat', { agentId, message: 'What are your opening hours?' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ reply: 'We are open from 9:00 to 18:00 on weekdays.', engine: 'local' });
    expect(anthropic.seen).toHaveLength(2);
  });

  it('does not retry a refused key and answers locally', async () => {
    const { api, agentId } = await agentWith('claude-3-5-sonnet-latest');
    anthropic.mode = 'unauthorized';
    const r = await api.post('/api/chat', { agentId, message: 'What are your opening hours?' });
    expect(r.body).toMatchObject({ reply: 'We are open from 9:00 to 18:00 on weekdays.', engine: 'local' });
    expect(anthropic.seen).toHaveLength(1);
  });

  it('keeps what was said when the provider fails mid-reply', async () => {
    const { api, agentId } = await agentWith('claude-3-5-sonnet-latest');
    anthropic.mode = 'cut-off';
    const r = await api.post('/api/chat', { agentId, message: 'What are your opening hours?' });
    expect(r.body).toMatchObject({ reply: 'Hello', engine: 'anthropic' });
    const conv = await api.get(`/api/conversations/${str(r.body.conversationId)}`);
    expect(arr(conv.body.conversation.messages).at(-1)?.text).toBe('Hello');
  });
});

describe('OpenAI engine (official SDK against a local fake of Chat Completions)', () => {
  it('sends the system prompt with the knowledge first, then history and the question, and streams the reply', async () => {
    const { api, agentId } = await agentWith('gpt-4o-mini');
    const r = await api.post('/api/chat', { agentId, message: 'What are your opening hours?' });
    expect(r.body).toMatchObject({ reply: 'Hello from the model.', engine: 'openai', creditCost: 1 });
    expect(openai.seen).toHaveLength(1);
    const req = openai.seen[0];
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test-key');
    expect(req.body).toMatchObject({ model: 'gpt-4o-mini', stream: true, temperature: 0.2 });
    const messages = req.body.messages as { role: string; content: string }[];
    expect(messages[0].role).toBe('system');
    expect(messages[0].content).toContain('You are the friendly desk of Umeda Kitting.');
    expect(messages[0].content).toContain('We are open from 9:00 to 18:00 on weekdays.');
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'What are your opening hours?' });
    expect(anthropic.seen).toHaveLength(0);
  });

  it('the playground uses the overriding model and instructions without storing anything', async () => {
    const { api, agentId } = await agentWith('claude-3-5-sonnet-latest');
    const r = await api.post(`/api/agents/${agentId}/test`, { message: 'Hi there, hours?', model: 'gpt-4o', instructions: 'Answer in one line.' });
    expect(r.body).toEqual({ reply: 'Hello from the model.', engine: 'openai' });
    expect(openai.seen[0].body.model).toBe('gpt-4o');
    expect((openai.seen[0].body.messages as { content: string }[])[0].content).toContain('Answer in one line.');
    expect((await api.get('/api/conversations')).body.conversations).toEqual([]);
  });

  it('keeps what was said when the provider fails mid-reply', async () => {
    const { api, agentId } = await agentWith('gpt-4o-mini');
    openai.mode = 'cut-off';
    expect((await api.post('/api/chat', { agentId, message: 'What are your opening hours?' })).body).toMatchObject({ reply: 'Hello', engine: 'openai' });
  });

  it('falls back to the local engine on provider errors and on an empty reply', async () => {
    const { api, agentId } = await agentWith('gpt-4o-mini');
    openai.mode = 'server-error';
    expect((await api.post('/api/chat', { agentId, message: 'What are your opening hours?' })).body).toMatchObject({ engine: 'local', reply: 'We are open from 9:00 to 18:00 on weekdays.' });
    expect(openai.seen).toHaveLength(2);
    openai.mode = 'ok';
    openai.pieces = [];
    expect((await api.post('/api/chat', { agentId, message: 'What are your opening hours?' })).body).toMatchObject({ engine: 'local', reply: 'We are open from 9:00 to 18:00 on weekdays.' });
  });
});

describe('a provider that never answers', () => {
  const input: EngineInput = { agentName: 'Shop', systemPrompt: '', welcome: '', model: 'auto', temperature: 0.3, message: 'hours?', history: [], passages: [] };

  it('ends each engine at its deadline instead of holding the turn', async () => {
    for (const f of [anthropic, openai]) f.mode = 'hang';
    const engines = [new AnthropicEngine('k', { baseURL: anthropic.baseURL, allowInternal: allowOnlyHostsOf(anthropic.baseURL), timeoutMs: 400, maxRetries: 0 }), new OpenAiEngine('k', { baseURL: openai.baseURL, allowInternal: allowOnlyHostsOf(openai.baseURL), timeoutMs: 400, maxRetries: 0 })];
    for (const engine of engines) {
      const pieces: string[] = [];
      await expect(
        (async () => {
          for await (const p of engine.stream(input)) pieces.push(p);
        })(),
      ).rejects.toThrow();
      expect(pieces).toEqual([]);
    }
  });

  it('a chat turn then answers from the local engine', async () => {
    anthropic.mode = 'hang';
    const slow = await startAgentsServer({}, { engines: { anthropic: new AnthropicEngine('k', { baseURL: anthropic.baseURL, allowInternal: allowOnlyHostsOf(anthropic.baseURL), timeoutMs: 400, maxRetries: 0 }), openai: null } });
    try {
      const r = await slow.withAgent('Shop');
      await r.api.post('/api/sources', { type: 'qa', question: 'What are your opening hours?', answer: 'We are open from 9:00 to 18:00 on weekdays.' });
      const chat = await r.api.post('/api/chat', { agentId: r.agentId, message: 'What are your opening hours?' });
      expect(chat.body).toMatchObject({ engine: 'local', reply: 'We are open from 9:00 to 18:00 on weekdays.' });
    } finally {
      await slow.close();
    }
  });
});
