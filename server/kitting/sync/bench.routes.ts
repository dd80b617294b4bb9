import { defineRoute, type RouteDef } from '../http/define-route';
import { conflict, unavailable } from '../../core/errors';
import { describe } from './protocol';
import { benchOf, mapSyncErrors } from './endpoints';
import { syncRequests, syncResponses } from '../../../shared/api/contracts/sync';

const { enrol: enrolRequest } = syncRequests;

/** Bench: sync status for the UI, a manual cycle, and enrolment from the settings screen. */
export const benchSyncRoutes: RouteDef[] = [
  defineRoute({
    method: 'get',
    path: '/api/sync/status',
    response: syncResponses.status,
    auth: 'public',
    workspace: false,
    handler: async ({ app }) => {
      const bench = app.sync?.bench;
      if (!bench) {
        return { mode: app.mode, enrolled: false, central: null, pending: 0, lastPush: null, lastPull: null, lastError: null, leases: [] };
      }
      return { mode: app.mode, ...(await bench.status()) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/sync/now',
    response: syncResponses.now,
    auth: 'local',
    workspace: false,
    handler: async ({ app }) => {
      const bench = benchOf(app);
      await bench.load();
      if (!bench.enrolled) throw conflict('not_enrolled', { message: 'この作業台はまだ中央サーバーに登録されていません' });
      try {
        await bench.cycle();
      } catch (err) {
        throw unavailable('sync_failed', { message: `同期できませんでした: ${describe(err)}`, ...(await bench.status()) });
      }
      return { ...(await bench.status()) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/sync/enrol',
    response: syncResponses.enrol,
    auth: 'local',
    workspace: false,
    body: enrolRequest,
    handler: async ({ app, body }) => {
      const bench = benchOf(app);
      await bench.load();
      if (bench.enrolled) throw conflict('already_enrolled', { message: 'この作業台は登録済みです' });
      await mapSyncErrors(() => bench.enrol(body.central, body.code, body.name));
      await bench.cycle().catch(() => undefined);
      return { ...(await bench.status()) };
    },
  }),
];
