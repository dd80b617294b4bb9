import type { RouteDef } from '../http/define-route';
import { benchSyncRoutes } from './bench.routes';
import { centralSyncRoutes } from './central.routes';

/** Every sync route (mounted by server/modules/index.ts). */
export const syncRoutes: RouteDef[] = [...benchSyncRoutes, ...centralSyncRoutes];
