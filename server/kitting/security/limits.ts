import type { AppContext } from '../context';
import { RateLimiter } from '../../core/http/rate-limit';
import { tooMany } from '../../core/errors';

/**
 * Per-IP request limits of the sign-in, signup, one-time code, public form, public status and public verification routes, and
 * of anonymous workspace creation. On central they are fixed windows kept in the database (store
 * counters), so every central process over one database counts the same hits; a bench (one process over
 * its own file) counts in memory.
 */
const LIMITS = {
  signIn: [30, 15 * 60_000],
  signup: [5, 3_600_000],
  publicForm: [30, 10 * 60_000],
  publicStatus: [60, 60_000],
  /** PDFs rendered for a customer portal (each one is seconds of work): per client address. */
  portalDownload: [60, 10 * 60_000],
  publicVerify: [30, 60_000],
  otp: [10, 15 * 60_000],
  newWorkspace: [60, 3_600_000],
  /** PDF renders and exports per client address, and (keyed `ws:<id>`) per workspace. */
  heavy: [30, 60_000],
  heavyWorkspace: [60, 60_000],
} as const;
export type LimitName = keyof typeof LIMITS;

const ERRORS: Partial<Record<LimitName, string>> = {
  newWorkspace: 'too many new workspaces from this address',
  heavy: 'too many documents',
  heavyWorkspace: 'too many documents',
};
const configured = new WeakMap<AppContext, Map<LimitName, { max: number; windowMs: number }>>();
const inMemory = new WeakMap<AppContext, Map<LimitName, RateLimiter>>();

function limitOf(app: AppContext, name: LimitName): { max: number; windowMs: number } {
  const set = configured.get(app)?.get(name);
  if (set) return set;
  // The anonymous workspace cap is deployment configuration (KITTING_WORKSPACES_PER_IP_HOUR).
  if (name === 'newWorkspace') return { max: app.config.workspacesPerIpHour, windowMs: LIMITS.newWorkspace[1] };
  return { max: LIMITS[name][0], windowMs: LIMITS[name][1] };
}

/** Replace a limit for this app (operators' tuning, and tests that need a low or high cap). */
export function configureLimit(app: AppContext, name: LimitName, max: number, windowMs: number = LIMITS[name][1]): void {
  let m = configured.get(app);
  if (!m) configured.set(app, (m = new Map()));
  m.set(name, { max, windowMs });
  inMemory.get(app)?.delete(name);
}

/** Count one request of a client against a limit: 429 with Retry-After once the window's quota is spent. */
export async function hitLimit(app: AppContext, name: LimitName, ip: string | undefined): Promise<void> {
  const { max, windowMs } = limitOf(app, name);
  const client = ip ?? 'unknown';
  const error = ERRORS[name] ?? 'too many requests';
  // The key names the quota too: processes configured alike share counts, a changed limit starts afresh.
  if (app.mode === 'central') return hitStoredLimit(app, `ip:${name}:${max}/${windowMs}:${client}`, max, windowMs, error);
  let m = inMemory.get(app);
  if (!m) inMemory.set(app, (m = new Map()));
  let l = m.get(name);
  if (!l) m.set(name, (l = new RateLimiter(max, windowMs)));
  l.hit(client, error);
}

/**
 * Failed sign-ins per (account, client): each key is an account (email, admin, sub-admin email)
 * together with the client's address, never an account alone, so nobody can lock another person
 * out from elsewhere. After `max` failures the key is locked for one minute, doubling with every
 * further failure up to an hour (429 with Retry-After); a success clears it, and a key left alone
 * for a day starts afresh. The counts live in the database (store counters), so a restart forgets
 * no lockout and every central process over one database sees the same ones.
 */
const BASE_LOCK_MS = 60_000;
const MAX_LOCK_MS = 3_600_000;
const FORGET_MS = 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;
const lastPrune = new WeakMap<AppContext, number>();
const counterKey = (key: string) => `lock:${key}`;

/** The lockout key of an account as seen from one client. */
export function lockKey(account: string, client: string | undefined): string {
  return `${account}|${client ?? 'unknown'}`;
}

export async function assertNotLocked(app: AppContext, key: string): Promise<void> {
  const cur = await app.store.readCounter(counterKey(key));
  if (!cur) return;
  const t = Date.now();
  if (t - cur.last >= FORGET_MS) return;
  if (cur.until > t) throw tooMany((cur.until - t) / 1000, 'too many attempts');
}

export async function recordFailure(app: AppContext, key: string, max = 8): Promise<void> {
  const t = Date.now();
  await app.store.updateCounter(counterKey(key), (cur) => {
    const fresh = !cur || t - cur.last >= FORGET_MS;
    const n = (fresh ? 0 : cur.n) + 1;
    const until = n >= max ? t + Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** (n - max)) : 0;
    return { n, since: fresh ? t : cur.since, last: t, until };
  });
  await pruneNowAndThen(app, t);
}

/** Keys nobody has tried for a day are forgotten anyway (every window is shorter): drop their rows now and then. */
async function pruneNowAndThen(app: AppContext, t: number): Promise<void> {
  if (t - (lastPrune.get(app) ?? 0) < PRUNE_EVERY_MS) return;
  lastPrune.set(app, t);
  await app.store.pruneCounters(t - FORGET_MS);
}

export async function clearFailures(app: AppContext, key: string): Promise<void> {
  if (await app.store.readCounter(counterKey(key))) await app.store.updateCounter(counterKey(key), () => null);
}

/**
 * A fixed-window limit kept in the database (shared by every process, kept across restarts): the
 * `max`-th hit of `key` within `windowMs` passes, the next ones get 429 with Retry-After until the
 * window ends.
 */
export async function hitStoredLimit(app: AppContext, key: string, max: number, windowMs: number, error: string): Promise<void> {
  const t = Date.now();
  let refused = false;
  const cur = await app.store.updateCounter(`limit:${key}`, (c) => {
    if (!c || t - c.since >= windowMs) return { n: 1, since: t, last: t, until: 0 };
    refused = c.n >= max;
    return refused ? c : { ...c, n: c.n + 1, last: t };
  });
  if (refused && cur) throw tooMany((cur.since + windowMs - t) / 1000, error);
  await pruneNowAndThen(app, t);
}
