import { createHash, randomBytes } from 'node:crypto';
import { openSecret } from '../channels/secret-box';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../core/errors';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../core/security/passwords';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { checkTotp } from './totp';
import { isOperator } from './session';
import { platformSettings } from '../platform-settings';
import { endSessionsOf } from '../../core/security/sql-sessions';
import { invitationFor, joinByInvitation } from '../workspace/invitations.service';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  token_version: number;
  totp_secret: string | null;
  totp_pending: string | null;
  totp_enabled: number;
  theme: string;
  suspended: number;
  platform_role: string;
  email_verified: number;
  created_at: number;
}

export interface WorkspaceRow {
  id: string;
  name: string;
  owner_id: string;
  tier: string;
  credits: number;
  paused: number;
  created_at: number;
}

const RESET_TTL_MS = 60 * 60_000;

export const normEmail = (e: string) => e.trim().toLowerCase();

export function presentUser(ctx: AgentsContext, u: UserRow) {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    theme: u.theme,
    twoFactorEnabled: u.totp_enabled === 1,
    emailVerified: u.email_verified === 1,
    admin: isOperator(ctx, u),
    created_at: new Date(u.created_at).toISOString(),
  };
}

export function getUser(ctx: AgentsContext, id: string): UserRow {
  const u = ctx.legacyDb.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
  if (!u) throw unauthorized('not authenticated');
  return u;
}

export function getWorkspace(ctx: AgentsContext, id: string): WorkspaceRow {
  const w = ctx.legacyDb.prepare('SELECT * FROM workspaces WHERE id = ?').get(id) as WorkspaceRow | undefined;
  if (!w) throw notFound('workspace not found');
  return w;
}

/**
 * New account with its own workspace (owner) and the signup credits. With `invite` (the token of an
 * invitation mailed to this address) it also joins the inviting workspace and acts there; a wrong, used,
 * expired or foreign token refuses the registration with nothing stored. Without it the account joins
 * nothing else, whoever invited the address.
 */
export async function register(ctx: AgentsContext, email: string, password: string, name: string, invite?: string): Promise<UserRow> {
  const e = normEmail(email);
  const hash = await hashPassword(password);
  const now = Date.now();
  const id = newId('usr');
  const ws = newId('ws');
  const settings = platformSettings(ctx.legacyDb);
  if (!settings.allowSignups) throw forbidden('sign-ups are closed');
  const credits = settings.signupCredits ?? ctx.config.signupCredits;
  const tx = ctx.legacyDb.transaction(() => {
    if (ctx.legacyDb.prepare('SELECT 1 FROM users WHERE email = ?').get(e)) throw conflict('email already registered');
    const inv = invite === undefined ? null : invitationFor(ctx, invite, e);
    // The invitation's token came through that mailbox, which proves the address.
    ctx.legacyDb.prepare('INSERT INTO users (id, email, name, password_hash, email_verified, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(id, e, name, hash, inv ? 1 : 0, now);
    const wsName = name ? `${name}'s workspace` : `${e.split('@')[0]}'s workspace`;
    ctx.legacyDb.prepare('INSERT INTO workspaces (id, name, owner_id, credits, created_at) VALUES (?, ?, ?, ?, ?)').run(ws, wsName, id, credits, now);
    ctx.legacyDb.prepare("INSERT INTO members (workspace_id, user_id, role, created_at) VALUES (?, ?, 'owner', ?)").run(ws, id, now);
    if (inv) joinByInvitation(ctx, inv, id, now);
  });
  tx();
  return getUser(ctx, id);
}

/** Email and password, plus the TOTP code when two-factor is on. */
export async function login(ctx: AgentsContext, email: string, password: string, code: string | undefined): Promise<UserRow> {
  const u = ctx.legacyDb.prepare('SELECT * FROM users WHERE email = ?').get(normEmail(email)) as UserRow | undefined;
  if (!u) {
    await burnPasswordCheck(password);
    throw unauthorized('invalid email or password');
  }
  if (!(await verifyPassword(password, u.password_hash))) throw unauthorized('invalid email or password');
  if (u.suspended) throw forbidden('account suspended');
  if (u.totp_enabled && u.totp_secret) {
    if (code === undefined || code === '') throw unauthorized('two-factor code required', { twoFactorRequired: true });
    if (!checkTotp(openSecret(ctx.config, u.totp_secret), code)) throw unauthorized('invalid two-factor code', { twoFactorRequired: true });
  }
  return u;
}

/** New password: bumps the token version and ends every session, so every earlier token stops working at once. */
export async function setPassword(ctx: AgentsContext, userId: string, password: string): Promise<UserRow> {
  const hash = await hashPassword(password);
  ctx.legacyDb.transaction(() => {
    ctx.legacyDb.prepare('UPDATE users SET password_hash = ?, token_version = token_version + 1 WHERE id = ?').run(hash, userId);
    endSessionsOf(ctx.legacyDb, userId);
  })();
  return getUser(ctx, userId);
}

const tokenHash = (t: string) => createHash('sha256').update(t).digest('hex');

/** Mails a one-hour reset link when the account exists; says nothing either way. */
export async function forgot(ctx: AgentsContext, email: string): Promise<void> {
  const u = ctx.legacyDb.prepare('SELECT id, email FROM users WHERE email = ?').get(normEmail(email)) as { id: string; email: string } | undefined;
  if (!u) return;
  const token = randomBytes(32).toString('base64url');
  ctx.legacyDb.prepare('INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES (?, ?, ?)').run(tokenHash(token), u.id, Date.now() + RESET_TTL_MS);
  const link = `${ctx.config.appUrl}/reset-password?token=${encodeURIComponent(token)}`;
  await ctx.mailer.send({
    to: u.email,
    subject: 'Reset your password',
    text: `Someone asked to reset the password of this account.\n\nOpen this link within one hour to choose a new password:\n${link}\n\nIf it was not you, ignore this mail; the password stays as it is.\n`,
  });
}

/** Consumes a reset token (once, within its hour) and sets the password; all sessions end. */
export async function reset(ctx: AgentsContext, token: string, password: string): Promise<void> {
  const h = tokenHash(token);
  const row = ctx.legacyDb.prepare('SELECT user_id, expires_at, used FROM password_resets WHERE token_hash = ?').get(h) as
    | { user_id: string; expires_at: number; used: number }
    | undefined;
  if (!row || row.used || row.expires_at < Date.now()) throw badRequest('invalid or expired reset token');
  ctx.legacyDb.prepare('UPDATE password_resets SET used = 1 WHERE token_hash = ?').run(h);
  await setPassword(ctx, row.user_id, password);
}
