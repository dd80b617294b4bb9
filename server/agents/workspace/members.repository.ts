import { countAll } from '../sql';
import type { AgentsDb } from '../schema';

/** Memberships (workspace, user, role). Every query names the workspace, the user, or both. */

export async function insertMember(db: AgentsDb, ws: string, userId: string, role: string, now: number): Promise<void> {
  await db.insertInto('members').values({ workspace_id: ws, user_id: userId, role, created_at: now }).execute();
}

export async function memberRole(db: AgentsDb, ws: string, userId: string): Promise<string | null> {
  const r = await db.selectFrom('members').select('role').where('workspace_id', '=', ws).where('user_id', '=', userId).executeTakeFirst();
  return r?.role ?? null;
}

/** Seats taken: members plus invitations, in one query. */
export async function seatsTaken(db: AgentsDb, ws: string): Promise<number> {
  const r = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('members').select(countAll().as('n')).where('workspace_id', '=', ws).as('members'),
      eb.selectFrom('invitations').select(countAll().as('n')).where('workspace_id', '=', ws).as('invitations'),
    ])
    .executeTakeFirstOrThrow();
  return Number(r.members ?? 0) + Number(r.invitations ?? 0);
}

export async function membersOf(db: AgentsDb, ws: string) {
  return db
    .selectFrom('members as m').innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.email', 'u.name', 'm.role', 'm.created_at'])
    .where('m.workspace_id', '=', ws)
    .orderBy('m.created_at').orderBy('u.email')
    .execute();
}

/** Every workspace the user belongs to, with its owner's address and the user's role there. */
export async function workspacesOf(db: AgentsDb, userId: string) {
  return db
    .selectFrom('members as m').innerJoin('workspaces as w', 'w.id', 'm.workspace_id').leftJoin('users as o', 'o.id', 'w.owner_id')
    .select(['w.id', 'w.name', 'w.tier', 'w.owner_id', 'o.email as owner_email', 'm.role', 'm.created_at'])
    .where('m.user_id', '=', userId)
    .orderBy('m.created_at').orderBy('w.id')
    .execute();
}

export async function setMemberRole(db: AgentsDb, ws: string, userId: string, role: string): Promise<void> {
  await db.updateTable('members').set({ role }).where('workspace_id', '=', ws).where('user_id', '=', userId).execute();
}

export async function deleteMember(db: AgentsDb, ws: string, userId: string): Promise<void> {
  await db.deleteFrom('members').where('workspace_id', '=', ws).where('user_id', '=', userId).execute();
}
