import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { internalBytes, parseIp } from './ip-classify';

export { parseIp };

/**
 * Loopback, private (RFC 1918), link-local (cloud metadata), CGNAT, benchmarking, documentation,
 * multicast, broadcast, unspecified; IPv6 ULA, link-local, site-local, multicast, documentation; and
 * IPv4 addresses embedded in IPv6 (mapped, compatible, translated, NAT64, 6to4, Teredo) when the
 * embedded address is one of those. Hex, decimal and octal IPv4 forms are read as inet_aton reads them.
 * Anything that does not parse as an address counts as internal (refused).
 */
export function isInternalAddress(ip: string): boolean {
  const bytes = parseIp(ip);
  return bytes === null || internalBytes(bytes);
}

export interface Resolved {
  address: string;
  family: number;
}

/** Every address the host name resolves to, or [] when it does not resolve. */
async function resolveHost(hostname: string): Promise<Resolved[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const v = isIP(host);
  if (v) return [{ address: host, family: v }];
  try {
    return await lookup(host, { all: true, verbatim: true });
  } catch {
    return [];
  }
}

/** A lookup that answers only this already-checked address (no second DNS answer can swap it). */
export function pinnedLookup(addr: Resolved): LookupFunction {
  return ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (options && options.all) cb(null, [{ address: addr.address, family: addr.family }]);
    else cb(null, addr.address, addr.family);
  }) as unknown as LookupFunction;
}

/** Why an outbound request did not happen or did not finish; `message` is safe to show the caller. */
export class OutboundError extends Error {
  constructor(
    readonly kind: 'invalid' | 'refused' | 'unresolved' | 'unreachable' | 'too_large' | 'redirects',
    message: string,
  ) {
    super(message);
  }
}

/** How one outbound request may go. Every service's outbound requests pass through {@link guardedFetch}. */
export interface OutboundPolicy {
  /**
   * Reach loopback/private receivers. Set only from code (tests' local fake servers, kitting's LAN
   * bench outside production); the agent platform and the studio read no environment variable for it.
   * A function allows only the `host:port` it answers true for (a test's own fake server), per hop.
   */
  allowInternal: boolean | ((host: string) => boolean);
  /** Only https (webhook deliveries). */
  httpsOnly?: boolean;
  /** Extra trusted certificate authority (a test's self-signed receiver); the system store otherwise. */
  ca?: string | Buffer;
  /** Whole request, connect to last byte (default 10 s). */
  timeoutMs?: number;
  /** Largest response body read; reading stops and the request fails once it is passed (default 2 MB). */
  maxBytes?: number;
  /** Redirects followed for GET/HEAD, each hop checked again (default 5; 0 answers the 3xx itself). Other methods never follow. */
  maxRedirects?: number;
}

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

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/;

/** A URL the guard accepts to connect to, with the single address the connection will use. */
export async function checkOutboundUrl(raw: string | URL, policy: Pick<OutboundPolicy, 'allowInternal' | 'httpsOnly'>): Promise<{ url: URL; addr: Resolved }> {
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    throw new OutboundError('invalid', 'invalid url');
  }
  const okProto = policy.httpsOnly ? url.protocol === 'https:' : url.protocol === 'http:' || url.protocol === 'https:';
  if (!okProto) throw new OutboundError('invalid', policy.httpsOnly ? 'url must be https' : 'url must be http or https');
  if (url.username || url.password) throw new OutboundError('invalid', 'url must not carry credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  const internalOk = typeof policy.allowInternal === 'function' ? policy.allowInternal(url.host) : policy.allowInternal === true;
  if (!internalOk && !isIP(host) && LOCAL_NAMES.test(host)) throw new OutboundError('refused', 'url must be a public address');
  const addrs = await resolveHost(host);
  if (addrs.length === 0) throw new OutboundError('unresolved', 'url host does not resolve');
  if (!internalOk && addrs.some((a) => isInternalAddress(a.address))) throw new OutboundError('refused', 'url must be a public address');
  return { url, addr: addrs[0] };
}

function once(url: URL, addr: Resolved, req: OutboundRequest, policy: OutboundPolicy, deadline: number): Promise<{ res: IncomingMessage; body: Buffer }> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const max = policy.maxBytes ?? 2 * 1024 * 1024;
  const headers: Record<string, string> = { ...(req.headers ?? {}) };
  if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      fail(new OutboundError('unreachable', 'timed out'));
      r.destroy();
    }, Math.max(1, deadline - Date.now()));
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(err instanceof OutboundError ? err : new OutboundError('unreachable', err.message.slice(0, 200)));
    };
    const r = send(
      url,
      {
        method: req.method ?? 'GET',
        headers,
        // Connect to the address that was checked: a DNS answer that changes after the check cannot reach inside.
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
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > max) {
            // Stop reading at the cap: the rest of the body is never downloaded.
            fail(new OutboundError('too_large', 'response too large'));
            res.destroy();
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ res, body: Buffer.concat(chunks) });
        });
        res.on('error', fail);
        res.on('aborted', () => fail(new OutboundError('unreachable', 'connection closed')));
      },
    );
    r.on('error', fail);
    r.end(req.body);
  });
}

const flat = (h: IncomingMessage['headers']): Record<string, string> =>
  Object.fromEntries(Object.entries(h).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v]])));

/**
 * The one way the services reach outside URLs. The host is resolved once and refused when any answer
 * is internal (see {@link isInternalAddress}); the connection is pinned to the checked answer; each
 * redirect hop is checked the same way; the body is read up to `maxBytes` and the download stops there.
 */
export async function guardedFetch(raw: string | URL, req: OutboundRequest, policy: OutboundPolicy): Promise<OutboundResponse> {
  const deadline = Date.now() + (policy.timeoutMs ?? 10_000);
  const method = (req.method ?? 'GET').toUpperCase();
  const follow = method === 'GET' || method === 'HEAD' ? (policy.maxRedirects ?? 5) : 0;
  let current = await checkOutboundUrl(raw, policy);
  for (let hop = 0; ; hop++) {
    const { res, body } = await once(current.url, current.addr, { ...req, method }, policy, deadline);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (follow > 0 && status >= 300 && status < 400 && location) {
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
    const url = current.url.toString();
    return { url, status, ok: status >= 200 && status < 300, headers: flat(res.headers), body, text: () => body.toString('utf8'), json: () => JSON.parse(body.toString('utf8')) as unknown };
  }
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
