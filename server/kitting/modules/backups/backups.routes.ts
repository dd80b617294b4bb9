import { clip } from '../../../../shared/fields';
import { hitLimit } from '../../security/limits';
import { defineRoute } from '../../http/define-route';
import { notFound, unauthorized } from '../../../core/errors';
import { safeEqual } from '../../../core/security/passwords';
import { P, PLATFORM_WS, requireCentral } from '../platform-collections';
import { logActivity } from '../../security/activity';
import { publicAccount } from '../accounts/accounts.service';
import { operatorName, operatorRole, publicSub, scopedTenant } from '../subadmin/scope';
import { backupMeta, restoreBackup, takeBackup, tenantBackups } from './backups.service';
import { tenantToolRequests, tenantToolResponses } from '../../../../shared/api/contracts/admin';

const { params: tParams } = tenantToolRequests;

export const backupRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/backups/:tenantId',
    response: tenantToolResponses.backups,
    auth: 'subadmin',
    workspace: false,
    params: tParams,
    handler: async ({ app, req, params }) => {
      await scopedTenant(app, req, params.tenantId);
      return { backups: await tenantBackups(app, params.tenantId) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/backup/:tenantId',
    response: tenantToolResponses.backup,
    auth: 'subadmin',
    workspace: false,
    params: tParams,
    body: tenantToolRequests.backup,
    handler: async ({ app, req, params, body }) => {
      const { op, tenant } = await scopedTenant(app, req, params.tenantId);
      const reason = typeof body.reason === 'string' && body.reason.trim() ? clip(body.reason.trim(), 120) : '手動バックアップ';
      const backup = await takeBackup(app, params.tenantId, operatorName(op), reason);
      await logActivity(app, { by: operatorName(op), role: operatorRole(op), action: 'backup', tenantId: params.tenantId, tenantName: String(tenant.name), detail: reason, subId: op.kind === 'subadmin' ? op.id : undefined });
      return { backup };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/restore/:tenantId/:backupId',
    response: tenantToolResponses.restore,
    auth: 'subadmin:canDelete',
    workspace: false,
    params: tenantToolRequests.restoreParams,
    handler: async ({ app, req, params }) => {
      const { op, tenant: cur } = await scopedTenant(app, req, params.tenantId);
      const b = await app.store.get(PLATFORM_WS, P.backups, params.backupId);
      if (!b || b.tenantId !== params.tenantId) throw notFound('backup not found');
      await takeBackup(app, params.tenantId, operatorName(op), '復元前の自動バックアップ');
      const tenant = await restoreBackup(app, params.tenantId, params.backupId);
      await logActivity(app, { by: operatorName(op), role: operatorRole(op), action: 'restore', tenantId: params.tenantId, tenantName: String(cur.name), detail: params.backupId, subId: op.kind === 'subadmin' ? op.id : undefined });
      return { tenant };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/export/state',
    response: tenantToolResponses.exportState,
    auth: 'token',
    workspace: false,
    handler: async ({ app, req }) => {
      requireCentral(app);
      await hitLimit(app, 'heavy', req.ip);
      const given = typeof req.query.token === 'string' ? req.query.token : req.get('x-backup-token') ?? '';
      const expected = app.config.backupToken;
      if (!expected || !given || !safeEqual(given, expected)) throw unauthorized('unauthorized');
      const list = (coll: string) => app.store.list(PLATFORM_WS, coll);
      const [tenants, sites, backups, accounts, subadmins, notes, activity] = await Promise.all([
        list(P.tenants), list(P.sites), list(P.backups), list(P.accounts), list(P.subadmins), list(P.notes), list(P.activity),
      ]);
      return {
        exportedAt: Date.now(),
        space: { mode: app.mode, node: app.store.node },
        tenants, sites, backups: backups.map(backupMeta), accounts: accounts.map(publicAccount), subadmins: subadmins.map(publicSub),
        notes, activity,
        counts: { tenants: tenants.length, sites: sites.length, backups: backups.length, accounts: accounts.length, subadmins: subadmins.length, notes: notes.length },
      };
    },
  }),
];
