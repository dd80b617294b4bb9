import type { Insertable } from 'kysely';
import type { StudioDb } from '../db';
import type { InvitationsTable } from '../schema';

export async function listInvitations(db: StudioDb, ws: number) {
  return db
    .selectFrom('invitations').select(['id', 'email', 'role', 'expires_at', 'created_at'])
    .where('workspace_id', '=', ws).orderBy('created_at').orderBy('id')
    .execute();
}

export async function invitationOf(db: StudioDb, ws: number, email: string) {
  return db.selectFrom('invitations').select(['id', 'expires_at']).where('workspace_id', '=', ws).where('email', '=', email).executeTakeFirst();
}

export async function invitationByTokenHash(db: StudioDb, tokenHash: string) {
  return db.selectFrom('invitations').select(['id', 'workspace_id', 'email', 'role', 'expires_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Open (unexpired) invitations of the workspace: each holds a seat. */
export async function countPending(db: StudioDb, ws: number, now: number): Promise<number> {
  const r = await db
    .selectFrom('invitations').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', ws).where('expires_at', '>=', now)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function insertInvitation(db: StudioDb, inv: Insertable<InvitationsTable>): Promise<void> {
  await db.insertInto('invitations').values(inv).execute();
}

/** Removes the invitation; false when it was already gone (used up by a concurrent request). */
export async function deleteInvitation(db: StudioDb, ws: number, id: string): Promise<boolean> {
  const r = await db.deleteFrom('invitations').where('id', '=', id).where('workspace_id', '=', ws).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}
