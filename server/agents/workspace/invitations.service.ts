import { randomBytes } from 'node:crypto';
import { badRequest, conflict, forbidden, gone, paymentRequired } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { hashSecret, memberView, seats } from './workspace.service';

/** An invitation link is good for 7 days and one use. */
const INVITE_TTL_MS = 7 * 24 * 3600_000;

export interface OpenInvitation {
  id: string;
  workspace_id: string;
  email: string;
  role: string;
  expires_at: number | null;
}

/** A new invitation token: the link carries the token, the store keeps only its SHA-256. */
function newInviteToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashSecret(token) };
}

const invitationLink = (ctx: AgentsContext, token: string) => `${ctx.config.appUrl}/invite/${encodeURIComponent(token)}`;

/**
 * The open invitation a token names, for this address: an unknown or used token, an expired one and one
 * sent to another address are refused, each with its own error, and nothing changes.
 */
export function invitationFor(ctx: AgentsContext, token: string, email: string): OpenInvitation {
  const inv = ctx.legacyDb.prepare('SELECT id, workspace_id, email, role, expires_at FROM invitations WHERE token_hash = ?').get(hashSecret(token)) as OpenInvitation | undefined;
  if (!inv) throw badRequest('invalid or already used invitation');
  if (inv.expires_at === null || Number(inv.expires_at) < Date.now()) throw gone('invitation expired');
  if (inv.email !== email) throw forbidden('invitation is for another email address');
  return inv;
}

/**
 * Turns the invitation into a membership of `userId` (inside the caller's transaction): the invitation is
 * used up, and the user's sessions act in the workspace it joined from the next request on.
 */
export function joinByInvitation(ctx: AgentsContext, inv: OpenInvitation, userId: string, now = Date.now()): void {
  if (ctx.legacyDb.prepare('SELECT 1 FROM members WHERE workspace_id = ? AND user_id = ?').get(inv.workspace_id, userId)) throw conflict('already a member');
  if (ctx.legacyDb.prepare('DELETE FROM invitations WHERE id = ?').run(inv.id).changes !== 1) throw badRequest('invalid or already used invitation');
  ctx.legacyDb.prepare('INSERT INTO members (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)').run(inv.workspace_id, userId, inv.role, now);
  ctx.legacyDb.prepare('UPDATE users SET active_workspace_id = ? WHERE id = ?').run(inv.workspace_id, userId);
}

/** A signed-in account accepts an invitation sent to its own address; returns the workspace it joined. */
export function acceptInvitation(ctx: AgentsContext, userId: string, token: string): { ws: string; role: string } {
  return ctx.legacyDb.transaction(() => {
    const u = ctx.legacyDb.prepare('SELECT email FROM users WHERE id = ?').get(userId) as { email: string } | undefined;
    const inv = invitationFor(ctx, token, u?.email ?? '');
    joinByInvitation(ctx, inv, userId);
    // The token came through the invited mailbox: the address is proven.
    ctx.legacyDb.prepare('UPDATE users SET email_verified = 1 WHERE id = ?').run(userId);
    return { ws: inv.workspace_id, role: inv.role };
  })();
}

/**
 * Invites an address, with or without an account: one seat is taken and a mail carries the link with the
 * token. Only the holder of that token joins (registering with it, or accepting it while signed in as that
 * address); registering the address without it joins nothing. An open invitation refuses a second one; an
 * expired one (or one made before tokens) is replaced.
 */
export async function inviteMember(ctx: AgentsContext, ws: string, inviterId: string, email: string, role: string) {
  const w = ctx.legacyDb.prepare('SELECT name, tier FROM workspaces WHERE id = ?').get(ws) as { name: string; tier: string };
  const inviter = ctx.legacyDb.prepare('SELECT email, name FROM users WHERE id = ?').get(inviterId) as { email: string; name: string };
  const now = Date.now();
  const { token, hash } = newInviteToken();
  const { id, hasAccount } = ctx.legacyDb.transaction(() => {
    const user = ctx.legacyDb.prepare('SELECT id FROM users WHERE email = ?').get(email) as { id: string } | undefined;
    if (user && ctx.legacyDb.prepare('SELECT 1 FROM members WHERE workspace_id = ? AND user_id = ?').get(ws, user.id)) throw conflict('already a member');
    const open = ctx.legacyDb.prepare('SELECT id, expires_at FROM invitations WHERE workspace_id = ? AND email = ?').get(ws, email) as { id: string; expires_at: number | null } | undefined;
    if (open && open.expires_at !== null && Number(open.expires_at) >= now) throw conflict('already invited');
    if (open) ctx.legacyDb.prepare('DELETE FROM invitations WHERE id = ?').run(open.id);
    const s = seats(ctx, ws, w.tier);
    if (s.used >= s.limit) throw paymentRequired('seat limit reached', { seats: s.limit, used: s.used });
    const inv = newId('inv');
    ctx.legacyDb
      .prepare('INSERT INTO invitations (id, workspace_id, email, role, invited_by, created_at, token_hash, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(inv, ws, email, role, inviterId, now, hash, now + INVITE_TTL_MS);
    return { id: inv, hasAccount: !!user };
  })();
  const who = inviter.name ? `${inviter.name} (${inviter.email})` : inviter.email;
  const link = invitationLink(ctx, token);
  await ctx.mailer.send({
    to: email,
    subject: `You are invited to ${w.name}`,
    text: hasAccount
      ? `${who} invited you to the workspace "${w.name}" as ${role}.\n\nSign in with this address and open this link within 7 days to join:\n${link}\n\nThe link works once. If you did not expect it, ignore this mail.\n`
      : `${who} invited you to the workspace "${w.name}" as ${role}.\n\nOpen this link within 7 days and create your account with this address to join:\n${link}\n\nThe link works once. If you did not expect it, ignore this mail.\n`,
  });
  return memberView(ctx, ws, id);
}
