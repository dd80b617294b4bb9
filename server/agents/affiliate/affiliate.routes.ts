import { createHash } from 'node:crypto';
import { badRequest } from '../../core/errors';
import type { AgentsContext } from '../context';
import { clientIp, route, type AgentRoute } from '../http';
import { brandAssets } from './assets';
import { REF_COOKIE, REF_COOKIE_DAYS, resolveCode } from './attribution';
import { decodeDocument } from './kyc';
import {
  balances,
  createLink,
  dashboard,
  deleteLink,
  enroll,
  leaderboard,
  linkCodeOf,
  payoutView,
  recordClick,
  requestPayout,
  requireAffiliate,
  setPayoutMethod,
  submitKyc,
  updateProfile,
} from './affiliate.service';
import { affiliateResponses } from '../../../shared/api/contracts/agents-affiliate';
import { affiliateRequests, payoutMethod, displayName, socials } from '../../../shared/api/contracts/agents-affiliate-requests';


export function affiliateRoutes(ctx: AgentsContext): AgentRoute[] {
  return [
    route({ method: 'get', path: '/api/affiliate', response: affiliateResponses['GET /api/affiliate'], auth: 'bearer', handler: ({ caller }) => dashboard(ctx, caller.userId) }),
    route({
      method: 'post',
      path: '/api/affiliate/enroll', response: affiliateResponses['POST /api/affiliate/enroll'],
      auth: 'editor',
      body: affiliateRequests['POST /api/affiliate/enroll'].body,
      handler: async ({ caller, body }) => {
        await enroll(ctx, caller.userId, caller.ws, body.displayName, body.socials);
        return dashboard(ctx, caller.userId);
      },
    }),
    route({
      method: 'patch',
      path: '/api/affiliate', response: affiliateResponses['PATCH /api/affiliate'],
      auth: 'editor',
      body: affiliateRequests['PATCH /api/affiliate'].body,
      handler: async ({ caller, body }) => {
        await updateProfile(ctx, await requireAffiliate(ctx, caller.userId), body);
        return dashboard(ctx, caller.userId);
      },
    }),
    route({
      method: 'post',
      path: '/api/affiliate/links', response: affiliateResponses['POST /api/affiliate/links'],
      auth: 'editor',
      body: affiliateRequests['POST /api/affiliate/links'].body,
      handler: async ({ caller, body }) => ({ link: await createLink(ctx, await requireAffiliate(ctx, caller.userId), body.name, body.channel) }),
    }),
    route({
      method: 'delete',
      path: '/api/affiliate/links/:id', response: affiliateResponses['DELETE /api/affiliate/links/:id'],
      auth: 'editor',
      params: affiliateRequests['DELETE /api/affiliate/links/:id'].params,
      handler: async ({ caller, params }) => {
        await deleteLink(ctx, await requireAffiliate(ctx, caller.userId), params.id);
        return { ok: true };
      },
    }),
    route({
      method: 'post',
      path: '/api/affiliate/payout-method', response: affiliateResponses['POST /api/affiliate/payout-method'],
      auth: 'editor',
      body: payoutMethod,
      handler: async ({ caller, body }) => {
        await setPayoutMethod(ctx, await requireAffiliate(ctx, caller.userId), body);
        return { payoutMethod: { method: body.method, dest: body.dest, network: body.network ?? null } };
      },
    }),
    route({
      method: 'post',
      path: '/api/affiliate/kyc', response: affiliateResponses['POST /api/affiliate/kyc'],
      auth: 'editor',
      body: affiliateRequests['POST /api/affiliate/kyc'].body,
      handler: async ({ caller, body }) => {
        const a = await requireAffiliate(ctx, caller.userId);
        const doc = decodeDocument(body.document, body.mime);
        return { kyc: await submitKyc(ctx, a, doc.mime, doc.data) };
      },
    }),
    route({
      method: 'post',
      path: '/api/affiliate/payout', response: affiliateResponses['POST /api/affiliate/payout'],
      auth: 'editor',
      body: affiliateRequests['POST /api/affiliate/payout'].body,
      handler: async ({ caller, body }) => {
        const cents = Math.round(body.amount * 100);
        if (Math.abs(cents - body.amount * 100) > 1e-6) throw badRequest('amount: at most two decimals');
        const a = await requireAffiliate(ctx, caller.userId);
        const id = await requestPayout(ctx, a, cents);
        const b = await balances(ctx, a.id);
        return { payout: await payoutView(ctx, id), available: b.availableCents / 100 };
      },
    }),
    route({ method: 'get', path: '/api/affiliate/leaderboard', response: affiliateResponses['GET /api/affiliate/leaderboard'], auth: 'bearer', handler: ({ caller }) => leaderboard(ctx, caller.userId) }),
    route({ method: 'get', path: '/api/affiliate/assets', response: affiliateResponses['GET /api/affiliate/assets'], auth: 'bearer', handler: () => brandAssets(ctx.config.appUrl) }),
    route({
      method: 'get',
      path: '/r/:code', produces: 'redirect',
      auth: 'public',
      params: affiliateRequests['GET /r/:code'].params,
      handler: async ({ params, req, res }) => {
        const code = /^[A-Za-z0-9_-]{1,64}$/.test(params.code) ? params.code : '';
        const hit = code ? await resolveCode(ctx, code) : null;
        if (!hit) {
          res.redirect(302, `${ctx.config.appUrl}/`);
          return undefined;
        }
        const linkCode = await linkCodeOf(ctx, hit.linkId);
        await recordClick(ctx, hit.linkId, hit.affiliateId, createHash('sha256').update(`${clientIp(req)}|${hit.linkId}`).digest('hex'));
        res.cookie(REF_COOKIE, linkCode, { maxAge: REF_COOKIE_DAYS * 86_400_000, httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/' });
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(302, `${ctx.config.appUrl}/register?ref=${encodeURIComponent(linkCode)}`);
        return undefined;
      },
    }),
  ];
}
