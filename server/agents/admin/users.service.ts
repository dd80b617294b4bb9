import { badRequest, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { billingOf } from '../billing';
import { getWorkspace, type UserRow, type WorkspaceRow } from '../accounts/accounts.service';
import { isOperator } from '../accounts/session';
import { hasTable, iso } from './guard';

export function userById(ctx: AgentsContext, id: string): UserRow {
  const u = ctx.legacyDb.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
  if (!u) throw notFound('user not found');
  return u;
}

/** The workspace an operator action on a user lands in: the one the user owns, else the first they belong to. */
export function homeWorkspace(ctx: AgentsContext, userId: string): WorkspaceRow {
  const row = ctx.legacyDb
    .prepare("SELECT w.* FROM members m JOIN workspaces w ON w.id = m.workspace_id WHERE m.user_id = ? ORDER BY (m.role = 'owner') DESC, m.created_at, w.id LIMIT 1")
    .get(userId) as WorkspaceRow | undefined;
  if (!row) throw notFound('user has no workspace');
  return row;
}

export function presentAdminUser(ctx: AgentsContext, u: UserRow) {
  const ws = ctx.legacyDb
    .prepare('SELECT w.id, w.name, w.tier, w.credits, w.paused, m.role FROM members m JOIN workspaces w ON w.id = m.workspace_id WHERE m.user_id = ? ORDER BY m.created_at, w.id')
    .all(u.id) as { id: string; name: string; tier: string; credits: number; paused: number; role: string }[];
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    admin: isOperator(ctx, u),
    platformRole: u.platform_role,
    suspended: u.suspended === 1,
    twoFactorEnabled: u.totp_enabled === 1,
    created_at: iso(u.created_at),
    workspaces: ws.map((w) => ({ id: w.id, name: w.name, tier: w.tier, credits: w.credits, status: w.paused ? 'paused' : 'active', role: w.role })),
  };
}

/**
 * Adds `amount` credits (negative debits) to a workspace wallet. With the credit ledger present the
 * change is one ledger row (its trigger moves the cached balance); the balance never goes below 0.
 */
export function grantCredits(ctx: AgentsContext, ws: string, amount: number, note: string): number {
  const workspaceCredits = () => {
    const row = ctx.legacyDb.prepare('SELECT credits FROM workspaces WHERE id = ?').get(ws) as { credits: number } | undefined;
    if (!row) throw notFound('workspace not found');
    return row.credits;
  };
  return ctx.legacyDb.transaction(() => {
    const w = { credits: workspaceCredits() };
    const balance = w.credits + amount;
    if (balance < 0) throw badRequest(`amount would take the balance below 0 (balance ${w.credits})`);
    if (hasTable(ctx, 'credit_ledger')) {
      const last = ctx.legacyDb.prepare('SELECT balance FROM credit_ledger WHERE workspace_id = ? ORDER BY id DESC LIMIT 1').get(ws) as { balance: number } | undefined;
      const from = last?.balance ?? 0;
      ctx.legacyDb.prepare("INSERT INTO credit_ledger (workspace_id, delta, balance, reason, note, created_at) VALUES (?, ?, ?, 'admin', ?, ?)").run(ws, amount, from + amount, note, Date.now());
    } else {
      ctx.legacyDb.prepare('UPDATE workspaces SET credits = ? WHERE id = ?').run(balance, ws);
    }
    return workspaceCredits();
  })();
}

export async function workspaceBilling(ctx: AgentsContext, ws: string) {
  return billingOf(await getWorkspace(ctx, ws));
}

/**
 * Deletes an account and the workspaces it owns (their agents, sources, conversations and contacts go
 * with them); memberships elsewhere end. The credit ledger and the operator audit keep their rows.
 */
export function deleteUser(ctx: AgentsContext, id: string): { workspaces: number } {
  return ctx.legacyDb.transaction(() => {
    userById(ctx, id);
    const owned = ctx.legacyDb.prepare('SELECT id FROM workspaces WHERE owner_id = ?').all(id) as { id: string }[];
    for (const w of owned) ctx.legacyDb.prepare('DELETE FROM workspaces WHERE id = ?').run(w.id);
    ctx.legacyDb.prepare('DELETE FROM users WHERE id = ?').run(id);
    return { workspaces: owned.length };
  })();
}
