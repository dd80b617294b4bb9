import type { Request } from 'express';
import type { AppContext } from '../context';
import type { Auth } from '../http/define-route';
import { unauthorized } from '../http/errors';
import type { Doc } from '../store/types';
import { isReservedWorkspace, P, PLATFORM_WS, requireCentral } from './platform';
import { readToken } from './tokens';

export type Principal =
  | { kind: 'admin' }
  | { kind: 'subadmin'; id: string; email: string; name: string; tenants: string[]; canDelete: boolean }
  | { kind: 'session'; accountId: string | null; email: string | null; tenantId: string; assist: { by: string } | null };

const PRINCIPAL = Symbol('principal');
type WithPrincipal = Request & { [PRINCIPAL]?: Principal | null };

/** `Authorization: Bearer <t>`, else query `token` (admin and sub-admin tokens may come that way). */
export function bearerToken(req: Request): string | null {
  const h = req.headers.authorization;
  if (typeof h === 'string' && /^Bearer\s+/i.test(h)) return h.replace(/^Bearer\s+/i, '').trim() || null;
  const q = req.query.token;
  return typeof q === 'string' && q ? q : null;
}

/**
 * A valid account session or assist-mode token: the account must still exist and the token's
 * version must match (a password change bumps it, so every earlier token dies).
 */
export async function sessionPrincipal(app: AppContext, req: Request): Promise<Principal | null> {
  const token = bearerToken(req);
  if (!token) return null;
  const s = readToken(app.secret, 'session', token);
  if (s) {
    const acct = await app.store.get<Doc>(PLATFORM_WS, P.accounts, String(s.sub));
    if (!acct || acct.tokenVersion !== s.v || typeof acct.tenantId !== 'string' || isReservedWorkspace(acct.tenantId)) return null;
    return { kind: 'session', accountId: String(acct.id), email: typeof acct.email === 'string' ? acct.email : null, tenantId: acct.tenantId, assist: null };
  }
  const a = readToken(app.secret, 'assist', token);
  if (a && typeof a.tid === 'string' && !isReservedWorkspace(a.tid)) {
    if (typeof a.sub === 'string') {
      const acct = await app.store.get<Doc>(PLATFORM_WS, P.accounts, a.sub);
      if (!acct || acct.tokenVersion !== a.v || acct.tenantId !== a.tid) return null;
      return { kind: 'session', accountId: String(acct.id), email: typeof acct.email === 'string' ? acct.email : null, tenantId: a.tid, assist: { by: String(a.by) } };
    }
    if (await app.store.get(PLATFORM_WS, P.tenants, a.tid)) return { kind: 'session', accountId: null, email: null, tenantId: a.tid, assist: { by: String(a.by) } };
  }
  return null;
}

async function adminOrSub(app: AppContext, token: string | null, allowSub: boolean): Promise<Principal | null> {
  if (!token) return null;
  if (readToken(app.secret, 'admin', token)) return { kind: 'admin' };
  if (!allowSub) return null;
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

/** Enforce a route's auth column before anything else runs (registry calls this). */
export async function authorize(app: AppContext, req: Request, auth: Auth): Promise<void> {
  const r = req as WithPrincipal;
  if (auth === 'P' || auth === 'T') return;
  if (auth === 'S') {
    const p = await sessionPrincipal(app, req);
    if (!p) throw unauthorized('unauthorized', { message: 'ログインが必要です' });
    r[PRINCIPAL] = p;
    return;
  }
  requireCentral(app);
  const p = await adminOrSub(app, bearerToken(req), auth === 'SA');
  if (!p) throw unauthorized('unauthorized');
  r[PRINCIPAL] = p;
}

export function principalOf(req: Request): Principal {
  const p = (req as WithPrincipal)[PRINCIPAL];
  if (!p) throw unauthorized('unauthorized');
  return p;
}

/** The signed-in session on an optional-auth route (account/me), without failing. */
export async function optionalSession(app: AppContext, req: Request) {
  const p = await sessionPrincipal(app, req);
  return p && p.kind === 'session' ? p : null;
}

/** The workspace a Bearer session or assist token names (checked before kit_tid). */
export async function workspaceFromBearer(app: AppContext, req: Request): Promise<string | null> {
  const p = await sessionPrincipal(app, req);
  return p && p.kind === 'session' ? p.tenantId : null;
}
