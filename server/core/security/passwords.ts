import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const KEYLEN = 32;
export { PLATFORM_PASSWORD_MIN } from '../../../shared/api/contracts/common';

export interface ScryptCost {
  /** log2 of the CPU/memory cost N. */
  ln: number;
  r: number;
  p: number;
}
/** OWASP's current minimum for scrypt: N=2^17 (128 MiB), r=8, p=1. */
export const OWASP_SCRYPT: ScryptCost = { ln: 17, r: 8, p: 1 };
/** Hashes written before the parameters were raised: `scrypt$<salt>$<hash>` at N=2^14, r=8, p=1. */
const LEGACY: ScryptCost = { ln: 14, r: 8, p: 1 };

let target: ScryptCost = OWASP_SCRYPT;
/** The cost new hashes use (tests of unrelated features may lower it to stay fast). */
export function setPasswordCost(cost: ScryptCost): void {
  target = cost;
}
function passwordCost(): ScryptCost {
  return target;
}

function derive(password: string, salt: Buffer, c: ScryptCost): Promise<Buffer> {
  const N = 2 ** c.ln;
  const maxmem = 128 * N * c.r * 2 + 16 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEYLEN, { N, r: c.r, p: c.p, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** `scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt b64url>$<hash b64url>` with a fresh 16-byte salt per password. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const c = target;
  const key = await derive(password, salt, c);
  return `scrypt$ln=${c.ln},r=${c.r},p=${c.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

function parse(stored: string): { cost: ScryptCost; salt: string; hash: string } | null {
  const parts = stored.split('$');
  if (parts[0] !== 'scrypt') return null;
  if (parts.length === 3) return parts[1] && parts[2] ? { cost: LEGACY, salt: parts[1], hash: parts[2] } : null;
  if (parts.length !== 4) return null;
  const m = /^ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})$/.exec(parts[1]);
  if (!m || !parts[2] || !parts[3]) return null;
  const cost = { ln: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  if (cost.ln < 10 || cost.ln > 20 || cost.r < 1 || cost.r > 32 || cost.p < 1 || cost.p > 16) return null;
  return { cost, salt: parts[2], hash: parts[3] };
}

/** Constant-time comparison against a stored hash (at the parameters it was made with); false for anything malformed. */
export async function verifyPassword(password: string, stored: unknown): Promise<boolean> {
  if (typeof stored !== 'string') return false;
  const h = parse(stored);
  if (!h) return false;
  const expected = Buffer.from(h.hash, 'base64url');
  if (expected.length !== KEYLEN) return false;
  const key = await derive(password, Buffer.from(h.salt, 'base64url'), h.cost);
  return timingSafeEqual(key, expected);
}

/** A stored hash made at weaker parameters than today's: rehash it at the next successful sign-in. */
export function needsRehash(stored: unknown): boolean {
  if (typeof stored !== 'string') return false;
  const h = parse(stored);
  if (!h) return false;
  return h.cost.ln < target.ln || h.cost.r < target.r || h.cost.p < target.p;
}

/** Same work as a real check, for unknown accounts (no timing hint that an email exists). */
export async function burnPasswordCheck(password: string): Promise<void> {
  const c = target;
  await verifyPassword(password, `scrypt$ln=${c.ln},r=${c.r},p=${c.p}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`);
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
