import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { intClamp, num, text } from '../../../../shared/fields';
import { crudRoutes } from '../../../core/http/crud';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest, conflict, notFound } from '../../../core/errors';
import { randomKey } from '../../../core/security/platform';
import type { Doc, Tx } from '../../../core/store/types';
import { checkEmail, formLimit, newestFirst, putLead, str } from './forms.service';

const BOOKINGS = 'bookings';
const REFERRALS = 'referrals';
const PARTNERS = 'partners';

const refCode = () => randomBytes(4).toString('hex').toUpperCase();
const cleanCode = (c: string) => c.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 24);

async function putReferral(tx: Tx, code: string, referrer: string): Promise<Doc> {
  if (await tx.get(REFERRALS, code)) throw conflict('code already exists', { message: 'この紹介コードは使用済みです' });
  return tx.put(REFERRALS, code, { id: code, code, referrer: referrer || '紹介者', clicks: 0, leads: 0, created: Date.now() });
}

const bookingCrud = crudRoutes({
  scope: 'sales',
  coll: BOOKINGS, listPath: '/api/bookings', listKey: 'bookings', itemPath: '/api/booking', itemKey: 'booking',
  notFoundError: 'booking not found', fields: { status: text(30) }, newId: async () => '', sort: newestFirst,
}).filter((r) => r.path === '/api/bookings' || r.path === '/api/booking/:id');

const partnerCrud = crudRoutes({
  scope: 'sales',
  coll: PARTNERS, listPath: '/api/partners', listKey: 'partners', itemPath: '/api/partner', itemKey: 'partner',
  notFoundError: 'partner not found',
  fields: { status: text(30), tier: text(30), note: text(800), deals: intClamp(0, 1_000_000, 0), revenue: num() },
  newId: async () => '', sort: newestFirst,
}).filter((r) => r.path === '/api/partners' || r.path === '/api/partner/:id');

export const engagementRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/booking',
    auth: 'public',
    body: z.object({ name: str(120), email: str(160), company: str(120), phone: str(40), when: str(60), topic: str(300) }),
    handler: async ({ app, ws, req, body }) => {
      formLimit(app, req);
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
    auth: 'public',
    body: z.object({ referrer: str(120), code: str(24) }),
    handler: async ({ app, ws, req, body }) => {
      formLimit(app, req);
      const code = cleanCode(body.code) || refCode();
      await app.store.transact(ws, (tx) => putReferral(tx, code, body.referrer));
      return { code, url: `?ref=${code}` };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/referrals',
    auth: 'sales:view',
    handler: async ({ app, ws }) => ({ referrals: await app.store.list(ws, REFERRALS) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/referral/:code/track',
    auth: 'public',
    params: z.object({ code: z.string().min(1).max(40) }),
    handler: async ({ app, ws, req, params }) => {
      formLimit(app, req);
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
    auth: 'public',
    body: z.object({ company: str(120), email: str(160), contact: str(120), region: str(60), note: str(800) }),
    handler: async ({ app, ws, req, body }) => {
      formLimit(app, req);
      if (!body.company) throw badRequest('company required', { message: '会社名を入力してください' });
      if (!body.email) throw badRequest('email required', { message: 'メールアドレスを入力してください' });
      checkEmail(body.email);
      const id = randomKey('P-', 3);
      const code = `P${refCode()}`;
      await app.store.transact(ws, async (tx) => {
        await tx.put(PARTNERS, id, { id, ...body, tier: 'registered', status: 'pending', deals: 0, revenue: 0, code, created: Date.now() });
        await putReferral(tx, code, body.company);
      });
      return { id, code, referralUrl: `?ref=${code}` };
    },
  }),
  ...partnerCrud,
];
