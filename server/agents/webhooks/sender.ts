import { createHmac, timingSafeEqual } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isInternalAddress, pinnedLookup, resolveHost } from '../../core/security/ssrf';

/** How outbound deliveries reach their receivers. Production: public addresses only, system trust store. */
export interface OutboundOptions {
  /** Accept loopback/private receivers (local development and tests only; never set from a request). */
  allowPrivate: boolean;
  /** Extra trusted certificate authority (a test's self-signed receiver); the system store otherwise. */
  ca?: string | Buffer;
  timeoutMs?: number;
}

/** Header carrying the signature of every delivery (brand word neutralised). */
export const SIGNATURE_HEADER = 'X-SERVICE-Signature';
export const EVENT_HEADER = 'X-SERVICE-Event';
export const DELIVERY_HEADER = 'X-SERVICE-Delivery';
export const TOLERANCE_SECONDS = 300;

/** `t=<unix>,v1=<hex>`: HMAC-SHA256 over `<unix>.<raw body>` with the workspace secret. */
export function signatureHeader(secret: string, unixSeconds: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

/** What a receiver does: parse the header, recompute, compare in constant time, refuse anything older than the tolerance. */
export function verifySignature(secret: string, header: string, body: string, nowSeconds: number, tolerance = TOLERANCE_SECONDS): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(nowSeconds - t) > tolerance) return false;
  const want = Buffer.from(signatureHeader(secret, t, body).split('v1=')[1], 'hex');
  const got = Buffer.from(parts.v1, 'hex');
  return got.length === want.length && timingSafeEqual(got, want);
}

export interface SendResult {
  status: number | null;
  error: string | null;
}

/**
 * POST a signed body to an HTTPS receiver. The host is resolved once, refused when any answer is an
 * internal address, and the connection is pinned to the checked answer (no DNS rebinding between check
 * and connect). Certificates are verified; redirects are not followed.
 */
export async function postGuarded(raw: string, body: string, headers: Record<string, string>, opts: OutboundOptions): Promise<SendResult> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { status: null, error: 'invalid url' };
  }
  if (url.protocol !== 'https:') return { status: null, error: 'url must be https' };
  const addrs = await resolveHost(url.hostname);
  if (addrs.length === 0) return { status: null, error: 'url host does not resolve' };
  if (!opts.allowPrivate && addrs.some((a) => isInternalAddress(a.address))) return { status: null, error: 'url must be a public address' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const req = httpsRequest(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'AgentPlatform-Webhooks/1.0', ...headers },
        lookup: pinnedLookup(addrs[0]),
        servername: isIP(host) ? undefined : host,
        ca: opts.ca,
        timeout: opts.timeoutMs ?? 10_000,
      },
      (res) => {
        res.resume();
        const status = res.statusCode ?? null;
        resolve({ status, error: status !== null && status >= 200 && status < 300 ? null : `receiver answered ${status}` });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err) => resolve({ status: null, error: err.message.slice(0, 200) }));
    req.end(body);
  });
}
