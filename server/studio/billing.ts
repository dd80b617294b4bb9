import { randomBytes } from 'node:crypto';
import { notFound, paymentRequired } from '../core/errors';
import type { StudioContext } from './context';
import { nowIso, type StudioDb } from './db';
import { countMembers, setPlan, startNextMonthEverywhere, workspace } from './repositories/accounts.repository';
import * as credits from './repositories/credits.repository';
import { PLAN_NAMES, type PlanName } from '../../shared/api/contracts/studio';
import type { Pass, Surface } from './schema';

export { type PlanName, type Pass, type Surface };

export type AllowanceKind = 'posts' | 'ai_units' | 'accounts';
export type Allowances = Record<AllowanceKind, number | null>;

/** Monthly allowances per plan (null = unlimited). */
const PLANS: Record<PlanName, Allowances> = {
  free: { posts: 30, ai_units: 50, accounts: 1 },
  starter: { posts: 200, ai_units: 500, accounts: 3 },
  pro: { posts: 1000, ai_units: 1500, accounts: 5 },
  business: { posts: null, ai_units: 3000, accounts: 15 },
};

/** The credit cost map. */
const COSTS = { draft: 1, hashtags: 1, image: 12, image_reference: 12, frontier_video: 120, audio_clip: 8 } as const;
/** Generation prices per surface (hf_image, hf_video, hf_audio). */
export const SURFACE_PRICE: Record<Surface, number> = { image: 12, video: 120, audio: 8 };
/** An influencer analysis is priced as a draft. */
export const ANALYZE_COST = COSTS.draft;

const limitReached = (kind: AllowanceKind, limit: number) =>
  paymentRequired('limit_reached', { kind, limit, upgrade: true, message: `The ${kind} allowance of your plan (${limit} a month) is used up.` });
export const notEnoughCredits = () => paymentRequired('Not enough credits for this generation.', { upgrade: true });
export const outOfCredits = () => paymentRequired('out_of_credits', { upgrade: true, message: 'Not enough credits for this analysis.' });

interface WsRow {
  id: number;
  plan: PlanName;
  month: number;
}

async function wsRow(db: StudioDb, ws: number): Promise<WsRow> {
  const row = await workspace(db, ws);
  if (!row) throw notFound('workspace not found');
  return { id: Number(row.id), plan: row.plan, month: Number(row.month) };
}

export async function requireWorkspace(db: StudioDb, ws: number): Promise<void> {
  await wsRow(db, ws);
}

async function usageOf(db: StudioDb, w: WsRow): Promise<Record<AllowanceKind, number>> {
  const u = await credits.usageIn(db, w.id, w.month);
  return { posts: u.posts, ai_units: u.ai_units, accounts: await countMembers(db, w.id) };
}

/**
 * Refuse with 402 limit_reached when `adding` more would pass the plan's allowance; else the limit (null:
 * unlimited). For posts and ai_units this read is only the fast path: `meter` with the limit is the authority.
 */
export async function checkAllowance(db: StudioDb, ws: number, kind: AllowanceKind, adding = 1): Promise<number | null> {
  if (kind === 'accounts') {
    const w = await wsRow(db, ws);
    const limit = (PLANS[w.plan] ?? PLANS.free).accounts;
    if (limit !== null && (await countMembers(db, ws)) + adding > limit) throw limitReached(kind, limit);
    return limit;
  }
  // Posts and AI units: the plan and the month's usage in one read.
  const u = await credits.planAndUsage(db, ws);
  if (!u) throw notFound('workspace not found');
  const limit = (PLANS[u.plan] ?? PLANS.free)[kind];
  if (limit !== null && u[kind] + adding > limit) throw limitReached(kind, limit);
  return limit;
}

/**
 * A generation's charge in one read: 402 limit_reached when the month's AI units are used up, else the pass
 * that covers it (then it costs nothing) or the surface's price, and the plan's ai_units limit (null: unlimited)
 * that the metering write must hold to (this read is only the fast path).
 */
