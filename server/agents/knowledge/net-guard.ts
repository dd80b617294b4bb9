import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { badRequest } from '../../core/errors';

function v4Private(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number);
  return (
    a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19)) || a >= 224
  );
}

/** Loopback, private, link-local, carrier-grade NAT, multicast and reserved addresses. */
export function isPrivateAddress(ip: string): boolean {
  const kind = isIP(ip);
  if (kind === 4) return v4Private(ip);
  if (kind === 6) {
    const x = ip.toLowerCase();
    if (x === '::' || x === '::1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(x);
    if (mapped) return v4Private(mapped[1]);
    return /^(fc|fd|fe8|fe9|fea|feb|ff)/.test(x);
  }
  return true;
}

export interface GuardOptions {
  allowPrivate: boolean;
  /** Only https (outbound webhooks); crawls also accept http. */
  httpsOnly?: boolean;
}

/** A fetchable public URL, or 400: only http(s) to hosts that resolve to public addresses. */
export async function assertPublicUrl(raw: string, opts: GuardOptions): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('invalid url');
  }
  const okProto = opts.httpsOnly ? url.protocol === 'https:' : url.protocol === 'http:' || url.protocol === 'https:';
  if (!okProto) throw badRequest(opts.httpsOnly ? 'url must be https' : 'url must be http or https');
  if (url.username || url.password) throw badRequest('url must not carry credentials');
  if (opts.allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) throw badRequest('url must be a public address');
  let addrs: string[];
  if (isIP(host)) addrs = [host];
  else {
    try {
      addrs = (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      throw badRequest('url host does not resolve');
    }
  }
  if (addrs.length === 0 || addrs.some(isPrivateAddress)) throw badRequest('url must be a public address');
  return url;
}

const MAX_PAGE_BYTES = 2 * 1024 * 1024;

/** GET a public page (redirects re-checked), at most 2 MB, 10 s. */
export async function fetchPublic(raw: string, opts: GuardOptions): Promise<{ url: string; type: string; body: string }> {
  let current = (await assertPublicUrl(raw, opts)).toString();
  for (let hop = 0; hop < 5; hop++) {
    const res = await fetch(current, { redirect: 'manual', signal: AbortSignal.timeout(10_000), headers: { 'user-agent': 'AgentPlatformBot/1.0', accept: 'text/html,text/plain;q=0.9,*/*;q=0.5' } });
    if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
      current = (await assertPublicUrl(new URL(res.headers.get('location') as string, current).toString(), opts)).toString();
      continue;
    }
    if (!res.ok) throw badRequest(`could not fetch ${current} (${res.status})`);
    const buf = Buffer.from(await res.arrayBuffer());
    if (buf.length > MAX_PAGE_BYTES) throw badRequest('page too large');
    return { url: current, type: res.headers.get('content-type') ?? '', body: buf.toString('utf8') };
  }
  throw badRequest('too many redirects');
}
