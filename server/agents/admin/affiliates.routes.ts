import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { audit, paging } from './guard';
import { affiliateList, decidePayoutOnce, kycDocument, payoutList, reviewKyc } from './affiliates.service';
import { affiliatesResponses } from '../../../shared/api/contracts/agents-admin';
import { affiliatesListQuery, affParam, kycDecision, payoutQuery, payoutParam, payoutDecision } from '../../../shared/api/contracts/agents-admin-requests';

/** Operator routes of the affiliate program: the list, identity documents and their review, payout decisions. */
export function adminAffiliateRoutes(ctx: AgentsContext): AgentRoute[] {
  const admin = { auth: 'operator' as const };
  return [
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/affiliates', response: affiliatesResponses['GET /api/admin/affiliates'],
      query: affiliatesListQuery,
      handler: async ({ query }) => {
        const { limit, page, offset } = paging(query);
        const { affiliates, total } = await affiliateList(ctx, { status: query.status, search: query.search }, limit, offset);
        return { affiliates, total, page, limit };
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/affiliates/:id/kyc-doc', response: affiliatesResponses['GET /api/admin/affiliates/:id/kyc-doc'],
      params: affParam,
      handler: async ({ caller, params }) => {
        const kyc = await kycDocument(ctx, params.id);
        await audit(ctx, caller, 'affiliate.kyc-doc', 'affiliate', params.id, { kyc: kyc.id });
        return { kyc };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/affiliates/:id/kyc', response: affiliatesResponses['POST /api/admin/affiliates/:id/kyc'],
      params: affParam,
      body: kycDecision,
      handler: async ({ caller, params, body }) => {
        const { kycId, affiliate } = await reviewKyc(ctx, params.id, body.decision, body.note ?? '', caller.userId);
        await audit(ctx, caller, `affiliate.kyc.${body.decision}`, 'affiliate', params.id, { kyc: kycId, note: body.note ?? '' });
        return { affiliate };
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/affiliates/payouts', response: affiliatesResponses['GET /api/admin/affiliates/payouts'],
      query: payoutQuery,
      handler: async ({ query }) => {
        const { limit, page, offset } = paging(query);
        const { payouts, total } = await payoutList(ctx, query.status, limit, offset);
        return { payouts, total, page, limit };
      },
    }),
    route({
      ...admin,
      method: 'post',
      path: '/api/admin/affiliates/payouts/:pid', response: affiliatesResponses['POST /api/admin/affiliates/payouts/:pid'],
      params: payoutParam,
      body: payoutDecision,
      handler: async ({ caller, params, body }) => {
        const { affiliateId, payout, affiliate } = await decidePayoutOnce(ctx, params.pid, body.decision, body.note ?? '', caller.userId);
        await audit(ctx, caller, `affiliate.payout.${body.decision}`, 'affiliate', affiliateId, { payout: params.pid, note: body.note ?? '' });
        return { payout, affiliate };
      },
    }),
  ];
}
