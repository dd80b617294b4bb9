import type { AgentsDb } from '../schema';
import { insertCommission, referrerOf } from './affiliate.repository';

/** Affiliates earn 10 % of every fee a referred workspace pays (USD). */
export const COMMISSION_RATE_PERCENT = 10;

/** Commission in cents on a fee in cents: 10 %, rounded half up to the cent. */
export function commissionCents(feeCents: number): number {
  return Math.floor((feeCents * COMMISSION_RATE_PERCENT + 50) / 100);
}

/**
 * Credits the referring affiliate (if any) with the commission on one paid fee of the workspace.
 * `ref` names the payment: recording the same payment twice earns once. Returns the commission row or null.
 */
export async function recordCommission(db: AgentsDb, ws: string, ref: string, feeCents: number, currency = 'usd'): Promise<{ affiliateId: string; commissionCents: number } | null> {
  if (currency.toLowerCase() !== 'usd' || feeCents <= 0) return null;
  const affiliateId = await referrerOf(db, ws);
  if (!affiliateId) return null;
  const cents = commissionCents(feeCents);
  const inserted = await insertCommission(db, { affiliate_id: affiliateId, workspace_id: ws, ref, fee_cents: feeCents, commission_cents: cents });
  return inserted ? { affiliateId, commissionCents: cents } : null;
}
