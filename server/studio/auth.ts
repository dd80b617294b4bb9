import type { Request } from 'express';
import { jwtVerify, SignJWT } from 'jose';
import { forbidden, unauthorized } from '../core/errors';
import { splitApiKey, verifyApiSecret } from '../core/security/api-keys';
import { safeEqual } from '../core/security/passwords';
import { openSession, sessionIdValid, sessionUnexpired } from '../core/security/db-sessions';
import type { Caller, StudioContext } from './context';
import { nowIso } from './db';
import { demoOwner, sessionState, userById, workspaceOneOwner } from './repositories/accounts.repository';
import { keyByPrefix, touchKey } from './repositories/api-keys.repository';

export const API_KEY_LABEL = 'sk_studio_';
const SESSION_DAYS = 30;

export const invalidApiKey = () => unauthorized('invalid api key');
export const suspended = () => forbidden('account suspended');

export function bearer(req: Request): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(.+)$/i.exec(h.trim());
  return m ? m[1].trim() : null;
}

/** ADMIN and CRON routes: the header must equal the configured secret; 401 while it is unset. */
export function checkSecretHeader(req: Request, header: string, secret: string | null): void {
  const given = req.headers[header];
  if (!secret || typeof given !== 'string' || !safeEqual(given, secret)) throw unauthorized('unauthorized');
}

/**
 * Session token: HS256 JWT `{uid, ws, email, sid, v}`, valid 30 days. `sid` names a row of `sessions`
 * (logout removes it) and `v` the user's token version (a password change bumps it); both are checked
 * on every request, like the workspace membership.
 */
export async function mintSession(app: StudioContext, uid: number, ws: number, email: string): Promise<string> {
  const u = await userById(app.db, uid);
  const sid = await openSession(app.db, uid, SESSION_DAYS * 24 * 3_600_000);
  return new SignJWT({ uid, ws, email, sid, v: u?.token_version ?? 0 })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(`${SESSION_DAYS}d`)
    .sign(app.jwtKey);
}

/** A workspace API key acts as editor of its workspace (section 5, step 2). */
export async function callerFromApiKey(app: StudioContext, token: string): Promise<Caller> {
  const parts = splitApiKey(API_KEY_LABEL, token);
  if (!parts) throw invalidApiKey();
  const row = await keyByPrefix(app.db, parts.prefix);
  if (!row || row.revoked_at || !verifyApiSecret(parts.secret, row.hash)) throw invalidApiKey();
  const ws = Number(row.workspace_id);
  if (row.blocked) throw suspended();
  const now = nowIso();
  if (!row.last_used_at || Date.parse(now) - Date.parse(row.last_used_at) > 1000) await touchKey(app.db, ws, row.id, now);
  return { ws, uid: null, email: null, role: 'editor', actor: `api-key:${row.prefix}`, apiKeyId: row.id };
}

async function callerFromJwt(app: StudioContext, token: string): Promise<Caller | null> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, app.jwtKey, { algorithms: ['HS256'] }));
  } catch {
    return null;
  }
  const uid = Number(payload.uid);
  const ws = Number(payload.ws);
  if (!Number.isInteger(uid) || !Number.isInteger(ws)) return null;
  // Logout removed the session, or a password change moved the version on: the token is over.
  const sid = payload.sid;
  if (!sessionIdValid(sid)) return null;
  // the session row comes with the account and membership in one statement; the core's rule judges it
  const row = await sessionState(app.db, uid, sid, ws);
  if (!row || payload.v !== Number(row.token_version) || !sessionUnexpired(row.expires_at)) return null;
  if (!row.role) throw forbidden('not a member of this workspace');
  if (Number(row.suspended)) throw suspended();
  return { ws, uid, email: row.email, role: row.role, actor: `user:${uid}`, apiKeyId: null, sid };
}

/** The demo workspace's owner, used for requests without credentials when demo mode is on. */
async function demoCaller(app: StudioContext): Promise<Caller | null> {
  const row = await demoOwner(app.db);
  return row ? { ws: Number(row.ws), uid: Number(row.uid), email: row.email, role: 'owner', actor: 'demo', apiKeyId: null } : null;
}

async function legacyCaller(app: StudioContext): Promise<Caller> {
  const ws = await workspaceOneOwner(app.db);
  if (!ws) throw unauthorized('unauthorized', { message: 'workspace 1 does not exist' });
  return { ws: 1, uid: ws.owner_id === null ? null : Number(ws.owner_id), email: ws.email, role: 'owner', actor: 'legacy', apiKeyId: null };
}

/** Section 5 in order: legacy token, API key, session JWT with membership, demo mode. */
export async function resolveCaller(app: StudioContext, req: Request): Promise<Caller> {
  const token = bearer(req);
  if (token && app.config.legacyToken && safeEqual(token, app.config.legacyToken)) return legacyCaller(app);
  if (token && token.startsWith(API_KEY_LABEL)) return callerFromApiKey(app, token);
  if (token) {
    const c = await callerFromJwt(app, token);
    if (c) return c;
    throw unauthorized('invalid session', { message: 'The session token is invalid or has expired. Log in again.' });
  }
  if (app.config.demo) {
    const c = await demoCaller(app);
    if (c) return c;
  }
  throw unauthorized('unauthorized', { message: 'Send Authorization: Bearer <session token or sk_studio_ key>.' });
}
