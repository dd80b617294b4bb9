import { createHash, randomBytes } from 'node:crypto';
import { badRequest, conflict, forbidden, gone } from '../core/errors';
import { isUniqueViolation } from '../core/db/errors';
import type { Role, StudioContext } from './context';
import { createUserWithWorkspace, membership, workspaceInfo } from './accounts';
import { checkAllowance } from './billing';
import { nowIso, type StudioDb } from './db';
import { insertMember, userByEmail, userById } from './repositories/accounts.repository';
import * as invitations from './repositories/invitations.repository';

/** An invitation link is good for 7 days and one use. */
const INVITE_TTL_MS = 7 * 24 * 3_600_000;

interface InvitationRow {
  id: string;
  workspace_id: number;
  email: string;
  role: Exclude<Role, 'owner'>;
  expires_at: number;
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** Open invitations of the workspace (the link's token is never shown again). */
export async function listInvitations(db: StudioDb, ws: number) {
  return (await invitations.listInvitations(db, ws)).map((i) => ({
    id: i.id, email: i.email, role: i.role, expires_at: new Date(Number(i.expires_at)).toISOString(), created_at: i.created_at,
  }));
}

/**
 * Invites an address, registered or not: a seat is reserved (members plus open invitations count against
 * the plan's accounts) and a mail carries `<app>/invite/<token>`. Nobody joins until the token is used
 * by that address. An open invitation refuses a second one; an expired one is replaced.
 */
export async function inviteByEmail(app: StudioContext, ws: number, inviterUid: number | null, email: string, role: InvitationRow['role']) {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  const id = `inv_${randomBytes(8).toString('hex')}`;
  try {
    await app.db.transaction().execute(async (trx) => {
      const user = await userByEmail(trx, email);
      if (user && (await membership(trx, ws, Number(user.id)))) throw conflict('already a member');
      const open = await invitations.invitationOf(trx, ws, email);
      if (open && Number(open.expires_at) >= now) throw conflict('already invited');
      if (open) await invitations.deleteInvitation(trx, ws, open.id);
      const pending = await invitations.countPending(trx, ws, now);
      await checkAllowance(trx, ws, 'accounts', 1 + pending);
      await invitations.insertInvitation(trx, {
        id, workspace_id: ws, email, role, token_hash: tokenHash(token), invited_by: inviterUid, expires_at: now + INVITE_TTL_MS, created_at: nowIso(),
      });
    });
  } catch (err) {
    // The same address invited twice at once: the second meets UNIQUE (workspace_id, email).
    if (isUniqueViolation(err)) throw conflict('already invited');
    throw err;
  }
  const w = await workspaceInfo(app.db, ws);
  const link = `${app.config.appUrl ?? app.publicUrl}/invite/${encodeURIComponent(token)}`;
  await app.mailer.send({
    to: email,
    subject: `You are invited to ${w.name}`,
    text:
      `You are invited to the studio workspace "${w.name}" as ${role}.\n\n` +
      `Open this link within 7 days to join with this address (create your account with it, or sign in to it):\n${link}\n\n` +
      'The link works once. If you did not expect it, ignore this mail.\n',
  });
  return (await listInvitations(app.db, ws)).find((i) => i.id === id);
}

/**
 * The open invitation a token names, for this address: an unknown or used token, an expired one and one
 * sent to another address are refused, each with its own error, and nothing changes.
 */
async function invitationFor(db: StudioDb, token: string, email: string): Promise<InvitationRow> {
  const row = await invitations.invitationByTokenHash(db, tokenHash(token));
  if (!row) throw badRequest('invalid or already used invitation');
  const inv: InvitationRow = { ...row, workspace_id: Number(row.workspace_id), expires_at: Number(row.expires_at) };
  if (inv.expires_at < Date.now()) throw gone('invitation expired');
  if (inv.email !== email) throw forbidden('invitation is for another email address');
  return inv;
}

/** Uses the invitation up and makes `uid` a member with its role (inside the caller's transaction). */
async function joinByInvitation(db: StudioDb, inv: InvitationRow, uid: number): Promise<void> {
  if (await membership(db, inv.workspace_id, uid)) throw conflict('already a member');
  await checkAllowance(db, inv.workspace_id, 'accounts');
  if (!(await invitations.deleteInvitation(db, inv.workspace_id, inv.id))) throw badRequest('invalid or already used invitation');
  await insertMember(db, inv.workspace_id, uid, inv.role, nowIso());
}

/** A signed-in account accepts an invitation mailed to its own address; returns the workspace joined. */
export function acceptInvitation(db: StudioDb, uid: number, token: string): Promise<{ ws: number; role: Role }> {
  return db.transaction().execute(async (trx) => {
    const u = await userById(trx, uid);
    const inv = await invitationFor(trx, token, u?.email ?? '');
    await joinByInvitation(trx, inv, uid);
    return { ws: inv.workspace_id, role: inv.role };
  });
}

/**
 * A new account and its own workspace. With an invitation token mailed to this address the account also
 * joins that workspace and acts there; a wrong, used, expired or foreign token refuses the registration
 * with nothing stored. Without one it joins nothing but its own workspace, whoever invited the address.
 */
export function registerAccount(db: StudioDb, email: string, passwordHash: string, workspaceName: string, invite: string | undefined): Promise<{ uid: number; ws: number }> {
  return db.transaction().execute(async (trx) => {
    const inv = invite === undefined ? null : await invitationFor(trx, invite, email);
    const made = await createUserWithWorkspace(trx, email, passwordHash, workspaceName);
    if (!inv) return made;
    await joinByInvitation(trx, inv, made.uid);
    return { uid: made.uid, ws: inv.workspace_id };
  });
}
