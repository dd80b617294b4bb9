import { clip } from '../../../../shared/fields';
import { defineRoute } from '../../http/define-route';
import { badRequest, notFound } from '../../../core/errors';
import { P, PLATFORM_WS } from '../platform-collections';
import { randomKey } from '../../../core/ids';
import type { Doc } from '../../store/types';
import { operatorName, scopedTenant } from '../subadmin/scope';
import { tenantToolRequests, tenantToolResponses } from '../../../../shared/api/contracts/admin';

const { params: tParams } = tenantToolRequests;
const noteText = (v: unknown) => (typeof v === 'string' ? clip(v.trim(), 600) : '');

export const noteRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/notes/:tenantId',
    response: tenantToolResponses.notes,
    auth: 'subadmin',
    workspace: false,
    params: tParams,
    handler: async ({ app, req, params }) => {
      await scopedTenant(app, req, params.tenantId);
      return { notes: (await app.store.list(PLATFORM_WS, P.notes, { reverse: true })).filter((n) => n.tenantId === params.tenantId) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/notes/:tenantId',
    response: tenantToolResponses.note,
    auth: 'subadmin',
    workspace: false,
    params: tParams,
    body: tenantToolRequests.addNote,
    handler: async ({ app, req, params, body }) => {
      const { op } = await scopedTenant(app, req, params.tenantId);
      const text = noteText(body.text);
      if (!text) throw badRequest('text required', { message: 'メモを入力してください' });
      const id = randomKey('nt-', 4);
      const note = await app.store.transact(PLATFORM_WS, (tx) =>
        tx.put(P.notes, id, { id, tenantId: params.tenantId, ts: Date.now(), by: operatorName(op), text, done: false }),
      );
      return { note };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/notes/:tenantId/:noteId',
    response: tenantToolResponses.changeNote,
    auth: 'subadmin',
    workspace: false,
    params: tenantToolRequests.noteParams,
    body: tenantToolRequests.changeNote,
    handler: async ({ app, req, params, body }) => {
      await scopedTenant(app, req, params.tenantId);
      return app.store.transact(PLATFORM_WS, async (tx) => {
        const cur = await tx.get<Doc>(P.notes, params.noteId);
        if (!cur || cur.tenantId !== params.tenantId) throw notFound('note not found');
        if (body.del) {
          await tx.remove(P.notes, params.noteId);
          return {};
        }
        const patch: Doc = {};
        if (body.done !== undefined) patch.done = body.done;
        if (body.text !== undefined) {
          const text = noteText(body.text);
          if (!text) throw badRequest('text required');
          patch.text = text;
        }
        return { note: await tx.patch(P.notes, params.noteId, patch) };
      });
    },
  }),
];
