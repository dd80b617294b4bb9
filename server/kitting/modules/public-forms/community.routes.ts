import { defineRoute } from '../../http/define-route';
import { badRequest, forbidden, notFound } from '../../../core/errors';
import { readSiteConfig } from '../../security/site-config';
import { hitLimit } from '../../security/limits';
import { randomKey } from '../../../core/ids';
import type { Doc } from '../../store/types';
import { createTenant } from '../admin/tenants.service';
import { AB, AB_EVENTS, AB_ID, AB_VARIANTS, checkEmail, EVENT_REGS, eventRegKey, EVENTS, formLimit, putLead } from './forms.service';
import { readNps, REVIEWS, reviewRules } from './forms.schema';
import { EMAIL_RE, formRequests, formResponses } from '../../../../shared/api/contracts/public';

export const communityRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/review',
    response: formResponses.review,
    auth: 'public',
    body: formRequests.review,
    handler: async ({ app, ws, req, body }) => {
      await formLimit(app, req);
      const comment = reviewRules.comment(body.comment);
      const rating = reviewRules.rating(body.rating);
      const nps = readNps(body.nps, rating * 2);
      const id = randomKey('rv-', 3);
      await app.store.transact(ws, (tx) => tx.put(REVIEWS, id, { id, name: reviewRules.name(body.name), company: reviewRules.company(body.company), rating, nps, comment, approved: false, created: Date.now() }));
      return {};
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/reviews',
    response: formResponses.reviews,
    auth: 'support:view',
    handler: async ({ app, ws }) => {
      const reviews = (await app.store.list(ws, REVIEWS)).filter((r) => r.approved === true);
      const count = reviews.length;
      const avg = count ? Math.round((reviews.reduce((s, r) => s + Number(r.rating), 0) / count) * 10) / 10 : 0;
      const promoters = reviews.filter((r) => Number(r.nps) >= 9).length;
      const detractors = reviews.filter((r) => Number(r.nps) <= 6).length;
      const nps = count ? Math.round(((promoters - detractors) / count) * 100) : 0;
      return { reviews, avg, count, nps };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/events',
    response: formResponses.events,
    auth: 'public',
    handler: async ({ app, ws }) => {
      const regs = await app.store.list(ws, EVENT_REGS);
      return { events: EVENTS.map((e) => ({ id: e.id, title: e.title, date: e.date, seats: Math.max(0, e.capacity - regs.filter((r) => r.event === e.id).length) })) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/event/:id/register',
    response: formResponses.register,
    auth: 'public',
    params: formRequests.eventParams,
    body: formRequests.eventRegister,
    handler: async ({ app, ws, req, params, body }) => {
      await formLimit(app, req);
      const ev = EVENTS.find((e) => e.id === params.id);
      if (!ev) throw notFound('event not found');
      if (!body.email) throw badRequest('email required', { message: 'メールアドレスを入力してください' });
      checkEmail(body.email);
      await app.store.transact(ws, async (tx) => {
        const id = eventRegKey(ev.id, body.email);
        if (!(await tx.get(EVENT_REGS, id))) await tx.put(EVENT_REGS, id, { id, event: ev.id, email: body.email, name: body.name, company: body.company, created: Date.now() });
        await putLead(tx, { name: body.name, email: body.email, company: body.company, message: ev.title, source: 'webinar' });
      });
      return {};
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/ab',
    response: formResponses.ab,
    auth: 'public',
    body: formRequests.abEvent,
    handler: async ({ app, ws, req, body }) => {
      await hitLimit(app, 'publicStatus', req.ip);
      if (!AB_VARIANTS.includes(body.variant as never)) throw badRequest('invalid variant', { allowed: AB_VARIANTS });
      if (!AB_EVENTS.includes(body.event as never)) throw badRequest('invalid event', { allowed: AB_EVENTS });
      const key = `${body.variant}_${body.event}`;
      await app.store.transact(ws, async (tx) => {
        const cur = (await tx.get<Doc>(AB, AB_ID)) ?? { id: AB_ID };
        await tx.put(AB, AB_ID, { ...cur, [key]: Number(cur[key] ?? 0) + 1 });
      });
      return {};
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/ab',
    response: formResponses.abStats,
    auth: 'mgmt:view',
    handler: async ({ app, ws }) => {
      const s = (await app.store.get<Doc>(ws, AB, AB_ID)) ?? {};
      const v = (k: string) => Number(s[k] ?? 0);
      return { stats: { a: { view: v('a_view'), convert: v('a_convert') }, b: { view: v('b_view'), convert: v('b_convert') } } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/signup',
    response: formResponses.signup,
    auth: 'public',
    body: formRequests.trial,
    handler: async ({ app, ws, req, body }) => {
      await hitLimit(app, 'signup', req.ip);
      const { config } = await readSiteConfig(app);
      if (!config.registrationOpen) throw forbidden('registration closed', { message: '現在、新規登録を受け付けていません' });
      const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
      if (!email) throw badRequest('email required', { message: 'メールアドレスを入力してください' });
      if (email.length > 160 || !EMAIL_RE.test(email)) throw badRequest('invalid email', { message: 'メールアドレスの形式が正しくありません' });
      const name = body.company || body.name || '新規テナント';
      const tenant = await createTenant(app, { name, plan: 'Starter', seats: 3, email }, 'signup', 'trial');
      await app.store.transact(ws, (tx) => putLead(tx, { name: body.name, email, company: body.company, message: body.plan ? `plan: ${body.plan}` : '', source: 'signup', tenant: String(tenant.id) }));
      return { tenant: { id: tenant.id, name: tenant.name }, url: `/signup.html?tenant=${encodeURIComponent(String(tenant.id))}` };
    },
  }),
];
