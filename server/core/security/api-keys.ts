import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Bearer keys of the form `<label><prefix><secret>`: the prefix (8 lowercase hex) finds the
 * row, the secret (32 bytes of randomness) is checked against a salted SHA-256 hash. The
 * secret carries its own entropy, so a fast hash is enough and every request can check it.
 */
export interface MintedKey {
  key: string;
  prefix: string;
  hash: string;
}

const PREFIX_LEN = 8;
const SECRET_LEN = 43; // 32 bytes, base64url

function digest(salt: Buffer, secret: string): Buffer {
  return createHash('sha256').update(salt).update(secret).digest();
}

export function mintApiKey(label: string): MintedKey {
  const prefix = randomBytes(4).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const salt = randomBytes(16);
  return { key: `${label}${prefix}${secret}`, prefix, hash: `sha256$${salt.toString('base64url')}$${digest(salt, secret).toString('base64url')}` };
}

/** `{prefix, secret}` of a well-formed key with this label, else null. */
export function splitApiKey(label: string, key: string): { prefix: string; secret: string } | null {
  if (!key.startsWith(label)) return null;
  const rest = key.slice(label.length);
  if (rest.length !== PREFIX_LEN + SECRET_LEN) return null;
  const prefix = rest.slice(0, PREFIX_LEN);
  const secret = rest.slice(PREFIX_LEN);
  if (!/^[0-9a-f]{8}$/.test(prefix) || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return null;
  return { prefix, secret };
}

export function verifyApiSecret(secret: string, stored: string): boolean {
  const [scheme, saltB64, hashB64] = stored.split('$');
  if (scheme !== 'sha256' || !saltB64 || !hashB64) return false;
  const expected = Buffer.from(hashB64, 'base64url');
  const got = digest(Buffer.from(saltB64, 'base64url'), secret);
  return expected.length === got.length && timingSafeEqual(expected, got);
}
