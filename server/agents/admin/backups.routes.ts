import type { AgentsContext } from '../context';
import { route, type AgentRoute } from '../http';
import { audit } from './guard';
import { BACKUP_MEDIA, backupPath, createBackup, listBackups, sendBackup } from './backups';
import { backupsResponses } from '../../../shared/api/contracts/agents-admin';
import { backupsRequests } from '../../../shared/api/contracts/agents-admin-requests';

/** Database snapshots for operators (SQLite file or PostgreSQL export): take one, list them, download one by name. */
export function backupRoutes(ctx: AgentsContext): AgentRoute[] {
  const admin = { auth: 'operator' as const };
  const media = Object.values(BACKUP_MEDIA);
  return [
    route({
      ...admin,
      method: 'get',
      path: '/api/admin/backup', produces: media,
      handler: async ({ caller, res }) => {
        const b = await createBackup(ctx);
        await audit(ctx, caller, 'backup.download', 'backup', b.name);
        await sendBackup(res, backupPath(ctx, b.name), b.name);
        return undefined;
      },
    }),
    route({ ...admin, method: 'get', path: '/api/backups', response: backupsResponses['GET /api/backups'], handler: () => ({ backups: listBackups(ctx) }) }),
    route({
      ...admin,
      method: 'post',
      path: '/api/backups', response: backupsResponses['POST /api/backups'],
      handler: async ({ caller }) => {
        const backup = await createBackup(ctx);
        await audit(ctx, caller, 'backup.create', 'backup', backup.name, { size: backup.size });
        return { backup };
      },
    }),
    route({
      ...admin,
      method: 'get',
      path: '/api/backups/download/:name', produces: media,
      params: backupsRequests['GET /api/backups/download/:name'].params,
      handler: async ({ caller, params, res }) => {
        const file = backupPath(ctx, params.name);
        await audit(ctx, caller, 'backup.download', 'backup', params.name);
        await sendBackup(res, file, params.name);
        return undefined;
      },
    }),
  ];
}
