import { countAll } from '../sql';
import type { AgentsDb } from '../schema';

/** Operator reads and writes of workspaces, their members and their credit ledger (admin side). */

const WORKSPACE_COLUMNS = ['id', 'name', 'owner_id', 'tier', 'credits', 'paused', 'created_at'] as const;

export async function findWorkspace(db: AgentsDb, id: string) {
  return db.selectFrom('workspaces').select(WORKSPACE_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Workspaces whose name contains `search` (any case), whose id is `search`, or whose owner's email contains it. */
function matching(db: AgentsDb, search: string) {
  const like = `%${search.trim().toLowerCase()}%`;
  return db
    .selectFrom('workspaces as w')
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['w.name']), 'like', like),
        eb('w.id', '=', search),
        eb('w.owner_id', 'in', eb.selectFrom('users').select('users.id').where((sub) => sub(sub.fn('lower', ['users.email']), 'like', like))),
      ]),
    );
}

export async function countWorkspacesMatching(db: AgentsDb, search: string): Promise<number> {
  return Number((await matching(db, search).select(countAll().as('n')).executeTakeFirstOrThrow()).n);
}

export async function workspacesMatching(db: AgentsDb, search: string, limit: number, offset: number) {
  return matching(db, search)
    .select(WORKSPACE_COLUMNS.map((c) => `w.${c}` as const))
    .orderBy('w.created_at', 'desc')
    .orderBy('w.id')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function ownerOf(db: AgentsDb, userId: string) {
  return db.selectFrom('users').select(['id', 'email', 'name']).where('id', '=', userId).executeTakeFirst();
}

export async function countMembers(db: AgentsDb, ws: string): Promise<number> {
  return Number((await db.selectFrom('members').select(countAll().as('n')).where('workspace_id', '=', ws).executeTakeFirstOrThrow()).n);
}

export async function membersOf(db: AgentsDb, ws: string) {
  return db
    .selectFrom('members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.name', 'm.role'])
    .where('m.workspace_id', '=', ws)
    .orderBy('m.created_at')
    .execute();
}

/** Changes only the fields given. */
export async function updateWorkspace(db: AgentsDb, id: string, patch: { name?: string; tier?: string; paused?: number }): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await db.updateTable('workspaces').set(patch).where('id', '=', id).execute();
}
