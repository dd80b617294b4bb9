import { createHmac, timingSafeEqual } from 'node:crypto';
import { guardedFetch, type OutboundPolicy } from '../../core/security/ssrf';

/** How outbound deliveries reach their receivers. Production: public addresses only, system trust store. */
export interface OutboundOptions {
  /** Accept loopback/private receivers (local development and tests only; never set from a request). */
  allowPrivate: OutboundPolicy['allowInternal'];
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
 * POST a signed body to an HTTPS receiver through core's outbound guard: the host is resolved once,
 * refused when any answer is an internal address, and the connection is pinned to the checked answer
 * (no DNS rebinding between check and connect). Certificates are verified; redirects are not followed.
 */
export async function postGuarded(raw: string, body: string, headers: Record<string, string>, opts: OutboundOptions): Promise<SendResult> {
  try {
    const res = await guardedFetch(
      raw,
      { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'AgentPlatform-Webhooks/1.0', ...headers }, body },
      { allowInternal: opts.allowPrivate, httpsOnly: true, ca: opts.ca, timeoutMs: opts.timeoutMs ?? 10_000, maxBytes: 64 * 1024, maxRedirects: 0 },
    );
    return { status: res.status, error: res.ok ? null : `receiver answered ${res.status}` };
  } catch (err) {
    return { status: null, error: (err instanceof Error ? err.message : String(err)).slice(0, 200) };
  }
}
