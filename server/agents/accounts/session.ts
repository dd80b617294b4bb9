import type { Request, Response } from 'express';
import { jwtVerify, SignJWT } from 'jose';
import { forbidden, unauthorized } from '../../core/errors';
import type { AgentsContext, Caller } from '../context';
import { clientIp, type AgentAuth } from '../request';
import { readCookie } from '../../core/http/cookies';
import { endSession, openSession, sessionLive } from '../../core/security/db-sessions';
import { authUser, userWithMembership } from './users.repository';

/** Cookie carrying the session token (the Bearer header wins over it). */
export const COOKIE = 'service_token';
const TOKEN_DAYS = 30;
const TOKEN_SECONDS = TOKEN_DAYS * 24 * 3600;

interface UserAuthRow {
  id: string;
  email: string;
  token_version: number;
  suspended: number;
  platform_role: string;
  email_verified: number;
}

/**
 * An operator: promoted by an operator, or named in AGENTS_ADMIN_EMAILS once the account has proven it
 * owns that address (POST /api/auth/verify); registering the address alone grants nothing.
 */
export function isOperator(ctx: AgentsContext, u: { email: string; platform_role?: string; email_verified?: number }): boolean {
  return u.platform_role === 'admin' || (u.email_verified === 1 && ctx.config.adminEmails.includes(u.email));
}

/** An impersonation session lasts one hour. */
export const IMPERSONATION_SECONDS = 3600;

/**
 * HS256 JWT valid 30 days, naming the user, its session (`sid`, a row of `sessions`) and the token version
 * it was minted under. An impersonation session also names the operator (`imp`) and lasts one hour.
 */
export async function mintSession(ctx: AgentsContext, userId: string, tokenVersion: number, impersonator?: { id: string; tokenVersion: number }): Promise<string> {
  const sid = await openSession(ctx.db, userId, (impersonator ? IMPERSONATION_SECONDS : TOKEN_SECONDS) * 1000);
  const claims = impersonator ? { sid, v: tokenVersion, imp: impersonator.id, impv: impersonator.tokenVersion } : { sid, v: tokenVersion };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(impersonator ? `${IMPERSONATION_SECONDS}s` : `${TOKEN_DAYS}d`)
    .sign(ctx.jwtKey);
}

export function setSessionCookie(req: Request, res: Response, token: string): void {
  res.cookie(COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.secure,
    path: '/',
    maxAge: TOKEN_SECONDS * 1000,
  });
}

export function clearSessionCookie(res: Response): void {
  res.clearCookie(COOKIE, { path: '/', httpOnly: true, sameSite: 'lax' });
}


/** The token of the request: the Bearer header when present (it wins), else the cookie. */
function requestToken(req: Request): string | null {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && auth.trim()) {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    return m ? m[1].trim() : '';
  }
  return readCookie(req, COOKIE);
}

const unauthenticated = (error = 'not authenticated') => unauthorized(error);

type Membership = { ws: string; role: string };

/**
 * Verify a session token: its session row must still exist (logout removes it) and the user's current
 * token version must match the one it names (password change, reset, revoke and suspension bump it).
 * The account with the workspace it acts in, its session and (for an impersonation) the operator are read
 * by indexed queries issued together: one round trip's wait on every signed-in request.
 */
async function verifySession(ctx: AgentsContext, token: string): Promise<UserAuthRow & { impersonator: string | null; sid: string; membership: Membership | null }> {
  let sub: string | undefined;
  let sid: unknown;
  let v: unknown;
  let imp: unknown;
  let impv: unknown;
  try {
    const { payload } = await jwtVerify(token, ctx.jwtKey, { algorithms: ['HS256'] });
    sub = payload.sub;
    sid = payload.sid;
    v = payload.v;
    imp = payload.imp;
    impv = payload.impv;
  } catch {
    throw unauthenticated('invalid or expired token');
  }
  const userId = sub ?? '';
  const [row, live, op] = await Promise.all([
    userWithMembership(ctx.db, userId),
    sessionLive(ctx.db, sid, userId),
    imp === undefined ? Promise.resolve(undefined) : authUser(ctx.db, String(imp)),
  ]);
  if (!row || row.token_version !== v || !live) throw unauthenticated('invalid or expired token');
  const { ws, role, ...user } = row;
  let impersonator: string | null = null;
  if (imp !== undefined) {
    // The operator behind an impersonation must still be an operator, with the sessions it had then.
    if (!op || op.token_version !== impv || op.suspended || !isOperator(ctx, op)) throw unauthenticated('invalid or expired token');
    impersonator = op.id;
  } else if (user.suspended) throw forbidden('account suspended');
  return { ...user, impersonator, sid: String(sid), membership: ws !== null && role !== null ? { ws, role } : null };
}

/** The session a request's token names, when it is a valid one (logout ends it); else null. */
async function requestSession(ctx: AgentsContext, req: Request): Promise<string | null> {
  const token = requestToken(req);
  if (!token) return null;
  try {
    return (await verifySession(ctx, token)).sid;
  } catch {
    return null;
  }
}

/** Logout: the session the request's token names ends; the same token answers 401 from the next request on. */
export async function endRequestSession(ctx: AgentsContext, req: Request): Promise<void> {
  await endSession(ctx.db, await requestSession(ctx, req));
}

/**
 * The caller's workspace and its role there: the one the user switched to while it is still a member of it,
 * else the first workspace it belongs to.
 */
export async function membership(ctx: AgentsContext, userId: string): Promise<Membership | null> {
  const row = await userWithMembership(ctx.db, userId);
  return row && row.ws !== null && row.role !== null ? { ws: row.ws, role: row.role } : null;
}

export async function authenticate(ctx: AgentsContext, req: Request, _res: Response, auth: AgentAuth): Promise<Caller> {
  const ip = clientIp(req);
  if (auth === 'public') return { ip, userId: '', ws: '', role: '', admin: false, impersonator: null };
  const token = requestToken(req);
  if (!token) throw unauthenticated();
  const user = await verifySession(ctx, token);
  const m = user.membership;
  if (!m) throw forbidden('no workspace');
  // An operator acting as a user has that user's rights, never the operator's.
  return { ip, userId: user.id, ws: m.ws, role: m.role, admin: !user.impersonator && isOperator(ctx, user), impersonator: user.impersonator };
}
