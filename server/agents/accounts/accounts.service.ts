import { createHash, randomBytes } from 'node:crypto';
import { openSecret } from '../channels/secret-box';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../core/errors';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../../core/security/passwords';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { checkTotp } from './totp';
import { isOperator } from './session';
import { platformSettings } from '../platform-settings';
import { endSessionsOf } from '../../core/security/db-sessions';
import { isUniqueViolation } from '../../core/db/errors';
import { invitationFor, joinByInvitation } from '../workspace/invitations.service';
import { insertMember } from '../workspace/members.repository';
import { insertWorkspace, workspaceById } from '../workspace/workspaces.repository';
import { insertUser, setPasswordHash, setTheme as setThemeRow, userByEmail, userById, userIdByEmail } from './users.repository';
import { consumeReset, insertReset } from './account-tokens.repository';

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

export async function getUser(ctx: AgentsContext, id: string): Promise<UserRow> {
  const u = await userById(ctx.db, id);
  if (!u) throw unauthorized('not authenticated');
  return u;
}

export async function getWorkspace(ctx: AgentsContext, id: string): Promise<WorkspaceRow> {
  const w = await workspaceById(ctx.db, id);
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
  const settings = await platformSettings(ctx.db);
  if (!settings.allowSignups) throw forbidden('sign-ups are closed');
  const credits = settings.signupCredits ?? ctx.config.signupCredits;
  const taken = () => conflict('email already registered');
  try {
    await ctx.db.transaction().execute(async (tx) => {
      if (await userIdByEmail(tx, e)) throw taken();
      const inv = invite === undefined ? null : await invitationFor(tx, invite, e);
      // The invitation's token came through that mailbox, which proves the address.
      await insertUser(tx, { id, email: e, name, password_hash: hash, email_verified: inv ? 1 : 0, created_at: now });
      const wsName = name ? `${name}'s workspace` : `${e.split('@')[0]}'s workspace`;
      await insertWorkspace(tx, { id: ws, name: wsName, owner_id: id, credits, created_at: now });
      await insertMember(tx, ws, id, 'owner', now);
      if (inv) await joinByInvitation(tx, inv, id, now);
    });
  } catch (err) {
    // A concurrent registration of the same address won the race.
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
  return getUser(ctx, id);
}

/** Email and password, plus the TOTP code when two-factor is on. */
export async function login(ctx: AgentsContext, email: string, password: string, code: string | undefined): Promise<UserRow> {
  const u = await userByEmail(ctx.db, normEmail(email));
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
  await ctx.db.transaction().execute(async (tx) => {
    await setPasswordHash(tx, userId, hash);
    await endSessionsOf(tx, userId);
  });
  return getUser(ctx, userId);
}

const tokenHash = (t: string) => createHash('sha256').update(t).digest('hex');

/** Mails a one-hour reset link when the account exists; says nothing either way. */
export async function forgot(ctx: AgentsContext, email: string): Promise<void> {
  const u = await userIdByEmail(ctx.db, normEmail(email));
  if (!u) return;
  const token = randomBytes(32).toString('base64url');
  await insertReset(ctx.db, tokenHash(token), u.id, Date.now() + RESET_TTL_MS);
  const link = `${ctx.config.appUrl}/reset-password?token=${encodeURIComponent(token)}`;
  await ctx.mailer.send({
    to: u.email,
    subject: 'Reset your password',
    text: `Someone asked to reset the password of this account.\n\nOpen this link within one hour to choose a new password:\n${link}\n\nIf it was not you, ignore this mail; the password stays as it is.\n`,
  });
}

/** Consumes a reset token (once, within its hour) and sets the password; all sessions end. */
export async function reset(ctx: AgentsContext, token: string, password: string): Promise<void> {
  const userId = await consumeReset(ctx.db, tokenHash(token), Date.now());
  if (!userId) throw badRequest('invalid or expired reset token');
  await setPassword(ctx, userId, password);
}

export async function setTheme(ctx: AgentsContext, userId: string, theme: string): Promise<void> {
  await setThemeRow(ctx.db, userId, theme);
}
