import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import type { AppContext } from '../context';
import { declareLookup } from '../store/lookups';
import type { Doc } from '../store/types';
import { isReservedWorkspace, P, PLATFORM_WS } from './platform';
import type { Actor, Level, Role, Scope } from './policy';
import { readCookie } from '../../core/http/cookies';
import { sign, verify } from '../../core/security/signing';

export { readCookie };

/**
 * Browser and API sessions. The `kit_tid` cookie holds either
 *  - an anonymous workspace (signed under `kit_tid`): valid only while nobody owns that workspace, or
 *  - an account session (signed under `kit_sid`): `<session id>:<account token version>`.
 * A session record lives in the platform workspace until logout; a Bearer session token names the
 * same record. Every request re-reads the record, the account's token version and the account's team
 * membership, so logout, password change, removal and role changes act at the next request.
 */
const TID_COOKIE = 'kit_tid';
const ANON_KIND = 'kit_tid';
const SESSION_KIND = 'kit_sid';
const ROLES: readonly Role[] = ['owner', 'admin', 'exec', 'member', 'viewer'];

function cookie(app: AppContext, value: string, maxAge: number): string {
  const secure = app.config.production ? '; Secure' : '';
  return `${TID_COOKIE}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

/** Cookie naming an anonymous browser workspace. */
export function tidCookie(app: AppContext, ws: string): string {
  return cookie(app, sign(app.secret, ANON_KIND, ws), 31_536_000);
}

export function sessionCookie(app: AppContext, sid: string, version: number, maxAgeSec: number): string {
  return cookie(app, sign(app.secret, SESSION_KIND, `${sid}:${version}`), maxAgeSec);
}

export function clearedCookie(app: AppContext): string {
  return cookie(app, '', 0);
}

export type CookieIdentity = { kind: 'anonymous'; ws: string } | { kind: 'session'; sid: string; v: number } | null;

/**
 * Cookies already verified under a secret: a cookie's signature check always gives the same answer,
 * so each request of a browser or client reuses it instead of computing two HMACs (bounded; emptied
 * when full). What the cookie names is still checked against the store on every request.
 */
const VERIFIED_MAX = 10_000;
const verifiedCookies = new WeakMap<Buffer, Map<string, CookieIdentity>>();

/** What a validly signed kit_tid cookie names; a tampered or foreign cookie is ignored (null). */
export function cookieIdentity(app: AppContext, req: Request): CookieIdentity {
  const raw = readCookie(req, TID_COOKIE);
  if (!raw) return null;
  let known = verifiedCookies.get(app.secret);
  if (!known) verifiedCookies.set(app.secret, (known = new Map()));
  const hit = known.get(raw);
  if (hit !== undefined) return hit;
  const id = verifyCookie(app, raw);
  if (known.size >= VERIFIED_MAX) known.clear();
  known.set(raw, id);
  return id;
}

function verifyCookie(app: AppContext, raw: string): CookieIdentity {
  const s = verify(app.secret, SESSION_KIND, raw);
  if (s) {
    const [sid, v] = s.split(':');
    return sid && Number.isInteger(Number(v)) ? { kind: 'session', sid, v: Number(v) } : null;
  }
  const ws = verify(app.secret, ANON_KIND, raw);
  return ws && !isReservedWorkspace(ws) ? { kind: 'anonymous', ws } : null;
}

/** A workspace an account owns (or an operator created) no longer answers to an anonymous cookie. */
export async function isOwnedWorkspace(app: AppContext, ws: string): Promise<boolean> {
  const t = await app.store.get<Doc>(PLATFORM_WS, P.tenants, ws);
  return !!t && (t.kind !== 'anonymous' || !!t.owner);
}

export async function createSession(app: AppContext, acct: Doc): Promise<string> {
  const sid = `ss-${randomBytes(16).toString('base64url')}`;
  await app.store.transact(PLATFORM_WS, (tx) => tx.put(P.sessions, sid, { id: sid, account: String(acct.id), ws: String(acct.tenantId), created: Date.now() }));
  return sid;
}

export async function endSession(app: AppContext, sid: string): Promise<void> {
  await app.store.transact(PLATFORM_WS, async (tx) => {
    await tx.remove(P.sessions, sid);
  });
}

/** Team members are found by account and by email through their lookup indexes, never by reading the team. */
const TEAM_BY_ACCOUNT = declareLookup('team', 'account');
const TEAM_BY_EMAIL = declareLookup('team', 'email');

/** The team member an account is in its workspace (invites not yet accepted are not members). */
export async function memberOf(app: AppContext, ws: string, acct: Doc): Promise<Doc | null> {
  const email = typeof acct.email === 'string' ? acct.email.toLowerCase() : '';
  const byAccount = typeof acct.id === 'string' ? await app.store.find<Doc>(ws, TEAM_BY_ACCOUNT.coll, TEAM_BY_ACCOUNT.field, acct.id) : [];
  const emails = email === '' ? [] : [...new Set([email, String(acct.email)])];
  const byEmail: Doc[] = [];
  for (const e of emails) byEmail.push(...(await app.store.find<Doc>(ws, TEAM_BY_EMAIL.coll, TEAM_BY_EMAIL.field, e)));
  // The member holding this account, else the oldest one with this email.
  return [...byAccount, ...byEmail].find((m) => m.status !== 'invited') ?? null;
}

export function memberActor(ws: string, acct: Doc | null, m: Doc | null, assist: boolean): Actor {
  const role = ROLES.includes(m?.role as Role) ? (m?.role as Role) : 'member';
  const scopes = (m?.scopes && typeof m.scopes === 'object' ? m.scopes : {}) as Partial<Record<Scope, Level>>;
  return {
    kind: 'member',
    ws,
    role: m ? role : 'owner',
    scopes: m ? scopes : {},
    accountId: acct ? String(acct.id) : null,
    email: acct && typeof acct.email === 'string' ? acct.email : null,
    memberId: m ? String(m.id) : null,
    assist,
  };
}

/**
 * The live actor of an account session: the session record (when named) must still exist, the token
 * version must match the account's, and the account must still be a member of its workspace.
 */
export async function accountActor(app: AppContext, accountId: string, v: unknown, sid: string | null, assist = false): Promise<Actor | null> {
  const acct = await app.store.get<Doc>(PLATFORM_WS, P.accounts, accountId);
  if (!acct || acct.tokenVersion !== v || typeof acct.tenantId !== 'string' || isReservedWorkspace(acct.tenantId)) return null;
  if (sid !== null) {
    const s = await app.store.get<Doc>(PLATFORM_WS, P.sessions, sid);
    if (!s || s.account !== acct.id) return null;
  }
  const m = await memberOf(app, acct.tenantId, acct);
  if (!m) return null;
  return memberActor(acct.tenantId, acct, m, assist);
}

export function setCookie(res: Response, value: string): void {
  res.append('Set-Cookie', value);
}

/** The actor of a cookie session: its record must exist and its account still hold this version. */
export async function cookieSessionActor(app: AppContext, sid: string, v: number): Promise<Actor | null> {
  const s = await app.store.get<Doc>(PLATFORM_WS, P.sessions, sid);
  if (!s || typeof s.account !== 'string') return null;
  return accountActor(app, s.account, v, null);
}
