import { conflict, forbidden, notFound } from '../core/errors';
import type { Role } from './context';
import { nowIso, stmt, type StudioDb } from './db';

export interface UserRow {
  id: number;
  email: string;
  password_hash: string;
  suspended: number;
}

export const normEmail = (e: string): string => e.trim().toLowerCase();

export function userByEmail(db: StudioDb, email: string): UserRow | undefined {
  return stmt(db, 'SELECT id, email, password_hash, suspended FROM users WHERE email = ?').get(normEmail(email)) as UserRow | undefined;
}

/** A new user with their own workspace (free plan, balance 0), owner of it. */
export function createUserWithWorkspace(db: StudioDb, email: string, passwordHash: string, workspaceName: string): { uid: number; ws: number } {
  return db.transaction(() => {
    if (userByEmail(db, email)) throw conflict('email already registered');
    const now = nowIso();
    const uid = Number(stmt(db, 'INSERT INTO users (email, password_hash, created_at) VALUES (?, ?, ?)').run(normEmail(email), passwordHash, now).lastInsertRowid);
    const ws = Number(stmt(db, "INSERT INTO workspaces (name, plan, owner_id, created_at) VALUES (?, 'free', ?, ?)").run(workspaceName, uid, now).lastInsertRowid);
    stmt(db, "INSERT INTO members (workspace_id, user_id, role, created_at) VALUES (?, ?, 'owner', ?)").run(ws, uid, now);
    return { uid, ws };
  })();
}

export function membership(db: StudioDb, ws: number, uid: number): Role | null {
  const r = stmt(db, 'SELECT role FROM members WHERE workspace_id = ? AND user_id = ?').get(ws, uid) as { role: Role } | undefined;
  return r?.role ?? null;
}

/** The workspace a login lands in: the one asked for (must be a member), else the user's first own workspace. */
export function loginWorkspace(db: StudioDb, uid: number, asked: number | undefined): number {
  if (asked !== undefined) {
    if (!membership(db, asked, uid)) throw forbidden('not a member of this workspace');
    return asked;
  }
  const r = stmt(db, "SELECT workspace_id FROM members WHERE user_id = ? ORDER BY role = 'owner' DESC, workspace_id LIMIT 1")
    .get(uid) as { workspace_id: number } | undefined;
  if (!r) throw forbidden('not a member of any workspace');
  return r.workspace_id;
}

export function workspaceInfo(db: StudioDb, ws: number): { id: number; name: string; plan: string } {
  const w = stmt(db, 'SELECT id, name, plan FROM workspaces WHERE id = ?').get(ws) as { id: number; name: string; plan: string } | undefined;
  if (!w) throw notFound('workspace not found');
  return w;
}

export function listMembers(db: StudioDb, ws: number) {
  return stmt(db, 'SELECT m.user_id, u.email, m.role FROM members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ? ORDER BY m.created_at, m.user_id')
    .all(ws) as { user_id: number; email: string; role: Role }[];
}

/** The demo workspace and its owner (demo mode), created once. */
export function ensureDemoWorkspace(db: StudioDb, passwordHash: string): void {
  if (userByEmail(db, 'demo@studio.local')) return;
  createUserWithWorkspace(db, 'demo@studio.local', passwordHash, 'Demo workspace');
}

/** Workspace 1 for the legacy token, created without an owner account when missing. */
export function ensureWorkspaceOne(db: StudioDb): void {
  if (stmt(db, 'SELECT 1 FROM workspaces WHERE id = 1').get()) return;
  stmt(db, "INSERT INTO workspaces (id, name, plan, owner_id, created_at) VALUES (1, 'Workspace 1', 'free', NULL, ?)").run(nowIso());
}
