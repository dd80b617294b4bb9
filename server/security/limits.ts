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
 * Failed sign-in counter per key (email, admin, sub-admin email): after `max` failures in
 * 15 minutes the key is locked until the window ends (429 with Retry-After).
 */
const failures = new WeakMap<AppContext, Map<string, { start: number; n: number }>>();
const WINDOW = 15 * 60_000;

function failMap(app: AppContext) {
  let m = failures.get(app);
  if (!m) failures.set(app, (m = new Map()));
  return m;
}

export function assertNotLocked(app: AppContext, key: string, max: number): void {
  const cur = failMap(app).get(key);
  if (!cur) return;
  const t = Date.now();
  if (t - cur.start >= WINDOW) {
    failMap(app).delete(key);
    return;
  }
  if (cur.n >= max) throw tooMany((cur.start + WINDOW - t) / 1000, 'too many attempts');
}

export function recordFailure(app: AppContext, key: string): void {
  const m = failMap(app);
  const t = Date.now();
  const cur = m.get(key);
  if (!cur || t - cur.start >= WINDOW) m.set(key, { start: t, n: 1 });
  else cur.n += 1;
}

export function clearFailures(app: AppContext, key: string): void {
  failMap(app).delete(key);
}
