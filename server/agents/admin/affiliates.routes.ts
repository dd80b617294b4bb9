import { conflict, notFound } from '../../core/errors';
import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { balances, payoutView } from '../affiliate/affiliate.service';
import { audit, iso, paging } from './guard';
import { affiliatesResponses } from '../../../shared/api/contracts/agents-admin';
import { affiliatesListQuery, affParam, kycDecision, payoutQuery, payoutParam, payoutDecision } from '../../../shared/api/contracts/agents-admin-requests';

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

interface KycRow {
  id: string;
  affiliate_id: string;
  mime: string;
  data: Buffer;
  status: string;
  note: string;
  submitted_at: number;
  reviewed_at: number | null;
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

const AFFILIATE_SELECT = 'SELECT a.id, a.user_id, u.email, a.workspace_id, a.display_name, a.promo_code, a.kyc_status, a.status, a.payout_method, a.created_at FROM affiliates a JOIN users u ON u.id = a.user_id';

/** Operator routes of the affiliate program: the list, identity documents and their review, payout decisions. */
export function adminAffiliateRoutes(ctx: AgentsContext): AgentRoute[] {
  const admin = { auth: 'operator' as const };
  const affiliateById = (id: string): AffiliateListRow => {
    const a = ctx.legacyDb.prepare(`${AFFILIATE_SELECT} WHERE a.id = ?`).get(id) as AffiliateListRow | undefined;
    if (!a) throw notFound('affiliate not found');
    return a;
  };
  const latestKyc = (affiliateId: string) => ctx.legacyDb.prepare('SELECT * FROM affiliate_kyc WHERE affiliate_id = ? ORDER BY submitted_at DESC, rowid DESC LIMIT 1').get(affiliateId) as KycRow | undefined;
  return [
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/affiliates', response: affiliatesResponses['GET /api/admin/affiliates'],
      query: affiliatesListQuery,
      handler: async ({ query }) => {
        const { limit, page, offset } = paging(query);
        const where: string[] = [];
        const args: unknown[] = [];
        if (query.status) (where.push('a.kyc_status = ?'), args.push(query.status));
        if (query.search) (where.push("(u.email LIKE ? ESCAPE '\\' OR a.display_name LIKE ? ESCAPE '\\')"), args.push(...Array(2).fill(`%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)));
        const filter = where.length ? ` WHERE ${where.join(' AND ')}` : '';
        const total = (ctx.legacyDb.prepare(`SELECT COUNT(*) AS n FROM affiliates a JOIN users u ON u.id = a.user_id${filter}`).get(...args) as { n: number }).n;
        const rows = ctx.legacyDb.prepare(`${AFFILIATE_SELECT}${filter} ORDER BY a.created_at DESC, a.id LIMIT ? OFFSET ?`).all(...args, limit, offset) as AffiliateListRow[];
        return { affiliates: await Promise.all(rows.map((a) => presentAffiliate(ctx, a))), total, page, limit };
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/affiliates/:id/kyc-doc', response: affiliatesResponses['GET /api/admin/affiliates/:id/kyc-doc'],
      params: affParam,
      handler: ({ caller, params }) => {
        affiliateById(params.id);
        const k = latestKyc(params.id);
        if (!k) throw notFound('no KYC document');
        audit(ctx, caller, 'affiliate.kyc-doc', 'affiliate', params.id, { kyc: k.id });
        return { kyc: { id: k.id, status: k.status, mime: k.mime, size: k.data.length, dataBase64: Buffer.from(k.data).toString('base64'), note: k.note, submitted_at: iso(k.submitted_at), reviewed_at: iso(k.reviewed_at) } };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/affiliates/:id/kyc', response: affiliatesResponses['POST /api/admin/affiliates/:id/kyc'],
      params: affParam,
      body: kycDecision,
      handler: async ({ caller, params, body }) => {
        affiliateById(params.id);
        const k = latestKyc(params.id);
        if (!k || k.status !== 'pending') throw conflict('no KYC document awaiting review');
        const now = Date.now();
        ctx.legacyDb.transaction(() => {
          ctx.legacyDb.prepare('UPDATE affiliate_kyc SET status = ?, note = ?, reviewed_at = ?, reviewed_by = ? WHERE id = ?').run(body.decision, body.note ?? '', now, caller.userId, k.id);
          ctx.legacyDb.prepare('UPDATE affiliates SET kyc_status = ?, updated_at = ? WHERE id = ?').run(body.decision, now, params.id);
        })();
        audit(ctx, caller, `affiliate.kyc.${body.decision}`, 'affiliate', params.id, { kyc: k.id, note: body.note ?? '' });
        return { affiliate: await presentAffiliate(ctx, affiliateById(params.id)) };
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/affiliates/payouts', response: affiliatesResponses['GET /api/admin/affiliates/payouts'],
      query: payoutQuery,
      handler: async ({ query }) => {
        const { limit, page, offset } = paging(query);
        const filter = query.status ? ' WHERE p.status = ?' : '';
        const args = query.status ? [query.status] : [];
        const total = (ctx.legacyDb.prepare(`SELECT COUNT(*) AS n FROM affiliate_payouts p${filter}`).get(...args) as { n: number }).n;
        const rows = ctx.legacyDb.prepare(`SELECT p.id, p.affiliate_id, u.email FROM affiliate_payouts p JOIN affiliates a ON a.id = p.affiliate_id JOIN users u ON u.id = a.user_id${filter} ORDER BY p.created_at DESC, p.id LIMIT ? OFFSET ?`).all(...args, limit, offset) as { id: string; affiliate_id: string; email: string }[];
        return { payouts: await Promise.all(rows.map(async (r) => ({ ...(await payoutView(ctx, r.id)), affiliate: { id: r.affiliate_id, email: r.email } }))), total, page, limit };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/affiliates/payouts/:pid', response: affiliatesResponses['POST /api/admin/affiliates/payouts/:pid'],
      params: payoutParam,
      body: payoutDecision,
      handler: async ({ caller, params, body }) => {
        const p = ctx.legacyDb.prepare('SELECT status, affiliate_id FROM affiliate_payouts WHERE id = ?').get(params.pid) as { status: string; affiliate_id: string } | undefined;
        if (!p) throw notFound('payout not found');
        if (p.status !== 'requested') throw conflict(`payout already ${p.status}`);
        ctx.legacyDb.prepare("UPDATE affiliate_payouts SET status = ?, note = ?, decided_at = ?, decided_by = ? WHERE id = ? AND status = 'requested'").run(body.decision, body.note ?? '', Date.now(), caller.userId, params.pid);
        audit(ctx, caller, `affiliate.payout.${body.decision}`, 'affiliate', p.affiliate_id, { payout: params.pid, note: body.note ?? '' });
        return { payout: await payoutView(ctx, params.pid), affiliate: await presentAffiliate(ctx, affiliateById(p.affiliate_id)) };
      },
    }),
  ];
}
