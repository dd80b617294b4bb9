import { randomInt } from 'node:crypto';
import { defineRoute } from '../../http/define-route';
import { badRequest, forbidden, notFound, unauthorized } from '../../../core/errors';
import { hitLimit } from '../../security/limits';
import { burnPasswordCheck, hashPassword, PLATFORM_PASSWORD_MIN, needsRehash, safeEqual, verifyPassword } from '../../../core/security/passwords';
import { rehash } from '../../security/rehash';
import { P, PLATFORM_WS, requireCentral } from '../platform-collections';
import { randomKey } from '../../../core/ids';
import { logActivity } from '../../security/activity';
import { mintToken } from '../../security/tokens';
import { indexSite } from '../sites/site-index';
import type { Doc } from '../../store/types';
import { signInFailed, signInGate, signInOk } from '../accounts/accounts.service';
import { sendMail } from '../accounts/mail';
import { assistLink, clientLink, origin, tenantView, withCounts } from '../admin/tenants.service';
import { takeBackup, tenantBackups } from '../backups/backups.service';
import { portalByNameOrId, portalReader, revokePortalLinks } from '../portal/portal.service';
import type { AppContext } from '../../context';
import { CORE_FIELDS, DELETE_TTL, inScope, operator, type Operator, operatorName, operatorRole, publicSub, scopedTenant, scopedTenants, SUBADMINS_BY_EMAIL } from './scope';
import { subadminRequests, subadminResponses } from '../../../../shared/api/contracts/admin';

const { params: idParams } = subadminRequests;

const act = (op: ReturnType<typeof operator>, action: string, tenant: Doc | null, detail = '') => ({
  by: operatorName(op), role: operatorRole(op), action, tenantId: tenant ? String(tenant.id) : '', tenantName: tenant ? String(tenant.name) : '', detail,
  subId: op.kind === 'subadmin' ? op.id : undefined,
});

/** The sub-admin an assist link is minted for (re-checked on every assist request); none for the platform admin. */
async function assistOperator(app: AppContext, op: Operator): Promise<{ id: string; v: unknown } | undefined> {
  if (op.kind !== 'subadmin') return undefined;
  const sub = await app.store.get<Doc>(PLATFORM_WS, P.subadmins, op.id);
  return { id: op.id, v: sub?.tokenVersion };
}

