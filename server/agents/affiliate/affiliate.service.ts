import { randomBytes } from 'node:crypto';
import { badRequest, conflict, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { isUniqueViolation } from '../../core/db/errors';
import type { AgentsDb } from '../schema';
import * as repo from './affiliate.repository';
import type { AffiliateRow, PayoutRow } from './affiliate.repository';

export type { AffiliateRow };
import { COMMISSION_RATE_PERCENT } from './commission';
import { REF_COOKIE_DAYS } from './attribution';

const MIN_PAYOUT_CENTS = 5000;
const MAX_LINKS = 20;
const LEADERBOARD_SIZE = 10;

const PROGRAM = { commissionRate: COMMISSION_RATE_PERCENT / 100, commissionPercent: COMMISSION_RATE_PERCENT, cookieDays: REF_COOKIE_DAYS, minimumPayout: MIN_PAYOUT_CENTS / 100, currency: 'USD' };

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const usd = (cents: number) => Math.round(cents) / 100;

const affiliateOf = async (ctx: AgentsContext, userId: string): Promise<AffiliateRow | null> => (await repo.affiliateByUser(ctx.db, userId)) ?? null;

export async function requireAffiliate(ctx: AgentsContext, userId: string): Promise<AffiliateRow> {
  const a = await affiliateOf(ctx, userId);
  if (!a) throw notFound('not enrolled in the affiliate program');
  return a;
}

const newCode = () => {
  const bytes = randomBytes(8);
  let s = '';
  for (const b of bytes) s += '23456789abcdefghjkmnpqrstuvwxyz'[b % 31];
  return s;
};

const linkUrl = (ctx: AgentsContext, code: string) => `${ctx.config.appUrl}/r/${code}`;

/** A new link with a fresh code (a code already taken is drawn again). */
async function insertLink(db: AgentsDb, affiliateId: string, name: string, channel: string, primary: boolean): Promise<string> {
  const id = newId('lnk');
  for (let attempt = 0; ; attempt++) {
    try {
      await repo.insertLink(db, { id, affiliate_id: affiliateId, code: newCode(), name, channel, is_primary: primary ? 1 : 0, created_at: Date.now() });
      return id;
    } catch (err) {
      if (attempt > 5 || !isUniqueViolation(err)) throw err;
    }
  }
}

export async function enroll(ctx: AgentsContext, userId: string, ws: string, displayName: string | undefined, socials: unknown): Promise<AffiliateRow> {
  const user = await repo.userName(ctx.db, userId);
  const now = Date.now();
  try {
    await ctx.db.transaction().execute(async (tx) => {
      if (await repo.affiliateByUser(tx, userId)) throw conflict('already enrolled');
      const id = newId('aff');
      await repo.insertAffiliate(tx, { id, user_id: userId, workspace_id: ws, display_name: displayName || user.name || user.email.split('@')[0], socials: JSON.stringify(socials ?? {}), created_at: now, updated_at: now });
      await insertLink(tx, id, 'Primary link', '', true);
    });
  } catch (err) {
    // Two enrolments at once: the second meets the first's row (user_id is unique).
    if (isUniqueViolation(err)) throw conflict('already enrolled');
    throw err;
  }
  return requireAffiliate(ctx, userId);
}

export async function updateProfile(ctx: AgentsContext, a: AffiliateRow, patch: { displayName?: string; socials?: unknown; promoCode?: string | null; notify?: boolean }): Promise<void> {
  if (patch.promoCode && (await repo.promoCodeTaken(ctx.db, patch.promoCode, a.id))) throw conflict('promo code already taken');
  try {
    await repo.updateAffiliate(ctx.db, a.id, {
      display_name: patch.displayName ?? a.display_name,
      socials: patch.socials !== undefined ? JSON.stringify(patch.socials) : a.socials,
      promo_code: patch.promoCode !== undefined ? patch.promoCode : a.promo_code,
      notify: patch.notify !== undefined ? (patch.notify ? 1 : 0) : a.notify,
    });
  } catch (err) {
    // Taken by a concurrent update between the check and the write (promo_code is unique).
    if (isUniqueViolation(err)) throw conflict('promo code already taken');
    throw err;
  }
}

async function links(ctx: AgentsContext, a: AffiliateRow) {
  const rows = await repo.linksOf(ctx.db, a.id);
  const signups = await repo.signupsByLink(ctx.db, a.id);
  return rows.map((l) => ({ id: l.id, name: l.name, channel: l.channel, code: l.code, url: linkUrl(ctx, l.code), primary: l.is_primary === 1, clicks: l.clicks, signups: signups.get(l.id) ?? 0, created_at: iso(l.created_at) }));
}

async function presentLink(ctx: AgentsContext, a: AffiliateRow, id: string) {
  const l = (await links(ctx, a)).find((x) => x.id === id);
  if (!l) throw notFound('link not found');
  return l;
}

export async function createLink(ctx: AgentsContext, a: AffiliateRow, name: string, channel: string) {
  const id = await ctx.db.transaction().execute(async (tx) => {
    await repo.lockAffiliate(tx, a.id);
    if ((await repo.countLinks(tx, a.id)) >= MAX_LINKS) throw conflict(`at most ${MAX_LINKS} links`);
    return insertLink(tx, a.id, name, channel, false);
  });
  return presentLink(ctx, a, id);
}

export async function deleteLink(ctx: AgentsContext, a: AffiliateRow, id: string): Promise<void> {
  const l = await presentLink(ctx, a, id);
  if (l.primary) throw badRequest('the primary link cannot be deleted');
  await repo.deleteLink(ctx.db, a.id, id);
}

/** Money of one affiliate in cents: earned, paid out, requested (awaiting a decision), available. */
export async function balances(ctx: AgentsContext, affiliateId: string, db: AgentsDb = ctx.db) {
  const m = await repo.moneyOf(db, affiliateId);
  return { earnedCents: m.earned, paidCents: m.paid, requestedCents: m.requested, availableCents: m.earned - m.paid - m.requested };
}

export async function setPayoutMethod(ctx: AgentsContext, a: AffiliateRow, method: { method: string; dest: string; network?: string | null }): Promise<void> {
  await repo.updateAffiliate(ctx.db, a.id, { payout_method: JSON.stringify({ method: method.method, dest: method.dest, network: method.network ?? null }) });
}

/** Government ID as an image or PDF: stored for the operator, KYC becomes pending. */
export async function submitKyc(ctx: AgentsContext, a: AffiliateRow, mime: string, data: Buffer) {
  if (a.kyc_status === 'verified') throw conflict('KYC already verified');
  const now = Date.now();
  const id = newId('kyc');
  await ctx.db.transaction().execute(async (tx) => {
    await repo.insertKyc(tx, { id, affiliate_id: a.id, mime, data, submitted_at: now });
    await repo.updateAffiliate(tx, a.id, { kyc_status: 'pending' });
  });
  return { id, status: 'pending', mime, submitted_at: iso(now) };
}

/** A payout request: the available balance is checked with the affiliate's row locked, so two requests never both spend it. */
export async function requestPayout(ctx: AgentsContext, a: AffiliateRow, amountCents: number): Promise<string> {
  if (a.kyc_status !== 'verified') throw conflict('KYC verification required');
  if (!a.payout_method) throw conflict('payout method required');
  if (amountCents < MIN_PAYOUT_CENTS) throw badRequest(`minimum payout is ${MIN_PAYOUT_CENTS / 100} USD`);
  const id = newId('pay');
  const method = a.payout_method;
  await ctx.db.transaction().execute(async (tx) => {
    await repo.lockAffiliate(tx, a.id);
    if (amountCents > (await balances(ctx, a.id, tx)).availableCents) throw conflict('amount exceeds the available balance');
    await repo.insertPayout(tx, { id, affiliate_id: a.id, amount_cents: amountCents, method, created_at: Date.now() });
  });
  return id;
}

const presentPayout = (p: PayoutRow) => ({ id: p.id, amount: usd(p.amount_cents), currency: 'USD', method: JSON.parse(p.method) as unknown, status: p.status, note: p.note, created_at: iso(p.created_at), decided_at: iso(p.decided_at) });

export async function payoutView(ctx: AgentsContext, id: string) {
  const p = await repo.payoutById(ctx.db, id);
  if (!p) throw notFound('payout not found');
  return presentPayout(p);
}

export async function dashboard(ctx: AgentsContext, userId: string) {
  const a = await affiliateOf(ctx, userId);
  if (!a) return { enrolled: false, program: PROGRAM };
  const b = await balances(ctx, a.id);
  const referrals = await repo.countReferrals(ctx.db, a.id);
  const paying = await repo.payingCustomers(ctx.db, a.id);
  const ls = await links(ctx, a);
  const commissions = await repo.recentCommissions(ctx.db, a.id, 20);
  const payouts = await repo.payoutsOf(ctx.db, a.id, 50);
  return {
    enrolled: true,
    program: PROGRAM,
    affiliate: {
      id: a.id,
      displayName: a.display_name,
      socials: JSON.parse(a.socials) as unknown,
      promoCode: a.promo_code,
      notify: a.notify === 1,
      status: a.status,
      kycStatus: a.kyc_status,
      payoutMethod: a.payout_method ? (JSON.parse(a.payout_method) as unknown) : null,
      created_at: iso(a.created_at),
    },
    links: ls,
    stats: {
      clicks: ls.reduce((s, l) => s + l.clicks, 0),
      signups: referrals,
      payingCustomers: paying,
      earnings: usd(b.earnedCents),
      paidOut: usd(b.paidCents),
      pendingPayout: usd(b.requestedCents),
      available: usd(b.availableCents),
      currency: 'USD',
    },
    commissions: commissions.map((c) => ({ fee: usd(c.fee_cents), commission: usd(c.commission_cents), created_at: iso(c.created_at) })),
    payouts: payouts.map(presentPayout),
  };
}

/** Top affiliates by earnings (ties: earlier enrolment first) and the caller's own rank. */
export async function leaderboard(ctx: AgentsContext, userId: string) {
  const top = await repo.topAffiliates(ctx.db, LEADERBOARD_SIZE);
  const mine = await repo.rankOf(ctx.db, userId);
  return {
    leaderboard: top.map((r) => ({ rank: r.rank, displayName: r.display_name, earnings: usd(r.cents), referrals: r.referrals, you: r.user_id === userId })),
    me: mine ? { rank: mine.rank, earnings: usd(mine.cents), referrals: mine.referrals } : null,
    currency: 'USD',
  };
}

/** The code of a link (the one a promo code resolved to included). */
export async function linkCodeOf(ctx: AgentsContext, linkId: string): Promise<string> {
  const code = await repo.linkCode(ctx.db, linkId);
  if (!code) throw notFound('link not found');
  return code;
}

/** A click on /r/<code>: counted on the link. */
export async function recordClick(ctx: AgentsContext, linkId: string, affiliateId: string, ipHash: string): Promise<void> {
  await repo.recordClick(ctx.db, linkId, affiliateId, ipHash);
}
