import { sign, verify } from '../../core/security/signing';

/** Every token kind is signed under its own name, so one can never stand in for another. */
export type TokenKind = 'session' | 'admin' | 'subadmin' | 'portal' | 'invite' | 'assist' | 'gstate' | 'cstate';

const HOUR = 3_600_000;
const TTL: Record<TokenKind, number> = {
  session: 30 * 24 * HOUR,
  admin: 8 * HOUR,
  subadmin: 8 * HOUR,
  portal: 180 * 24 * HOUR,
  invite: 7 * 24 * HOUR,
  assist: 1 * HOUR,
  gstate: 10 * 60_000,
  cstate: 10 * 60_000,
};

export interface TokenBody {
  exp: number;
  [k: string]: unknown;
}

export function mintToken(secret: Buffer, kind: TokenKind, payload: Record<string, unknown>, ttlMs = TTL[kind]): string {
  const body: TokenBody = { ...payload, exp: Date.now() + ttlMs };
  return sign(secret, `tok:${kind}`, Buffer.from(JSON.stringify(body)).toString('base64url'));
}

/** The payload of an unexpired, unaltered token of exactly this kind; else null. */
export function readToken(secret: Buffer, kind: TokenKind, token: unknown): TokenBody | null {
  if (typeof token !== 'string' || token.length === 0 || token.length > 4096) return null;
  const raw = verify(secret, `tok:${kind}`, token);
  if (!raw) return null;
  try {
    const body = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
    const b = body as TokenBody;
    if (typeof b.exp !== 'number' || b.exp < Date.now()) return null;
    return b;
  } catch {
    return null;
  }
}
