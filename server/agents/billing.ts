import type { AgentsContext } from './context';
import { stmt } from './db';
import type { WorkspaceRow } from './accounts/accounts.service';
import { paymentRequired } from './http';

/** One chat turn costs one credit. */
export const CREDIT_COST = 1;

/** Messages a tier allows per month (usage dashboard). */
export const TIER_ALLOWANCE: Record<string, number> = { free: 100, starter: 2000, pro: 10000, business: 50000 };

export function billingOf(w: WorkspaceRow) {
  return {
    tier: w.tier,
    credits: w.credits,
    creditCost: CREDIT_COST,
    status: w.paused ? 'paused' : 'active',
    allowance: TIER_ALLOWANCE[w.tier] ?? TIER_ALLOWANCE.free,
  };
}

/** Refuses with 402 when the bot is paused or the wallet cannot pay one turn. */
export function assertCanChat(ctx: AgentsContext, ws: string): void {
  const w = stmt(ctx.db, 'SELECT credits, paused FROM workspaces WHERE id = ?').get(ws) as { credits: number; paused: number } | undefined;
  if (!w) throw paymentRequired('billing required');
  if (w.paused) throw paymentRequired('subscription paused');
  if (w.credits < CREDIT_COST) throw paymentRequired('out of credits');
}

/** Debits one turn atomically; null when the wallet could not pay (a concurrent turn spent it). */
export function chargeTurn(ctx: AgentsContext, ws: string): number | null {
  const r = stmt(ctx.db, 'UPDATE workspaces SET credits = credits - ? WHERE id = ? AND credits >= ? AND paused = 0 RETURNING credits').get(CREDIT_COST, ws, CREDIT_COST) as
    | { credits: number }
    | undefined;
  return r ? r.credits : null;
}
