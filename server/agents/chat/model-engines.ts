import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { pinnedFetch } from '../../core/security/pinned-fetch';
import type { OutboundPolicy } from '../../core/security/ssrf';
import { ragSystemPrompt, type ChatEngine, type EngineInput } from './engine';

const DEFAULT_ANTHROPIC = 'claude-3-5-haiku-latest';
const DEFAULT_OPENAI = 'gpt-4o-mini';

/** Where and how long a model engine talks to its provider. */
export interface ModelEngineOptions {
  /** Provider address (tests point the SDK at a local fake server); the SDK's default when unset. */
  baseURL?: string;
  /** Whole reply, first byte to last: past it the turn is cut off (and falls back when nothing came yet). */
  timeoutMs?: number;
  /** Retries of a failed request (429, 5xx, connection errors) before giving up. */
  maxRetries?: number;
  /**
   * Outbound guard's test hook (a local fake provider, `allowOnlyHostsOf`); never read from the environment.
   * Every provider call goes through the guard, also when the SDK takes its address from
   * `ANTHROPIC_BASE_URL` / `OPENAI_BASE_URL`.
   */
  allowInternal?: OutboundPolicy['allowInternal'];
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_RETRIES = 1;

/** The SDK's `fetch`: the outbound guard, pinned, no redirects, 8 MB per answer, the whole reply within the deadline. */
function modelFetch(opts: ModelEngineOptions): typeof fetch {
  return pinnedFetch({ allowInternal: opts.allowInternal ?? false, maxRedirects: 0, maxBytes: 8 * 1024 * 1024, timeoutMs: (opts.timeoutMs ?? DEFAULT_TIMEOUT_MS) + 5_000 });
}

/** An abort signal that fires after `ms`; `done` clears the timer. */
function deadline(ms: number): { signal: AbortSignal; done: () => void } {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(new Error(`no complete reply within ${ms} ms`)), ms);
  return { signal: ac.signal, done: () => clearTimeout(timer) };
}

/** Anthropic Messages API through the official SDK, streamed. */
export class AnthropicEngine implements ChatEngine {
  readonly name = 'anthropic' as const;
  private client: Anthropic | null = null;

  constructor(
    private readonly apiKey: string,
    private readonly opts: ModelEngineOptions = {},
  ) {}

  /** The SDK loads on first use, so a server without a key never pays for it. */
  private async sdk(): Promise<Anthropic> {
    if (!this.client) {
      const { default: Sdk } = await import('@anthropic-ai/sdk');
      const timeout = this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      this.client = new Sdk({ apiKey: this.apiKey, timeout, maxRetries: this.opts.maxRetries ?? DEFAULT_RETRIES, fetch: modelFetch(this.opts), ...(this.opts.baseURL ? { baseURL: this.opts.baseURL } : {}) });
    }
    return this.client;
  }

  async *stream(input: EngineInput): AsyncIterable<string> {
    const client = await this.sdk();
    const model = input.model.toLowerCase().startsWith('claude') ? input.model : DEFAULT_ANTHROPIC;
    const limit = deadline(this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    try {
      const stream = client.messages.stream(
        {
          model,
          max_tokens: 1024,
          temperature: Math.min(1, input.temperature),
          system: ragSystemPrompt(input),
          messages: [...input.history.map((h) => ({ role: h.role, content: h.text })), { role: 'user' as const, content: input.message }],
        },
        { signal: limit.signal },
      );
      for await (const ev of stream) {
        if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') yield ev.delta.text;
      }
    } finally {
      limit.done();
    }
  }
}

/** OpenAI Chat Completions through the official SDK, streamed. */
export class OpenAiEngine implements ChatEngine {
  readonly name = 'openai' as const;
  private client: OpenAI | null = null;

  constructor(
    private readonly apiKey: string,
    private readonly opts: ModelEngineOptions = {},
  ) {}

  private async sdk(): Promise<OpenAI> {
    if (!this.client) {
      const { default: Sdk } = await import('openai');
      const timeout = this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      this.client = new Sdk({ apiKey: this.apiKey, timeout, maxRetries: this.opts.maxRetries ?? DEFAULT_RETRIES, fetch: modelFetch(this.opts), ...(this.opts.baseURL ? { baseURL: this.opts.baseURL } : {}) });
    }
    return this.client;
  }

  async *stream(input: EngineInput): AsyncIterable<string> {
    const client = await this.sdk();
    const model = /^(gpt|o\d|chatgpt)/i.test(input.model) ? input.model : DEFAULT_OPENAI;
    const limit = deadline(this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    try {
      const stream = await client.chat.completions.create(
        {
          model,
          temperature: input.temperature,
          stream: true,
          messages: [
            { role: 'system', content: ragSystemPrompt(input) },
            ...input.history.map((h) => ({ role: h.role, content: h.text })),
            { role: 'user', content: input.message },
          ],
        },
        { signal: limit.signal },
      );
      for await (const chunk of stream) {
        const t = chunk.choices[0]?.delta?.content;
        if (t) yield t;
      }
    } finally {
      limit.done();
    }
  }
}
