import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const KEYLEN = 32;
const COST = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEYLEN, COST, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** `scrypt$<salt b64url>$<hash b64url>` with a fresh 16-byte salt per password. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt);
  return `scrypt$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Constant-time comparison against a stored hash; false for anything malformed. */
export async function verifyPassword(password: string, stored: unknown): Promise<boolean> {
  if (typeof stored !== 'string') return false;
  const [scheme, saltB64, hashB64] = stored.split('$');
  if (scheme !== 'scrypt' || !saltB64 || !hashB64) return false;
  const expected = Buffer.from(hashB64, 'base64url');
  if (expected.length !== KEYLEN) return false;
  const key = await derive(password, Buffer.from(saltB64, 'base64url'));
  return timingSafeEqual(key, expected);
}

/** Same work as a real check, for unknown accounts (no timing hint that an email exists). */
const DUMMY = 'scrypt$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
export async function burnPasswordCheck(password: string): Promise<void> {
  await verifyPassword(password, DUMMY);
}

/** Constant-time string equality (master password, backup token). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  if (x.length !== y.length) {
    timingSafeEqual(x, x);
    return false;
  }
  return timingSafeEqual(x, y);
}

/** A readable random password (sub-admins created without one). */
export function randomPassword(): string {
  return randomBytes(12).toString('base64url');
}
