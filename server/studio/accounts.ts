import { badRequest, conflict, forbidden, notFound } from '../core/errors';
import { endSessionsOf } from '../core/security/db-sessions';
import { isUniqueViolation } from '../core/db/errors';
import type { Dialect } from '../core/db/database';
import type { Role } from './context';
import { nowIso, type StudioDb } from './db';
import * as accounts from './repositories/accounts.repository';

export const normEmail = (e: string): string => e.trim().toLowerCase();

export function userByEmail(db: StudioDb, email: string) {
  return accounts.userByEmail(db, normEmail(email));
}

const emailTaken = () => conflict('email already registered');

/** A new user with their own workspace (free plan, balance 0), owner of it. Call inside a transaction. */
export async function createUserWithWorkspace(db: StudioDb, email: string, passwordHash: string, workspaceName: string): Promise<{ uid: number; ws: number }> {
  if (await userByEmail(db, email)) throw emailTaken();
  const now = nowIso();
  let uid: number;
  try {
    uid = await accounts.insertUser(db, normEmail(email), passwordHash, now);
  } catch (err) {
    // Two registrations of one address at once: the second meets the unique index.
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
  const ws = await accounts.insertWorkspace(db, workspaceName, uid, now);
  await accounts.insertMember(db, ws, uid, 'owner', now);
  return { uid, ws };
}

export function membership(db: StudioDb, ws: number, uid: number): Promise<Role | null> {
  return accounts.memberRole(db, ws, uid);
}

/** The workspace a login lands in: the one asked for (must be a member), else the user's first own workspace. */
export async function loginWorkspace(db: StudioDb, uid: number, asked: number | undefined): Promise<number> {
  if (asked !== undefined) {
    if (!(await membership(db, asked, uid))) throw forbidden('not a member of this workspace');
    return asked;
  }
  const ws = await accounts.firstWorkspaceOf(db, uid);
  if (ws === null) throw forbidden('not a member of any workspace');
  return ws;
}

export async function workspaceInfo(db: StudioDb, ws: number): Promise<{ id: number; name: string; plan: string }> {
  const w = await accounts.workspace(db, ws);
  if (!w) throw notFound('workspace not found');
  return { id: Number(w.id), name: w.name, plan: w.plan };
}

export async function listMembers(db: StudioDb, ws: number) {
  return (await accounts.listMembers(db, ws)).map((m) => ({ user_id: Number(m.user_id), email: m.email, role: m.role }));
}

/** The demo workspace and its owner (demo mode), created once. */
export async function ensureDemoWorkspace(db: StudioDb, passwordHash: string): Promise<void> {
  if (await userByEmail(db, 'demo@studio.local')) return;
  try {
    await db.transaction().execute((trx) => createUserWithWorkspace(trx, 'demo@studio.local', passwordHash, 'Demo workspace'));
  } catch (err) {
    // Another process created it at the same moment.
    if (!(err instanceof Error && err.message === 'email already registered')) throw err;
  }
}

/** Workspace 1 for the legacy token, created without an owner account when missing. */
export function ensureWorkspaceOne(db: StudioDb, dialect: Dialect): Promise<void> {
  return accounts.ensureWorkspaceOne(db, dialect, nowIso());
}

/** Operator: suspend or reinstate an account; false when there is no such user. */
export function suspendUser(db: StudioDb, uid: number, suspended: boolean): Promise<boolean> {
  return accounts.setSuspended(db, uid, suspended);
}

/** The owner changes a member's role; the owner's own role stays. */
export async function changeMemberRole(db: StudioDb, ws: number, uid: number, role: Exclude<Role, 'owner'>) {
  const current = await membership(db, ws, uid);
  if (!current) throw notFound('member not found');
  if (current === 'owner') throw badRequest('the owner role cannot be changed');
  await accounts.setMemberRole(db, ws, uid, role);
  return listMembers(db, ws);
}

export async function removeMemberFrom(db: StudioDb, ws: number, uid: number) {
  const current = await membership(db, ws, uid);
  if (!current) throw notFound('member not found');
  if (current === 'owner') throw badRequest('the owner cannot remove itself');
  await accounts.removeMember(db, ws, uid);
  return listMembers(db, ws);
}

export async function accountOf(db: StudioDb, uid: number): Promise<{ email: string; password_hash: string }> {
  const u = await accounts.userById(db, uid);
  if (!u) throw notFound('user not found');
  return { email: u.email, password_hash: u.password_hash };
}

/** A new password ends every session of the account (the token version moves on, the session rows go). */
export async function replacePassword(db: StudioDb, uid: number, passwordHash: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await accounts.setPassword(trx, uid, passwordHash);
    await endSessionsOf(trx, uid);
  });
}
