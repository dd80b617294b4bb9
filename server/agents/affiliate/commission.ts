import type { Db } from '../db';

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
export function recordCommission(db: Db, ws: string, ref: string, feeCents: number, currency = 'usd'): { affiliateId: string; commissionCents: number } | null {
  if (currency.toLowerCase() !== 'usd' || feeCents <= 0) return null;
  const referral = db.prepare('SELECT affiliate_id FROM affiliate_referrals WHERE workspace_id = ?').get(ws) as { affiliate_id: string } | undefined;
  if (!referral) return null;
  const cents = commissionCents(feeCents);
  const r = db
    .prepare('INSERT INTO affiliate_commissions (affiliate_id, workspace_id, ref, fee_cents, commission_cents, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING')
    .run(referral.affiliate_id, ws, ref, feeCents, cents, Date.now());
  return r.changes ? { affiliateId: referral.affiliate_id, commissionCents: cents } : null;
}
