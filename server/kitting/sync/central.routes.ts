import type { Request } from 'express';
import { defineRoute, type RouteDef } from '../http/define-route';
import { DomainError, notFound, unprocessable } from '../../core/errors';
import { actorOf } from '../security/auth';
import { assertNotLocked, lockKey, recordFailure } from '../security/limits';
import { moveEnroller, recordCodeEnroller } from './enrollers';
import { checkPush, indexPushedPortals } from './push-policy';
import { certKeyBody, enrolBody, leaseBody, portalLinkBody, pushBody, SCHEMA_HEADER, SYNC_V1, SyncError, TOKEN_HEADER } from './protocol';
import { centralPortalLink } from '../modules/portal/portal-link';
import { PORTALS } from '../modules/portal/portal.service';
import { centralOf, mapSyncErrors } from './endpoints';
import { syncRequests, syncResponses } from '../../../shared/api/contracts/sync';
import { registerKey, retireBenchKeys, validPublicKey } from '../modules/certs/cert-keys';
import { indexAliasCerts, indexPushedCerts } from '../modules/certs/cert-verify.service';
import { ERASURE_CERTS } from '../modules/certs/certs.service';
import { kittingPublicUrl } from '../config';

/** Wrong enrolment codes one address may try before it is locked out. */
const ENROL_ATTEMPTS = 10;

const schemaOf = (req: Request) => {
  const v = Number(req.headers[SCHEMA_HEADER]);
  return Number.isInteger(v) ? v : 0;
};
const tokenOf = (req: Request) => {
  const t = req.headers[TOKEN_HEADER];
  return typeof t === 'string' ? t : undefined;
};

const { v1Changes: cursorQuery, v1Snapshot: snapshotQuery, bench: benchParams } = syncRequests;

/** Central: enrolment codes and bench management for a workspace, and the versioned bench protocol. */
export const centralSyncRoutes: RouteDef[] = [
  defineRoute({
    method: 'post',
    path: '/api/sync/enrol-code',
    response: syncResponses.enrolCode,
    auth: 'manager',
    credential: true,
    handler: async ({ ws, app, req }) => {
      const out = await centralOf(app).createCode(ws);
      await recordCodeEnroller(app, out.code, actorOf(req));
      return out;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/sync/benches',
    response: syncResponses.benches,
    auth: 'manager',
    handler: async ({ ws, app, req }) => {
      const central = centralOf(app);
      return { benches: await central.listBenches(ws) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/sync/benches/:bench/revoke',
    response: syncResponses.revoke,
    auth: 'manager',
    params: benchParams,
    handler: async ({ ws, app, req, params }) => {
      const central = centralOf(app);
      if (!(await central.revoke(ws, params.bench))) throw notFound('bench not found');
      // Its signing keys stay published, marked retired: what it issued before keeps verifying.
      await retireBenchKeys(app, ws, params.bench);
      return { revoked: params.bench };
    },
  }),
  defineRoute({
    method: 'post',
    path: `${SYNC_V1}/enrol`,
    response: syncResponses.v1Enrol,
    auth: 'token',
    workspace: false,
    body: enrolBody,
    handler: async ({ app, req, body }) => {
      // Codes are short: wrong guesses from one address lock it out with growing back-off.
      const key = lockKey('enrol', req.ip);
      await assertNotLocked(app, key);
      const out = await mapSyncErrors(() => centralOf(app).enrol(body, schemaOf(req))).catch(async (err: unknown) => {
        if (err instanceof DomainError && err.error === 'enrol_code_invalid') await recordFailure(app, key, ENROL_ATTEMPTS);
        throw err;
      });
      await moveEnroller(app, body.code, String(out.workspace), body.bench);
      const certKey = body.certKey;
      if (certKey && (await validPublicKey(certKey.kid, certKey.jwk))) await registerKey(app, String(out.workspace), certKey.kid, certKey.jwk, body.bench, certKey.alias ?? null);
      return { ...out, publicUrl: kittingPublicUrl() };
    },
  }),
  defineRoute({
    method: 'post',
    path: `${SYNC_V1}/push`,
    response: syncResponses.v1Push,
    auth: 'bench',
    workspace: false,
    body: pushBody,
    handler: ({ app, req, body }) =>
      mapSyncErrors(async () => {
        const central = centralOf(app);
        const bench = await central.authenticate(tokenOf(req), schemaOf(req));
        const actor = actorOf(req);
        await checkPush(app, { ws: bench.ws, role: actor.kind === 'bench' ? actor.role : null, scopes: actor.kind === 'bench' ? (actor.scopes ?? {}) : {} }, body);
        const out = await central.push(bench, body);
        await indexPushedPortals(app, bench.ws, body);
        await indexPushedCerts(app, bench.ws, body.changes.filter((c) => c.coll === ERASURE_CERTS).map((c) => c.id));
        return out;
      }),
  }),
  defineRoute({
    method: 'get',
    path: `${SYNC_V1}/changes`,
    response: syncResponses.v1Changes,
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
    response: syncResponses.v1Snapshot,
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
    response: syncResponses.v1Lease,
    auth: 'bench',
    workspace: false,
    body: leaseBody,
    handler: ({ app, req, body }) =>
      mapSyncErrors(async () => {
        const central = centralOf(app);
        return central.lease(await central.authenticate(tokenOf(req), schemaOf(req)), body);
      }),
  }),
  defineRoute({
    method: 'post',
    path: `${SYNC_V1}/portal-link`,
    response: syncResponses.v1PortalLink,
    auth: 'bench',
    workspace: false,
    body: portalLinkBody,
    // A bench's customer-portal link, signed here and on this server's public address (the customer cannot reach the bench).
    handler: ({ app, req, body }) =>
      mapSyncErrors(async () => {
        const central = centralOf(app);
        const row = await central.authenticate(tokenOf(req), schemaOf(req));
        if (!(await app.store.get(row.ws, PORTALS, body.key))) throw new SyncError(404, 'portal_not_found', Date.now());
        return { ...centralPortalLink(app, row.ws, body.key, `${req.protocol}://${req.get('host') ?? 'localhost'}`), serverTime: Date.now() };
      }),
  }),
  defineRoute({
    method: 'post',
    path: `${SYNC_V1}/cert-key`,
    response: syncResponses.v1CertKey,
    auth: 'bench',
    workspace: false,
    body: certKeyBody,
    handler: ({ app, req, body }) =>
      mapSyncErrors(async () => {
        const central = centralOf(app);
        const bench = await central.authenticate(tokenOf(req), schemaOf(req));
        // A bench enrolled before certificate keys existed publishes its key here, once.
        if (!(await validPublicKey(body.kid, body.jwk))) throw unprocessable('invalid_key', { message: '署名鍵の形式が正しくありません' });
        if (await registerKey(app, bench.ws, body.kid, body.jwk, bench.bench, body.alias ?? null)) await indexAliasCerts(app, bench.ws, String(body.alias), body.kid);
        return { kid: body.kid, publicUrl: kittingPublicUrl(), serverTime: central.now() };
      }),
  }),
];
