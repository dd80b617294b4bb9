import { defineRoute } from '../../http/define-route';
import { badRequest, conflict, notFound } from '../../../core/errors';
import { randomKey } from '../../../core/ids';
import type { Doc } from '../../store/types';
import { formLimit, newestFirst } from './forms.service';
import { SIGNS, signRules } from './forms.schema';
import { formRequests, formResponses } from '../../../../shared/api/contracts/public';

const { signParams: idParams } = formRequests;
const publicDoc = ({ signature: _s, signedIp: _ip, ...d }: Doc) => d;

export const signRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/sign/create',
    response: formResponses.signCreate,
    auth: 'sales:edit',
    body: formRequests.sign,
    handler: async ({ app, ws, req, body }) => {
      await formLimit(app, req);
      const email = signRules.email(body.email);
      const bodyHtml = signRules.bodyHtml(body.bodyHtml);
      const amount = signRules.amount(body.amount);
      const id = randomKey('SG-', 6);
      await app.store.transact(ws, (tx) =>
        tx.put(SIGNS, id, { id, title: signRules.title(body.title), client: signRules.client(body.client), email, amount, bodyHtml, status: 'pending', signedName: null, signedAt: null, created: Date.now() }),
      );
      return { id, url: `/sign.html?id=${id}` };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/signs',
    response: formResponses.signs,
    auth: 'sales:view',
    handler: async ({ app, ws }) => ({ signs: (await app.store.list(ws, SIGNS)).sort(newestFirst).map(({ signature: _s, ...d }) => d) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/sign/:id',
    response: formResponses.sign,
    auth: 'public',
    params: idParams,
    handler: async ({ app, ws, params }) => {
      const doc = await app.store.get<Doc>(ws, SIGNS, params.id);
      if (!doc) throw notFound('not found');
      return { doc: publicDoc(doc) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/sign/:id/status',
    response: formResponses.signStatus,
    auth: 'public',
    params: idParams,
    handler: async ({ app, ws, params }) => {
      const doc = await app.store.get<Doc>(ws, SIGNS, params.id);
      if (!doc) throw notFound('not found');
      return { status: doc.status, signedName: doc.signedName ?? null, signedAt: doc.signedAt ?? null };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/sign/:id/submit',
    response: formResponses.signSubmit,
    auth: 'public',
    params: idParams,
    body: formRequests.signSubmit,
    handler: async ({ app, ws, req, params, body }) => {
      await formLimit(app, req);
      const signedName = signRules.signedName(body.name);
      if (body.agreed !== true) throw badRequest('agreed required', { message: '内容に同意してください' });
      const signature = signRules.signature(body.signature);
      const signedAt = Date.now();
      await app.store.transact(ws, async (tx) => {
        const doc = await tx.get<Doc>(SIGNS, params.id);
        if (!doc) throw notFound('not found');
        if (doc.status === 'signed') throw conflict('already signed', { message: 'この書類は署名済みです' });
        await tx.patch(SIGNS, params.id, { status: 'signed', signedName, signature, signedAt, signedIp: req.ip ?? '' });
      });
      return { status: 'signed', signedAt };
    },
  }),
];
