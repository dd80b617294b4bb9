import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowOnlyHostsOf } from '../../core/testing/outbound.testkit';
import { startFakeStripe, type FakeStripe } from '../billing/fake-providers.testkit';
import { AnthropicEngine, OpenAiEngine } from '../chat/model-engines';
import type { EngineInput } from '../chat/engine';
import { startFakeProvider, type FakeProvider } from '../chat/fake-providers.testkit';
import { PROVIDER_NAMES, type ProviderName } from '../config';
import { testAgentsConfig } from '../config.testkit';
import { OpenAiMedia } from '../public/media';
import { startAgentsServer } from '../harness.testkit';

/**
 * Payment and model SDKs talk to configurable addresses (STRIPE_API_URL, ANTHROPIC_BASE_URL,
 * OPENAI_BASE_URL). An operator typo or a hostile configuration pointing them inside must be refused by
 * the same outbound guard as every other request, with nothing sent.
 */
let anthropic: FakeProvider;
let openai: FakeProvider;
let stripe: FakeStripe;
const KEY = 'sk_test_fake_key';

beforeAll(async () => {
  anthropic = await startFakeProvider('anthropic');
  openai = await startFakeProvider('openai');
  stripe = await startFakeStripe(KEY);
});
afterAll(async () => {
  await anthropic.close();
  await openai.close();
  await stripe.close();
});

const port = (u: string) => new URL(u).port;
/** Loopback of a fake written the ways an attacker would write it. */
const inside = (u: string) => {
  const { port: p, pathname } = new URL(u);
  const path = pathname === '/' ? '' : pathname;
  return [`http://127.0.0.1:${p}${path}`, `http://[::ffff:127.0.0.1]:${p}${path}`, `http://[::ffff:7f00:1]:${p}${path}`, `http://[64:ff9b::7f00:1]:${p}${path}`, `http://0x7f000001:${p}${path}`, `http://localhost:${p}${path}`];
};

const input: EngineInput = { agentName: 'Shop', systemPrompt: '', welcome: '', model: 'auto', temperature: 0.3, message: 'hours?', history: [], passages: [] };
async function drain(engine: AnthropicEngine | OpenAiEngine): Promise<string[]> {
  const pieces: string[] = [];
  for await (const p of engine.stream(input)) pieces.push(p);
  return pieces;
}

