import type { Request } from 'express';
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../http/define-route';
import { notFound } from '../http/errors';
import { actorOf } from '../security/auth';
import { moveEnroller, recordCodeEnroller } from './enrollers';
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
    auth: 'manager',
    handler: async ({ ws, app, req }) => {
      const out = await centralOf(app).createCode(ws);
      await recordCodeEnroller(app, out.code, actorOf(req));
      return out;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/sync/benches',
    auth: 'manager',
    handler: async ({ ws, app, req }) => {
      const central = centralOf(app);
      return { benches: await central.listBenches(ws) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/sync/benches/:bench/revoke',
    auth: 'manager',
    params: z.object({ bench: z.string().min(1).max(64) }),
    handler: async ({ ws, app, req, params }) => {
      const central = centralOf(app);
      if (!(await central.revoke(ws, params.bench))) throw notFound('bench not found');
      return { revoked: params.bench };
    },
  }),
  defineRoute({
    method: 'post',
    path: `${SYNC_V1}/enrol`,
    auth: 'token',
    workspace: false,
    body: enrolBody,
    handler: async ({ app, req, body }) => {
      const out = await mapSyncErrors(() => centralOf(app).enrol(body, schemaOf(req)));
      await moveEnroller(app, body.code, String(out.workspace), body.bench);
      return out;
    },
  }),
  defineRoute({
    method: 'post',
    path: `${SYNC_V1}/push`,
    auth: 'bench',
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
    auth: 'bench',
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
    auth: 'bench',
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
    auth: 'bench',
    workspace: false,
    body: leaseBody,
    handler: ({ app, req, body }) =>
      mapSyncErrors(async () => {
        const central = centralOf(app);
        return central.lease(await central.authenticate(tokenOf(req), schemaOf(req)), body);
      }),
  }),
];
