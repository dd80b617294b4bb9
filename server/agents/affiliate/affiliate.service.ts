import { randomBytes } from 'node:crypto';
import { badRequest, conflict, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { newId } from '../ids';
import { COMMISSION_RATE_PERCENT } from './commission';
import { REF_COOKIE_DAYS } from './attribution';

const MIN_PAYOUT_CENTS = 5000;
const MAX_LINKS = 20;
const LEADERBOARD_SIZE = 10;

const PROGRAM = { commissionRate: COMMISSION_RATE_PERCENT / 100, commissionPercent: COMMISSION_RATE_PERCENT, cookieDays: REF_COOKIE_DAYS, minimumPayout: MIN_PAYOUT_CENTS / 100, currency: 'USD' };

export interface AffiliateRow {
  id: string;
  user_id: string;
  workspace_id: string;
  display_name: string;
  socials: string;
  promo_code: string | null;
  notify: number;
  payout_method: string | null;
  kyc_status: string;
  status: string;
  created_at: number;
  updated_at: number;
}
interface LinkRow {
  id: string;
  code: string;
  name: string;
  channel: string;
  is_primary: number;
  clicks: number;
  created_at: number;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const usd = (cents: number) => Math.round(cents) / 100;

function affiliateOf(ctx: AgentsContext, userId: string): AffiliateRow | null {
  return (ctx.legacyDb.prepare('SELECT * FROM affiliates WHERE user_id = ?').get(userId) as AffiliateRow | undefined) ?? null;
}

export function requireAffiliate(ctx: AgentsContext, userId: string): AffiliateRow {
  const a = affiliateOf(ctx, userId);
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

function insertLink(ctx: AgentsContext, affiliateId: string, name: string, channel: string, primary: boolean): string {
  const id = newId('lnk');
  for (let attempt = 0; ; attempt++) {
    try {
      ctx.legacyDb.prepare('INSERT INTO affiliate_links (id, affiliate_id, code, name, channel, is_primary, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(id, affiliateId, newCode(), name, channel, primary ? 1 : 0, Date.now());
      return id;
    } catch (err) {
      if (attempt > 5 || !String(err).includes('UNIQUE')) throw err;
    }
  }
}

export function enroll(ctx: AgentsContext, userId: string, ws: string, displayName: string | undefined, socials: unknown): AffiliateRow {
  const user = ctx.legacyDb.prepare('SELECT name, email FROM users WHERE id = ?').get(userId) as { name: string; email: string };
  const now = Date.now();
  ctx.legacyDb.transaction(() => {
    if (affiliateOf(ctx, userId)) throw conflict('already enrolled');
    const id = newId('aff');
    ctx.legacyDb
      .prepare('INSERT INTO affiliates (id, user_id, workspace_id, display_name, socials, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(id, userId, ws, displayName || user.name || user.email.split('@')[0], JSON.stringify(socials ?? {}), now, now);
    insertLink(ctx, id, 'Primary link', '', true);
  })();
  return requireAffiliate(ctx, userId);
}

export function updateProfile(ctx: AgentsContext, a: AffiliateRow, patch: { displayName?: string; socials?: unknown; promoCode?: string | null; notify?: boolean }): void {
  ctx.legacyDb.transaction(() => {
    if (patch.promoCode) {
      const taken = ctx.legacyDb.prepare('SELECT 1 FROM affiliates WHERE promo_code = ? AND id <> ?').get(patch.promoCode, a.id);
      if (taken) throw conflict('promo code already taken');
    }
    ctx.legacyDb
      .prepare('UPDATE affiliates SET display_name = ?, socials = ?, promo_code = ?, notify = ?, updated_at = ? WHERE id = ?')
      .run(
        patch.displayName ?? a.display_name,
        patch.socials !== undefined ? JSON.stringify(patch.socials) : a.socials,
        patch.promoCode !== undefined ? patch.promoCode : a.promo_code,
        patch.notify !== undefined ? (patch.notify ? 1 : 0) : a.notify,
        Date.now(),
        a.id,
      );
  })();
}

function links(ctx: AgentsContext, a: AffiliateRow) {
  const rows = ctx.legacyDb.prepare('SELECT * FROM affiliate_links WHERE affiliate_id = ? ORDER BY is_primary DESC, created_at, id').all(a.id) as LinkRow[];
  const signups = new Map((ctx.legacyDb.prepare('SELECT link_id, COUNT(*) AS n FROM affiliate_referrals WHERE affiliate_id = ? GROUP BY link_id').all(a.id) as { link_id: string; n: number }[]).map((r) => [r.link_id, r.n]));
  return rows.map((l) => ({ id: l.id, name: l.name, channel: l.channel, code: l.code, url: linkUrl(ctx, l.code), primary: l.is_primary === 1, clicks: l.clicks, signups: signups.get(l.id) ?? 0, created_at: iso(l.created_at) }));
}

function presentLink(ctx: AgentsContext, a: AffiliateRow, id: string) {
  const l = links(ctx, a).find((x) => x.id === id);
  if (!l) throw notFound('link not found');
  return l;
}

export function createLink(ctx: AgentsContext, a: AffiliateRow, name: string, channel: string) {
  const id = ctx.legacyDb.transaction(() => {
    const n = (ctx.legacyDb.prepare('SELECT COUNT(*) AS n FROM affiliate_links WHERE affiliate_id = ?').get(a.id) as { n: number }).n;
    if (n >= MAX_LINKS) throw conflict(`at most ${MAX_LINKS} links`);
    return insertLink(ctx, a.id, name, channel, false);
  })();
  return presentLink(ctx, a, id);
}

export function deleteLink(ctx: AgentsContext, a: AffiliateRow, id: string): void {
  const l = presentLink(ctx, a, id);
  if (l.primary) throw badRequest('the primary link cannot be deleted');
  ctx.legacyDb.prepare('DELETE FROM affiliate_links WHERE id = ? AND affiliate_id = ?').run(id, a.id);
}

/** Money of one affiliate in cents: earned, paid out, requested (awaiting a decision), available. */
export function balances(ctx: AgentsContext, affiliateId: string) {
  const earned = (ctx.legacyDb.prepare('SELECT COALESCE(SUM(commission_cents), 0) AS c FROM affiliate_commissions WHERE affiliate_id = ?').get(affiliateId) as { c: number }).c;
  const p = ctx.legacyDb
    .prepare("SELECT COALESCE(SUM(CASE WHEN status = 'paid' THEN amount_cents END), 0) AS paid, COALESCE(SUM(CASE WHEN status = 'requested' THEN amount_cents END), 0) AS requested FROM affiliate_payouts WHERE affiliate_id = ?")
    .get(affiliateId) as { paid: number; requested: number };
  return { earnedCents: earned, paidCents: p.paid, requestedCents: p.requested, availableCents: earned - p.paid - p.requested };
}

export function setPayoutMethod(ctx: AgentsContext, a: AffiliateRow, method: { method: string; dest: string; network?: string | null }): void {
  ctx.legacyDb.prepare('UPDATE affiliates SET payout_method = ?, updated_at = ? WHERE id = ?').run(JSON.stringify({ method: method.method, dest: method.dest, network: method.network ?? null }), Date.now(), a.id);
}

/** Government ID as an image or PDF: stored for the operator, KYC becomes pending. */
export function submitKyc(ctx: AgentsContext, a: AffiliateRow, mime: string, data: Buffer) {
  if (a.kyc_status === 'verified') throw conflict('KYC already verified');
  const now = Date.now();
  const id = newId('kyc');
  ctx.legacyDb.transaction(() => {
    ctx.legacyDb.prepare("INSERT INTO affiliate_kyc (id, affiliate_id, mime, data, status, submitted_at) VALUES (?, ?, ?, ?, 'pending', ?)").run(id, a.id, mime, data, now);
    ctx.legacyDb.prepare("UPDATE affiliates SET kyc_status = 'pending', updated_at = ? WHERE id = ?").run(now, a.id);
  })();
  return { id, status: 'pending', mime, submitted_at: iso(now) };
}

export function requestPayout(ctx: AgentsContext, a: AffiliateRow, amountCents: number) {
  if (a.kyc_status !== 'verified') throw conflict('KYC verification required');
  if (!a.payout_method) throw conflict('payout method required');
  if (amountCents < MIN_PAYOUT_CENTS) throw badRequest(`minimum payout is ${MIN_PAYOUT_CENTS / 100} USD`);
  const id = newId('pay');
  ctx.legacyDb.transaction(() => {
    if (amountCents > balances(ctx, a.id).availableCents) throw conflict('amount exceeds the available balance');
    ctx.legacyDb.prepare("INSERT INTO affiliate_payouts (id, affiliate_id, amount_cents, method, status, created_at) VALUES (?, ?, ?, ?, 'requested', ?)").run(id, a.id, amountCents, a.payout_method, Date.now());
  })();
  return id;
}

interface PayoutRow {
  id: string;
  amount_cents: number;
  method: string;
  status: string;
  note: string;
  created_at: number;
  decided_at: number | null;
}
const presentPayout = (p: PayoutRow) => ({ id: p.id, amount: usd(p.amount_cents), currency: 'USD', method: JSON.parse(p.method) as unknown, status: p.status, note: p.note, created_at: iso(p.created_at), decided_at: iso(p.decided_at) });

export function payoutView(ctx: AgentsContext, id: string) {
  return presentPayout(ctx.legacyDb.prepare('SELECT * FROM affiliate_payouts WHERE id = ?').get(id) as PayoutRow);
}

export function dashboard(ctx: AgentsContext, userId: string) {
  const a = affiliateOf(ctx, userId);
  if (!a) return { enrolled: false, program: PROGRAM };
  const b = balances(ctx, a.id);
  const referrals = (ctx.legacyDb.prepare('SELECT COUNT(*) AS n FROM affiliate_referrals WHERE affiliate_id = ?').get(a.id) as { n: number }).n;
  const paying = (ctx.legacyDb.prepare('SELECT COUNT(DISTINCT workspace_id) AS n FROM affiliate_commissions WHERE affiliate_id = ?').get(a.id) as { n: number }).n;
  const ls = links(ctx, a);
  const commissions = ctx.legacyDb
    .prepare('SELECT fee_cents, commission_cents, created_at FROM affiliate_commissions WHERE affiliate_id = ? ORDER BY id DESC LIMIT 20')
    .all(a.id) as { fee_cents: number; commission_cents: number; created_at: number }[];
  const payouts = ctx.legacyDb.prepare('SELECT * FROM affiliate_payouts WHERE affiliate_id = ? ORDER BY created_at DESC, id LIMIT 50').all(a.id) as PayoutRow[];
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
export function leaderboard(ctx: AgentsContext, userId: string) {
  const ranked = `WITH e AS (
      SELECT a.id, a.user_id, a.display_name, a.created_at,
        COALESCE((SELECT SUM(commission_cents) FROM affiliate_commissions c WHERE c.affiliate_id = a.id), 0) AS cents,
        (SELECT COUNT(*) FROM affiliate_referrals r WHERE r.affiliate_id = a.id) AS referrals
      FROM affiliates a WHERE a.status = 'active')
    SELECT *, ROW_NUMBER() OVER (ORDER BY cents DESC, created_at, id) AS rank FROM e`;
  type Ranked = { id: string; user_id: string; display_name: string; cents: number; referrals: number; rank: number };
  const top = ctx.legacyDb.prepare(`${ranked} ORDER BY rank LIMIT ?`).all(LEADERBOARD_SIZE) as Ranked[];
  const mine = ctx.legacyDb.prepare(`SELECT * FROM (${ranked}) AS r WHERE user_id = ?`).get(userId) as Ranked | undefined;
  return {
    leaderboard: top.map((r) => ({ rank: r.rank, displayName: r.display_name, earnings: usd(r.cents), referrals: r.referrals, you: r.user_id === userId })),
    me: mine ? { rank: mine.rank, earnings: usd(mine.cents), referrals: mine.referrals } : null,
    currency: 'USD',
  };
}

/** A click on /r/<code>: counted on the link. */
export function recordClick(ctx: AgentsContext, linkId: string, affiliateId: string, ipHash: string): void {
  ctx.legacyDb.transaction(() => {
    ctx.legacyDb.prepare('INSERT INTO affiliate_clicks (link_id, affiliate_id, ip_hash, created_at) VALUES (?, ?, ?, ?)').run(linkId, affiliateId, ipHash, Date.now());
    ctx.legacyDb.prepare('UPDATE affiliate_links SET clicks = clicks + 1 WHERE id = ?').run(linkId);
  })();
}