describe('attack: model provider address pointing inside', () => {
  it('an Anthropic or OpenAI base URL on loopback (any spelling) is refused and the provider never sees a request', async () => {
    for (const url of inside(anthropic.baseURL)) {
      const err = await drain(new AnthropicEngine('k', { baseURL: url, maxRetries: 0 })).catch((e: unknown) => e);
      expect(err, url).toBeInstanceOf(Error);
      expect(String((err as Error & { cause?: unknown }).cause ?? err), url).toMatch(/public address|does not resolve/);
    }
    for (const url of inside(openai.baseURL)) {
      const err = await drain(new OpenAiEngine('k', { baseURL: url, maxRetries: 0 })).catch((e: unknown) => e);
      expect(err, url).toBeInstanceOf(Error);
    }
    expect(anthropic.seen).toEqual([]);
    expect(openai.seen).toEqual([]);
  });

  it('OPENAI_BASE_URL / ANTHROPIC_BASE_URL read by the SDKs themselves go through the guard too', async () => {
    const saved = { o: process.env.OPENAI_BASE_URL, a: process.env.ANTHROPIC_BASE_URL };
    process.env.OPENAI_BASE_URL = `http://[::ffff:127.0.0.1]:${port(openai.baseURL)}/v1`;
    process.env.ANTHROPIC_BASE_URL = `http://[::ffff:127.0.0.1]:${port(anthropic.baseURL)}`;
    try {
      await expect(drain(new OpenAiEngine('k', { maxRetries: 0 }))).rejects.toThrow();
      await expect(drain(new AnthropicEngine('k', { maxRetries: 0 }))).rejects.toThrow();
      await expect(new OpenAiMedia('k').translate('こんにちは', 'en', 'ja')).rejects.toThrow(/translation provider error/);
    } finally {
      for (const [k, v] of [['OPENAI_BASE_URL', saved.o], ['ANTHROPIC_BASE_URL', saved.a]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    expect(anthropic.seen).toEqual([]);
    expect(openai.seen).toEqual([]);
  });

  it('the speech/translation client on a mapped loopback address is refused with nothing sent', async () => {
    const media = new OpenAiMedia('k', `http://[::ffff:7f00:1]:${port(openai.baseURL)}/v1`);
    await expect(media.speak('こんにちは', 'alloy')).rejects.toThrow(/speech provider error/);
    await expect(media.translate('こんにちは', 'en', 'ja')).rejects.toThrow(/translation provider error/);
    expect(openai.seen).toEqual([]);
  });

  it('the test hook lets exactly the named fake through, and a chat turn then reaches it', async () => {
    const engine = new AnthropicEngine('k', { baseURL: anthropic.baseURL, allowInternal: allowOnlyHostsOf(anthropic.baseURL), maxRetries: 0 });
    expect((await drain(engine)).join('')).toBe('Hello from the model.');
    expect(anthropic.seen).toHaveLength(1);
    // Allowing one fake does not open another loopback port.
    const other = new AnthropicEngine('k', { baseURL: openai.baseURL.replace(/\/v1$/, ''), allowInternal: allowOnlyHostsOf(anthropic.baseURL), maxRetries: 0 });
    await expect(drain(other)).rejects.toThrow();
    expect(openai.seen).toEqual([]);
    anthropic.seen.length = 0;
  });
});

describe('attack: STRIPE_API_URL pointing inside', () => {
  it('checkout against a loopback Stripe address (any spelling) answers 502 and nothing reaches it', async () => {
    for (const url of inside(stripe.url).slice(0, 4)) {
      const t = await startAgentsServer({ payments: { ...testAgentsConfig('/unused').payments, stripeSecretKey: KEY, stripeApiUrl: url } });
      try {
        const api = await t.signup();
        const res = await api.post('/api/billing/checkout', { bundle: 'credits-5000' });
        expect(res.status, url).toBe(502);
        expect(String(res.body.error), url).toMatch(/^payment provider error/);
      } finally {
        await t.close();
      }
    }
    expect(stripe.requests).toEqual([]);
  });

  it('the same checkout reaches the fake once the test hook names it', async () => {
    const t = await startAgentsServer({ payments: { ...testAgentsConfig('/unused').payments, stripeSecretKey: KEY, stripeApiUrl: stripe.url, allowInternal: allowOnlyHostsOf(stripe.url) } });
    try {
      const res = await (await t.signup()).post('/api/billing/checkout', { bundle: 'credits-5000' });
      expect(res.status).toBe(200);
      expect(stripe.requests.filter((r) => r.path === '/v1/checkout/sessions')).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe('attack: AGENTS_<PROVIDER>_API_URL pointing inside', () => {
  it('connecting a channel or a CRM against a loopback provider address is refused and nothing reaches it', async () => {
    let hits = 0;
    const inner: Server = createServer((_req, res) => {
      hits += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"team_id":"T1","team":"x","user_id":"U1"}');
    });
    await new Promise<void>((r) => inner.listen(0, '127.0.0.1', () => r()));
    const p = (inner.address() as { port: number }).port;
    try {
      for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]']) {
        const providerUrls = Object.fromEntries(PROVIDER_NAMES.map((n) => [n, `http://${host}:${p}/${n}`])) as Record<ProviderName, string>;
        const t = await startAgentsServer({ providerUrls }, { webhookWorker: false });
        try {
          const { api } = await t.withAgent();
          const slack = await api.post('/api/channels/slack/connect', { botToken: 'xoxb-good-token' });
          expect(slack.status, host).toBeGreaterThanOrEqual(400);
          expect(String(slack.body.error), host).toMatch(/public address/);
          const crm = await api.post('/api/integrations/hubspot/connect', { accessToken: 'hs-good-token' });
          expect(crm.status, host).toBeGreaterThanOrEqual(400);
          expect(String(crm.body.error), host).toMatch(/public address/);
        } finally {
          await t.close();
        }
      }
      expect(hits).toBe(0);
    } finally {
      inner.close();
    }
  });
});
