import { badRequest, conflict, notFound } from '../../core/errors';
import { isUniqueViolation } from '../../core/db/errors';
import type { AgentsContext } from '../context';
import { billingOf } from '../billing';
import { normEmail, type UserRow, type WorkspaceRow } from '../accounts/accounts.service';
import { isOperator } from '../accounts/session';
import { iso } from './guard';
import {
  countUsersMatching, deleteUserRow, deleteWorkspaceRow, emailTaken, endUserSessions, findUser, homeWorkspaceOf, memberWorkspaces, updateUser, usersMatching, workspacesOwnedBy,
} from './users.repository';
import { findWorkspace, updateWorkspace } from './workspaces.repository';
import { postLedger, walletState } from '../billing/ledger';

export async function userById(ctx: AgentsContext, id: string): Promise<UserRow> {
  const u = await findUser(ctx.db, id);
  if (!u) throw notFound('user not found');
  return u;
}

/** The workspace an operator action on a user lands in: the one the user owns, else the first they belong to. */
export async function homeWorkspace(ctx: AgentsContext, userId: string): Promise<WorkspaceRow> {
  const row = await homeWorkspaceOf(ctx.db, userId);
  if (!row) throw notFound('user has no workspace');
  return row;
}

export async function presentAdminUser(ctx: AgentsContext, u: UserRow) {
  const ws = await memberWorkspaces(ctx.db, u.id);
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    admin: await isOperator(ctx, u),
    platformRole: u.platform_role,
    suspended: u.suspended === 1,
    twoFactorEnabled: u.totp_enabled === 1,
    created_at: iso(u.created_at),
    workspaces: ws.map((w) => ({ id: w.id, name: w.name, tier: w.tier, credits: w.credits, status: w.paused ? 'paused' : 'active', role: w.role })),
  };
}

/** A page of accounts whose email or name contains `search`, or whose id it is; newest first. */
export async function searchUsers(ctx: AgentsContext, search: string, limit: number, offset: number) {
  const [total, rows] = await Promise.all([countUsersMatching(ctx.db, search), usersMatching(ctx.db, search, limit, offset)]);
  return { total, users: await Promise.all(rows.map((u) => presentAdminUser(ctx, u))) };
}

/** Name, email and suspension, each only when given; an email another account holds answers 409. */
export async function editUser(ctx: AgentsContext, u: UserRow, patch: { name?: string; email?: string; suspended?: boolean }): Promise<void> {
  const email = patch.email && patch.email !== u.email ? await normEmail(patch.email) : undefined;
  if (email !== undefined && (await emailTaken(ctx.db, email))) throw conflict('email already registered');
  try {
    await updateUser(ctx.db, u.id, {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.email !== undefined ? { email: patch.email } : {}),
      ...(patch.suspended !== undefined ? { suspended: patch.suspended ? 1 : 0 } : {}),
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('email already registered');
    throw err;
  }
}

export async function setPlatformRole(ctx: AgentsContext, id: string, role: string): Promise<void> {
  await updateUser(ctx.db, id, { platform_role: role });
}

/** revoke: every session ends; suspend: the account is suspended and every session ends; restore: the suspension ends. */
export async function sessionAction(ctx: AgentsContext, id: string, action: 'revoke' | 'suspend' | 'restore'): Promise<void> {
  if (action === 'restore') await updateUser(ctx.db, id, { suspended: 0 });
  else await endUserSessions(ctx.db, id, action === 'suspend');
}

/** Tier and paused state of a workspace, each only when given. */
export async function setSubscription(ctx: AgentsContext, ws: string, patch: { tier?: string; status?: 'active' | 'paused' }): Promise<void> {
  await updateWorkspace(ctx.db, ws, { ...(patch.tier !== undefined ? { tier: patch.tier } : {}), ...(patch.status !== undefined ? { paused: patch.status === 'paused' ? 1 : 0 } : {}) });
}

/**
 * Adds `amount` credits (negative debits) to a workspace wallet: one `admin` entry through the credit ledger's one
 * posting path (postLedger), exact under concurrency with every other posting in any process; the balance never goes
 * below 0. Answers the balance the entry left.
 */
export async function grantCredits(ctx: AgentsContext, ws: string, amount: number, note: string): Promise<number> {
  const entry = await postLedger(ctx.db, ws, amount, 'admin', { floor: 0, note });
  if (entry) return entry.balance;
  const w = await walletState(ctx.db, ws);
  if (!w) throw notFound('workspace not found');
  throw badRequest(`amount would take the balance below 0 (balance ${w.credits})`);
}

export async function workspaceBilling(ctx: AgentsContext, ws: string) {
  const w = await findWorkspace(ctx.db, ws);
  if (!w) throw notFound('workspace not found');
  return await billingOf(w);
}

/**
 * Deletes an account and the workspaces it owns (their agents, sources, conversations and contacts go
 * with them); memberships elsewhere end. The credit ledger and the operator audit keep their rows.
 */
export async function deleteUser(ctx: AgentsContext, id: string): Promise<{ workspaces: number }> {
  return ctx.db.transaction().execute(async (tx) => {
    if (!(await findUser(tx, id))) throw notFound('user not found');
    const owned = await workspacesOwnedBy(tx, id);
    for (const w of owned) await deleteWorkspaceRow(tx, w);
    await deleteUserRow(tx, id);
    return { workspaces: owned.length };
  });
}
