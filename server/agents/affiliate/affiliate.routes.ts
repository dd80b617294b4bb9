import { createHash } from 'node:crypto';
import { z } from 'zod';
import { badRequest } from '../../core/errors';
import type { AgentsContext } from '../context';
import { clientIp, route, type AgentRoute } from '../http';
import { requireEditor } from '../roles';
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
  payoutView,
  recordClick,
  requestPayout,
  requireAffiliate,
  setPayoutMethod,
  submitKyc,
  updateProfile,
} from './affiliate.service';
import { affiliateResponses } from '../../../shared/api/contracts/agents-affiliate';

const editor = (_req: unknown, caller: Parameters<typeof requireEditor>[0]) => requireEditor(caller);
const displayName = z.string().trim().min(1, 'displayName must not be empty').max(80);
const socials = z.union([z.record(z.string().max(40), z.string().max(300)), z.array(z.string().max(300)).max(20)]).refine((v) => Object.keys(v).length <= 20, 'at most 20 entries');
const promoCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{3,32}$/, 'promoCode must be 3-32 letters, digits, - or _')
  .transform((s) => s.toUpperCase());
const payoutMethod = z
  .object({
    method: z.enum(['paypal', 'crypto'], 'method must be paypal or crypto'),
    dest: z.string().trim().min(1).max(200),
    network: z.string().trim().max(40).nullish(),
  })
  .superRefine((v, c) => {
    if (v.method === 'paypal' && !z.email().safeParse(v.dest).success) c.addIssue({ code: 'custom', path: ['dest'], message: 'a PayPal payout needs the account email' });
    if (v.method === 'crypto' && !v.network) c.addIssue({ code: 'custom', path: ['network'], message: 'a crypto payout needs the network (for example USDT-TRC20)' });
    if (v.method === 'crypto' && !/^[A-Za-z0-9:._-]{10,120}$/.test(v.dest)) c.addIssue({ code: 'custom', path: ['dest'], message: 'not a wallet address' });
  });

export function affiliateRoutes(ctx: AgentsContext): AgentRoute[] {
  return [
    route({ method: 'get', path: '/api/affiliate', response: affiliateResponses['GET /api/affiliate'], auth: 'bearer', handler: ({ caller }) => dashboard(ctx, caller.userId) }),
    route({
      method: 'post',
      path: '/api/affiliate/enroll', response: affiliateResponses['POST /api/affiliate/enroll'],
      auth: 'bearer',
      before: editor,
      body: z.object({ displayName: displayName.optional(), socials: socials.optional(), agree: z.literal(true, 'you must agree to the program terms (agree:true)') }),
      handler: ({ caller, body }) => {
        enroll(ctx, caller.userId, caller.ws, body.displayName, body.socials);
        return dashboard(ctx, caller.userId);
      },
    }),
    route({
      method: 'patch',
      path: '/api/affiliate', response: affiliateResponses['PATCH /api/affiliate'],
      auth: 'bearer',
      before: editor,
      body: z.object({ displayName: displayName.optional(), socials: socials.optional(), promoCode: promoCode.nullable().optional(), notify: z.boolean().optional() }),
      handler: ({ caller, body }) => {
        updateProfile(ctx, requireAffiliate(ctx, caller.userId), body);
        return dashboard(ctx, caller.userId);
      },
    }),
    route({
      method: 'post',
      path: '/api/affiliate/links', response: affiliateResponses['POST /api/affiliate/links'],
      auth: 'bearer',
      before: editor,
      body: z.object({ name: z.string().trim().min(1, 'name is required').max(80), channel: z.string().trim().max(40).default('') }),
      handler: ({ caller, body }) => ({ link: createLink(ctx, requireAffiliate(ctx, caller.userId), body.name, body.channel) }),
    }),
    route({
      method: 'delete',
      path: '/api/affiliate/links/:id', response: affiliateResponses['DELETE /api/affiliate/links/:id'],
      auth: 'bearer',
      before: editor,
      params: z.object({ id: z.string().max(64) }),
      handler: ({ caller, params }) => {
        deleteLink(ctx, requireAffiliate(ctx, caller.userId), params.id);
        return { ok: true };
      },
    }),
    route({
      method: 'post',
      path: '/api/affiliate/payout-method', response: affiliateResponses['POST /api/affiliate/payout-method'],
      auth: 'bearer',
      before: editor,
      body: payoutMethod,
      handler: ({ caller, body }) => {
        setPayoutMethod(ctx, requireAffiliate(ctx, caller.userId), body);
        return { payoutMethod: { method: body.method, dest: body.dest, network: body.network ?? null } };
      },
    }),
    route({
      method: 'post',
      path: '/api/affiliate/kyc', response: affiliateResponses['POST /api/affiliate/kyc'],
      auth: 'bearer',
      before: editor,
      body: z.object({ document: z.string().min(1, 'document is required'), mime: z.string().max(100).optional(), filename: z.string().max(200).optional() }),
      handler: ({ caller, body }) => {
        const a = requireAffiliate(ctx, caller.userId);
        const doc = decodeDocument(body.document, body.mime);
        return { kyc: submitKyc(ctx, a, doc.mime, doc.data) };
      },
    }),
    route({
      method: 'post',
      path: '/api/affiliate/payout', response: affiliateResponses['POST /api/affiliate/payout'],
      auth: 'bearer',
      before: editor,
      body: z.object({ amount: z.number('amount must be a number in USD').positive('amount must be positive').max(1_000_000) }),
      handler: ({ caller, body }) => {
        const cents = Math.round(body.amount * 100);
        if (Math.abs(cents - body.amount * 100) > 1e-6) throw badRequest('amount: at most two decimals');
        const a = requireAffiliate(ctx, caller.userId);
        const id = requestPayout(ctx, a, cents);
        const b = balances(ctx, a.id);
        return { payout: payoutView(ctx, id), available: b.availableCents / 100 };
      },
    }),
    route({ method: 'get', path: '/api/affiliate/leaderboard', response: affiliateResponses['GET /api/affiliate/leaderboard'], auth: 'bearer', handler: ({ caller }) => leaderboard(ctx, caller.userId) }),
    route({ method: 'get', path: '/api/affiliate/assets', response: affiliateResponses['GET /api/affiliate/assets'], auth: 'bearer', handler: () => brandAssets(ctx.config.appUrl) }),
    route({
      method: 'get',
      path: '/r/:code', produces: 'redirect',
      auth: 'public',
      params: z.object({ code: z.string().max(64) }),
      handler: ({ params, req, res }) => {
        const code = /^[A-Za-z0-9_-]{1,64}$/.test(params.code) ? params.code : '';
        const hit = code ? resolveCode(ctx, code) : null;
        if (!hit) {
          res.redirect(302, `${ctx.config.appUrl}/`);
          return undefined;
        }
        const linkCode = (ctx.db.prepare('SELECT code FROM affiliate_links WHERE id = ?').get(hit.linkId) as { code: string }).code;
        recordClick(ctx, hit.linkId, hit.affiliateId, createHash('sha256').update(`${clientIp(req)}|${hit.linkId}`).digest('hex'));
        res.cookie(REF_COOKIE, linkCode, { maxAge: REF_COOKIE_DAYS * 86_400_000, httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/' });
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(302, `${ctx.config.appUrl}/register?ref=${encodeURIComponent(linkCode)}`);
        return undefined;
      },
    }),
  ];
}
