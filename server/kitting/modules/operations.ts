import type { RouteDef } from '../http/define-route';
import type { SeedSpec } from '../store/seed';
import { capacityRoutes } from './capacity/capacity.routes';
import { certRoutes } from './certs/certs.routes';
import { certPublicRoutes } from './certs/cert-public.routes';
import { complianceReportRoutes } from './compliance/compliance-report.routes';
import { complianceRoutes } from './compliance/compliance.routes';
import { AUDIT_LOG, CAPA, COMPLIANCE } from './compliance/compliance.service';
import { networkRoutes } from './network/network.routes';
import { onboardingRoutes } from './onboarding/onboarding.routes';
import { replaceRoutes } from './replace/replace.routes';
import { settingsRoutes } from './settings/settings.routes';
import { dockRoutes } from './dock/dock.routes';
import { esgRoutes } from './esg/esg.routes';
import { ESG } from './esg/esg.service';
import { forecastRoutes } from './forecast/forecast.routes';
import { integrationRoutes } from './integrations/integrations.routes';
import { labelRoutes } from './labels/labels.routes';
import { shiftRoutes } from './shifts/shifts.routes';
import { staffRoutes } from './shifts/staff.routes';
import { surveyRoutes } from './survey/survey.routes';
import { workdeskRoutes } from './workdesk/workdesk.routes';

/** Routes of the operations domains (one folder each under server/kitting/modules/), mounted by modules/index.ts. */
export const operationsRoutes: RouteDef[] = [
  ...certRoutes, ...certPublicRoutes, ...labelRoutes, ...shiftRoutes, ...staffRoutes, ...settingsRoutes, ...complianceRoutes, ...complianceReportRoutes,
  ...integrationRoutes,
  ...capacityRoutes,
  ...forecastRoutes,
  ...networkRoutes,
  ...surveyRoutes,
  ...onboardingRoutes,
  ...dockRoutes,
  ...replaceRoutes,
  ...workdeskRoutes,
  ...esgRoutes,
];

/** Demo data files these domains load into every new workspace. */
export const operationsSeeds: SeedSpec[] = [
  { file: 'settings.json', coll: 'settings' },
  { file: 'shifts.json', coll: 'shifts' },
  { file: 'compliance.json', coll: COMPLIANCE },
  { file: 'capa.json', coll: CAPA },
  { file: 'esg.json', coll: ESG },
  { file: 'audit-log.json', coll: AUDIT_LOG },
];
