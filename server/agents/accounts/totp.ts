import { Secret, TOTP } from 'otpauth';

const ISSUER = 'Agent Platform';

function totp(secret: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function otpauthUri(secret: string, label: string): string {
  return totp(secret, label).toString();
}

/** A six-digit code valid now or one period either side (clock drift). */
export function checkTotp(secret: string, code: unknown): boolean {
  if (typeof code !== 'string' && typeof code !== 'number') return false;
  const token = String(code).replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return false;
  return totp(secret, 'user').validate({ token, window: 1 }) !== null;
}
