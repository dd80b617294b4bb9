import type { IncomingMessage } from 'node:http';
import { requestPinned } from './pinned-request';
import type { OutboundPolicy } from './outbound-check';

/** The guard's checks, named here for the services that reach outside URLs. */
export { checkOutboundUrl, isInternalAddress, OutboundError, parseIp, pinnedLookup, type OutboundPolicy, type Resolved } from './outbound-check';

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface OutboundResponse {
  /** The URL that answered (after redirects). */
  url: string;
  status: number;
  ok: boolean;
  headers: Record<string, string>;
  body: Buffer;
  text(): string;
  json(): unknown;
}

const flat = (h: IncomingMessage['headers']): Record<string, string> =>
  Object.fromEntries(Object.entries(h).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v]])));

/**
 * The one way the services reach outside URLs. The host is resolved once and refused when any answer
 * is internal (see {@link isInternalAddress}); the connection is pinned to the checked answer; each
 * redirect hop is checked the same way; the body is read up to `maxBytes` and the download stops there.
 */
export async function guardedFetch(raw: string | URL, req: OutboundRequest, policy: OutboundPolicy): Promise<OutboundResponse> {
  const method = (req.method ?? 'GET').toUpperCase();
  const follow = method === 'GET' || method === 'HEAD' ? (policy.maxRedirects ?? 5) : 0;
  const body = req.body === undefined ? undefined : Buffer.from(req.body);
  const got = await requestPinned(raw, { method, headers: { ...(req.headers ?? {}) }, body }, policy, follow);
  const chunks: Buffer[] = [];
  const reader = got.stream.getReader();
  for (;;) {
    // the stream stops with OutboundError('too_large') at maxBytes and 'unreachable' at the deadline
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
  const all = Buffer.concat(chunks);
  const status = got.message.statusCode ?? 0;
  return { url: got.url.toString(), status, ok: status >= 200 && status < 300, headers: flat(got.message.headers), body: all, text: () => all.toString('utf8'), json: () => JSON.parse(all.toString('utf8')) as unknown };
}

/**
 * POST JSON to an outside URL through {@link guardedFetch}. Answers the HTTP status, or null when
 * refused or unreachable. Redirects are not followed.
 */
export async function postToPublicUrl(u: URL, body: string, opts: { allowInternal: OutboundPolicy['allowInternal']; timeoutMs?: number }): Promise<number | null> {
  try {
    const res = await guardedFetch(u, { method: 'POST', headers: { 'content-type': 'application/json' }, body }, { allowInternal: opts.allowInternal, timeoutMs: opts.timeoutMs ?? 8000, maxBytes: 64 * 1024 });
    return res.status;
  } catch {
    return null;
  }
}
