import type { Request } from 'express';
import type { AppContext } from '../context';
import { DomainError, forbidden, unauthorized } from '../../core/errors';
import type { Doc } from '../store/types';
import { isReservedWorkspace, P, PLATFORM_WS, requireCentral } from './platform';
import type { Access, Actor } from './policy';
import { accountActor, memberActor, memberOf } from './sessions';
import { readToken } from './tokens';

/** Platform operators and account sessions as handlers see them (principalOf). */
export type Principal =
  | { kind: 'admin' }
  | { kind: 'subadmin'; id: string; email: string; name: string; tenants: string[]; canDelete: boolean }
  | { kind: 'session'; accountId: string | null; email: string | null; tenantId: string; assist: { by: string } | null };

const PRINCIPAL = Symbol('principal');
const ACTOR = Symbol('actor');
type Marked = Request & { [PRINCIPAL]?: Principal | null; [ACTOR]?: Actor };

/** `Authorization: Bearer <t>`, else query `token` (admin and sub-admin tokens may come that way). */
export function bearerToken(req: Request): string | null {
  const h = req.headers.authorization;
  if (typeof h === 'string' && /^Bearer\s+/i.test(h)) return h.replace(/^Bearer\s+/i, '').trim() || null;
  const q = req.query.token;
  return typeof q === 'string' && q ? q : null;
}

/** Outcome of reading a Bearer account token: none given, valid (with its actor), or ended. */
export type BearerSession = { state: 'none' } | { state: 'ended' } | { state: 'ok'; actor: Actor & { kind: 'member' }; sid: string | null; assistBy: string | null };

/**
 * A Bearer session or assist-mode token. A session token names its session record (ended by logout),
 * the account's token version (ended by a password change) and, through the account, the membership
 * (ended by removal). Tokens of other kinds (admin, forged) count as none.
 */
export async function bearerSession(app: AppContext, req: Request): Promise<BearerSession> {
  const token = bearerToken(req);
  if (!token) return { state: 'none' };
  const s = readToken(app.secret, 'session', token);
  if (s) {
    const sid = typeof s.sid === 'string' ? s.sid : null;
    if (!sid) return { state: 'ended' };
    const actor = await accountActor(app, String(s.sub), s.v, sid);
    return actor?.kind === 'member' ? { state: 'ok', actor, sid, assistBy: null } : { state: 'ended' };
  }
  const a = readToken(app.secret, 'assist', token);
  if (a && typeof a.tid === 'string' && !isReservedWorkspace(a.tid)) {
    if (!(await assistOperatorActive(app, a, a.tid))) return { state: 'ended' };
    if (typeof a.sub === 'string') {
      const actor = await accountActor(app, a.sub, a.v, null, true);
      return actor?.kind === 'member' && actor.ws === a.tid ? { state: 'ok', actor, sid: null, assistBy: String(a.by) } : { state: 'ended' };
    }
    if (!(await app.store.get(PLATFORM_WS, P.tenants, a.tid))) return { state: 'ended' };
    const actor = memberActor(a.tid, null, null, true) as Actor & { kind: 'member' };
    return { state: 'ok', actor, sid: null, assistBy: String(a.by) };
  }
  return { state: 'none' };
}

/**
 * Every assist request re-checks the operator who minted it: a sub-admin's token ends the moment the
 * sub-admin is deactivated, deleted, signed out everywhere (token version) or no longer assigned to the
 * workspace. A sub-admin token that names no operator (minted before this check) is ended too.
 */
async function assistOperatorActive(app: AppContext, a: Doc, tid: string): Promise<boolean> {
  if (typeof a.op !== 'string') return !String(a.by ?? '').startsWith('subadmin');
  const sub = await app.store.get<Doc>(PLATFORM_WS, P.subadmins, a.op);
  if (!sub || sub.active === false || sub.tokenVersion !== a.ov) return false;
  return Array.isArray(sub.tenants) && sub.tenants.map(String).includes(tid);
}

async function operatorPrincipal(app: AppContext, token: string | null): Promise<Principal | null> {
  if (!token) return null;
  if (readToken(app.secret, 'admin', token)) return { kind: 'admin' };
  const t = readToken(app.secret, 'subadmin', token);
  if (!t) return null;
  const sub = await app.store.get<Doc>(PLATFORM_WS, P.subadmins, String(t.sub));
  if (!sub || sub.active === false || sub.tokenVersion !== t.v) return null;
  const perms = (sub.perms ?? {}) as Doc;
  return {
    kind: 'subadmin',
    id: String(sub.id),
    email: String(sub.email),
    name: String(sub.name),
    tenants: Array.isArray(sub.tenants) ? sub.tenants.map(String) : [],
    canDelete: perms.canDelete === true,
  };
}

function operatorActor(p: Principal): Actor {
  return p.kind === 'admin' ? { kind: 'admin' } : p.kind === 'subadmin' ? { kind: 'subadmin', id: p.id, canDelete: p.canDelete } : { kind: 'none' };
}

/** Refusal of the authorization layer: 401 without a usable identity, 403 with one that lacks the right. */
export function denied(access: Access, actor: Actor): DomainError {
  const signedOut = actor.kind === 'none' || (actor.kind === 'anonymous' && access.startsWith('account'));
  return signedOut
    ? unauthorized('unauthorized', { need: access, message: 'ログインが必要です' })
    : forbidden('forbidden', { need: access, message: 'この操作を行う権限がありません' });
}

/** Platform-operator routes: central only, an admin or sub-admin token. */
export async function authorizeOperator(app: AppContext, req: Request, access: Access, allows: (a: Actor) => boolean): Promise<void> {
  requireCentral(app);
  const p = await operatorPrincipal(app, bearerToken(req));
  const actor = p ? operatorActor(p) : ({ kind: 'none' } as Actor);
  // Operator routes answer every missing right with 401: the token given is no licence here.
  if (!allows(actor)) throw unauthorized('unauthorized', { need: access });
  markCaller(req, actor, p);
}

export function markCaller(req: Request, actor: Actor, principal: Principal | null): void {
  const r = req as Marked;
  r[ACTOR] = actor;
  r[PRINCIPAL] = principal;
}

export function sessionPrincipalOf(actor: Actor, assistBy: string | null): Principal | null {
  if (actor.kind !== 'member') return null;
  return { kind: 'session', accountId: actor.accountId, email: actor.email, tenantId: actor.ws, assist: actor.assist ? { by: assistBy ?? '' } : null };
}

/** Who the layer found calling (kind none on routes that need nobody). */
export function actorOf(req: Request): Actor {
  return (req as Marked)[ACTOR] ?? { kind: 'none' };
}

export function principalOf(req: Request): Principal {
  const p = (req as Marked)[PRINCIPAL];
  if (!p) throw unauthorized('unauthorized');
  return p;
}

/** The signed-in account session of this request, if any (set by the layer on workspace routes). */
export function optionalSession(req: Request): Extract<Principal, { kind: 'session' }> | null {
  const p = (req as Marked)[PRINCIPAL];
  return p && p.kind === 'session' ? p : null;
}

/** The caller's team member record in its workspace, when it is an account. */
async function callerMember(app: AppContext, req: Request): Promise<Doc | null> {
  const a = actorOf(req);
  if (a.kind !== 'member' || !a.accountId) return null;
  const acct = await app.store.get<Doc>(PLATFORM_WS, P.accounts, a.accountId);
  return acct ? memberOf(app, a.ws, acct) : null;
}
