import { createHash, randomBytes } from 'node:crypto';
import { badRequest, conflict, notFound, paymentRequired } from '../../core/errors';
import type { AgentsContext } from '../context';
import type { AgentsDb } from '../schema';
import { newId } from '../ids';
import { TIERS } from '../../../shared/api/contracts/agents-values';
import { paidTier } from '../billing/billing.service';
import { lockWorkspace, updateWorkspaceRow, workspaceById } from './workspaces.repository';
import { deleteMember, membersOf, memberRole, seatsTaken, setMemberRole, workspacesOf } from './members.repository';
import { deleteInvitation, invitationsOf, setInvitationRole } from './invitations.repository';
import { setActiveWorkspace } from '../accounts/users.repository';
import { countKeys, deleteKey as deleteKeyRow, insertKey, keysOf } from './api-keys.repository';

/** Seats a tier allows: members plus open invitations, the owner included. */
const TIER_SEATS: Record<string, number> = { free: 2, starter: 5, pro: 15, business: 50 };
/** API keys a workspace may hold at once. */
const MAX_API_KEYS = 20;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export async function seats(db: AgentsDb, ws: string, tier: string) {
  return { used: await seatsTaken(db, ws), limit: TIER_SEATS[tier] ?? TIER_SEATS.free };
}

export async function workspaceRecord(ctx: AgentsContext, ws: string, role: string) {
  const w = await workspaceById(ctx.db, ws);
  if (!w) throw notFound('workspace not found');
  return {
    id: w.id,
    name: w.name,
    tier: w.tier,
    owner_id: w.owner_id,
    role,
    credits: w.credits,
    paused: w.paused === 1,
    seats: await seats(ctx.db, ws, w.tier),
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
    const current = (await workspaceById(ctx.db, ws))?.tier ?? 'free';
    const paid = await paidTier(ctx, ws);
    if (rank(patch.tier) > rank(current) && rank(patch.tier) > rank(paid.tier)) {
      throw paymentRequired('subscription required', { tier: patch.tier, paidTier: paid.tier, subscription: paid.status });
    }
  }
  await updateWorkspaceRow(ctx.db, ws, { ...(patch.name !== undefined ? { name: patch.name } : {}), ...(patch.tier !== undefined ? { tier: patch.tier } : {}) });
}

/** Every workspace the user belongs to, its role in each, and which one its sessions act in. */
export async function userWorkspaces(ctx: AgentsContext, userId: string, activeWs: string) {
  const rows = await workspacesOf(ctx.db, userId);
  return rows.map((r) => ({ id: r.id, name: r.name, tier: r.tier, role: r.role, owner: { id: r.owner_id, email: r.owner_email }, joined_at: iso(r.created_at), active: r.id === activeWs }));
}

/** Makes a workspace the user belongs to the one its sessions act in; any other is not found (nothing changes). */
export async function switchWorkspace(ctx: AgentsContext, userId: string, ws: string): Promise<{ ws: string; role: string }> {
  const role = await memberRole(ctx.db, ws, userId);
  if (!role) throw notFound('workspace not found');
  await setActiveWorkspace(ctx.db, userId, ws);
  return { ws, role };
}

export async function listMembers(db: AgentsDb, ws: string) {
  const [members, invites] = await Promise.all([membersOf(db, ws), invitationsOf(db, ws)]);
  return [
    ...members.map((m) => ({ id: m.user_id, user_id: m.user_id as string | null, email: m.email, name: m.name, role: m.role, status: 'active', created_at: iso(m.created_at) })),
    ...invites.map((i) => ({ id: i.id, user_id: null, email: i.email, name: '', role: i.role, status: 'invited', created_at: iso(i.created_at) })),
  ];
}

export async function memberView(db: AgentsDb, ws: string, id: string) {
  const found = (await listMembers(db, ws)).find((m) => m.id === id);
  if (!found) throw notFound('member not found');
  return found;
}

export async function changeRole(ctx: AgentsContext, ws: string, id: string, role: string) {
  const current = await memberView(ctx.db, ws, id);
  if (current.role === 'owner') throw badRequest('the owner role cannot be changed');
  if (current.status === 'invited') await setInvitationRole(ctx.db, ws, id, role);
  else await setMemberRole(ctx.db, ws, id, role);
  return memberView(ctx.db, ws, id);
}

export async function removeMember(ctx: AgentsContext, ws: string, id: string): Promise<void> {
  const current = await memberView(ctx.db, ws, id);
  if (current.role === 'owner') throw badRequest('the owner cannot be removed');
  if (current.status === 'invited') await deleteInvitation(ctx.db, ws, id);
  else await deleteMember(ctx.db, ws, id);
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

export async function listKeys(ctx: AgentsContext, ws: string) {
  return (await keysOf(ctx.db, ws)).map(presentKey);
}

/** A new `sk_live_…` key: the secret is returned here only; the store keeps its SHA-256. */
export async function createKey(ctx: AgentsContext, ws: string, userId: string, name: string) {
  const secret = `sk_live_${randomBytes(24).toString('base64url')}`;
  const id = newId('key');
  const now = Date.now();
  await ctx.db.transaction().execute(async (tx) => {
    // The workspace row is locked: two concurrent creations never both pass the count.
    await lockWorkspace(tx, ws);
    if ((await countKeys(tx, ws)) >= MAX_API_KEYS) throw conflict(`at most ${MAX_API_KEYS} API keys per workspace`);
    await insertKey(tx, { id, workspace_id: ws, name, prefix: secret.slice(0, 12), secret_hash: hashSecret(secret), created_by: userId, created_at: now });
  });
  return { key: presentKey({ id, name, prefix: secret.slice(0, 12), created_at: now, last_used_at: null }), secret };
}

export async function deleteKey(ctx: AgentsContext, ws: string, id: string): Promise<void> {
  if (!(await deleteKeyRow(ctx.db, ws, id))) throw notFound('API key not found');
}