export const subadminRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/subadmin/login',
    response: subadminResponses.login,
    auth: 'public',
    workspace: false,
    body: subadminRequests.login,
    handler: async ({ app, req, body }) => {
      requireCentral(app);
      await hitLimit(app, 'signIn', req.ip);
      const email = (body.email ?? '').trim().toLowerCase();
      const key = `sub:${email}`;
      const cfg = await signInGate(app, req, key);
      const [sub] = email ? await app.store.find<Doc>(PLATFORM_WS, SUBADMINS_BY_EMAIL.coll, SUBADMINS_BY_EMAIL.field, email) : [];
      const password = body.password ?? '';
      if (!sub) {
        await burnPasswordCheck(password);
        return signInFailed(app, req, key, cfg, 'invalid credentials');
      }
      if (sub.active === false || !(await verifyPassword(password, sub.pwHash))) return signInFailed(app, req, key, cfg, 'invalid credentials');
      await signInOk(app, req, key);
      if (needsRehash(sub.pwHash)) await rehash(app, P.subadmins, String(sub.id), password);
      await logActivity(app, { by: email, role: 'subadmin', action: 'subadmin_login', subId: String(sub.id), detail: req.ip ?? '' });
      return { token: mintToken(app.secret, 'subadmin', { sub: sub.id, v: sub.tokenVersion }), sub: publicSub(sub) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/subadmin/me',
    response: subadminResponses.me,
    auth: 'subadmin',
    workspace: false,
    handler: async ({ app, req }) => {
      const op = operator(req);
      const tenants = await Promise.all((await scopedTenants(app, op)).map((t) => withCounts(app, t)));
      const ids = new Set(tenants.map((t) => t.id));
      const sites = (await app.store.list(PLATFORM_WS, P.sites)).filter((s) => ids.has(s.tenant));
      const sub = op.kind === 'subadmin' ? publicSub((await app.store.get<Doc>(PLATFORM_WS, P.subadmins, op.id)) ?? {}) : { id: 'admin', name: 'admin', tenants: [], perms: { canDelete: true } };
      const stats = {
        tenants: tenants.length,
        devices: tenants.reduce((s, t) => s + Number(t.devices ?? 0), 0),
        clients: tenants.reduce((s, t) => s + (Array.isArray(t.clients) ? t.clients.length : 0), 0),
        sites: sites.length,
      };
      return { sub, tenants, stats, origin: origin(req) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/subadmin/tenant/:id',
    response: subadminResponses.tenant,
    auth: 'subadmin',
    workspace: false,
    params: idParams,
    handler: async ({ app, req, params }) => {
      const { op } = await scopedTenant(app, req, params.id);
      const view = await tenantView(app, req, params.id);
      return { ...view, backups: await tenantBackups(app, params.id), perms: { canDelete: op.kind === 'admin' || op.canDelete } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/subadmin/tenant/:id',
    response: subadminResponses.saveTenant,
    auth: 'subadmin',
    workspace: false,
    params: idParams,
    body: subadminRequests.patchTenant,
    handler: async ({ app, req, params, body }) => {
      const { op } = await scopedTenant(app, req, params.id);
      const blocked = CORE_FIELDS.filter((k) => body[k] !== undefined);
      if (blocked.length) throw forbidden('forbidden', { fields: blocked, message: 'この項目は管理者のみ変更できます' });
      const patch: Doc = {};
      if (body.email !== undefined) {
        if (typeof body.email !== 'string' || body.email.length > 120) throw badRequest('invalid email', { message: 'メールアドレスは120文字以内です' });
        patch.email = body.email.trim();
      }
      const tenant = await app.store.transact(PLATFORM_WS, (tx) => tx.patch(P.tenants, params.id, patch));
      await logActivity(app, act(op, 'tenant_update', tenant, 'email'));
      return { tenant };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/subadmin/tenant/:id/client',
    response: subadminResponses.client,
    auth: 'subadmin',
    workspace: false,
    params: idParams,
    body: subadminRequests.client,
    handler: async ({ app, req, params, body }) => {
      const { op, tenant } = await scopedTenant(app, req, params.id);
      const client = body.client?.trim();
      if (!client) throw badRequest('client required', { message: '顧客名を入力してください' });
      const url = await clientLink(app, params.id, client);
      await logActivity(app, act(op, 'portal_link', tenant, client));
      return { url };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/subadmin/impersonate/:id',
    response: subadminResponses.impersonate,
    auth: 'subadmin',
    workspace: false,
    params: idParams,
    handler: async ({ app, req, params }) => {
      const { op, tenant } = await scopedTenant(app, req, params.id);
      const link = await assistLink(app, params.id, `subadmin:${operatorName(op)}`, await assistOperator(app, op));
      await logActivity(app, act(op, 'impersonate', tenant));
      return { url: `${link.url}&by=subadmin` };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/subadmin/workspace/:tid/impersonate',
    response: subadminResponses.assist,
    auth: 'subadmin',
    workspace: false,
    params: subadminRequests.workspaceParams,
    handler: async ({ app, req, params }) => {
      const { op, tenant } = await scopedTenant(app, req, params.tid);
      const link = await assistLink(app, params.tid, `subadmin:${operatorName(op)}`, await assistOperator(app, op));
      await logActivity(app, act(op, 'impersonate', tenant));
      return { url: `${link.url}&by=subadmin`, expiresAt: link.expiresAt };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/subadmin/delete-request',
    response: subadminResponses.deleteRequest,
    auth: 'subadmin',
    workspace: false,
    body: subadminRequests.deleteRequest,
    handler: async ({ app, req, body }) => {
      if (!body.tenantId) throw badRequest('tenantId required');
      const { op, tenant } = await scopedTenant(app, req, body.tenantId);
      if (op.kind === 'subadmin' && !op.canDelete) throw forbidden('canDelete required', { message: '削除権限がありません' });
      const targetType = body.targetType ?? 'client';
      const targetId = targetType === 'tenant' ? body.tenantId : (body.targetId ?? '').trim();
      if (!targetId) throw badRequest('targetId required');
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const id = randomKey('dr-', 4);
      const sentTo = [operatorName(op)];
      await app.store.transact(PLATFORM_WS, (tx) =>
        tx.put(P.deleteRequests, id, { id, tenantId: body.tenantId, tenantName: tenant.name, targetType, targetId, code, by: operatorName(op), ts: Date.now(), expiresAt: Date.now() + DELETE_TTL, attempts: 0 }),
      );
      if (op.kind === 'subadmin') await sendMail(app, { to: op.email, subject: '削除確認コード', text: `削除確認コード: ${code}（10分間有効）` });
      await logActivity(app, act(op, 'delete_request', tenant, `${targetType}:${targetId}`));
      return { requestId: id, sentTo, expiresInMin: 10, ...(app.config.production ? {} : { demoCode: code }) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/subadmin/delete-confirm',
    response: subadminResponses.deleteConfirm,
    auth: 'subadmin',
    workspace: false,
    body: subadminRequests.deleteConfirm,
    handler: async ({ app, req, body }) => {
      const op = operator(req);
      const r = body.requestId ? await app.store.get<Doc>(PLATFORM_WS, P.deleteRequests, body.requestId) : null;
      if (!r || (r.expiresAt as number) < Date.now() || r.by !== operatorName(op) || (r.attempts as number) >= 5) throw notFound('request not found', { message: '削除リクエストが見つからないか、期限切れです' });
      const tenantId = String(r.tenantId);
      const { tenant } = await scopedTenant(app, req, tenantId);
      if (op.kind === 'subadmin' && !op.canDelete) throw forbidden('canDelete required');
      if (!body.code || !safeEqual(body.code.trim(), String(r.code))) {
        await app.store.transact(PLATFORM_WS, (tx) => tx.patch(P.deleteRequests, String(r.id), { attempts: (r.attempts as number) + 1 }));
        throw unauthorized('invalid code', { message: '確認コードが違います' });
      }
      // Single use, then an automatic backup, then the scoped delete.
      await app.store.transact(PLATFORM_WS, (tx) => tx.remove(P.deleteRequests, String(r.id)));
      await takeBackup(app, tenantId, operatorName(op), '削除前の自動バックアップ');
      const targetType = String(r.targetType);
      const targetId = String(r.targetId);
      if (targetType === 'client') {
        const p = await portalByNameOrId(portalReader(app, tenantId), targetId);
        if (p) await revokePortalLinks(app, tenantId, String(p.id));
        await app.store.transact(PLATFORM_WS, (tx) => tx.patch(P.tenants, tenantId, { clients: ((tenant.clients as string[]) ?? []).filter((c) => c !== targetId) }));
      } else if (targetType === 'site') {
        await app.store.transact(PLATFORM_WS, async (tx) => {
          const s = await tx.get<Doc>(P.sites, targetId);
          if (s && s.tenant === tenantId) {
            await tx.remove(P.sites, targetId);
            await indexSite(tx, tenantId, null, targetId);
          }
        });
      } else {
        await app.store.transact(PLATFORM_WS, (tx) => tx.remove(P.tenants, tenantId));
      }
      await logActivity(app, act(op, 'delete', tenant, `${targetType}:${targetId}`));
      return { targetType };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/subadmin/activity',
    response: subadminResponses.activity,
    auth: 'subadmin',
    workspace: false,
    handler: async ({ app, req }) => {
      const op = operator(req);
      const all = await app.store.list(PLATFORM_WS, P.activity, { reverse: true });
      const mine = all.filter((a) => (op.kind === 'subadmin' && a.subId === op.id) || (a.tenantId && inScope(op, String(a.tenantId))));
      return { activity: mine.slice(0, 150) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/subadmin/backups-all',
    response: subadminResponses.backups,
    auth: 'subadmin',
    workspace: false,
    handler: async ({ app, req }) => {
      const op = operator(req);
      const all = await app.store.list(PLATFORM_WS, P.backups, { reverse: true });
      return { log: all.filter((b) => inScope(op, String(b.tenantId))).slice(0, 120).map(({ snapshot: _s, ...m }) => m) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/subadmin/password',
    response: subadminResponses.password,
    auth: 'subadmin',
    workspace: false,
    body: subadminRequests.password,
    handler: async ({ app, req, body }) => {
      const op = operator(req);
      if (op.kind !== 'subadmin') throw forbidden();
      if (!body.next || body.next.length < PLATFORM_PASSWORD_MIN) throw badRequest('password too short', { message: `新しいパスワードは${PLATFORM_PASSWORD_MIN}文字以上です` });
      const sub = await app.store.get<Doc>(PLATFORM_WS, P.subadmins, op.id);
      if (!sub || !(await verifyPassword(body.current ?? '', sub.pwHash))) throw unauthorized('wrong password', { message: '現在のパスワードが違います' });
      const pwHash = await hashPassword(body.next);
      // Like an account password change, every earlier sub-admin token (a leaked one included) dies.
      await app.store.transact(PLATFORM_WS, (tx) => tx.patch(P.subadmins, op.id, { pwHash, tokenVersion: ((sub.tokenVersion as number) ?? 1) + 1 }));
      await logActivity(app, act(op, 'password_change', null));
      return {};
    },
  }),
];

