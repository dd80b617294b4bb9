/**
 * The outbound guard's checks: which addresses are internal, a URL's one checked address, and the
 * lookup that pins a connection to it. Requests are made by pinned-request.ts.
 */
import { lookup } from 'node:dns/promises';
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

/** How one outbound request may go. Every service's outbound requests pass through ssrf.ts's guardedFetch or pinned-fetch.ts. */
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

