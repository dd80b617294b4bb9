import type { RouteDef } from '../../core/http/define-route';
import type { CountedCollection } from '../../core/store/count-guard';
import { accountsRoutes } from './accounts';
import { commercialRoutes } from './commercial';
import { operationsRoutes } from './operations';
import { customerRoutes, customersPlanCounted } from './customers/customers.routes';
import { deviceRoutes } from './devices/devices.routes';
import { devicesPlanCounted } from './devices/devices.service';
import { healthRoutes } from './health/health.routes';
import { inquiryRoutes } from './inquiries/inquiries.routes';
import { jobRoutes } from './jobs/jobs.routes';
import { shipmentRoutes } from './shipments/shipments.routes';
import { ticketRoutes } from './tickets/tickets.routes';
import { syncRoutes } from '../sync/routes';
import { teamPlanCounted } from './team/team.service';

/** Every route of the API, mounted explicitly in this order (no folder scanning). */
export const allRoutes: RouteDef[] = [
  ...healthRoutes,
  ...deviceRoutes,
  ...jobRoutes,
  ...shipmentRoutes,
  ...inquiryRoutes,
  ...ticketRoutes,
  ...customerRoutes,
  ...commercialRoutes,
  ...operationsRoutes,
  ...accountsRoutes,
  ...syncRoutes,
];

/** Collections whose records count against a central tenant's plan (checked in each write's transaction). */
export const planCounted: readonly CountedCollection[] = [devicesPlanCounted, customersPlanCounted, teamPlanCounted];
