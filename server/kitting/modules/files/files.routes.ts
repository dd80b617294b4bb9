import { clip } from '../../../../shared/fields';
import { defineRoute } from '../../http/define-route';
import { badRequest, notFound, tooLarge } from '../../../core/errors';
import { P, PLATFORM_WS } from '../platform-collections';
import { randomKey } from '../../../core/ids';
import type { Doc } from '../../store/types';
import { operatorName, scopedTenant } from '../subadmin/scope';
import { MAX_FILE_CHARS, tenantToolRequests, tenantToolResponses } from '../../../../shared/api/contracts/admin';

const { params: tParams, fileParams: fParams } = tenantToolRequests;
const meta = ({ data: _d, ...m }: Doc) => m;

async function scopedFile(app: Parameters<typeof scopedTenant>[0], req: Parameters<typeof scopedTenant>[1], tenantId: string, fileId: string) {
  await scopedTenant(app, req, tenantId);
  const f = await app.store.get<Doc>(PLATFORM_WS, P.files, fileId);
  if (!f || f.tenantId !== tenantId) throw notFound('file not found');
  return f;
}

export const fileRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/files/:tenantId',
    response: tenantToolResponses.files,
    auth: 'subadmin',
    workspace: false,
    params: tParams,
    handler: async ({ app, req, params }) => {
      await scopedTenant(app, req, params.tenantId);
      return { files: (await app.store.list(PLATFORM_WS, P.files, { reverse: true })).filter((f) => f.tenantId === params.tenantId).map(meta) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/files/:tenantId',
    response: tenantToolResponses.file,
    auth: 'subadmin',
    workspace: false,
    params: tParams,
    body: tenantToolRequests.upload,
    handler: async ({ app, req, params, body }) => {
      const { op } = await scopedTenant(app, req, params.tenantId);
      const raw = typeof body.data === 'string' ? body.data : '';
      if (!raw) throw badRequest('data required', { message: 'ファイルが空です' });
      if (raw.length > MAX_FILE_CHARS) throw tooLarge('file too large', { limit: MAX_FILE_CHARS, message: 'ファイルが大きすぎます' });
      const data = raw.replace(/^data:[^;,]*;base64,/, '');
      if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(data) || data.length === 0) throw badRequest('data must be base64');
      const size = Buffer.byteLength(data, 'base64');
      const id = randomKey('fl-', 4);
      const file = await app.store.transact(PLATFORM_WS, (tx) =>
        tx.put(P.files, id, {
          id, tenantId: params.tenantId, ts: Date.now(), by: operatorName(op),
          name: clip(typeof body.name === 'string' && body.name.trim() ? body.name.trim() : 'file', 160),
          type: clip(typeof body.type === 'string' ? body.type : 'application/octet-stream', 80), size, data,
        }),
      );
      return { file: meta(file) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/files/:tenantId/:fileId/download',
    response: tenantToolResponses.download,
    auth: 'subadmin',
    workspace: false,
    params: fParams,
    handler: async ({ app, req, params }) => {
      const f = await scopedFile(app, req, params.tenantId, params.fileId);
      return { name: f.name, type: f.type, data: f.data };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/files/:tenantId/:fileId/delete',
    response: tenantToolResponses.removeFile,
    auth: 'subadmin',
    workspace: false,
    params: fParams,
    handler: async ({ app, req, params }) => {
      await scopedFile(app, req, params.tenantId, params.fileId);
      await app.store.transact(PLATFORM_WS, (tx) => tx.remove(P.files, params.fileId));
      return {};
    },
  }),
];
