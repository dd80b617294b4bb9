import { sql } from 'kysely';
import type { Dialect } from '../../core/db/database';
import type { StudioDb } from '../db';
import type { Role } from '../schema';
import type { PlanName } from '../../../shared/api/contracts/studio';

/** Users, workspaces and memberships. Every query names the user or workspace it is about. */

export async function userByEmail(db: StudioDb, email: string) {
  return db.selectFrom('users').select(['id', 'email', 'password_hash', 'suspended']).where('email', '=', email).executeTakeFirst();
}

export async function userById(db: StudioDb, uid: number) {
  return db.selectFrom('users').select(['id', 'email', 'password_hash', 'token_version']).where('id', '=', uid).executeTakeFirst();
}

export async function insertUser(db: StudioDb, email: string, passwordHash: string, now: string): Promise<number> {
  const r = await db.insertInto('users').values({ email, password_hash: passwordHash, created_at: now }).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function insertWorkspace(db: StudioDb, name: string, ownerId: number | null, now: string): Promise<number> {
  const r = await db.insertInto('workspaces').values({ name, plan: 'free', owner_id: ownerId, created_at: now }).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

/** Workspace 1 (the legacy token's), without an owner; PostgreSQL's id sequence then continues after it. */
export async function ensureWorkspaceOne(db: StudioDb, dialect: Dialect, now: string): Promise<void> {
  await db.insertInto('workspaces').values({ id: 1, name: 'Workspace 1', plan: 'free', owner_id: null, created_at: now }).onConflict((oc) => oc.column('id').doNothing()).execute();
  if (dialect === 'postgres') {
    await sql`SELECT setval(pg_get_serial_sequence('workspaces', 'id'), GREATEST((SELECT MAX(id) FROM workspaces), 1))`.execute(db);
  }
}

export async function insertMember(db: StudioDb, ws: number, uid: number, role: Role, now: string): Promise<void> {
  await db.insertInto('members').values({ workspace_id: ws, user_id: uid, role, created_at: now }).execute();
}

export async function memberRole(db: StudioDb, ws: number, uid: number): Promise<Role | null> {
  const r = await db.selectFrom('members').select('role').where('workspace_id', '=', ws).where('user_id', '=', uid).executeTakeFirst();
  return r?.role ?? null;
}

/** The user's own workspace first, else the lowest id. */
export async function firstWorkspaceOf(db: StudioDb, uid: number): Promise<number | null> {
  const r = await db
    .selectFrom('members').select('workspace_id').where('user_id', '=', uid)
    .orderBy(sql`role = 'owner'`, 'desc').orderBy('workspace_id').limit(1)
    .executeTakeFirst();
  return r ? Number(r.workspace_id) : null;
}

export async function workspace(db: StudioDb, ws: number) {
  return db.selectFrom('workspaces').select(['id', 'name', 'plan', 'month', 'owner_id']).where('id', '=', ws).executeTakeFirst();
}

export async function listMembers(db: StudioDb, ws: number) {
  return db
    .selectFrom('members as m').innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.email', 'm.role']).where('m.workspace_id', '=', ws)
    .orderBy('m.created_at').orderBy('m.user_id')
    .execute();
}

export async function countMembers(db: StudioDb, ws: number): Promise<number> {
  const r = await db.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n')).where('workspace_id', '=', ws).executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function setMemberRole(db: StudioDb, ws: number, uid: number, role: Role): Promise<void> {
  await db.updateTable('members').set({ role }).where('workspace_id', '=', ws).where('user_id', '=', uid).execute();
}

export async function removeMember(db: StudioDb, ws: number, uid: number): Promise<void> {
  await db.deleteFrom('members').where('workspace_id', '=', ws).where('user_id', '=', uid).execute();
}

/**
 * Everything a session token is checked against, in one statement (every signed-in request runs it): the
 * user's token version, the session row (null when logout removed it or it is another user's) and the
 * user's membership of the workspace (role null when not a member) with the account's state.
 */
export async function sessionState(db: StudioDb, uid: number, sid: string, ws: number) {
  return db
    .selectFrom('users as u')
    .leftJoin('sessions as s', (j) => j.on('s.id', '=', sid).onRef('s.user_id', '=', 'u.id'))
    .leftJoin('members as m', (j) => j.on('m.workspace_id', '=', ws).onRef('m.user_id', '=', 'u.id'))
    .select(['u.token_version', 'u.email', 'u.suspended', 's.expires_at', 'm.role'])
    .where('u.id', '=', uid)
    .executeTakeFirst();
}

/** New password: the token version moves on, so every session token signed before it is over. */
export async function setPassword(db: StudioDb, uid: number, passwordHash: string): Promise<void> {
  await db.updateTable('users').set((eb) => ({ password_hash: passwordHash, token_version: eb('token_version', '+', 1) })).where('id', '=', uid).execute();
}

export async function setSuspended(db: StudioDb, uid: number, suspended: boolean): Promise<boolean> {
  const r = await db.updateTable('users').set({ suspended: suspended ? 1 : 0 }).where('id', '=', uid).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function setPlan(db: StudioDb, ws: number, plan: PlanName): Promise<void> {
  await db.updateTable('workspaces').set({ plan }).where('id', '=', ws).execute();
}

/** The monthly reset: every workspace's allowance month moves on. */
export async function startNextMonthEverywhere(db: StudioDb): Promise<number> {
  const r = await db.updateTable('workspaces').set((eb) => ({ month: eb('month', '+', 1) })).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The demo workspace and its owner (demo mode). */
export async function demoOwner(db: StudioDb) {
  return db
    .selectFrom('workspaces as w').innerJoin('users as u', 'u.id', 'w.owner_id')
    .select(['w.id as ws', 'u.id as uid', 'u.email']).where('u.email', '=', 'demo@studio.local')
    .executeTakeFirst();
}

/** Workspace 1 and its owner's address, if it has one (legacy token). */
export async function workspaceOneOwner(db: StudioDb) {
  return db
    .selectFrom('workspaces as w').leftJoin('users as u', 'u.id', 'w.owner_id')
    .select(['w.id', 'w.owner_id', 'u.email']).where('w.id', '=', 1)
    .executeTakeFirst();
}
