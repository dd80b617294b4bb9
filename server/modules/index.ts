import type { RouteDef } from '../http/define-route';
import { accountsRoutes } from './accounts';
import { commercialRoutes } from './commercial';
import { operationsRoutes } from './operations';
import { customerRoutes } from './customers/customers.routes';
import { deviceRoutes } from './devices/devices.routes';
import { healthRoutes } from './health/health.routes';
import { inquiryRoutes } from './inquiries/inquiries.routes';
import { jobRoutes } from './jobs/jobs.routes';
import { shipmentRoutes } from './shipments/shipments.routes';
import { ticketRoutes } from './tickets/tickets.routes';
import { syncRoutes } from '../sync/routes';

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
