import type { AgentsContext } from './context';
import type { WorkspaceRow } from './accounts/accounts.service';
import { paymentRequired } from './http';
import { postLedger, walletState } from './billing/ledger';
import { maybeAutoRecharge } from './billing/flows';
import { TIER_ALLOWANCE } from '../../shared/api/contracts/agents-values';
export { TIER_ALLOWANCE };

/** One chat turn costs one credit. */
export const CREDIT_COST = 1;


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
export async function assertCanChat(ctx: AgentsContext, ws: string): Promise<void> {
  const w = await walletState(ctx.db, ws);
  if (!w) throw paymentRequired('billing required');
  if (w.paused) throw paymentRequired('subscription paused');
  if (w.credits < CREDIT_COST) throw paymentRequired('out of credits');
}

/** One turn's debit: its ledger entry (a refund names it) and the balance it left. */
export interface TurnCharge {
  entryId: number;
  balance: number;
}

/** Debits one turn through the credit ledger; null when the wallet could not pay (paused, or a concurrent turn spent it). */
export async function chargeTurn(ctx: AgentsContext, ws: string, note = ''): Promise<TurnCharge | null> {
  const w = await walletState(ctx.db, ws);
  if (!w || w.paused) return null;
  const entry = await postLedger(ctx.db, ws, -CREDIT_COST, 'chat', { floor: 0, note });
  if (!entry) return null;
  await maybeAutoRecharge(ctx, ws, entry.balance);
  return { entryId: entry.id, balance: entry.balance };
}

/**
 * Gives back the credit of a turn that failed (reason `refund`). The refund's ref names the debit, so a turn is refunded
 * at most once whoever posts it; a refund that cannot be posted is logged and the turn's own error stands.
 */
export async function refundTurn(ctx: AgentsContext, ws: string, charge: TurnCharge, note: string): Promise<void> {
  try {
    await postLedger(ctx.db, ws, CREDIT_COST, 'refund', { ref: `refund:${charge.entryId}`, note });
  } catch (err) {
    ctx.log(`refund of ledger entry ${charge.entryId} (${ws}) failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** What a model turn other than a chat turn is, as its ledger entry names it. */
export type PaidTurnKind = 'playground' | 'advisor' | 'tts' | 'transcribe' | 'translate';

/**
 * A model turn outside /api/chat (playground, advisor, widget speech and translation): the same
 * per-workspace limit as /api/chat (429), the same gate (402 when paused or out of credits) and one credit
 * through the same ledger, debited before the model runs and refunded when the model call fails.
 */
export async function paidTurn<T>(ctx: AgentsContext, ws: string, kind: PaidTurnKind, run: () => Promise<T>): Promise<T> {
  ctx.limits.chat.hit(ws, 'rate limited');
  await assertCanChat(ctx, ws);
  const charge = await chargeTurn(ctx, ws, kind);
  if (charge === null) throw paymentRequired('out of credits');
  try {
    return await run();
  } catch (err) {
    await refundTurn(ctx, ws, charge, `${kind} failed`);
    throw err;
  }
}
