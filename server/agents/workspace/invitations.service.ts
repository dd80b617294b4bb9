import { randomBytes } from 'node:crypto';
import { badRequest, conflict, forbidden, gone, paymentRequired } from '../../core/errors';
import { isUniqueViolation } from '../../core/db/errors';
import type { AgentsContext } from '../context';
import type { AgentsDb } from '../schema';
import { newId } from '../ids';
import { hashSecret, memberView, seats } from './workspace.service';
import { deleteInvitation, insertInvitation, invitationByTokenHash, invitationOf } from './invitations.repository';
import { insertMember, memberRole } from './members.repository';
import { lockWorkspace } from './workspaces.repository';
import { markEmailVerified, setActiveWorkspace, userContact, userEmail, userIdByEmail } from '../accounts/users.repository';

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
export async function invitationFor(db: AgentsDb, token: string, email: string): Promise<OpenInvitation> {
  const inv = await invitationByTokenHash(db, hashSecret(token));
  if (!inv) throw badRequest('invalid or already used invitation');
  if (inv.expires_at === null || Number(inv.expires_at) < Date.now()) throw gone('invitation expired');
  if (inv.email !== email) throw forbidden('invitation is for another email address');
  return inv;
}

/**
 * Turns the invitation into a membership of `userId` (inside the caller's transaction `tx`): the invitation
 * is used up, and the user's sessions act in the workspace it joined from the next request on.
 */
export async function joinByInvitation(tx: AgentsDb, inv: OpenInvitation, userId: string, now = Date.now()): Promise<void> {
  if (await memberRole(tx, inv.workspace_id, userId)) throw conflict('already a member');
  // Of two concurrent uses of one token only one removes the row.
  if (!(await deleteInvitation(tx, inv.workspace_id, inv.id))) throw badRequest('invalid or already used invitation');
  try {
    await insertMember(tx, inv.workspace_id, userId, inv.role, now);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('already a member');
    throw err;
  }
  await setActiveWorkspace(tx, userId, inv.workspace_id);
}

/** A signed-in account accepts an invitation sent to its own address; returns the workspace it joined. */
export async function acceptInvitation(ctx: AgentsContext, userId: string, token: string): Promise<{ ws: string; role: string }> {
  return ctx.db.transaction().execute(async (tx) => {
    const inv = await invitationFor(tx, token, (await userEmail(tx, userId)) ?? '');
    await joinByInvitation(tx, inv, userId);
    // The token came through the invited mailbox: the address is proven.
    await markEmailVerified(tx, userId);
    return { ws: inv.workspace_id, role: inv.role };
  });
}

/**
 * Invites an address, with or without an account: one seat is taken and a mail carries the link with the
 * token. Only the holder of that token joins (registering with it, or accepting it while signed in as that
 * address); registering the address without it joins nothing. An open invitation refuses a second one; an
 * expired one (or one made before tokens) is replaced.
 */
export async function inviteMember(ctx: AgentsContext, ws: string, inviterId: string, email: string, role: string) {
  const inviter = (await userContact(ctx.db, inviterId)) ?? { email: '', name: '' };
  const now = Date.now();
  const { token, hash } = newInviteToken();
  const { id, hasAccount, w } = await ctx.db.transaction().execute(async (tx) => {
    // The workspace row is locked: concurrent invitations never both take the last seat.
    const w = (await lockWorkspace(tx, ws)) ?? { name: '', tier: 'free' };
    const user = await userIdByEmail(tx, email);
    if (user && (await memberRole(tx, ws, user.id))) throw conflict('already a member');
    const open = await invitationOf(tx, ws, email);
    if (open && open.expires_at !== null && Number(open.expires_at) >= now) throw conflict('already invited');
    if (open) await deleteInvitation(tx, ws, open.id);
    const s = await seats(tx, ws, w.tier);
    if (s.used >= s.limit) throw paymentRequired('seat limit reached', { seats: s.limit, used: s.used });
    const inv = newId('inv');
    try {
      await insertInvitation(tx, { id: inv, workspace_id: ws, email, role, invited_by: inviterId, created_at: now, token_hash: hash, expires_at: now + INVITE_TTL_MS });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('already invited');
      throw err;
    }
    return { id: inv, hasAccount: !!user, w };
  });
  const who = inviter.name ? `${inviter.name} (${inviter.email})` : inviter.email;
  const link = invitationLink(ctx, token);
  await ctx.mailer.send({
    to: email,
    subject: `You are invited to ${w.name}`,
    text: hasAccount
      ? `${who} invited you to the workspace "${w.name}" as ${role}.\n\nSign in with this address and open this link within 7 days to join:\n${link}\n\nThe link works once. If you did not expect it, ignore this mail.\n`
      : `${who} invited you to the workspace "${w.name}" as ${role}.\n\nOpen this link within 7 days and create your account with this address to join:\n${link}\n\nThe link works once. If you did not expect it, ignore this mail.\n`,
  });
  return memberView(ctx.db, ws, id);
}
