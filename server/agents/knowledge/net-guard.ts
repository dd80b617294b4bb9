import { badRequest } from '../../core/errors';
import { checkOutboundUrl, guardedFetch, OutboundError, type OutboundPolicy } from '../../core/security/ssrf';

/** How the agent platform reaches outside URLs: core's one outbound guard (core/security/ssrf.ts), errors as 400. */
export interface GuardOptions {
  /** Tests only (the app's `outbound.allowPrivate` option / `allowPrivateFetch`); never read from the environment. */
  allowPrivate: OutboundPolicy['allowInternal'];
  /** Only https (outbound webhooks); crawls also accept http. */
  httpsOnly?: boolean;
}

const asBadRequest = (err: unknown): never => {
  if (err instanceof OutboundError) {
    if (err.kind === 'too_large') throw badRequest('page too large');
    if (err.kind === 'unreachable') throw badRequest(`could not fetch (${err.message})`);
    throw badRequest(err.message);
  }
  throw err;
};

/** A fetchable public URL, or 400: only http(s) to hosts that resolve to public addresses. */
export async function assertPublicUrl(raw: string, opts: GuardOptions): Promise<URL> {
  try {
    return (await checkOutboundUrl(raw, { allowInternal: opts.allowPrivate, httpsOnly: opts.httpsOnly })).url;
  } catch (err) {
    return asBadRequest(err);
  }
}

const MAX_PAGE_BYTES = 2 * 1024 * 1024;

/** GET a public page (each redirect hop re-checked, connection pinned to the checked address), at most 2 MB, 10 s. */
export async function fetchPublic(raw: string, opts: GuardOptions): Promise<{ url: string; type: string; body: string }> {
  let res;
  try {
    res = await guardedFetch(
      raw,
      { headers: { 'user-agent': 'AgentPlatformBot/1.0', accept: 'text/html,text/plain;q=0.9,*/*;q=0.5' } },
      { allowInternal: opts.allowPrivate, httpsOnly: opts.httpsOnly, maxBytes: MAX_PAGE_BYTES, timeoutMs: 10_000, maxRedirects: 5 },
    );
  } catch (err) {
    return asBadRequest(err);
  }
  if (!res.ok) throw badRequest(`could not fetch ${res.url} (${res.status})`);
  return { url: res.url, type: res.headers['content-type'] ?? '', body: res.text() };
}
