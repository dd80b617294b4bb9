import type { Insertable } from 'kysely';
import { sql } from 'kysely';
import type { AgentsDb, UsersTable } from '../schema';

/** Accounts. Every query names the account it is about (by id or by its normalised address). */

const USER_COLUMNS = [
  'id', 'email', 'name', 'password_hash', 'token_version', 'totp_secret', 'totp_pending', 'totp_enabled',
  'theme', 'suspended', 'platform_role', 'email_verified', 'created_at',
] as const;
const AUTH_COLUMNS = ['id', 'email', 'token_version', 'suspended', 'platform_role', 'email_verified'] as const;

export async function userById(db: AgentsDb, id: string) {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function userByEmail(db: AgentsDb, email: string) {
  return db.selectFrom('users').select(USER_COLUMNS).where('email', '=', email).executeTakeFirst();
}

export async function userIdByEmail(db: AgentsDb, email: string) {
  return db.selectFrom('users').select(['id', 'email']).where('email', '=', email).executeTakeFirst();
}

export async function userEmail(db: AgentsDb, id: string): Promise<string | null> {
  const r = await db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirst();
  return r?.email ?? null;
}

export async function userContact(db: AgentsDb, id: string) {
  return db.selectFrom('users').select(['email', 'name']).where('id', '=', id).executeTakeFirst();
}

/** The columns a session check needs (an impersonating operator's account). */
export async function authUser(db: AgentsDb, id: string) {
  return db.selectFrom('users').select(AUTH_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/**
 * One indexed query for every signed-in request: the account's session-check columns and the workspace
 * it acts in with its role there (the one it switched to while still a member of it, else the first it
 * joined); `ws` and `role` are null when it belongs to none.
 */
export async function userWithMembership(db: AgentsDb, id: string) {
  return db
    .selectFrom('users as u')
    .leftJoin('members as m', 'm.user_id', 'u.id')
    .select(['u.id', 'u.email', 'u.token_version', 'u.suspended', 'u.platform_role', 'u.email_verified', 'm.workspace_id as ws', 'm.role'])
    .where('u.id', '=', id)
    .orderBy((eb) => eb.case().when('m.workspace_id', '=', eb.ref('u.active_workspace_id')).then(sql.lit(0)).else(sql.lit(1)).end())
    .orderBy('m.created_at')
    .orderBy('m.workspace_id')
    .limit(1)
    .executeTakeFirst();
}

export async function insertUser(db: AgentsDb, u: Insertable<UsersTable>): Promise<void> {
  await db.insertInto('users').values(u).execute();
}

/** A new password hash; the token version moves on, so every earlier token stops working. */
export async function setPasswordHash(db: AgentsDb, id: string, hash: string): Promise<void> {
  await db.updateTable('users').set((eb) => ({ password_hash: hash, token_version: eb('token_version', '+', 1) })).where('id', '=', id).execute();
}

export async function setTotpPending(db: AgentsDb, id: string, sealed: string): Promise<void> {
  await db.updateTable('users').set({ totp_pending: sealed }).where('id', '=', id).execute();
}

/** The pending secret becomes the one login checks. */
export async function enableTotp(db: AgentsDb, id: string): Promise<void> {
  await db.updateTable('users').set((eb) => ({ totp_secret: eb.ref('totp_pending'), totp_pending: null, totp_enabled: 1 })).where('id', '=', id).execute();
}

export async function disableTotp(db: AgentsDb, id: string): Promise<void> {
  await db.updateTable('users').set({ totp_secret: null, totp_enabled: 0 }).where('id', '=', id).execute();
}

export async function setTheme(db: AgentsDb, id: string, theme: string): Promise<void> {
  await db.updateTable('users').set({ theme }).where('id', '=', id).execute();
}

export async function setActiveWorkspace(db: AgentsDb, id: string, ws: string): Promise<void> {
  await db.updateTable('users').set({ active_workspace_id: ws }).where('id', '=', id).execute();
}

export async function markEmailVerified(db: AgentsDb, id: string): Promise<void> {
  await db.updateTable('users').set({ email_verified: 1 }).where('id', '=', id).execute();
}
