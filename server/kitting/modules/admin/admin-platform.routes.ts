import { defineRoute } from '../../http/define-route';
import { badRequest, conflict, notFound } from '../../../core/errors';
import { hashPassword, randomPassword } from '../../../core/security/passwords';
import { P, PLATFORM_WS } from '../platform-collections';
import { randomKey } from '../../../core/ids';
import { logActivity } from '../../security/activity';
import { cleanConfigPatch, readSiteConfig, SITE_DEFAULTS, writeSiteConfig } from '../../security/site-config';
import type { Doc, Tx } from '../../store/types';
import { publicAccount } from '../accounts/accounts.service';
import { limitsOf, PLAN_KEYS, PLANS } from './plans';
import { publicSub, SUBADMINS_BY_EMAIL } from '../subadmin/scope';
import { assistLink, listTenants } from './tenants.service';
import { adminRequests, adminResponses, TENANT_STATUSES } from '../../../../shared/api/contracts/admin';

const { workspaceParams: tidParams, params: idParams, subadmin: subBody } = adminRequests;

async function emailTaken(tx: Tx, email: string, except?: string): Promise<boolean> {
  return (await tx.find(SUBADMINS_BY_EMAIL.coll, SUBADMINS_BY_EMAIL.field, email)).some((s) => s.id !== except);
}

