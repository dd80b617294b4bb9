import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { ragSystemPrompt, type ChatEngine, type EngineInput } from './engine';

const DEFAULT_ANTHROPIC = 'claude-3-5-haiku-latest';
const DEFAULT_OPENAI = 'gpt-4o-mini';

/** Anthropic Messages API through the official SDK, streamed. */
export class AnthropicEngine implements ChatEngine {
  readonly name = 'anthropic' as const;
  private client: Anthropic | null = null;

  constructor(
    private readonly apiKey: string,
    private readonly baseURL?: string,
  ) {}

  /** The SDK loads on first use, so a server without a key never pays for it. */
  private async sdk(): Promise<Anthropic> {
    if (!this.client) {
      const { default: Sdk } = await import('@anthropic-ai/sdk');
      this.client = new Sdk({ apiKey: this.apiKey, ...(this.baseURL ? { baseURL: this.baseURL } : {}) });
    }
    return this.client;
  }

  async *stream(input: EngineInput): AsyncIterable<string> {
    const client = await this.sdk();
    const model = input.model.toLowerCase().startsWith('claude') ? input.model : DEFAULT_ANTHROPIC;
    const stream = client.messages.stream({
      model,
      max_tokens: 1024,
      temperature: Math.min(1, input.temperature),
      system: ragSystemPrompt(input),
      messages: [...input.history.map((h) => ({ role: h.role, content: h.text })), { role: 'user' as const, content: input.message }],
    });
    for await (const ev of stream) {
      if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') yield ev.delta.text;
    }
  }
}

/** OpenAI Chat Completions through the official SDK, streamed. */
export class OpenAiEngine implements ChatEngine {
  readonly name = 'openai' as const;
  private client: OpenAI | null = null;

  constructor(
    private readonly apiKey: string,
    private readonly baseURL?: string,
  ) {}

  private async sdk(): Promise<OpenAI> {
    if (!this.client) {
      const { default: Sdk } = await import('openai');
      this.client = new Sdk({ apiKey: this.apiKey, ...(this.baseURL ? { baseURL: this.baseURL } : {}) });
    }
    return this.client;
  }

  async *stream(input: EngineInput): AsyncIterable<string> {
    const client = await this.sdk();
    const model = /^(gpt|o\d|chatgpt)/i.test(input.model) ? input.model : DEFAULT_OPENAI;
    const stream = await client.chat.completions.create({
      model,
      temperature: input.temperature,
      stream: true,
      messages: [
        { role: 'system', content: ragSystemPrompt(input) },
        ...input.history.map((h) => ({ role: h.role, content: h.text })),
        { role: 'user', content: input.message },
      ],
    });
    for await (const chunk of stream) {
      const t = chunk.choices[0]?.delta?.content;
      if (t) yield t;
    }
  }
}
