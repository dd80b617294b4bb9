import { createHash, randomBytes } from 'node:crypto';
import { badRequest, conflict, notFound, paymentRequired } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { TIERS } from '../../../shared/api/contracts/agents-values';
import { paidTier } from '../billing/billing.service';

/** Seats a tier allows: members plus open invitations, the owner included. */
const TIER_SEATS: Record<string, number> = { free: 2, starter: 5, pro: 15, business: 50 };
/** API keys a workspace may hold at once. */
const MAX_API_KEYS = 20;

interface WorkspaceRecord {
  id: string;
  name: string;
  owner_id: string;
  tier: string;
  credits: number;
  paused: number;
  created_at: number;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function seats(ctx: AgentsContext, ws: string, tier: string) {
  const m = (ctx.legacyDb.prepare('SELECT COUNT(*) AS n FROM members WHERE workspace_id = ?').get(ws) as { n: number }).n;
  const i = (ctx.legacyDb.prepare('SELECT COUNT(*) AS n FROM invitations WHERE workspace_id = ?').get(ws) as { n: number }).n;
  return { used: m + i, limit: TIER_SEATS[tier] ?? TIER_SEATS.free };
}

export function workspaceRecord(ctx: AgentsContext, ws: string, role: string) {
  const w = ctx.legacyDb.prepare('SELECT id, name, owner_id, tier, credits, paused, created_at FROM workspaces WHERE id = ?').get(ws) as WorkspaceRecord | undefined;
  if (!w) throw notFound('workspace not found');
  return {
    id: w.id,
    name: w.name,
    tier: w.tier,
    owner_id: w.owner_id,
    role,
    credits: w.credits,
    paused: w.paused === 1,
    seats: seats(ctx, ws, w.tier),
    created_at: iso(w.created_at),
  };
}

const rank = (tier: string) => TIERS.indexOf(tier);

/**
 * The owner renames the workspace or changes its tier. A raise needs a subscription of at least that tier
 * (402 `subscription required`, nothing changed); a downgrade or the same tier is always open.
 * Operators set any tier through PATCH /api/admin/workspaces/{id}.
 */
export async function updateWorkspace(ctx: AgentsContext, ws: string, patch: { name?: string; tier?: string }): Promise<void> {
  if (patch.tier !== undefined) {
    const current = (ctx.legacyDb.prepare('SELECT tier FROM workspaces WHERE id = ?').get(ws) as { tier: string }).tier;
    const paid = await paidTier(ctx, ws);
    if (rank(patch.tier) > rank(current) && rank(patch.tier) > rank(paid.tier)) {
      throw paymentRequired('subscription required', { tier: patch.tier, paidTier: paid.tier, subscription: paid.status });
    }
  }
  if (patch.name !== undefined) ctx.legacyDb.prepare('UPDATE workspaces SET name = ? WHERE id = ?').run(patch.name, ws);
  if (patch.tier !== undefined) ctx.legacyDb.prepare('UPDATE workspaces SET tier = ? WHERE id = ?').run(patch.tier, ws);
}

/** Every workspace the user belongs to, its role in each, and which one its sessions act in. */
export function userWorkspaces(ctx: AgentsContext, userId: string, activeWs: string) {
  const rows = ctx.legacyDb
    .prepare(
      'SELECT w.id, w.name, w.tier, w.owner_id, o.email AS owner_email, m.role, m.created_at FROM members m JOIN workspaces w ON w.id = m.workspace_id ' +
        'LEFT JOIN users o ON o.id = w.owner_id WHERE m.user_id = ? ORDER BY m.created_at, w.id',
    )
    .all(userId) as { id: string; name: string; tier: string; owner_id: string; owner_email: string | null; role: string; created_at: number }[];
  return rows.map((r) => ({ id: r.id, name: r.name, tier: r.tier, role: r.role, owner: { id: r.owner_id, email: r.owner_email }, joined_at: iso(r.created_at), active: r.id === activeWs }));
}

/** Makes a workspace the user belongs to the one its sessions act in; any other is not found (nothing changes). */
export function switchWorkspace(ctx: AgentsContext, userId: string, ws: string): { ws: string; role: string } {
  const m = ctx.legacyDb.prepare('SELECT role FROM members WHERE workspace_id = ? AND user_id = ?').get(ws, userId) as { role: string } | undefined;
  if (!m) throw notFound('workspace not found');
  ctx.legacyDb.prepare('UPDATE users SET active_workspace_id = ? WHERE id = ?').run(ws, userId);
  return { ws, role: m.role };
}

interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  role: string;
  created_at: number;
}
interface InvitationRow {
  id: string;
  email: string;
  role: string;
  created_at: number;
}

