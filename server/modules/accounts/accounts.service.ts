import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { HttpError, tooMany, unauthorized } from '../../http/errors';
import { P, PLATFORM_WS, registerWorkspace, securityEvent } from '../../security/platform';
import { assertNotLocked, clearFailures, recordFailure } from '../../security/limits';
import { readSiteConfig, type SiteConfig } from '../../security/site-config';
import { mintToken } from '../../security/tokens';
import type { Doc, Tx } from '../../store/types';

export const ACCOUNTS = P.accounts;

export const emailField = z
  .string({ error: 'email required' })
  .trim()
  .toLowerCase()
  .max(160, 'email too long')
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'invalid email');

export const passwordField = z.string({ error: 'password required' }).min(8, 'password too short').max(200, 'password too long');

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

export function sessionToken(app: AppContext, acct: Doc, cfg: SiteConfig): string {
  const days = Math.max(1, Math.min(365, cfg.secValidityCap || 30));
  return mintToken(app.secret, 'session', { sub: acct.id, v: acct.tokenVersion }, days * 86_400_000);
}

/*
 * http/workspace imports the seed list, which imports this domain: it is loaded lazily here
 * so the module graph has no cycle at start-up.
 */
const workspaceHttp = () => import('../../http/workspace');

/** Set the signed kit_tid cookie naming this workspace. */
export async function setTid(app: AppContext, res: Response, ws: string): Promise<void> {
  const w = await workspaceHttp();
  res.append('Set-Cookie', w.tidCookie(app, ws));
}

export async function clearTid(app: AppContext, res: Response): Promise<void> {
  const w = await workspaceHttp();
  const secure = app.config.production ? '; Secure' : '';
  res.append('Set-Cookie', `${w.TID_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`);
}

/** The browser's current workspace (cookie or session), creating an anonymous one if none. */
export async function browserWorkspace(app: AppContext, req: Request, res: Response): Promise<string> {
  const w = await workspaceHttp();
  return w.resolveWorkspace(app, req, res);
}

/** A fresh, empty workspace (no demo data) registered on the platform. */
export async function newWorkspace(app: AppContext, kind: string, fields: Doc = {}): Promise<string> {
  const ws = `w-${randomBytes(8).toString('hex')}`;
  await app.store.createWorkspace(ws, kind);
  await app.store.markSeeded(ws);
  await registerWorkspace(app, ws, kind, fields);
  return ws;
}

export const initials = (name: string) =>
  (name.replace(/[^A-Za-z]/g, '').slice(0, 2) || 'NA').toUpperCase().padEnd(2, 'A').slice(0, 2);

export const ALL_EDIT = { mgmt: 'edit', ops: 'edit', sales: 'edit', support: 'edit', settings: 'edit' };

/** Put the account in the workspace's team as a member with this role (owner on signup). */
export async function addTeamMember(tx: Tx, m: { name: string; email: string; role: string }): Promise<Doc> {
  const existing = (await tx.list('team')).find((t) => t.email === m.email && t.status !== 'invited');
  if (existing) return existing;
  const id = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  return tx.put('team', id, { id, name: m.name.slice(0, 80) || m.email.split('@')[0], ini: initials(m.name || m.email), role: m.role, dept: '—', email: m.email.slice(0, 120), scopes: m.role === 'viewer' ? {} : ALL_EDIT });
}

/** Sign-in gate shared by password, code and sub-admin logins: IP blocklist and throttle. */
export async function signInGate(app: AppContext, req: Request, key: string): Promise<SiteConfig> {
  const { config } = await readSiteConfig(app);
  if (config.secEnabled && config.secIpGuard && config.secIpBlocklist.includes(req.ip ?? '')) {
    await securityEvent(app, 'ip_blocked', { ip: req.ip ?? '' });
    throw new HttpError(403, 'forbidden', { message: 'このアドレスからのアクセスは許可されていません' });
  }
  if (config.secLoginThrottle) assertNotLocked(app, key, config.secMaxAttempts);
  return config;
}

export async function signInFailed(app: AppContext, req: Request, key: string, cfg: SiteConfig, specific: string): Promise<never> {
  if (cfg.secLoginThrottle) recordFailure(app, key);
  await securityEvent(app, 'login_failed', { key, ip: req.ip ?? '' });
  if (cfg.secLoginThrottle) assertNotLocked(app, key, cfg.secMaxAttempts);
  throw unauthorized(cfg.secGenericErrors ? 'invalid credentials' : specific, {
    message: 'メールアドレスまたはパスワードが違います',
  });
}

export function signInOk(app: AppContext, key: string): void {
  clearFailures(app, key);
}

export async function touchLogin(app: AppContext, id: string): Promise<Doc> {
  return app.store.transact(PLATFORM_WS, async (tx) => (await tx.patch(ACCOUNTS, id, { lastLogin: Date.now() })) as Doc);
}

export { tooMany };
