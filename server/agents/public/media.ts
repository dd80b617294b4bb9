import type OpenAI from 'openai';
import { upstreamFailed } from '../../core/errors';
import { pinnedFetch } from '../../core/security/pinned-fetch';
import type { OutboundPolicy } from '../../core/security/ssrf';

/** Speech and translation for the widget: text to speech, speech to text, text to another language. */
export interface WidgetMedia {
  speak(text: string, voice: string): Promise<{ audio: Buffer; mime: string }>;
  transcribe(audio: Buffer, mime: string, lang: string | undefined): Promise<string>;
  translate(text: string, target: string, source: string | undefined): Promise<string>;
}

/** Audio formats the transcription accepts, by MIME type and the file name it is sent under. */
export const AUDIO_TYPES: Record<string, string> = {
  'audio/webm': 'speech.webm',
  'audio/ogg': 'speech.ogg',
  'audio/mpeg': 'speech.mp3',
  'audio/mp4': 'speech.m4a',
  'audio/wav': 'speech.wav',
  'audio/x-wav': 'speech.wav',
};

const failure = (err: unknown, what = 'speech') => upstreamFailed(`${what} provider error: ${(err instanceof Error ? err.message : String(err)).slice(0, 200)}`);

/** The OpenAI audio and chat APIs through the official SDK (the key of OPENAI_API_KEY). */
export class OpenAiMedia implements WidgetMedia {
  private client: OpenAI | null = null;

  constructor(
    private readonly apiKey: string,
    private readonly baseURL?: string,
    /** Outbound guard's test hook (a local fake provider); never read from the environment. */
    private readonly allowInternal: OutboundPolicy['allowInternal'] = false,
  ) {}

  private async sdk(): Promise<OpenAI> {
    if (!this.client) {
      const { default: Sdk } = await import('openai');
      // Every call goes through the outbound guard (also with OPENAI_BASE_URL set): 25 MB audio at most.
      const fetch = pinnedFetch({ allowInternal: this.allowInternal, maxRedirects: 0, maxBytes: 25 * 1024 * 1024, timeoutMs: 35_000 });
      this.client = new Sdk({ apiKey: this.apiKey, timeout: 30_000, maxRetries: 1, fetch, ...(this.baseURL ? { baseURL: this.baseURL } : {}) });
    }
    return this.client;
  }

  async speak(text: string, voice: string) {
    const client = await this.sdk();
    try {
      const res = await client.audio.speech.create({ model: 'gpt-4o-mini-tts', voice, input: text, response_format: 'mp3' });
      return { audio: Buffer.from(await res.arrayBuffer()), mime: 'audio/mpeg' };
    } catch (err) {
      throw failure(err);
    }
  }

  async transcribe(audio: Buffer, mime: string, lang: string | undefined) {
    const client = await this.sdk();
    const { toFile } = await import('openai');
    try {
      const file = await toFile(audio, AUDIO_TYPES[mime] ?? 'speech.webm', { type: mime });
      const r = await client.audio.transcriptions.create({ file, model: 'whisper-1', ...(lang ? { language: lang.slice(0, 2) } : {}) });
      return r.text;
    } catch (err) {
      throw failure(err);
    }
  }

  async translate(text: string, target: string, source: string | undefined) {
    const client = await this.sdk();
    try {
      const r = await client.chat.completions.create({
        model: 'gpt-4o-mini',
        temperature: 0,
        messages: [
          { role: 'system', content: `Translate the user's text${source ? ` from ${source}` : ''} into the language with code ${target}. Answer with the translation only.` },
          { role: 'user', content: text },
        ],
      });
      return (r.choices[0]?.message?.content ?? '').trim();
    } catch (err) {
      throw failure(err, 'translation');
    }
  }
}
