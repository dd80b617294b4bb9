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

/** Debits one turn through the credit ledger; null when the wallet could not pay (paused, or a concurrent turn spent it). */
export async function chargeTurn(ctx: AgentsContext, ws: string, note = ''): Promise<number | null> {
  const w = await walletState(ctx.db, ws);
  if (!w || w.paused) return null;
  const entry = await postLedger(ctx.db, ws, -CREDIT_COST, 'chat', { floor: 0, note });
  if (!entry) return null;
  await maybeAutoRecharge(ctx, ws, entry.balance);
  return entry.balance;
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
  if ((await chargeTurn(ctx, ws, kind)) === null) throw paymentRequired('out of credits');
  try {
    return await run();
  } catch (err) {
    await postLedger(ctx.db, ws, CREDIT_COST, 'refund', { note: `${kind} failed` });
    throw err;
  }
}
