import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import type { AppContext } from '../../context';
import { forbidden, tooMany, unauthorized } from '../../../core/errors';
import { P, PLATFORM_WS } from '../platform-collections';
import { securityEvent } from '../../security/activity';
import { registerWorkspace } from '../../security/tenants';
import { assertNotLocked, clearFailures, lockKey, recordFailure } from '../../security/limits';
import { readSiteConfig, type SiteConfig } from '../../security/site-config';
import { mintToken, readToken } from '../../security/tokens';
import { createSession, endSession, sessionCookie } from '../../security/sessions';
import type { Doc, Tx } from '../../store/types';
import { declareLookup } from '../../store/lookups';

export const ACCOUNTS = P.accounts;

/** The account as clients see it: never password material or token versions. */
export function publicAccount(a: Doc) {
  return {
    email: a.email ?? null,
    phone: a.phone ?? undefined,
    company: a.company ?? '',
    name: a.name ?? '',
    tenantId: a.tenantId,
    created: a.created,
    lastLogin: a.lastLogin ?? null,
  };
}

/**
 * Start a new session for this account: a fresh session id for a fresh cookie (never the one the
 * browser came with) and a Bearer token naming the same session. Both end at logout, at a password
 * change, and when the account leaves the workspace. The HTTP layer sets the cookie.
 */
export async function startSession(app: AppContext, acct: Doc, cfg: SiteConfig): Promise<{ token: string; cookie: string }> {
  const days = Math.max(1, Math.min(365, cfg.secValidityCap || 30));
  const sid = await createSession(app, acct);
  const version = Number(acct.tokenVersion);
  return { token: mintToken(app.secret, 'session', { sub: acct.id, v: version, sid }, days * 86_400_000), cookie: sessionCookie(app, sid, version, days * 86_400) };
}

/** End the sessions a Bearer token and a cookie name (either may be absent). */
export async function endNamedSessions(app: AppContext, bearer: string | null, cookieSid: string | null): Promise<void> {
  const t = bearer ? readToken(app.secret, 'session', bearer) : null;
  if (t && typeof t.sid === 'string') await endSession(app, t.sid);
  if (cookieSid) await endSession(app, cookieSid);
}

/** A fresh, empty workspace (no demo data) registered on the platform. */
export async function newWorkspace(app: AppContext, kind: string, fields: Doc = {}): Promise<string> {
  const ws = `w-${randomBytes(8).toString('hex')}`;
  await app.store.createWorkspace(ws, kind);
  await app.store.markSeeded(ws);
  await registerWorkspace(app, ws, kind, fields);
  return ws;
}

const initials = (name: string) =>
  (name.replace(/[^A-Za-z]/g, '').slice(0, 2) || 'NA').toUpperCase().padEnd(2, 'A').slice(0, 2);

export const ALL_EDIT = { mgmt: 'edit', ops: 'edit', sales: 'edit', support: 'edit', settings: 'edit' };

const TEAM_BY_ACCOUNT = declareLookup('team', 'account');
const TEAM_BY_EMAIL = declareLookup('team', 'email');

/** Put the account in the workspace's team as a member with this role (owner on signup). */
export async function addTeamMember(tx: Tx, m: { name: string; email: string; role: string; account: string }): Promise<Doc> {
  // The member already holding this account, else one with this email (found by index, not by reading the team).
  const byAccount = await tx.find(TEAM_BY_ACCOUNT.coll, TEAM_BY_ACCOUNT.field, m.account);
  const byEmail = m.email !== '' ? await tx.find(TEAM_BY_EMAIL.coll, TEAM_BY_EMAIL.field, m.email) : [];
  const existing = [...byAccount, ...byEmail].find((t) => t.status !== 'invited');
  if (existing) return existing;
  const id = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  return tx.put('team', id, { id, name: m.name.slice(0, 80) || m.email.split('@')[0], ini: initials(m.name || m.email), role: m.role, dept: '—', email: m.email.slice(0, 120), account: m.account, scopes: m.role === 'viewer' ? {} : ALL_EDIT });
}

/** Sign-in gate shared by password, code and sub-admin logins: IP blocklist and throttle. */
export async function signInGate(app: AppContext, req: Request, key: string): Promise<SiteConfig> {
  const { config } = await readSiteConfig(app);
  if (config.secEnabled && config.secIpGuard && config.secIpBlocklist.includes(req.ip ?? '')) {
    await securityEvent(app, 'ip_blocked', { ip: req.ip ?? '' });
    throw forbidden('forbidden', { message: 'このアドレスからのアクセスは許可されていません' });
  }
  if (config.secLoginThrottle) await assertNotLocked(app, lockKey(key, req.ip));
  return config;
}

export async function signInFailed(app: AppContext, req: Request, key: string, cfg: SiteConfig, specific: string): Promise<never> {
  if (cfg.secLoginThrottle) await recordFailure(app, lockKey(key, req.ip), cfg.secMaxAttempts);
  await securityEvent(app, 'login_failed', { key, ip: req.ip ?? '' });
  if (cfg.secLoginThrottle) await assertNotLocked(app, lockKey(key, req.ip));
  throw unauthorized(cfg.secGenericErrors ? 'invalid credentials' : specific, {
    message: 'メールアドレスまたはパスワードが違います',
  });
}

export async function signInOk(app: AppContext, req: Request, key: string): Promise<void> {
  await clearFailures(app, lockKey(key, req.ip));
}

export async function touchLogin(app: AppContext, id: string): Promise<Doc> {
  return app.store.transact(PLATFORM_WS, async (tx) => (await tx.patch(ACCOUNTS, id, { lastLogin: Date.now() })) as Doc);
}

