import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The per-install signing secret, kept in the data folder (created on first start, mode 0600). */
export function loadOrCreateSecret(dataDir: string): Buffer {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) {
    const hex = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  }
  const secret = randomBytes(32);
  writeFileSync(file, secret.toString('hex'), { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

const b64url = (b: Buffer) => b.toString('base64url');

/**
 * `<payload>.<mac>` where the MAC covers the token kind too, so a token of one kind
 * (kit_tid, portal, invite, admin, ...) can never be accepted as another.
 */
export function sign(secret: Buffer, kind: string, payload: string): string {
  const mac = createHmac('sha256', secret).update(`${kind}\n${payload}`).digest();
  return `${payload}.${b64url(mac)}`;
}

/** The payload of a valid token of this kind, else null. */
export function verify(secret: Buffer, kind: string, token: string): string | null {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return null;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = createHmac('sha256', secret).update(`${kind}\n${payload}`).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return payload;
}
