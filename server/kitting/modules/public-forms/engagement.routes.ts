import { randomBytes } from 'node:crypto';
import { crudRoutes } from '../../http/crud';
import { defineRoute } from '../../http/define-route';
import { badRequest, conflict, notFound } from '../../../core/errors';
import { randomKey } from '../../../core/ids';
import type { Doc, Tx } from '../../store/types';
import { checkEmail, formLimit, newestFirst, putLead } from './forms.service';
import { BOOKINGS, cleanCode, PARTNERS, partnerRules, REFERRALS, referralRules } from './forms.schema';
import { bookingEditFields, formRequests, formResponses, partnerEditFields } from '../../../../shared/api/contracts/public';

const refCode = () => randomBytes(4).toString('hex').toUpperCase();

async function putReferral(tx: Tx, code: string, referrer: string): Promise<Doc> {
  if (await tx.get(REFERRALS, code)) throw conflict('code already exists', { message: 'この紹介コードは使用済みです' });
  return tx.put(REFERRALS, code, { id: code, code, referrer: referralRules.referrer(referrer), clicks: 0, leads: 0, created: Date.now() });
}

const bookingCrud = crudRoutes({
  scope: 'sales',
  coll: BOOKINGS, listPath: '/api/bookings', listKey: 'bookings', itemPath: '/api/booking', itemKey: 'booking', responses: formResponses.bookings,
  notFoundError: 'booking not found', fields: bookingEditFields, requests: formRequests.bookingEdit, newId: async () => '', sort: newestFirst,
}).filter((r) => r.path === '/api/bookings' || r.path === '/api/booking/:id');

const partnerCrud = crudRoutes({
  scope: 'sales',
  coll: PARTNERS, listPath: '/api/partners', listKey: 'partners', itemPath: '/api/partner', itemKey: 'partner', responses: formResponses.partners,
  notFoundError: 'partner not found',
  fields: partnerEditFields,
  requests: formRequests.partnerEdit,
  newId: async () => '', sort: newestFirst,
}).filter((r) => r.path === '/api/partners' || r.path === '/api/partner/:id');

export const engagementRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/booking',
    response: formResponses.booking,
    auth: 'public',
    body: formRequests.booking,
    handler: async ({ app, ws, req, body }) => {
      await formLimit(app, req);
      if (!body.name && !body.email) throw badRequest('name or email required', { message: '氏名またはメールアドレスを入力してください' });
      checkEmail(body.email);
      const id = randomKey('B-', 3);
      await app.store.transact(ws, async (tx) => {
        await tx.put(BOOKINGS, id, { id, ...body, status: 'requested', created: Date.now() });
        await putLead(tx, { name: body.name, email: body.email, company: body.company, phone: body.phone, message: [body.when, body.topic].filter(Boolean).join(' / '), source: 'booking', status: 'meeting' });
      });
      return { id };
    },
  }),
  ...bookingCrud,
  defineRoute({
    method: 'post',
    path: '/api/referral',
    response: formResponses.referral,
    auth: 'public',
    body: formRequests.referral,
    handler: async ({ app, ws, req, body }) => {
      await formLimit(app, req);
      const code = cleanCode(body.code) || refCode();
      await app.store.transact(ws, (tx) => putReferral(tx, code, body.referrer));
      return { code, url: `?ref=${code}` };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/referrals',
    response: formResponses.referrals,
    auth: 'sales:view',
    handler: async ({ app, ws }) => ({ referrals: await app.store.list(ws, REFERRALS) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/referral/:code/track',
    response: formResponses.track,
    auth: 'public',
    params: formRequests.referralParams,
    handler: async ({ app, ws, req, params }) => {
      await formLimit(app, req);
      await app.store.transact(ws, async (tx) => {
        const r = await tx.get<Doc>(REFERRALS, params.code);
        if (!r) throw notFound('referral not found');
        await tx.patch(REFERRALS, params.code, { clicks: Number(r.clicks ?? 0) + 1 });
      });
      return {};
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/partner',
    response: formResponses.partner,
    auth: 'public',
    body: formRequests.partner,
    handler: async ({ app, ws, req, body }) => {
      await formLimit(app, req);
      const company = partnerRules.company(body.company);
      const email = partnerRules.email(body.email);
      const id = randomKey('P-', 3);
      const code = `P${refCode()}`;
      await app.store.transact(ws, async (tx) => {
        await tx.put(PARTNERS, id, { id, ...body, company, email, tier: 'registered', status: 'pending', deals: 0, revenue: 0, code, created: Date.now() });
        await putReferral(tx, code, company);
      });
      return { id, code, referralUrl: `?ref=${code}` };
    },
  }),
  ...partnerCrud,
];
