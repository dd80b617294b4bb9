import { countAll } from '../sql';
import type { AgentsDb } from '../schema';

/** Operator reads and writes of user accounts and their memberships (admin side of the users table). */

const USER_COLUMNS = [
  'id', 'email', 'name', 'password_hash', 'token_version', 'totp_secret', 'totp_pending', 'totp_enabled', 'theme', 'suspended', 'platform_role', 'email_verified', 'created_at',
] as const;

export async function findUser(db: AgentsDb, id: string) {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function emailOfUser(db: AgentsDb, id: string): Promise<string | undefined> {
  return (await db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirst())?.email;
}

export async function emailTaken(db: AgentsDb, email: string): Promise<boolean> {
  return !!(await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst());
}

/** Users whose email or name contains `search` (any case), or whose id is `search`. */
function matching(db: AgentsDb, search: string) {
  const like = `%${search.trim().toLowerCase()}%`;
  return db
    .selectFrom('users')
    .where((eb) => eb.or([eb(eb.fn('lower', ['email']), 'like', like), eb(eb.fn('lower', ['name']), 'like', like), eb('id', '=', search)]));
}

export async function countUsersMatching(db: AgentsDb, search: string): Promise<number> {
  return Number((await matching(db, search).select(countAll().as('n')).executeTakeFirstOrThrow()).n);
}

export async function usersMatching(db: AgentsDb, search: string, limit: number, offset: number) {
  return matching(db, search).select(USER_COLUMNS).orderBy('created_at', 'desc').orderBy('id').limit(limit).offset(offset).execute();
}

/** Changes only the fields given. */
export async function updateUser(db: AgentsDb, id: string, patch: { name?: string; email?: string; suspended?: number; platform_role?: string }): Promise<void> {
  if (Object.keys(patch).length === 0) return;
  await db.updateTable('users').set(patch).where('id', '=', id).execute();
}

/** Ends every session of the user (token version bump); with `suspend` the account is suspended in the same statement. */
export async function endUserSessions(db: AgentsDb, id: string, suspend: boolean): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ token_version: eb('token_version', '+', 1), ...(suspend ? { suspended: 1 } : {}) }))
    .where('id', '=', id)
    .execute();
}

/** The user's workspaces with their role there, oldest membership first. */
export async function memberWorkspaces(db: AgentsDb, userId: string) {
  return db
    .selectFrom('members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['w.id', 'w.name', 'w.tier', 'w.credits', 'w.paused', 'm.role'])
    .where('m.user_id', '=', userId)
    .orderBy('m.created_at')
    .orderBy('w.id')
    .execute();
}

/** The workspace the user owns, else the first they joined. */
export async function homeWorkspaceOf(db: AgentsDb, userId: string) {
  return db
    .selectFrom('members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['w.id', 'w.name', 'w.owner_id', 'w.tier', 'w.credits', 'w.paused', 'w.created_at'])
    .where('m.user_id', '=', userId)
    .orderBy((eb) => eb.case().when('m.role', '=', 'owner').then(0).else(1).end())
    .orderBy('m.created_at')
    .orderBy('w.id')
    .limit(1)
    .executeTakeFirst();
}

export async function workspacesOwnedBy(db: AgentsDb, userId: string): Promise<string[]> {
  return (await db.selectFrom('workspaces').select('id').where('owner_id', '=', userId).execute()).map((w) => w.id);
}

export async function deleteWorkspaceRow(db: AgentsDb, id: string): Promise<void> {
  await db.deleteFrom('workspaces').where('id', '=', id).execute();
}

export async function deleteUserRow(db: AgentsDb, id: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}
