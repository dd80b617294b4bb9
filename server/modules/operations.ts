import type { RouteDef } from '../http/define-route';
import type { SeedSpec } from '../store/seed';
import { certRoutes } from './certs/certs.routes';
import { labelRoutes } from './labels/labels.routes';

/** Routes of the operations domains (one folder each under server/modules/), mounted by modules/index.ts. */
export const operationsRoutes: RouteDef[] = [...certRoutes, ...labelRoutes];

/** Demo data files these domains load into every new workspace. */
export const operationsSeeds: SeedSpec[] = [{ file: 'settings.json', coll: 'settings' }];
