import { z } from 'zod';
import { defineRoute } from '../../../core/http/define-route';
import { badRequest, conflict, notFound } from '../../../core/errors';
import { randomKey } from '../../../core/security/platform';
import type { Doc } from '../../../core/store/types';
import { checkEmail, formLimit, newestFirst, str } from './forms.service';

const SIGNS = 'signs';
const idParams = z.object({ id: z.string().min(1).max(80) });
const publicDoc = ({ signature: _s, signedIp: _ip, ...d }: Doc) => d;

export const signRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/sign/create',
    auth: 'sales:edit',
    body: z.object({ title: str(200), client: str(200), email: str(160), amount: z.unknown().optional(), bodyHtml: z.unknown().optional() }),
    handler: async ({ app, ws, req, body }) => {
      formLimit(app, req);
      checkEmail(body.email);
      const html = typeof body.bodyHtml === 'string' ? body.bodyHtml : '';
      if (html.length > 200_000) throw badRequest('bodyHtml too large', { limit: 200_000 });
      const amount = Number(body.amount ?? 0);
      if (!Number.isFinite(amount) || amount < 0) throw badRequest('invalid amount');
      const id = randomKey('SG-', 6);
      await app.store.transact(ws, (tx) =>
        tx.put(SIGNS, id, { id, title: body.title || '御見積書', client: body.client, email: body.email, amount: Math.round(amount), bodyHtml: html, status: 'pending', signedName: null, signedAt: null, created: Date.now() }),
      );
      return { id, url: `/sign.html?id=${id}` };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/signs',
    auth: 'sales:view',
    handler: async ({ app, ws }) => ({ signs: (await app.store.list(ws, SIGNS)).sort(newestFirst).map(({ signature: _s, ...d }) => d) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/sign/:id',
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
    auth: 'public',
    params: idParams,
    body: z.object({ name: str(120), agreed: z.unknown().optional(), signature: z.unknown().optional() }),
    handler: async ({ app, ws, req, params, body }) => {
      formLimit(app, req);
      if (!body.name) throw badRequest('name required', { message: '署名者の氏名を入力してください' });
      if (body.agreed !== true) throw badRequest('agreed required', { message: '内容に同意してください' });
      const signature = typeof body.signature === 'string' ? body.signature : '';
      if (signature.length > 200_000) throw badRequest('signature too large', { limit: 200_000 });
      const signedAt = Date.now();
      await app.store.transact(ws, async (tx) => {
        const doc = await tx.get<Doc>(SIGNS, params.id);
        if (!doc) throw notFound('not found');
        if (doc.status === 'signed') throw conflict('already signed', { message: 'この書類は署名済みです' });
        await tx.patch(SIGNS, params.id, { status: 'signed', signedName: body.name, signature, signedAt, signedIp: req.ip ?? '' });
      });
      return { status: 'signed', signedAt };
    },
  }),
];
