import type { Request } from 'express';
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../http/define-route';
import { forbidden, notFound } from '../http/errors';
import { canEnrol } from './can-enrol';
import { enrolBody, leaseBody, pushBody, SCHEMA_HEADER, SYNC_V1, TOKEN_HEADER } from './protocol';
import { centralOf, mapSyncErrors } from './runtime';

const schemaOf = (req: Request) => {
  const v = Number(req.headers[SCHEMA_HEADER]);
  return Number.isInteger(v) ? v : 0;
};
const tokenOf = (req: Request) => {
  const t = req.headers[TOKEN_HEADER];
  return typeof t === 'string' ? t : undefined;
};

const cursorQuery = z.object({
  after: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().positive().default(2000),
});
const snapshotQuery = z.object({
  after: z.string().max(1000).default(''),
  limit: z.coerce.number().int().positive().default(5000),
});

/** Central: enrolment codes and bench management for a workspace, and the versioned bench protocol. */
export const centralSyncRoutes: RouteDef[] = [
  defineRoute({
    method: 'post',
    path: '/api/sync/enrol-code',
    auth: 'P',
    handler: async ({ ws, app, req }) => {
      const central = centralOf(app);
      if (!(await canEnrol({ app, req, ws }))) throw forbidden('forbidden', { message: 'オーナーまたは管理者のみ作業台を登録できます' });
      return central.createCode(ws);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/sync/benches',
    auth: 'P',
    handler: async ({ ws, app, req }) => {
      const central = centralOf(app);
      if (!(await canEnrol({ app, req, ws }))) throw forbidden();
      return { benches: await central.listBenches(ws) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/sync/benches/:bench/revoke',
    auth: 'P',
    params: z.object({ bench: z.string().min(1).max(64) }),
    handler: async ({ ws, app, req, params }) => {
      const central = centralOf(app);
      if (!(await canEnrol({ app, req, ws }))) throw forbidden();
      if (!(await central.revoke(ws, params.bench))) throw notFound('bench not found');
      return { revoked: params.bench };
    },
  }),
  defineRoute({
    method: 'post',
    path: `${SYNC_V1}/enrol`,
    auth: 'T',
    workspace: false,
    body: enrolBody,
    handler: ({ app, req, body }) => mapSyncErrors(() => centralOf(app).enrol(body, schemaOf(req))),
  }),
  defineRoute({
    method: 'post',
    path: `${SYNC_V1}/push`,
    auth: 'T',
    workspace: false,
    body: pushBody,
    handler: ({ app, req, body }) =>
      mapSyncErrors(async () => {
        const central = centralOf(app);
        return central.push(await central.authenticate(tokenOf(req), schemaOf(req)), body);
      }),
  }),
  defineRoute({
    method: 'get',
    path: `${SYNC_V1}/changes`,
    auth: 'T',
    workspace: false,
    query: cursorQuery,
    handler: ({ app, req, query }) =>
      mapSyncErrors(async () => {
        const central = centralOf(app);
        return central.pull(await central.authenticate(tokenOf(req), schemaOf(req)), query.after, query.limit);
      }),
  }),
  defineRoute({
    method: 'get',
    path: `${SYNC_V1}/snapshot`,
    auth: 'T',
    workspace: false,
    query: snapshotQuery,
    handler: ({ app, req, query }) =>
      mapSyncErrors(async () => {
        const central = centralOf(app);
        return central.snapshot(await central.authenticate(tokenOf(req), schemaOf(req)), query.after, query.limit);
      }),
  }),
  defineRoute({
    method: 'post',
    path: `${SYNC_V1}/lease`,
    auth: 'T',
    workspace: false,
    body: leaseBody,
    handler: ({ app, req, body }) =>
      mapSyncErrors(async () => {
        const central = centralOf(app);
        return central.lease(await central.authenticate(tokenOf(req), schemaOf(req)), body);
      }),
  }),
];
