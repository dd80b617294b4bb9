import type { Request } from 'express';
import { z } from 'zod';
import { json, oneOf, text } from '../../../shared/fields';
import type { AppContext } from '../../context';
import { conflict, forbidden, HttpError, unauthorized } from '../../http/errors';
import { optionalSession } from '../../security/auth';
import { P, PLATFORM_WS } from '../../security/platform';
import type { CountedCollection } from '../../store/count-guard';
import type { Doc, Tx } from '../../store/types';

export const TEAM = 'team';
/** Team members (pending invites included) count against a central tenant's plan. */
export const teamPlanCounted: CountedCollection = { coll: TEAM, resource: 'members' };
export const ROLES = ['owner', 'admin', 'exec', 'member', 'viewer'] as const;
const SCOPE = z.enum(['none', 'view', 'edit']);
export const MEMBER_FIELDS = {
  name: text(80),
  ini: text(2),
  role: oneOf(ROLES, 'member'),
  dept: text(60).default('—'),
  email: text(120),
  scopes: json(z.object({ mgmt: SCOPE, ops: SCOPE, sales: SCOPE, support: SCOPE, settings: SCOPE }).partial()),
};

export const TEAM_PLANS = { starter: 3, pro: 10, ent: null } as const;
export type TeamPlan = keyof typeof TEAM_PLANS;

/** Initials as stored: two characters, upper case; NA when none are given (the contract's default). */
export const normIni = (ini: string | undefined) => ((ini ?? '').trim() || 'NA').toUpperCase().slice(0, 2);

export async function teamPlan(tx: Pick<Tx, 'get'>): Promise<TeamPlan> {
  const rec = await tx.get<Doc>('settings', 'teamPlan');
  const k = rec?.planKey;
  return k === 'starter' || k === 'pro' || k === 'ent' ? k : 'pro';
}

const owners = (members: Doc[]) => members.filter((m) => m.role === 'owner' && m.status !== 'invited');

/** The last owner can be neither demoted nor removed (409). */
export function assertKeepsOwner(members: Doc[], id: string, nextRole: string | null): void {
  const target = members.find((m) => m.id === id);
  if (!target || target.role !== 'owner' || target.status === 'invited') return;
  if (nextRole === 'owner') return;
  if (owners(members).length <= 1) throw conflict('last owner', { message: '最後のオーナーは変更・削除できません' });
}

/** Seats used (pending invites included) against the team plan's member limit. */
export async function assertSeat(tx: Tx): Promise<void> {
  const limit = TEAM_PLANS[await teamPlan(tx)];
  if (limit === null) return;
  const used = await tx.count(TEAM);
  if (used >= limit) throw new HttpError(403, 'plan_limit', { resource: 'members', limit, current: used, message: `メンバー上限（${limit}名）に達しています` });
}

/**
 * When the caller is signed in, member management needs the owner or admin role in this
 * workspace (a viewer or member cannot promote anyone). Anonymous demo workspaces are open (auth P);
 * a workspace an account owns is not: dropping the Bearer header (the kit_tid cookie alone) must not
 * let a member or viewer of that workspace promote itself.
 */
export async function assertManager(app: AppContext, req: Request, ws: string, required = false): Promise<Doc | null> {
  const s = await optionalSession(app, req);
  if (!s) {
    if (required) throw forbidden('owner or admin only');
    const tenant = await app.store.get<Doc>(PLATFORM_WS, P.tenants, ws);
    if (tenant?.owner) throw unauthorized('unauthorized', { message: 'ログインが必要です' });
    return null;
  }
  if (s.tenantId !== ws) throw forbidden('owner or admin only');
  const me = s.email ? (await app.store.list(ws, TEAM)).find((m) => m.email === s.email && m.status !== 'invited') : null;
  if (!me || (me.role !== 'owner' && me.role !== 'admin')) throw forbidden('owner or admin only', { message: 'オーナーまたは管理者のみ操作できます' });
  return me;
}
