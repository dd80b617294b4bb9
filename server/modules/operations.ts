import type { RouteDef } from '../http/define-route';
import type { SeedSpec } from '../store/seed';
import { certRoutes } from './certs/certs.routes';
import { labelRoutes } from './labels/labels.routes';
import { shiftRoutes } from './shifts/shifts.routes';
import { staffRoutes } from './shifts/staff.routes';

/** Routes of the operations domains (one folder each under server/modules/), mounted by modules/index.ts. */
export const operationsRoutes: RouteDef[] = [...certRoutes, ...labelRoutes, ...shiftRoutes, ...staffRoutes];

/** Demo data files these domains load into every new workspace. */
export const operationsSeeds: SeedSpec[] = [
  { file: 'settings.json', coll: 'settings' },
  { file: 'shifts.json', coll: 'shifts' },
];
