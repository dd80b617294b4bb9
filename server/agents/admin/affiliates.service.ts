import { conflict, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { balances, payoutView } from '../affiliate/affiliate.service';
import { iso } from './guard';
import { affiliatesPage, countAffiliates, countPayouts, decideKyc, decidePayout, findAffiliate, findPayout, latestKyc, payoutsPage } from './affiliates.repository';

/** The operator's side of the affiliate program: the list, identity documents and their review, payout decisions. */

const usd = (cents: number) => Math.round(cents) / 100;

interface AffiliateListRow {
  id: string;
  user_id: string;
  email: string;
  workspace_id: string;
  display_name: string;
  promo_code: string | null;
  kyc_status: string;
  status: string;
  payout_method: string | null;
  created_at: number;
}

async function presentAffiliate(ctx: AgentsContext, a: AffiliateListRow) {
  const b = await balances(ctx, a.id);
  return {
    id: a.id,
    user: { id: a.user_id, email: a.email },
    workspaceId: a.workspace_id,
    displayName: a.display_name,
    promoCode: a.promo_code,
    kycStatus: a.kyc_status,
    status: a.status,
    payoutMethod: a.payout_method ? (JSON.parse(a.payout_method) as unknown) : null,
    earnings: usd(b.earnedCents),
    paid: usd(b.paidCents),
    requested: usd(b.requestedCents),
    available: usd(b.availableCents),
    created_at: iso(a.created_at),
  };
}

async function affiliateById(ctx: AgentsContext, id: string): Promise<AffiliateListRow> {
  const a = await findAffiliate(ctx.db, id);
  if (!a) throw notFound('affiliate not found');
  return a;
}

export async function affiliateList(ctx: AgentsContext, filter: { status?: string; search?: string }, limit: number, offset: number) {
  const [total, rows] = await Promise.all([countAffiliates(ctx.db, filter), affiliatesPage(ctx.db, filter, limit, offset)]);
  return { total, affiliates: await Promise.all(rows.map((a) => presentAffiliate(ctx, a))) };
}

/** The affiliate's newest identity document, whole (the caller audits the viewing). */
export async function kycDocument(ctx: AgentsContext, affiliateId: string) {
  await affiliateById(ctx, affiliateId);
  const k = await latestKyc(ctx.db, affiliateId);
  if (!k) throw notFound('no KYC document');
  const data = Buffer.from(k.data);
  return { id: k.id, status: k.status, mime: k.mime, size: data.length, dataBase64: data.toString('base64'), note: k.note, submitted_at: iso(k.submitted_at), reviewed_at: iso(k.reviewed_at) };
}

/** Verifies or rejects the document awaiting review; once only. Returns the document's id and the affiliate after. */
export async function reviewKyc(ctx: AgentsContext, affiliateId: string, decision: string, note: string, by: string) {
  await affiliateById(ctx, affiliateId);
  const k = await latestKyc(ctx.db, affiliateId);
  if (!k || k.status !== 'pending' || !(await decideKyc(ctx.db, k.id, affiliateId, decision, note, by, Date.now()))) throw conflict('no KYC document awaiting review');
  return { kycId: k.id, affiliate: await presentAffiliate(ctx, await affiliateById(ctx, affiliateId)) };
}

export async function payoutList(ctx: AgentsContext, status: string | undefined, limit: number, offset: number) {
  const [total, rows] = await Promise.all([countPayouts(ctx.db, status), payoutsPage(ctx.db, status, limit, offset)]);
  return { total, payouts: await Promise.all(rows.map(async (r) => ({ ...(await payoutView(ctx, r.id)), affiliate: { id: r.affiliate_id, email: r.email } }))) };
}

/** Pays or rejects a requested payout; once only (a second decision answers 409 with the first). */
export async function decidePayoutOnce(ctx: AgentsContext, id: string, decision: string, note: string, by: string) {
  const p = await findPayout(ctx.db, id);
  if (!p) throw notFound('payout not found');
  if (p.status !== 'requested' || !(await decidePayout(ctx.db, id, decision, note, by, Date.now()))) {
    throw conflict(`payout already ${p.status !== 'requested' ? p.status : ((await findPayout(ctx.db, id))?.status ?? 'decided')}`);
  }
  return { affiliateId: p.affiliate_id, payout: await payoutView(ctx, id), affiliate: await presentAffiliate(ctx, await affiliateById(ctx, p.affiliate_id)) };
}
