import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import type { AppContext } from '../../context';
import { badRequest, notFound } from '../../../core/errors';
import { P, PLATFORM_WS } from '../platform-collections';
import { registerWorkspace } from '../../security/tenants';
import { mintToken } from '../../security/tokens';
import type { Doc } from '../../store/types';
import { ensurePortalForClient, mintPortalToken, slugify } from '../portal/portal.service';
import { limitsOf, planByName } from './plans';

/** What a kitting tenant record holds before anyone sets it: the plan a new workspace starts on. */
export function tenantDefaults(kind: string): Doc {
  return {
    name: kind === 'anonymous' ? '匿名ワークスペース' : '新規テナント',
    plan: 'Starter',
    seats: 3,
    used: 0,
    status: kind === 'anonymous' ? 'active' : 'trial',
    email: '',
    devices: 0,
    mrr: 0,
    features: {},
    clients: [],
  };
}

export const origin = (req: Request) => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

/** Tenants of the admin console: every registered workspace except untouched anonymous ones. */
export async function listTenants(app: AppContext, all = false): Promise<Doc[]> {
  const rows = await app.store.list(PLATFORM_WS, P.tenants);
  return all ? rows : rows.filter((t) => t.kind !== 'anonymous');
}

export async function getTenant(app: AppContext, id: string): Promise<Doc> {
  const t = await app.store.get<Doc>(PLATFORM_WS, P.tenants, id);
  if (!t) throw notFound('tenant not found');
  return t;
}

async function tenantSites(app: AppContext, id: string): Promise<Doc[]> {
  return (await app.store.list(PLATFORM_WS, P.sites)).filter((s) => s.tenant === id);
}

export function tenantStats(tenants: Doc[], sites: Doc[]) {
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    total: tenants.length,
    active: tenants.filter((t) => t.status === 'active').length,
    trial: tenants.filter((t) => t.status === 'trial').length,
    suspended: tenants.filter((t) => t.status === 'suspended').length,
    mrr: tenants.reduce((s, t) => s + n(t.mrr), 0),
    devices: tenants.reduce((s, t) => s + n(t.devices), 0),
    seats: tenants.reduce((s, t) => s + n(t.seats), 0),
    sites: sites.length,
    clients: tenants.reduce((s, t) => s + (Array.isArray(t.clients) ? t.clients.length : 0), 0),
  };
}

/** A tenant record with live counts from its workspace. */
export async function withCounts(app: AppContext, t: Doc): Promise<Doc> {
  const id = String(t.id);
  return { ...t, devices: await app.store.count(id, 'devices'), used: await app.store.count(id, 'team') };
}

/** Portal URL for one client of a tenant: the client is added to the tenant and its portal published. */
export async function clientLink(app: AppContext, tenantId: string, client: string): Promise<string> {
  await getTenant(app, tenantId);
  const portal = await app.store.transact(tenantId, (tx) => ensurePortalForClient(tx, client));
  await app.store.transact(PLATFORM_WS, async (tx) => {
    const t = await tx.get<Doc>(P.tenants, tenantId);
    const clients = Array.isArray(t?.clients) ? (t?.clients as string[]) : [];
    if (!clients.includes(client)) await tx.patch(P.tenants, tenantId, { clients: [...clients, client].slice(0, 200) });
  });
  return `/portal.html?t=${encodeURIComponent(mintPortalToken(app, tenantId, String(portal.id)))}`;
}

export async function tenantView(app: AppContext, req: Request, id: string) {
  const t = await withCounts(app, await getTenant(app, id));
  const portals = await app.store.list(id, 'portals');
  const clients = Array.isArray(t.clients) ? (t.clients as string[]) : [];
  const dashboards = clients.map((client) => {
    const p = portals.find((x) => x.name === client);
    return { client, url: p ? `/portal.html?t=${encodeURIComponent(mintPortalToken(app, id, String(p.id)))}` : null };
  });
  const published = (await tenantSites(app, id)).map((s) => ({ slug: s.slug, url: `/site/${String(s.slug)}`, live: s.live !== false }));
  return { tenant: t, dashboards, published, origin: origin(req) };
}

export async function createTenant(app: AppContext, input: { name: string; plan: string; seats: number; email: string }, kind = 'admin', status = 'trial'): Promise<Doc> {
  const id = `t-${slugify(input.name) || 'tenant'}-${randomBytes(3).toString('hex')}`;
  await app.store.createWorkspace(id, 'tenant');
  await app.store.markSeeded(id);
  const planKey = planByName(input.plan) ?? 'starter';
  return registerWorkspace(app, id, kind, {
    name: input.name, plan: input.plan, seats: input.seats, email: input.email, status,
    planKey, planStatus: status, planSource: kind, limits: limitsOf(planKey),
  });
}

/** An assist-mode link: a short-lived session bound to the workspace owner's current token version. */
/** An assist link; a sub-admin's names the operator (`op`: id and token version), re-checked on every request. */
export async function assistLink(app: AppContext, tid: string, by: string, op?: { id: string; v: unknown }) {
  if (!/^[a-z][a-z0-9-]{2,80}$/.test(tid)) throw badRequest('malformed workspace id');
  const t = await app.store.get<Doc>(PLATFORM_WS, P.tenants, tid);
  if (!t) throw notFound('no such workspace');
  const owner = typeof t.owner === 'string' ? await app.store.get<Doc>(PLATFORM_WS, P.accounts, t.owner) : null;
  const ttl = 3_600_000;
  const token = mintToken(app.secret, 'assist', { tid, by, ...(op ? { op: op.id, ov: op.v } : {}), ...(owner ? { sub: owner.id, v: owner.tokenVersion } : {}) }, ttl);
  return { url: `/app?admin_as=${encodeURIComponent(tid)}&assist=${encodeURIComponent(token)}`, expiresAt: Date.now() + ttl, tenant: t };
}
