import { guardedFetch, type OutboundPolicy, type OutboundResponse } from '../../core/security/ssrf';
import { PlatformError, type Platform, type PlatformStatus, type Submitted } from './platform';

export interface QueueClientOptions {
  baseUrl: string;
  key: string;
  timeoutMs?: number;
  retries?: number;
  backoffMs?: number;
  /** Tests only: the local fake platform's host (core/testing/outbound.ts); production leaves it unset. */
  allowInternal?: OutboundPolicy['allowInternal'];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Worth another try: the platform was unreachable, timed out, is overloaded or failed on its side. */
const retryable = (status: number | null) => status === null || status === 429 || status >= 500;

/** Client of the platform's queue API (`POST {base}/{model}`, `GET status_url`, `POST cancel_url`). */
export class QueueClient implements Platform {
  readonly name = 'remote' as const;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly backoffMs: number;
  readonly allowInternal: OutboundPolicy['allowInternal'];

  constructor(private readonly opts: QueueClientOptions) {
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.retries = opts.retries ?? 3;
    this.backoffMs = opts.backoffMs ?? 250;
    this.allowInternal = opts.allowInternal ?? false;
  }

  private async once(method: 'GET' | 'POST', url: string, body?: unknown): Promise<unknown> {
    let res: OutboundResponse;
    try {
      // status_url and cancel_url come from the platform's answers: they pass the same outbound guard as the base url.
      res = await guardedFetch(
        url,
        {
          method,
          headers: { authorization: `Key ${this.opts.key}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        },
        { allowInternal: this.allowInternal, timeoutMs: this.timeoutMs, maxBytes: 4 * 1024 * 1024, maxRedirects: 0 },
      );
    } catch (err) {
      const e = err as Error;
      throw new PlatformError(e.message === 'timed out' ? `The generation platform did not answer within ${this.timeoutMs} ms.` : `The generation platform is unreachable: ${e.message}`, null);
    }
    const text = res.text();
    if (!res.ok) {
      let msg = text.slice(0, 500);
      try {
        const j = JSON.parse(text) as { error?: unknown; detail?: unknown; message?: unknown };
        const m = j.error ?? j.detail ?? j.message;
        if (typeof m === 'string' && m) msg = m;
      } catch {
        /* plain text body */
      }
      throw new PlatformError(`The generation platform answered ${res.status}: ${msg || `HTTP ${res.status}`}`, res.status);
    }
    if (!text) return {};
    try {
      return JSON.parse(text);
    } catch {
      throw new PlatformError('The generation platform answered with something that is not JSON.', res.status);
    }
  }

  /** Retries with exponential back-off; `idempotent` false retries only when nothing can have been accepted (429, 503, unreachable). */
  private async call(method: 'GET' | 'POST', url: string, body: unknown, idempotent: boolean): Promise<unknown> {
    let last: PlatformError | null = null;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      if (attempt > 0) await sleep(this.backoffMs * 2 ** (attempt - 1));
      try {
        return await this.once(method, url, body);
      } catch (err) {
        last = err as PlatformError;
        const again = idempotent ? retryable(last.status) : last.status === 429 || last.status === 503 || /unreachable/.test(last.message);
        if (!again) break;
      }
    }
    throw last ?? new PlatformError('The generation platform failed.', null);
  }

  async submit(model: string, body: Record<string, unknown>): Promise<Submitted> {
    const r = (await this.call('POST', `${this.opts.baseUrl}/${model}`, body, false)) as Partial<Submitted>;
    if (typeof r.request_id !== 'string' || typeof r.status_url !== 'string') {
      throw new PlatformError('The generation platform did not return a request id.', null);
    }
    return { request_id: r.request_id, status: String(r.status ?? 'queued'), status_url: r.status_url, cancel_url: String(r.cancel_url ?? '') };
  }

  async status(statusUrl: string): Promise<PlatformStatus> {
    return (await this.call('GET', statusUrl, undefined, true)) as PlatformStatus;
  }

  async cancel(cancelUrl: string): Promise<void> {
    if (cancelUrl) await this.call('POST', cancelUrl, {}, true);
  }
}
