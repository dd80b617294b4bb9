import type { RouteDef } from '../http/define-route';
import type { CountedCollection } from '../store/count-guard';
import type { CollectionSchema } from '../http/collection-schema';
import { platformRoutes } from './platform';
import { commercialRoutes } from './commercial';
import { operationsRoutes } from './operations';
import { customerRoutes, customerSchema } from './customers/customers.routes';
import { customersPlanCounted } from './customers/customers.service';
import { deviceRoutes, deviceSchema } from './devices/devices.routes';
import { devicesPlanCounted } from './devices/devices.service';
import { inboundRoutes } from './inbound/inbound.routes';
import { alertSchema, healthRoutes, opsBoardSchema } from './health/health.routes';
import { certSchema } from './certs/certs.routes';
import { labelLogSchema, labelTemplateSchema } from './labels/labels.routes';
import { openApiRoutes } from './health/openapi.routes';
import { inquiryRoutes, inquirySchema } from './inquiries/inquiries.routes';
import { jobRoutes, jobSchema } from './jobs/jobs.routes';
import { staffSchema } from './shifts/staff.routes';
import { shipmentRoutes, shipmentSchema } from './shipments/shipments.routes';
import { ticketMessageSchema, ticketRoutes, ticketSchema } from './tickets/tickets.routes';
import { syncRoutes } from '../sync/routes';
import { teamPlanCounted, teamSchema } from './team/team.service';
import { invoiceSchema } from './invoices/invoices.routes';
import { portalSchema, portalStatsSchema } from './portal/portal.routes';
import { daasSchemas } from './daas/daas.schema';
import { storeSchemas } from './store-orders/store-orders.schema';
import { tradeinSchemas } from './tradein/tradein.schema';
import { formSchemas } from './public-forms/forms.schema';
import { shiftSchemas } from './shifts/shifts.schema';
import { replaceSchema } from './replace/replace.schema';
import { onboardingSchemas } from './onboarding/onboarding.schema';
import { settingsSchema } from './settings/settings.routes';
import { dockReservationSchema } from './dock/dock.routes';
import { capacityConfigSchema, capacityLoadSchema } from './capacity/capacity.routes';
import { quoteDraftSchema, quoteSchema } from './quotes/quotes.routes';
import { surveyResponseSchema, surveySchema } from './survey/survey.service';
import { workdeskDocSchema, workdeskSchema, workdeskThreadSchema } from './workdesk/workdesk.routes';
import { reportSchema } from './reports/reports.service';
import { forecastSchema } from './forecast/forecast.service';
import { esgSchema } from './esg/esg.service';
import { auditLogSchema, capaSchema, complianceSchema, custodySchema } from './compliance/compliance.schema';
import { centerSchema, networkDealSchema, networkSchema } from './network/network.service';
import { integrationsSchema, syncLogSchema } from './integrations/integrations.service';
import { inboundSchemas } from './inbound/inbound.service';

/** Every route of the API, mounted explicitly in this order (no folder scanning). */
export const allRoutes: RouteDef[] = [
  ...healthRoutes,
  ...deviceRoutes,
  // Scanning against an inbound list runs as often as a device registration: matched as early.
  ...inboundRoutes,
  ...jobRoutes,
  ...shipmentRoutes,
  ...inquiryRoutes,
  ...ticketRoutes,
  ...customerRoutes,
  ...commercialRoutes,
  ...operationsRoutes,
  ...platformRoutes,
  ...syncRoutes,
  ...openApiRoutes(() => allRoutes),
];

/** Collections whose records count against a central tenant's plan (checked in each write's transaction). */
export const planCounted: readonly CountedCollection[] = [devicesPlanCounted, customersPlanCounted, teamPlanCounted];

/**
 * Collections whose records have one declared schema, shared by their write routes and the check of
 * sync pushes (a pushed field must be one the routes would store exactly as given).
 */
export const collectionSchemas: readonly CollectionSchema[] = [
  deviceSchema, jobSchema, shipmentSchema, inquirySchema, ticketSchema, ticketMessageSchema, customerSchema, staffSchema, teamSchema,
  invoiceSchema, portalSchema, settingsSchema, quoteSchema, quoteDraftSchema,
  dockReservationSchema, capacityLoadSchema, capacityConfigSchema,
  surveySchema, surveyResponseSchema, workdeskSchema, workdeskDocSchema, workdeskThreadSchema, reportSchema, forecastSchema, esgSchema,
  complianceSchema, capaSchema, auditLogSchema, custodySchema, centerSchema, networkSchema, networkDealSchema, integrationsSchema, syncLogSchema,
  ...daasSchemas, ...storeSchemas, ...tradeinSchemas, portalStatsSchema, ...formSchemas,
  alertSchema, opsBoardSchema, certSchema, labelTemplateSchema, labelLogSchema,
  ...shiftSchemas, replaceSchema, ...onboardingSchemas, ...inboundSchemas,
];
