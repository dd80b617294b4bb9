import type { OutboundPolicy } from './outbound-check';
import { requestPinned } from './pinned-request';

/**
 * A WHATWG `fetch` that goes through the outbound guard, for SDKs that take a custom `fetch`
 * (openai, @anthropic-ai/sdk, `Stripe.createFetchHttpClient`). Same rules as ssrf.ts's guardedFetch (both send through pinned-request.ts): the
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
    if (signal?.aborted) throw signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
    const body = r.body ? Buffer.from(await r.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    r.headers.forEach((v, k) => {
      if (k !== 'host' && k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection') headers[k] = v;
    });
    const method = r.method.toUpperCase();
    const follow = (method === 'GET' || method === 'HEAD') && r.redirect === 'follow' ? (policy.maxRedirects ?? 5) : 0;
    const res = await requestPinned(r.url, { method, headers, body }, policy, follow, signal);
    const status = res.message.statusCode ?? 0;
    const out = new Headers();
    for (const [k, v] of Object.entries(res.message.headers)) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) out.append(k, one);
    }
    const nullBody = method === 'HEAD' || status === 204 || status === 205 || status === 304;
    if (nullBody) res.discard();
    const response = new Response(nullBody ? null : res.stream, { status: status < 200 || status > 599 ? 502 : status, statusText: res.message.statusMessage ?? '', headers: out });
    Object.defineProperty(response, 'url', { value: res.url.toString() });
    return response;
  };
  return fn as typeof fetch;
}
