import { createHash, randomBytes } from 'node:crypto';
import { badRequest, conflict, forbidden, gone } from '../core/errors';
import type { Role, StudioContext } from './context';
import { membership, workspaceInfo } from './accounts';
import { checkAllowance } from './billing';
import { nowIso, stmt, type StudioDb } from './db';

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
export function listInvitations(db: StudioDb, ws: number) {
  return (stmt(db, 'SELECT id, email, role, expires_at, created_at FROM invitations WHERE workspace_id = ? ORDER BY created_at, id').all(ws) as (InvitationRow & { created_at: string })[]).map(
    (i) => ({ id: i.id, email: i.email, role: i.role, expires_at: new Date(i.expires_at).toISOString(), created_at: i.created_at }),
  );
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
  app.db.transaction(() => {
    const user = stmt(app.db, 'SELECT id FROM users WHERE email = ?').get(email) as { id: number } | undefined;
    if (user && membership(app.db, ws, user.id)) throw conflict('already a member');
    const open = stmt(app.db, 'SELECT id, expires_at FROM invitations WHERE workspace_id = ? AND email = ?').get(ws, email) as { id: string; expires_at: number } | undefined;
    if (open && open.expires_at >= now) throw conflict('already invited');
    if (open) stmt(app.db, 'DELETE FROM invitations WHERE id = ?').run(open.id);
    const pending = (stmt(app.db, 'SELECT COUNT(*) AS n FROM invitations WHERE workspace_id = ? AND expires_at >= ?').get(ws, now) as { n: number }).n;
    checkAllowance(app.db, ws, 'accounts', 1 + pending);
    stmt(app.db, 'INSERT INTO invitations (id, workspace_id, email, role, token_hash, invited_by, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, ws, email, role, tokenHash(token), inviterUid, now + INVITE_TTL_MS, nowIso());
  })();
  const w = workspaceInfo(app.db, ws);
  const link = `${app.config.appUrl ?? app.publicUrl}/invite/${encodeURIComponent(token)}`;
  await app.mailer.send({
    to: email,
    subject: `You are invited to ${w.name}`,
    text:
      `You are invited to the studio workspace "${w.name}" as ${role}.\n\n` +
      `Open this link within 7 days to join with this address (create your account with it, or sign in to it):\n${link}\n\n` +
      'The link works once. If you did not expect it, ignore this mail.\n',
  });
  return listInvitations(app.db, ws).find((i) => i.id === id);
}

/**
 * The open invitation a token names, for this address: an unknown or used token, an expired one and one
 * sent to another address are refused, each with its own error, and nothing changes.
 */
export function invitationFor(db: StudioDb, token: string, email: string): InvitationRow {
  const inv = stmt(db, 'SELECT id, workspace_id, email, role, expires_at FROM invitations WHERE token_hash = ?').get(tokenHash(token)) as InvitationRow | undefined;
  if (!inv) throw badRequest('invalid or already used invitation');
  if (inv.expires_at < Date.now()) throw gone('invitation expired');
  if (inv.email !== email) throw forbidden('invitation is for another email address');
  return inv;
}

/** Uses the invitation up and makes `uid` a member with its role (inside the caller's transaction). */
export function joinByInvitation(db: StudioDb, inv: InvitationRow, uid: number): void {
  if (membership(db, inv.workspace_id, uid)) throw conflict('already a member');
  checkAllowance(db, inv.workspace_id, 'accounts');
  if (stmt(db, 'DELETE FROM invitations WHERE id = ?').run(inv.id).changes !== 1) throw badRequest('invalid or already used invitation');
  stmt(db, 'INSERT INTO members (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)').run(inv.workspace_id, uid, inv.role, nowIso());
}

/** A signed-in account accepts an invitation mailed to its own address; returns the workspace joined. */
export function acceptInvitation(db: StudioDb, uid: number, token: string): { ws: number; role: Role } {
  return db.transaction(() => {
    const u = stmt(db, 'SELECT email FROM users WHERE id = ?').get(uid) as { email: string } | undefined;
    const inv = invitationFor(db, token, u?.email ?? '');
    joinByInvitation(db, inv, uid);
    return { ws: inv.workspace_id, role: inv.role };
  })();
}
