import type { AppContext } from '../context';
import { RateLimiter } from '../http/rate-limit';
import { tooMany } from '../http/errors';

/** Per-IP request limits of the sign-in, signup, public form and public status routes. */
const LIMITS = {
  signIn: [30, 15 * 60_000],
  signup: [5, 3_600_000],
  publicForm: [30, 10 * 60_000],
  publicStatus: [60, 60_000],
  otp: [10, 15 * 60_000],
} as const;
export type LimitName = keyof typeof LIMITS;

const byApp = new WeakMap<AppContext, Map<string, RateLimiter>>();

export function limiter(app: AppContext, name: LimitName): RateLimiter {
  let m = byApp.get(app);
  if (!m) byApp.set(app, (m = new Map()));
  let l = m.get(name);
  if (!l) m.set(name, (l = new RateLimiter(LIMITS[name][0], LIMITS[name][1])));
  return l;
}

/** Replace a limit for this app (operators' tuning, and tests that need a low or high cap). */
export function configureLimit(app: AppContext, name: LimitName, max: number, windowMs: number = LIMITS[name][1]): void {
  let m = byApp.get(app);
  if (!m) byApp.set(app, (m = new Map()));
  m.set(name, new RateLimiter(max, windowMs));
}

export function hitLimit(app: AppContext, name: LimitName, ip: string | undefined): void {
  limiter(app, name).hit(ip ?? 'unknown', 'too many requests');
}

/**
 * Failed sign-ins per (account, client): each key is an account (email, admin, sub-admin email)
 * together with the client's address, never an account alone, so nobody can lock another person
 * out from elsewhere. After `max` failures the key is locked for one minute, doubling with every
 * further failure up to an hour (429 with Retry-After); a success clears it, and a key left alone
 * for a day starts afresh.
 */
const failures = new WeakMap<AppContext, Map<string, { n: number; last: number; until: number }>>();
const BASE_LOCK_MS = 60_000;
const MAX_LOCK_MS = 3_600_000;
const FORGET_MS = 24 * 3_600_000;
function failMap(app: AppContext) {
  let m = failures.get(app);
  if (!m) failures.set(app, (m = new Map()));
  return m;
}
/** The lockout key of an account as seen from one client. */
export function lockKey(account: string, client: string | undefined): string {
  return `${account}|${client ?? 'unknown'}`;
}
export function assertNotLocked(app: AppContext, key: string, _max?: number): void {
  const cur = failMap(app).get(key);
  if (!cur) return;
  const t = Date.now();
  if (t - cur.last >= FORGET_MS) {
    failMap(app).delete(key);
    return;
  }
  if (cur.until > t) throw tooMany((cur.until - t) / 1000, 'too many attempts');
}
export function recordFailure(app: AppContext, key: string, max = 8): void {
  const m = failMap(app);
  const t = Date.now();
  let cur = m.get(key);
  if (!cur || t - cur.last >= FORGET_MS) {
    if (m.size > 50_000) for (const [k, v] of m) if (t - v.last >= FORGET_MS || v.until < t) m.delete(k);
    cur = { n: 0, last: t, until: 0 };
    m.set(key, cur);
  }
  cur.n += 1;
  cur.last = t;
  if (cur.n >= max) cur.until = t + Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** (cur.n - max));
}
export function clearFailures(app: AppContext, key: string): void {
  failMap(app).delete(key);
}
