import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { checkOutboundUrl, OutboundError, pinnedLookup, type OutboundPolicy, type Resolved } from './ssrf';

/**
 * A WHATWG `fetch` that goes through the outbound guard, for SDKs that take a custom `fetch`
 * (openai, @anthropic-ai/sdk, `Stripe.createFetchHttpClient`). Same rules as {@link guardedFetch}: the
 * host is resolved once and refused when internal, the connection is pinned to the checked address,
 * every redirect hop (GET/HEAD, `redirect: 'follow'`) is checked again, and the body stops at
 * `maxBytes` — but the body is handed on as a stream, so streamed model replies arrive as they come.
 * A refused URL rejects before anything is sent.
 */
export function pinnedFetch(policy: OutboundPolicy): typeof fetch {
  const fn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const sdkBody = init?.body;
    const r = new Request(input, { ...init, ...(sdkBody ? { duplex: 'half' } : {}) } as RequestInit);
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined) ?? undefined;
    abortedCheck(signal);
    const body = r.body ? Buffer.from(await r.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    r.headers.forEach((v, k) => {
      if (k !== 'host' && k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection') headers[k] = v;
    });
    const method = r.method.toUpperCase();
    const follow = (method === 'GET' || method === 'HEAD') && r.redirect === 'follow' ? (policy.maxRedirects ?? 5) : 0;
    const deadline = Date.now() + (policy.timeoutMs ?? 10_000);
    let current = await checkOutboundUrl(r.url, policy);
    for (let hop = 0; ; hop++) {
      abortedCheck(signal);
      const res = await open(current.url, current.addr, { method, headers, body }, policy, deadline, signal);
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
      const out = new Headers();
      for (const [k, v] of Object.entries(res.message.headers)) {
        if (v === undefined) continue;
        for (const one of Array.isArray(v) ? v : [v]) out.append(k, one);
      }
      const nullBody = method === 'HEAD' || status === 204 || status === 205 || status === 304;
      if (nullBody) res.discard();
      const response = new Response(nullBody ? null : res.stream, { status: status < 200 || status > 599 ? 502 : status, statusText: res.message.statusMessage ?? '', headers: out });
      Object.defineProperty(response, 'url', { value: current.url.toString() });
      return response;
    }
  };
  return fn as typeof fetch;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

function abortedCheck(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

interface Opened {
  message: IncomingMessage;
  stream: ReadableStream<Uint8Array>;
  discard(): void;
}

/** One request on the pinned address; resolves at the response headers with a capped body stream. */
function open(
  url: URL,
  addr: Resolved,
  req: { method: string; headers: Record<string, string>; body: Buffer | undefined },
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
