import type { RouteDef } from '../http/define-route';
import type { SeedSpec } from '../store/seed';

/** Routes of the accounts domains (one folder each under server/modules/), mounted by modules/index.ts. */
export const accountsRoutes: RouteDef[] = [];

/** Demo data files these domains load into every new workspace. */
export const accountsSeeds: SeedSpec[] = [];
