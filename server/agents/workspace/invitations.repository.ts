import type { Insertable } from 'kysely';
import type { AgentsDb, InvitationsTable } from '../schema';

/** Invitations of a workspace (only the SHA-256 of a token is stored). Every query but the token lookup names the workspace. */

export async function invitationByTokenHash(db: AgentsDb, tokenHash: string) {
  return db.selectFrom('invitations').select(['id', 'workspace_id', 'email', 'role', 'expires_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function invitationOf(db: AgentsDb, ws: string, email: string) {
  return db.selectFrom('invitations').select(['id', 'expires_at']).where('workspace_id', '=', ws).where('email', '=', email).executeTakeFirst();
}

export async function invitationsOf(db: AgentsDb, ws: string) {
  return db.selectFrom('invitations').select(['id', 'email', 'role', 'created_at']).where('workspace_id', '=', ws).orderBy('created_at').orderBy('email').execute();
}

export async function insertInvitation(db: AgentsDb, inv: Insertable<InvitationsTable>): Promise<void> {
  await db.insertInto('invitations').values(inv).execute();
}

/** Removes the invitation; false when it was already gone (used up or withdrawn by a concurrent request). */
export async function deleteInvitation(db: AgentsDb, ws: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('invitations').where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

export async function setInvitationRole(db: AgentsDb, ws: string, id: string, role: string): Promise<void> {
  await db.updateTable('invitations').set({ role }).where('id', '=', id).where('workspace_id', '=', ws).execute();
}
