import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';

/** Loopback, private, link-local (cloud metadata), CGNAT, multicast and unspecified addresses. */
export function isInternalAddress(ip: string): boolean {
  const low = ip.toLowerCase();
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(low);
  const mapped = hex ? [parseInt(hex[1], 16) >> 8, parseInt(hex[1], 16) & 255, parseInt(hex[2], 16) >> 8, parseInt(hex[2], 16) & 255].join('.') : null;
  const v4 = mapped ?? (low.startsWith('::ffff:') && isIP(low.slice(7)) === 4 ? low.slice(7) : ip);
  if (isIP(v4) === 4) {
    const [a, b] = v4.split('.').map(Number);
    return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19)) || a >= 224;
  }
  const x = v4.toLowerCase();
  return x === '::' || x === '::1' || /^f[cd]/.test(x) || /^fe[89ab]/.test(x) || x.startsWith('ff');
}

export interface Resolved {
  address: string;
  family: number;
}

/** Every address the host name resolves to, or [] when it does not resolve. */
export async function resolveHost(hostname: string): Promise<Resolved[]> {
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

/**
 * POST JSON to an outside URL, connecting to the very address that was checked: the host is resolved
 * once, refused when any answer is internal (unless allowed), and the connection is pinned to that
 * answer, so a DNS name that changes between check and connect (rebinding) cannot reach inside.
 * Answers the HTTP status, or null when refused or unreachable. Redirects are not followed.
 */
export async function postToPublicUrl(u: URL, body: string, opts: { allowInternal: boolean; timeoutMs?: number }): Promise<number | null> {
  const addrs = await resolveHost(u.hostname);
  if (addrs.length === 0) return null;
  if (!opts.allowInternal && addrs.some((a) => isInternalAddress(a.address))) return null;
  const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = send(
      u,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        lookup: pinnedLookup(addrs[0]),
        timeout: opts.timeoutMs ?? 8000,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? null);
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end(body);
  });
}
