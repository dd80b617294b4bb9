import { defineRoute } from '../../http/define-route';
import { DomainError, badRequest, notFound, unauthorized } from '../../../core/errors';
import { hitLimit } from '../../security/limits';
import { safeEqual } from '../../../core/security/passwords';
import { P, PLATFORM_WS, requireCentral } from '../platform-collections';
import { logActivity } from '../../security/activity';
import { mintToken } from '../../security/tokens';
import type { Doc } from '../../store/types';
import { signInFailed, signInGate, signInOk } from '../accounts/accounts.service';
import { portalByNameOrId, portalReader, revokePortalLinks } from '../portal/portal.service';
import {
  assistLink, clientLink, createTenant, getTenant, listTenants, origin, tenantStats, tenantView, withCounts,
} from './tenants.service';
import { declareLookup } from '../../store/lookups';
import { adminRequests, adminResponses, TENANT_PLANS, TENANT_STATUSES } from '../../../../shared/api/contracts/admin';

/** A tenant's published sites are found by tenant (never by reading every tenant's pages). */
const SITES_BY_TENANT = declareLookup(P.sites, 'tenant');

const { params: idParams } = adminRequests;

export const adminRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/admin/login',
    response: adminResponses.login,
    auth: 'public',
    workspace: false,
    body: adminRequests.login,
    handler: async ({ app, req, body }) => {
      requireCentral(app);
      await hitLimit(app, 'signIn', req.ip);
      const cfg = await signInGate(app, req, 'admin');
      const master = app.config.adminPassword;
      if (!master || !body.password || !safeEqual(body.password, master)) {
        try {
          await signInFailed(app, req, 'admin', cfg, 'パスワードが違います');
        } catch (err) {
          if (err instanceof DomainError && err.kind === 'unauthorized') throw unauthorized('パスワードが違います');
          throw err;
        }
      }
      await signInOk(app, req, 'admin');
      await logActivity(app, { by: 'admin', role: 'admin', action: 'admin_login', detail: req.ip ?? '' });
      return { token: mintToken(app.secret, 'admin', { sub: 'admin' }) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/tenants',
    response: adminResponses.tenants,
    auth: 'admin',
    workspace: false,
    handler: async ({ app, req }) => {
      const tenants = await Promise.all((await listTenants(app)).map((t) => withCounts(app, t)));
      const sites = await app.store.list(PLATFORM_WS, P.sites);
      return { tenants, stats: tenantStats(tenants, sites), origin: origin(req) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/tenant/:id',
    response: adminResponses.tenant,
    auth: 'admin',
    workspace: false,
    params: idParams,
    handler: ({ app, req, params }) => tenantView(app, req, params.id),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/tenant',
    response: adminResponses.saveTenant,
    auth: 'admin',
    workspace: false,
    body: adminRequests.createTenant,
    handler: async ({ app, req, body }) => {
      const rawPlan = ((req.body ?? {}) as Doc).plan;
      if (rawPlan != null && !(TENANT_PLANS as readonly string[]).includes(String(rawPlan))) throw badRequest('invalid plan', { allowed: TENANT_PLANS });
      const name = body.name?.trim() || '新規テナント';
      const tenant = await createTenant(app, { name, plan: body.plan ?? 'Starter', seats: body.seats ?? 3, email: body.email ?? '' });
      await logActivity(app, { by: 'admin', role: 'admin', action: 'tenant_create', tenantId: String(tenant.id), tenantName: name });
      return { tenant };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/tenant/:id',
    response: adminResponses.saveTenant,
    auth: 'admin',
    workspace: false,
    params: idParams,
    body: adminRequests.patchTenant,
    handler: async ({ app, req, params, body }) => {
      // A typo must not silently fall back (a suspended tenant turned active): unknown enum values are 400.
      const raw = (req.body ?? {}) as Doc;
      if (raw.status != null && !(TENANT_STATUSES as readonly string[]).includes(String(raw.status))) throw badRequest('invalid status', { allowed: TENANT_STATUSES });
      if (raw.plan != null && !(TENANT_PLANS as readonly string[]).includes(String(raw.plan))) throw badRequest('invalid plan', { allowed: TENANT_PLANS });
      const tenant = await app.store.transact(PLATFORM_WS, async (tx) => {
        const cur = await tx.get<Doc>(P.tenants, params.id);
        if (!cur) throw notFound('tenant not found');
        const patch: Doc = { ...body };
        if (body.features) patch.features = { ...((cur.features as Doc) ?? {}), ...body.features };
        if (body.clients) patch.clients = body.clients.slice(0, 200);
        return tx.patch(P.tenants, params.id, patch);
      });
      await logActivity(app, { by: 'admin', role: 'admin', action: 'tenant_update', tenantId: params.id, tenantName: String(tenant?.name ?? ''), detail: Object.keys(body).join(',') });
      return { tenant };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/tenant/:id/delete',
    response: adminResponses.removeTenant,
    auth: 'admin',
    workspace: false,
    params: idParams,
    handler: async ({ app, params }) => {
      const t = await getTenant(app, params.id);
      await app.store.transact(PLATFORM_WS, async (tx) => {
        await tx.remove(P.tenants, params.id);
        for (const s of await tx.find(SITES_BY_TENANT.coll, SITES_BY_TENANT.field, params.id)) await tx.remove(P.sites, String(s.slug));
        await tx.remove(P.siteIndex, params.id);
      });
      await logActivity(app, { by: 'admin', role: 'admin', action: 'tenant_delete', tenantId: params.id, tenantName: String(t.name) });
      return {};
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/tenant/:id/client',
    response: adminResponses.client,
    auth: 'admin',
    workspace: false,
    params: idParams,
    body: adminRequests.client,
    handler: async ({ app, params, body }) => {
      const client = body.client?.trim();
      if (!client) throw badRequest('client required', { message: '顧客名を入力してください' });
      const url = await clientLink(app, params.id, client);
      await logActivity(app, { by: 'admin', role: 'admin', action: 'portal_link', tenantId: params.id, detail: client });
      return { url };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/tenant/:id/client/revoke',
    response: adminResponses.revoke,
    auth: 'admin',
    workspace: false,
    params: idParams,
    body: adminRequests.client,
    handler: async ({ app, params, body }) => {
      const client = body.client?.trim();
      if (!client) throw badRequest('client name required');
      await getTenant(app, params.id);
      const p = await portalByNameOrId(portalReader(app, params.id), client);
      if (!p) throw notFound('not found');
      const revocations = await revokePortalLinks(app, params.id, String(p.id));
      await logActivity(app, { by: 'admin', role: 'admin', action: 'portal_revoke', tenantId: params.id, detail: client });
      return { client, revocations };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/impersonate/:id',
    response: adminResponses.impersonate,
    auth: 'admin',
    workspace: false,
    params: idParams,
    handler: async ({ app, params }) => {
      const link = await assistLink(app, params.id, 'admin');
      await logActivity(app, { by: 'admin', role: 'admin', action: 'impersonate', tenantId: params.id, tenantName: String(link.tenant.name) });
      return { url: link.url };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/backups',
    response: adminResponses.backups,
    auth: 'admin',
    workspace: false,
    handler: async ({ app }) => {
      const log = await app.store.list(PLATFORM_WS, P.backups, { reverse: true, limit: 120 });
      const dayAgo = Date.now() - 86_400_000;
      const recent = log.filter((b) => (b.ts as number) >= dayAgo);
      return { log: log.map(({ snapshot: _s, ...meta }) => meta), daily: { last: log[0]?.ts ?? null, tenants: new Set(recent.map((b) => b.tenantId)).size } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/activity',
    response: adminResponses.activity,
    auth: 'admin',
    workspace: false,
    handler: async ({ app }) => ({ activity: await app.store.list(PLATFORM_WS, P.activity, { reverse: true, limit: 200 }) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/security/events',
    response: adminResponses.events,
    auth: 'admin',
    workspace: false,
    handler: async ({ app }) => ({ events: await app.store.list(PLATFORM_WS, P.security, { reverse: true, limit: 200 }) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/delete-requests',
    response: adminResponses.deleteRequests,
    auth: 'admin',
    workspace: false,
    handler: async ({ app }) => {
      const now = Date.now();
      const all = await app.store.list(PLATFORM_WS, P.deleteRequests);
      const expired = all.filter((r) => (r.expiresAt as number) < now);
      if (expired.length) await app.store.transact(PLATFORM_WS, async (tx) => { for (const r of expired) await tx.remove(P.deleteRequests, String(r.id)); });
      return { requests: all.filter((r) => (r.expiresAt as number) >= now) };
    },
  }),
];
