import { type Insertable, type Selectable } from 'kysely';
import { countAll } from '../sql';
import type { AffiliatePayoutsTable, AffiliatesTable, AgentsDb } from '../schema';

/** Affiliates and what hangs off one: links, clicks, referrals, commissions, KYC documents, payouts. */
export type AffiliateRow = Selectable<AffiliatesTable>;
export type PayoutRow = Pick<Selectable<AffiliatePayoutsTable>, 'id' | 'amount_cents' | 'method' | 'status' | 'note' | 'created_at' | 'decided_at'>;

const AFFILIATE = ['id', 'user_id', 'workspace_id', 'display_name', 'socials', 'promo_code', 'notify', 'payout_method', 'kyc_status', 'status', 'created_at', 'updated_at'] as const;
const LINK = ['id', 'code', 'name', 'channel', 'is_primary', 'clicks', 'created_at'] as const;
const PAYOUT = ['id', 'amount_cents', 'method', 'status', 'note', 'created_at', 'decided_at'] as const;

export async function affiliateByUser(db: AgentsDb, userId: string): Promise<AffiliateRow | undefined> {
  return db.selectFrom('affiliates').select(AFFILIATE).where('user_id', '=', userId).executeTakeFirst();
}

export async function userName(db: AgentsDb, userId: string): Promise<{ name: string; email: string }> {
  return db.selectFrom('users').select(['name', 'email']).where('id', '=', userId).executeTakeFirstOrThrow();
}

export async function insertAffiliate(db: AgentsDb, a: Insertable<AffiliatesTable>): Promise<void> {
  await db.insertInto('affiliates').values(a).execute();
}

export async function promoCodeTaken(db: AgentsDb, code: string, exceptId: string): Promise<boolean> {
  return Boolean(await db.selectFrom('affiliates').select('id').where('promo_code', '=', code).where('id', '<>', exceptId).executeTakeFirst());
}

export async function updateAffiliate(db: AgentsDb, id: string, patch: { display_name?: string; socials?: string; promo_code?: string | null; notify?: number; payout_method?: string; kyc_status?: string }): Promise<void> {
  await db.updateTable('affiliates').set({ ...patch, updated_at: Date.now() }).where('id', '=', id).execute();
}

export async function insertLink(db: AgentsDb, link: { id: string; affiliate_id: string; code: string; name: string; channel: string; is_primary: number; created_at: number }): Promise<void> {
  await db.insertInto('affiliate_links').values(link).execute();
}

export async function linksOf(db: AgentsDb, affiliateId: string) {
  return db.selectFrom('affiliate_links').select(LINK).where('affiliate_id', '=', affiliateId).orderBy('is_primary', 'desc').orderBy('created_at').orderBy('id').execute();
}

export async function countLinks(db: AgentsDb, affiliateId: string): Promise<number> {
  return Number((await db.selectFrom('affiliate_links').select(countAll().as('n')).where('affiliate_id', '=', affiliateId).executeTakeFirstOrThrow()).n);
}

export async function deleteLink(db: AgentsDb, affiliateId: string, id: string): Promise<void> {
  await db.deleteFrom('affiliate_links').where('id', '=', id).where('affiliate_id', '=', affiliateId).execute();
}

export async function linkCode(db: AgentsDb, linkId: string): Promise<string | undefined> {
  return (await db.selectFrom('affiliate_links').select('code').where('id', '=', linkId).executeTakeFirst())?.code;
}

/** A click on a link: logged and counted on the link, in one transaction. */
export async function recordClick(db: AgentsDb, linkId: string, affiliateId: string, ipHash: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.insertInto('affiliate_clicks').values({ link_id: linkId, affiliate_id: affiliateId, ip_hash: ipHash, created_at: Date.now() }).execute();
    await tx.updateTable('affiliate_links').set((eb) => ({ clicks: eb('clicks', '+', 1) })).where('id', '=', linkId).execute();
  });
}

