import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { checkOutboundUrl, OutboundError, pinnedLookup, type OutboundPolicy, type Resolved } from './outbound-check';

/**
 * The one request path of the outbound guard (ssrf.ts's guardedFetch buffers it, pinned-fetch.ts hands
 * it to SDKs as a WHATWG fetch): the URL is checked and its one address pinned, each redirect hop is
 * checked again, the body arrives as a stream that stops at `maxBytes`, and the deadline covers the
 * whole exchange, last byte included.
 */
export interface PinnedRequest {
  method: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

export interface PinnedResponse {
  /** The URL that answered (after redirects). */
  url: URL;
  message: IncomingMessage;
  stream: ReadableStream<Uint8Array>;
  discard(): void;
}

/** Send `req`, following up to `follow` redirects (each hop checked); resolves at the final response's headers. */
export async function requestPinned(raw: string | URL, req: PinnedRequest, policy: OutboundPolicy, follow: number, signal?: AbortSignal): Promise<PinnedResponse> {
  const deadline = Date.now() + (policy.timeoutMs ?? 10_000);
  let current = await checkOutboundUrl(raw, policy);
  for (let hop = 0; ; hop++) {
    abortedCheck(signal);
    const res = await open(current.url, current.addr, req, policy, deadline, signal);
    const status = res.message.statusCode ?? 0;
    const location = res.message.headers.location;
    if (follow > 0 && status >= 300 && status < 400 && location) {
      res.discard();
      if (hop >= follow) throw new OutboundError('redirects', 'too many redirects');
      let next: URL;
      try {
        next = new URL(location, current.url);
      } catch {
        throw new OutboundError('invalid', 'invalid redirect');
      }
      current = await checkOutboundUrl(next, policy);
      continue;
    }
    return { url: current.url, ...res };
  }
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

function abortedCheck(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

type Opened = Omit<PinnedResponse, 'url'>;

/** One request on the pinned address; resolves at the response headers with a capped body stream. */
function open(
  url: URL,
  addr: Resolved,
  req: PinnedRequest,
  policy: OutboundPolicy,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<Opened> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const max = policy.maxBytes ?? 2 * 1024 * 1024;
  const headers = { ...req.headers, ...(req.body !== undefined ? { 'content-length': String(req.body.length) } : {}) };
  return new Promise((resolve, reject) => {
    let settled = false;
    let bodyError: ((err: unknown) => void) | null = null;
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const fail = (err: unknown) => {
      if (bodyError) {
        bodyError(err);
        return;
      }
      if (settled) return;
      settled = true;
      finish();
      reject(err instanceof OutboundError || (err instanceof Error && err.name === 'AbortError') || signal?.aborted ? err : new OutboundError('unreachable', (err instanceof Error ? err.message : String(err)).slice(0, 200)));
    };
    const onAbort = () => {
      fail(abortError(signal!));
      r.destroy();
    };
    const timer = setTimeout(() => {
      fail(new OutboundError('unreachable', 'timed out'));
      r.destroy();
    }, Math.max(1, deadline - Date.now()));
    signal?.addEventListener('abort', onAbort, { once: true });
    const r = send(
      url,
      {
        method: req.method,
        headers,
        lookup: pinnedLookup(addr),
        servername: url.protocol === 'https:' && !isIP(host) ? host : undefined,
        ca: policy.ca,
      },
      (res) => {
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > max) {
          fail(new OutboundError('too_large', 'response too large'));
          res.destroy();
          return;
        }
        let size = 0;
        let done = false;
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            bodyError = (err) => {
              if (done) return;
              done = true;
              finish();
              controller.error(err);
            };
            res.on('data', (c: Buffer) => {
              if (done) return;
              size += c.length;
              if (size > max) {
                // Stop reading at the cap: the rest of the body is never downloaded.
                bodyError?.(new OutboundError('too_large', 'response too large'));
                res.destroy();
                return;
              }
              controller.enqueue(new Uint8Array(c.buffer, c.byteOffset, c.byteLength));
              if ((controller.desiredSize ?? 1) <= 0) res.pause();
            });
            res.on('end', () => {
              if (done) return;
              done = true;
              finish();
              controller.close();
            });
            res.on('error', (e) => bodyError?.(e));
            res.on('aborted', () => bodyError?.(new OutboundError('unreachable', 'connection closed')));
          },
          pull() {
            res.resume();
          },
          cancel() {
            done = true;
            finish();
            res.destroy();
          },
        });
        settled = true;
        resolve({
          message: res,
          stream,
          discard: () => {
            done = true;
            finish();
            res.destroy();
          },
        });
      },
    );
    r.on('error', fail);
    r.end(req.body);
  });
}
