import { randomBytes } from 'node:crypto';
import { notFound, paymentRequired } from '../core/errors';
import type { StudioContext } from './context';
import { nowIso, stmt, type StudioDb } from './db';
import { PLAN_NAMES, type PlanName } from '../../shared/api/contracts/studio';

export { PLAN_NAMES, type PlanName };

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
export type Surface = 'image' | 'video' | 'audio';
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

function wsRow(db: StudioDb, ws: number): WsRow {
  const row = stmt(db, 'SELECT id, plan, month FROM workspaces WHERE id = ?').get(ws) as WsRow | undefined;
  if (!row) throw notFound('workspace not found');
  return row;
}

function allowancesOf(db: StudioDb, ws: number): Allowances {
  return PLANS[wsRow(db, ws).plan] ?? PLANS.free;
}

function usageOf(db: StudioDb, ws: number): Record<AllowanceKind, number> {
  const w = wsRow(db, ws);
  const u = stmt(db, 'SELECT posts, ai_units FROM usage WHERE workspace_id = ? AND month = ?').get(ws, w.month) as
    | { posts: number; ai_units: number }
    | undefined;
  const accounts = (stmt(db, 'SELECT COUNT(*) AS n FROM members WHERE workspace_id = ?').get(ws) as { n: number }).n;
  return { posts: u?.posts ?? 0, ai_units: u?.ai_units ?? 0, accounts };
}

/** Refuse with 402 limit_reached when `adding` more would pass the plan's allowance. */
export function checkAllowance(db: StudioDb, ws: number, kind: AllowanceKind, adding = 1): void {
  const limit = allowancesOf(db, ws)[kind];
  if (limit === null) return;
  if (usageOf(db, ws)[kind] + adding > limit) throw limitReached(kind, limit);
}

/** Meter posts or ai_units in the current allowance month (call inside the write's transaction). */
export function meter(db: StudioDb, ws: number, kind: 'posts' | 'ai_units', n = 1): void {
  const { month } = wsRow(db, ws);
  stmt(db, `INSERT INTO usage (workspace_id, month, ${kind}) VALUES (?, ?, ?)
    ON CONFLICT (workspace_id, month) DO UPDATE SET ${kind} = ${kind} + excluded.${kind}`).run(ws, month, n);
}

export function balanceOf(db: StudioDb, ws: number): number {
  const row = stmt(db, 'SELECT balance FROM credit_balances WHERE workspace_id = ?').get(ws) as { balance: number } | undefined;
  return row?.balance ?? 0;
}

export type LedgerReason = 'grant' | 'charge' | 'refund' | 'analyze';
export function ledgerEntry(db: StudioDb, ws: number, amount: number, reason: LedgerReason, jobId: string | null = null, note: string | null = null): void {
  stmt(db, 'INSERT INTO credit_ledger (workspace_id, amount, reason, job_id, note, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
    ws, amount, reason, jobId, note, nowIso(),
  );
}

export interface Pass {
  id: string;
  scope: string;
  surface: Surface | null;
  expires_at: string | null;
  created_at: string;
}

function activePasses(db: StudioDb, ws: number): Pass[] {
  return stmt(db, 'SELECT id, scope, surface, expires_at, created_at FROM passes WHERE workspace_id = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at')
    .all(ws, nowIso()) as Pass[];
}

/** A pass covers a generation when its scope is all, the model id, or empty with the same surface. */
export function coveringPass(db: StudioDb, ws: number, model: string, surface: Surface): Pass | null {
  return (
    activePasses(db, ws).find((p) => p.scope === 'all' || p.scope === model || (p.scope === '' && p.surface === surface)) ?? null
  );
}

export function createPass(db: StudioDb, ws: number, scope: string, surface: Surface | null, expiresAt: string | null): Pass {
  const pass: Pass = { id: `pass_${randomBytes(8).toString('hex')}`, scope, surface, expires_at: expiresAt, created_at: nowIso() };
  stmt(db, 'INSERT INTO passes (id, workspace_id, scope, surface, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
    pass.id, ws, scope, surface, expiresAt, pass.created_at,
  );
  return pass;
}

export function billingState(app: StudioContext, ws: number) {
  const w = wsRow(app.db, ws);
  return {
    plan: w.plan,
    allowances: PLANS[w.plan],
    usage: usageOf(app.db, ws),
    credits: { balance: balanceOf(app.db, ws) },
    passes: activePasses(app.db, ws),
    enforcement: app.config.creditEnforcement ? 'hard' : 'soft',
    prices: SURFACE_PRICE,
  };
}

/** Start the next allowance month for every workspace; returns how many. */
export function startNextMonth(db: StudioDb): number {
  return stmt(db, 'UPDATE workspaces SET month = month + 1').run().changes;
}