export async function generationCharge(db: StudioDb, ws: number, model: string, surface: Surface): Promise<{ charge: number; pass: Pass | null; limit: number | null }> {
  const state = await credits.planUsageAndPasses(db, ws, nowIso());
  if (!state) throw notFound('workspace not found');
  const limit = (PLANS[state.plan] ?? PLANS.free).ai_units;
  if (limit !== null && state.ai_units + 1 > limit) throw limitReached('ai_units', limit);
  const pass = firstCovering(state.passes, model, surface);
  return { charge: pass ? 0 : SURFACE_PRICE[surface], pass, limit };
}

/**
 * Meter posts or ai_units in the workspace's current allowance month (call inside the write's transaction):
 * one conditional upsert that counts only while usage stays within `limit` (null: unlimited), so it is the
 * authority on the allowance even when requests in several processes read the same usage at once; 402
 * limit_reached (the transaction rolls back) when it would pass it.
 */
export async function meter(db: StudioDb, ws: number, kind: 'posts' | 'ai_units', limit: number | null, n = 1): Promise<void> {
  if (!(await credits.addUsage(db, ws, kind, n, limit))) throw limitReached(kind, limit!);
}

export const aiUnitsUsedUp = (limit: number) => limitReached('ai_units', limit);

export const balanceOf = credits.balanceOf;

export type LedgerReason = 'grant' | 'charge' | 'refund' | 'analyze';

/** Credits in (grant, refund): the entry and the balance, in the caller's transaction. Returns the balance. */
export async function credit(db: StudioDb, ws: number, amount: number, reason: 'grant' | 'refund', jobId: string | null = null, note: string | null = null): Promise<number> {
  await credits.appendLedger(db, ws, amount, reason, jobId, note, nowIso());
  return credits.addToBalance(db, ws, amount);
}

/** Operator grant (or correction, when negative) to a workspace that exists; returns the balance. */
export async function grantCredits(db: StudioDb, ws: number, amount: number, note: string | null): Promise<number> {
  await requireWorkspace(db, ws);
  return db.transaction().execute((trx) => credit(trx, ws, amount, 'grant', null, note));
}

/**
 * Credits out (charge, analyze), in the caller's transaction. `overdraw` false: taken only while the
 * balance covers it (one conditional UPDATE; null when it does not). True (soft enforcement): taken anyway.
 */
export async function debit(db: StudioDb, ws: number, cost: number, reason: 'charge' | 'analyze', opts: { overdraw: boolean; jobId?: string | null; note?: string | null }): Promise<number | null> {
  const balance = opts.overdraw ? await credits.addToBalance(db, ws, -cost) : await credits.spendIfCovered(db, ws, cost);
  if (balance === null) return null;
  await credits.appendLedger(db, ws, -cost, reason, opts.jobId ?? null, opts.note ?? null, nowIso());
  return balance;
}

/** A pass covers a generation when its scope is all, the model id, or empty with the same surface. */
export async function coveringPass(db: StudioDb, ws: number, model: string, surface: Surface): Promise<Pass | null> {
  return firstCovering(await credits.activePasses(db, ws, nowIso()), model, surface);
}

const firstCovering = (passes: Pass[], model: string, surface: Surface): Pass | null =>
  passes.find((p) => p.scope === 'all' || p.scope === model || (p.scope === '' && p.surface === surface)) ?? null;

export async function createPass(db: StudioDb, ws: number, scope: string, surface: Surface | null, expiresAt: string | null): Promise<Pass> {
  const pass: Pass = { id: `pass_${randomBytes(8).toString('hex')}`, scope, surface, expires_at: expiresAt, created_at: nowIso() };
  await credits.insertPass(db, ws, pass);
  return pass;
}

export async function billingState(app: StudioContext, ws: number) {
  const w = await wsRow(app.db, ws);
  return {
    plan: w.plan,
    allowances: PLANS[w.plan],
    usage: await usageOf(app.db, w),
    credits: { balance: await balanceOf(app.db, ws) },
    passes: await credits.activePasses(app.db, ws, nowIso()),
    enforcement: app.config.creditEnforcement ? 'hard' : 'soft',
    prices: SURFACE_PRICE,
  };
}

export async function changePlan(app: StudioContext, ws: number, plan: PlanName) {
  await setPlan(app.db, ws, plan);
  return billingState(app, ws);
}

/** Start the next allowance month for every workspace; returns how many. */
export function startNextMonth(db: StudioDb): Promise<number> {
  return startNextMonthEverywhere(db);
}
