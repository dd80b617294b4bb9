import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from '../../../shared/api/schemas';
import type { RouteDef } from '../../core/http/define-route';
import { allRoutes } from '../modules';
import { certRoutes } from '../modules/certs/certs.routes';
import { esgRoutes } from '../modules/esg/esg.routes';
import { forecastRoutes } from '../modules/forecast/forecast.routes';
import { healthRoutes } from '../modules/health/health.routes';
import { jobRoutes } from '../modules/jobs/jobs.routes';
import { labelRoutes } from '../modules/labels/labels.routes';
import { networkRoutes } from '../modules/network/network.routes';
import { onboardingRoutes } from '../modules/onboarding/onboarding.routes';
import { replaceRoutes } from '../modules/replace/replace.routes';
import { shiftRoutes } from '../modules/shifts/shifts.routes';
import { staffRoutes } from '../modules/shifts/staff.routes';
import { shipmentRoutes } from '../modules/shipments/shipments.routes';
import { surveyRoutes } from '../modules/survey/survey.routes';
import { workdeskRoutes } from '../modules/workdesk/workdesk.routes';
import { syncRoutes } from '../sync/routes';

/**
 * Modules whose routes still declare request schemas of their own (not yet in shared/api/contracts).
 * Converting a module removes it from this list; every other route must take its body, query and
 * params schemas from the contracts, the same objects the renderer's client reads its request types from.
 */
const NOT_CONVERTED: Record<string, readonly RouteDef[]> = {
  health: healthRoutes,
  jobs: jobRoutes,
  shipments: shipmentRoutes,
  sync: syncRoutes,
  certs: certRoutes,
  labels: labelRoutes,
  shifts: [...shiftRoutes, ...staffRoutes],
  forecast: forecastRoutes,
  network: networkRoutes,
  survey: surveyRoutes,
  onboarding: onboardingRoutes,
  replace: replaceRoutes,
  workdesk: workdeskRoutes,
  esg: esgRoutes,
};

/** Every zod schema the contracts export, directly or inside an exported object (`deviceRequests.create`). */
function exportedSchemas(): Set<z.ZodType> {
  const found = new Set<z.ZodType>();
  const walk = (v: unknown, depth: number) => {
    if (v instanceof z.ZodType) found.add(v);
    else if (v && typeof v === 'object' && depth < 3) for (const inner of Object.values(v)) walk(inner, depth + 1);
  };
  for (const v of Object.values(contracts)) walk(v, 0);
  return found;
}

const shared = exportedSchemas();
const key = (r: RouteDef) => `${r.method.toUpperCase()} ${r.path}`;

/** The request schemas of a route that are not exported from shared/api/contracts. */
function ownSchemas(r: RouteDef): string[] {
  const parts = { body: r.body, query: r.query, params: r.params };
  return Object.entries(parts)
    .filter(([, schema]) => schema !== undefined && !shared.has(schema))
    .map(([part]) => `${key(r)} ${part}`);
}

describe('request contracts', () => {
  it('finds the contracts the converted routes use', () => {
    expect(shared.size).toBeGreaterThan(50);
  });

  it('every route outside the not-yet-converted modules takes its body, query and params schemas from shared/api/contracts', () => {
    const pending = new Set(Object.values(NOT_CONVERTED).flat());
    const own = allRoutes.filter((r) => !pending.has(r)).flatMap(ownSchemas);
    expect(own).toEqual([]);
  });

  it('lists only modules that still have a request schema of their own (a converted module leaves the list)', () => {
    const mounted = new Set(allRoutes);
    const done = Object.entries(NOT_CONVERTED)
      .filter(([, routes]) => routes.every((r) => ownSchemas(r).length === 0))
      .map(([name]) => name);
    expect(done).toEqual([]);
    const unmounted = Object.entries(NOT_CONVERTED).filter(([, routes]) => routes.some((r) => !mounted.has(r)));
    expect(unmounted.map(([name]) => name)).toEqual([]);
  });
});