export interface LinkHit {
  linkId: string;
  affiliateId: string;
  userId: string;
}

/** An active affiliate's link by its code. */
export async function hitByLinkCode(db: AgentsDb, code: string): Promise<LinkHit | undefined> {
  return db
    .selectFrom('affiliate_links as l').innerJoin('affiliates as a', 'a.id', 'l.affiliate_id')
    .select(['l.id as linkId', 'a.id as affiliateId', 'a.user_id as userId'])
    .where('l.code', '=', code).where('a.status', '=', 'active')
    .executeTakeFirst();
}

/** An active affiliate's primary link by its promo code. */
export async function hitByPromoCode(db: AgentsDb, promo: string): Promise<LinkHit | undefined> {
  return db
    .selectFrom('affiliates as a').innerJoin('affiliate_links as l', (j) => j.onRef('l.affiliate_id', '=', 'a.id').on('l.is_primary', '=', 1))
    .select(['l.id as linkId', 'a.id as affiliateId', 'a.user_id as userId'])
    .where('a.promo_code', '=', promo).where('a.status', '=', 'active')
    .executeTakeFirst();
}

/** The workspace a user registered (its first owned one). */
export async function ownedWorkspace(db: AgentsDb, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('members').select('workspace_id').where('user_id', '=', userId).where('role', '=', 'owner').orderBy('created_at').limit(1).executeTakeFirst())?.workspace_id;
}

/** Attributes a workspace to an affiliate; the first attribution stays. */
export async function insertReferral(db: AgentsDb, ws: string, affiliateId: string, linkId: string | null): Promise<void> {
  await db.insertInto('affiliate_referrals').values({ workspace_id: ws, affiliate_id: affiliateId, link_id: linkId, created_at: Date.now() }).onConflict((oc) => oc.doNothing()).execute();
}

export async function referrerOf(db: AgentsDb, ws: string): Promise<string | undefined> {
  return (await db.selectFrom('affiliate_referrals').select('affiliate_id').where('workspace_id', '=', ws).executeTakeFirst())?.affiliate_id;
}

export async function signupsByLink(db: AgentsDb, affiliateId: string): Promise<Map<string | null, number>> {
  const rows = await db.selectFrom('affiliate_referrals').select(['link_id', countAll().as('n')]).where('affiliate_id', '=', affiliateId).groupBy('link_id').execute();
  return new Map(rows.map((r) => [r.link_id, Number(r.n)]));
}

export async function countReferrals(db: AgentsDb, affiliateId: string): Promise<number> {
  return Number((await db.selectFrom('affiliate_referrals').select(countAll().as('n')).where('affiliate_id', '=', affiliateId).executeTakeFirstOrThrow()).n);
}

/** The commission on one paid fee; false when that payment (`ref`) earned one before. */
export async function insertCommission(db: AgentsDb, c: { affiliate_id: string; workspace_id: string; ref: string; fee_cents: number; commission_cents: number }): Promise<boolean> {
  const r = await db.insertInto('affiliate_commissions').values({ ...c, created_at: Date.now() }).onConflict((oc) => oc.doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function recentCommissions(db: AgentsDb, affiliateId: string, limit: number) {
  return db.selectFrom('affiliate_commissions').select(['fee_cents', 'commission_cents', 'created_at']).where('affiliate_id', '=', affiliateId).orderBy('id', 'desc').limit(limit).execute();
}

export async function payingCustomers(db: AgentsDb, affiliateId: string): Promise<number> {
  const r = await db.selectFrom('affiliate_commissions').select((eb) => eb.fn.count<number>('workspace_id').distinct().as('n')).where('affiliate_id', '=', affiliateId).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Money of one affiliate in cents: earned, paid out and requested. */
export async function moneyOf(db: AgentsDb, affiliateId: string): Promise<{ earned: number; paid: number; requested: number }> {
  const c = await db.selectFrom('affiliate_commissions').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('commission_cents'), eb.lit(0)).as('c')).where('affiliate_id', '=', affiliateId).executeTakeFirstOrThrow();
  const p = await db
    .selectFrom('affiliate_payouts')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('status', '=', 'paid').then(eb.ref('amount_cents')).end()), eb.lit(0)).as('paid'),
      eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('status', '=', 'requested').then(eb.ref('amount_cents')).end()), eb.lit(0)).as('requested'),
    ])
    .where('affiliate_id', '=', affiliateId)
    .executeTakeFirstOrThrow();
  return { earned: Number(c.c), paid: Number(p.paid), requested: Number(p.requested) };
}