export const adminPlatformRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/workspaces',
    response: adminResponses.workspaces,
    auth: 'admin',
    workspace: false,
    handler: async ({ app }) => {
      const rows = await listTenants(app, true);
      const workspaces = await Promise.all(rows.map(async (t) => ({
        id: t.id, name: t.name, kind: t.kind, created: t.created, owner: t.owner ?? null, status: t.status,
        planKey: t.planKey ?? null, planStatus: t.planStatus ?? null, planSource: t.planSource ?? null, limits: limitsOf(t.planKey),
        devices: await app.store.count(String(t.id), 'devices'), members: await app.store.count(String(t.id), 'team'),
        customers: await app.store.count(String(t.id), 'customers'),
      })));
      const value = process.env.KITTING_OPERATOR_TENANT || null;
      const operatorTenant = {
        configured: value !== null, value, resolves: value ? rows.some((t) => t.id === value) : false,
        affects: '公開フォーム（リード・予約・署名）の受付先',
        note: value ? '' : 'KITTING_OPERATOR_TENANT が未設定のため、公開フォームは送信元ブラウザのワークスペースに記録されます',
      };
      return { workspaces, plans: PLANS, operatorTenant };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/workspace/:tid/plan',
    response: adminResponses.plan,
    auth: 'admin',
    workspace: false,
    params: tidParams,
    body: adminRequests.plan,
    handler: async ({ app, params, body }) => {
      if (!/^[a-z][a-z0-9-]{2,80}$/.test(params.tid)) throw badRequest('malformed workspace id');
      if (typeof body.planKey !== 'string' || !(PLAN_KEYS as readonly string[]).includes(body.planKey)) throw badRequest('invalid planKey', { allowed: PLAN_KEYS });
      const status = body.status === undefined ? 'active' : body.status;
      if (!(TENANT_STATUSES as readonly string[]).includes(String(status))) throw badRequest('invalid status');
      const planKey = body.planKey;
      const out = await app.store.transact(PLATFORM_WS, async (tx) => {
        const cur = await tx.get<Doc>(P.tenants, params.tid);
        if (!cur) throw notFound('no such workspace');
        const previous = { planKey: cur.planKey ?? null, status: cur.planStatus ?? null };
        const plan = PLANS.find((p) => p.key === planKey);
        await tx.patch(P.tenants, params.tid, { planKey, planStatus: status, planSource: 'admin', limits: limitsOf(planKey), plan: plan?.name, status });
        return { tenantId: params.tid, planKey, status, previous, limits: limitsOf(planKey), name: cur.name };
      });
      await logActivity(app, { by: 'admin', role: 'admin', action: 'plan_change', tenantId: params.tid, tenantName: String(out.name ?? ''), detail: `${String(out.previous.planKey)}→${planKey} ${body.reason ?? ''}`.trim() });
      const { name: _n, ...rest } = out;
      return rest;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/workspace/:tid/impersonate',
    response: adminResponses.assist,
    auth: 'admin',
    workspace: false,
    params: tidParams,
    handler: async ({ app, params }) => {
      const link = await assistLink(app, params.tid, 'admin');
      await logActivity(app, { by: 'admin', role: 'admin', action: 'impersonate', tenantId: params.tid, tenantName: String(link.tenant.name) });
      return { url: link.url, expiresAt: link.expiresAt };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/accounts',
    response: adminResponses.accounts,
    auth: 'admin',
    workspace: false,
    handler: async ({ app }) => ({ accounts: (await app.store.list(PLATFORM_WS, P.accounts)).map(publicAccount) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/account/:email/delete',
    response: adminResponses.removeAccount,
    auth: 'admin',
    workspace: false,
    params: adminRequests.accountParams,
    handler: async ({ app, params }) => {
      const key = params.email.trim().toLowerCase();
      const removed = await app.store.transact(PLATFORM_WS, async (tx) => {
        const a = await tx.get<Doc>(P.accounts, key);
        if (!a) throw notFound('account not found');
        await tx.remove(P.accounts, key);
        const t = await tx.get<Doc>(P.tenants, String(a.tenantId));
        if (t && t.owner === key) await tx.patch(P.tenants, String(a.tenantId), { owner: null });
        return { email: key, tenantId: a.tenantId };
      });
      await logActivity(app, { by: 'admin', role: 'admin', action: 'account_delete', tenantId: String(removed.tenantId), detail: key });
      return { removed };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/config',
    response: adminResponses.config,
    auth: 'admin',
    workspace: false,
    handler: async ({ app }) => ({ ...(await readSiteConfig(app)), defaults: SITE_DEFAULTS }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/admin/config',
    response: adminResponses.saveConfig,
    auth: 'admin',
    workspace: false,
    body: adminRequests.config,
    handler: async ({ app, body }) => {
      const raw = body.config && typeof body.config === 'object' && !Array.isArray(body.config) ? (body.config as Doc) : body;
      const patch = cleanConfigPatch(raw);
      const out = await writeSiteConfig(app, patch, 'admin');
      await logActivity(app, { by: 'admin', role: 'admin', action: 'config_update', detail: Object.keys(patch).join(',') });
      return out;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/subadmins',
    response: adminResponses.subadmins,
    auth: 'admin',
    workspace: false,
    handler: async ({ app }) => ({
      subadmins: (await app.store.list(PLATFORM_WS, P.subadmins)).map(publicSub),
      tenants: (await listTenants(app)).map((t) => ({ id: t.id, name: t.name })),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/subadmin',
    response: adminResponses.createSubadmin,
    auth: 'admin',
    workspace: false,
    body: subBody,
    handler: async ({ app, body }) => {
      if (!body.email) throw badRequest('email required', { message: 'メールアドレスを入力してください' });
      const password = body.password ?? randomPassword();
      const pwHash = await hashPassword(password);
      const sub = await app.store.transact(PLATFORM_WS, async (tx) => {
        if (await emailTaken(tx, body.email as string)) throw conflict('email already exists', { message: 'このメールアドレスは登録済みです' });
        const id = randomKey('sa-', 4);
        return tx.put(P.subadmins, id, {
          id, name: body.name || (body.email as string).split('@')[0], email: body.email, tenants: body.tenants ?? [],
          perms: { canDelete: body.canDelete ?? false }, active: body.active ?? true, created: Date.now(), pwHash, tokenVersion: 1,
        });
      });
      await logActivity(app, { by: 'admin', role: 'admin', action: 'subadmin_create', detail: String(sub.email) });
      return { subadmin: publicSub(sub), password };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/subadmin/:id',
    response: adminResponses.subadmin,
    auth: 'admin',
    workspace: false,
    params: idParams,
    body: subBody,
    handler: async ({ app, params, body }) => {
      const pwHash = body.password ? await hashPassword(body.password) : null;
      const sub = await app.store.transact(PLATFORM_WS, async (tx) => {
        const cur = await tx.get<Doc>(P.subadmins, params.id);
        if (!cur) throw notFound('subadmin not found');
        if (body.email && (await emailTaken(tx, body.email, params.id))) throw conflict('email already exists');
        const patch: Doc = {};
        if (body.name) patch.name = body.name;
        if (body.email) patch.email = body.email;
        if (body.tenants) patch.tenants = body.tenants;
        if (body.canDelete !== undefined) patch.perms = { ...((cur.perms as Doc) ?? {}), canDelete: body.canDelete };
        if (body.active !== undefined) patch.active = body.active;
        if (pwHash) Object.assign(patch, { pwHash, tokenVersion: (cur.tokenVersion as number) + 1 });
        return (await tx.patch(P.subadmins, params.id, patch)) as Doc;
      });
      await logActivity(app, { by: 'admin', role: 'admin', action: 'subadmin_update', detail: String(sub.email) });
      return { subadmin: publicSub(sub) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/subadmin/:id/delete',
    response: adminResponses.removeSubadmin,
    auth: 'admin',
    workspace: false,
    params: idParams,
    handler: async ({ app, params }) => {
      await app.store.transact(PLATFORM_WS, async (tx) => {
        if (!(await tx.remove(P.subadmins, params.id))) throw notFound('subadmin not found');
      });
      await logActivity(app, { by: 'admin', role: 'admin', action: 'subadmin_delete', detail: params.id });
      return {};
    },
  }),
];
