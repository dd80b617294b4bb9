import type { Request } from 'express';
import { actorOf } from '../../security/auth';
import { workspaceRole } from '../../security/policy';
import { MEMBER_FIELDS } from '../../../../shared/api/contracts/workspace';
import { conflict, forbidden } from '../../../core/errors';
import type { CountedCollection } from '../../store/count-guard';
import type { Doc, Tx } from '../../store/types';
import { declareLookup } from '../../store/lookups';
import { collectionSchema, derivedText, stamp } from '../../http/collection-schema';

export const TEAM = 'team';
/** Team members (pending invites included) count against a central tenant's plan. */
export const teamPlanCounted: CountedCollection = { coll: TEAM, resource: 'members' };

/** A team member as routes and sync pushes accept it; invites and sign-ups add their state and the account. */
export const teamSchema = collectionSchema(TEAM, MEMBER_FIELDS, { status: derivedText(20), invitedAt: stamp(), joinedAt: stamp(), account: derivedText(200) });

const TEAM_PLANS = { starter: 3, pro: 10, ent: null } as const;
export type TeamPlan = keyof typeof TEAM_PLANS;

/** Initials as stored: two characters, upper case; NA when none are given (the contract's default). */
export const normIni = (ini: string | undefined) => ((ini ?? '').trim() || 'NA').toUpperCase().slice(0, 2);

export async function teamPlan(tx: Pick<Tx, 'get'>): Promise<TeamPlan> {
  const rec = await tx.get<Doc>('settings', 'teamPlan');
  const k = rec?.planKey;
  return k === 'starter' || k === 'pro' || k === 'ent' ? k : 'pro';
}

/** Members are found by role (the owners), by email and by account: a write never reads the whole team. */
const TEAM_BY_ROLE = declareLookup(TEAM, 'role');
export const TEAM_BY_EMAIL = declareLookup(TEAM, 'email');
const TEAM_BY_ACCOUNT = declareLookup(TEAM, 'account');

/** A member and every owner of the workspace: all the owner rules read. */
export async function memberWithOwners(tx: Pick<Tx, 'get' | 'find'>, id: string): Promise<{ cur: Doc | null; members: Doc[] }> {
  const cur = await tx.get<Doc>(TEAM, id);
  const ownerRows = await tx.find<Doc>(TEAM, TEAM_BY_ROLE.field, 'owner');
  return { cur, members: cur ? [cur, ...ownerRows.filter((m) => m.id !== cur.id)] : ownerRows };
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
  if (used >= limit) throw forbidden('plan_limit', { resource: 'members', limit, current: used, message: `メンバー上限（${limit}名）に達しています` });
}

/** The caller's role in its workspace (anonymous workspace holder and bench operator: owner). */
function callerRole(req: Request): string | null {
  return workspaceRole(actorOf(req))?.role ?? null;
}

/**
 * Owners are protected: only an owner may make someone owner, or change or remove an owner
 * (the route's own check already requires owner or admin).
 */
export function assertOwnerRules(req: Request, target: Doc | null, nextRole: unknown): void {
  // An operator acting in the workspace (assist mode) neither makes nor changes nor removes an owner or admin.
  const a = actorOf(req);
  const privileged = (r: unknown) => r === 'owner' || r === 'admin';
  if (a.kind === 'member' && a.assist && (privileged(nextRole) || privileged(target?.role))) {
    throw forbidden('assist_forbidden', { message: 'サポート(代理操作)中はオーナー・管理者の権限を変更できません' });
  }
  if (callerRole(req) === 'owner') return;
  if (nextRole === 'owner' || target?.role === 'owner') {
    throw forbidden('owner only', { message: 'オーナーの変更・削除、オーナーへの変更はオーナーのみ行えます' });
  }
}