export async function insertKyc(db: AgentsDb, k: { id: string; affiliate_id: string; mime: string; data: Buffer; submitted_at: number }): Promise<void> {
  await db.insertInto('affiliate_kyc').values({ ...k, status: 'pending' }).execute();
}

/**
 * Locks the affiliate's row until the transaction ends (a no-op UPDATE): two payout requests of one
 * affiliate in any number of processes check the available balance one after the other.
 */
export async function lockAffiliate(db: AgentsDb, id: string): Promise<void> {
  await db.updateTable('affiliates').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', id).execute();
}

export async function insertPayout(db: AgentsDb, p: { id: string; affiliate_id: string; amount_cents: number; method: string; created_at: number }): Promise<void> {
  await db.insertInto('affiliate_payouts').values({ ...p, status: 'requested' }).execute();
}

export async function payoutById(db: AgentsDb, id: string): Promise<PayoutRow | undefined> {
  return db.selectFrom('affiliate_payouts').select(PAYOUT).where('id', '=', id).executeTakeFirst();
}

export async function payoutsOf(db: AgentsDb, affiliateId: string, limit: number): Promise<PayoutRow[]> {
  return db.selectFrom('affiliate_payouts').select(PAYOUT).where('affiliate_id', '=', affiliateId).orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
}

export interface Ranked {
  id: string;
  user_id: string;
  display_name: string;
  cents: number;
  referrals: number;
  rank: number;
}

/** Active affiliates ranked by earnings (ties: earlier enrolment first). */
function ranked(db: AgentsDb) {
  const earnings = db
    .selectFrom('affiliates as a')
    .select((eb) => [
      'a.id', 'a.user_id', 'a.display_name', 'a.created_at',
      eb.fn.coalesce(eb.selectFrom('affiliate_commissions as c').select((e) => e.fn.sum<number>('c.commission_cents').as('s')).whereRef('c.affiliate_id', '=', 'a.id'), eb.lit(0)).as('cents'),
      eb.selectFrom('affiliate_referrals as r').select(countAll().as('n')).whereRef('r.affiliate_id', '=', 'a.id').as('referrals'),
    ])
    .where('a.status', '=', 'active');
  return db
    .selectFrom(earnings.as('e'))
    .select((eb) => ['e.id', 'e.user_id', 'e.display_name', 'e.cents', 'e.referrals', eb.fn.agg<number>('row_number').over((ob) => ob.orderBy('e.cents', 'desc').orderBy('e.created_at').orderBy('e.id')).as('rank')]);
}

const asRanked = (r: { id: string; user_id: string; display_name: string; cents: unknown; referrals: unknown; rank: unknown }): Ranked => ({
  id: r.id, user_id: r.user_id, display_name: r.display_name, cents: Number(r.cents), referrals: Number(r.referrals), rank: Number(r.rank),
});

export async function topAffiliates(db: AgentsDb, limit: number): Promise<Ranked[]> {
  const rows = await db.selectFrom(ranked(db).as('e')).selectAll().orderBy('rank').limit(limit).execute();
  return rows.map(asRanked);
}

export async function rankOf(db: AgentsDb, userId: string): Promise<Ranked | undefined> {
  const r = await db.selectFrom(ranked(db).as('e')).selectAll().where('user_id', '=', userId).executeTakeFirst();
  return r ? asRanked(r) : undefined;
}