export function listMembers(ctx: AgentsContext, ws: string) {
  const members = ctx.legacyDb
    .prepare('SELECT m.user_id, u.email, u.name, m.role, m.created_at FROM members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ? ORDER BY m.created_at, u.email')
    .all(ws) as MemberRow[];
  const invites = ctx.legacyDb.prepare('SELECT id, email, role, created_at FROM invitations WHERE workspace_id = ? ORDER BY created_at, email').all(ws) as InvitationRow[];
  return [
    ...members.map((m) => ({ id: m.user_id, user_id: m.user_id, email: m.email, name: m.name, role: m.role, status: 'active', created_at: iso(m.created_at) })),
    ...invites.map((i) => ({ id: i.id, user_id: null, email: i.email, name: '', role: i.role, status: 'invited', created_at: iso(i.created_at) })),
  ];
}

export function memberView(ctx: AgentsContext, ws: string, id: string) {
  const found = listMembers(ctx, ws).find((m) => m.id === id);
  if (!found) throw notFound('member not found');
  return found;
}

export function changeRole(ctx: AgentsContext, ws: string, id: string, role: string) {
  const current = memberView(ctx, ws, id);
  if (current.role === 'owner') throw badRequest('the owner role cannot be changed');
  if (current.status === 'invited') ctx.legacyDb.prepare('UPDATE invitations SET role = ? WHERE id = ? AND workspace_id = ?').run(role, id, ws);
  else ctx.legacyDb.prepare('UPDATE members SET role = ? WHERE user_id = ? AND workspace_id = ?').run(role, id, ws);
  return memberView(ctx, ws, id);
}

export function removeMember(ctx: AgentsContext, ws: string, id: string): void {
  const current = memberView(ctx, ws, id);
  if (current.role === 'owner') throw badRequest('the owner cannot be removed');
  if (current.status === 'invited') ctx.legacyDb.prepare('DELETE FROM invitations WHERE id = ? AND workspace_id = ?').run(id, ws);
  else ctx.legacyDb.prepare('DELETE FROM members WHERE user_id = ? AND workspace_id = ?').run(id, ws);
}

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  created_at: number;
  last_used_at: number | null;
}
const presentKey = (k: KeyRow) => ({ id: k.id, name: k.name, prefix: k.prefix, created_at: iso(k.created_at), last_used_at: iso(k.last_used_at) });
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export function listKeys(ctx: AgentsContext, ws: string) {
  return (ctx.legacyDb.prepare('SELECT id, name, prefix, created_at, last_used_at FROM api_keys WHERE workspace_id = ? ORDER BY created_at DESC, id').all(ws) as KeyRow[]).map(presentKey);
}

/** A new `sk_live_…` key: the secret is returned here only; the store keeps its SHA-256. */
export function createKey(ctx: AgentsContext, ws: string, userId: string, name: string) {
  const secret = `sk_live_${randomBytes(24).toString('base64url')}`;
  const id = newId('key');
  const now = Date.now();
  ctx.legacyDb.transaction(() => {
    const n = (ctx.legacyDb.prepare('SELECT COUNT(*) AS n FROM api_keys WHERE workspace_id = ?').get(ws) as { n: number }).n;
    if (n >= MAX_API_KEYS) throw conflict(`at most ${MAX_API_KEYS} API keys per workspace`);
    ctx.legacyDb.prepare('INSERT INTO api_keys (id, workspace_id, name, prefix, secret_hash, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(id, ws, name, secret.slice(0, 12), hashSecret(secret), userId, now);
  })();
  return { key: presentKey({ id, name, prefix: secret.slice(0, 12), created_at: now, last_used_at: null }), secret };
}

export function deleteKey(ctx: AgentsContext, ws: string, id: string): void {
  const r = ctx.legacyDb.prepare('DELETE FROM api_keys WHERE id = ? AND workspace_id = ?').run(id, ws);
  if (r.changes === 0) throw notFound('API key not found');
}
