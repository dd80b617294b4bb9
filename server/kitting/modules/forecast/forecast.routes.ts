import { defineRoute } from '../../http/define-route';
import { CAPACITY_LOAD } from '../capacity/capacity.service';
import { forecastRequests, forecastResponses } from '../../../../shared/api/contracts/workspace';
import { FORECAST, PREFS_ID, FORECAST_CONSTANTS, weeklyLoad, prefsOf, prefRules } from './forecast.service';

export const forecastRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/forecast',
    response: forecastResponses.view,
    auth: 'mgmt:view',
    handler: async ({ app, ws }) => ({
      weekly: weeklyLoad(await app.store.list(ws, CAPACITY_LOAD)),
      constants: FORECAST_CONSTANTS,
      prefs: prefsOf(await app.store.get(ws, FORECAST, PREFS_ID)),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/forecast/prefs',
    response: forecastResponses.prefs,
    auth: 'mgmt:edit',
    body: forecastRequests.prefs,
    handler: async ({ app, ws, body }) => {
      const horizon = prefRules.horizon(body.horizon);
      const sim = prefRules.sim(body.sim);
      const prefs = await app.store.transact(ws, async (tx) => {
        const current = prefsOf(await tx.get(FORECAST, PREFS_ID));
        const next = { horizon: horizon ?? current.horizon, sim: sim ?? current.sim };
        await tx.put(FORECAST, PREFS_ID, { id: PREFS_ID, ...next });
        return next;
      });
      return { prefs };
    },
  }),
];
